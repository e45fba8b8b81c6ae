/**
 * QR user list (spec §2): name, email, contact, image and QR code; a click opens
 * the details. Scope per spec §6 is the server's: admin all companies,
 * supervisor and ROLE_SESAME their own, other roles none.
 */
import { Anchor, Container, Image, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { Link, useLocation, useNavigate } from 'react-router';
import { IMAGE_SIZES, type QrUserCard } from '@sesame/shared';
import { ViewDocument } from '../../../components/ViewDocument';
import { PageTitle } from '../../../components/PageTitle';
import { cameFromHere } from '../../../lib/came-from';
import { ServerTable, type Column } from '../../../components/ServerTable';
import { getQrUsers, qrUserKeys } from '../api/qr-users';
import { displayName, formatDay } from '../lib/names';
import { detailsPath } from '../lib/paths';

export default function QrUserListPage() {
  const { t, i18n } = useTranslation('qrUsers');
  const navigate = useNavigate();
  // The details know this list (its page, its search): erasing the person there returns here
  // (issue 27).
  const here = cameFromHere(useLocation());
  const state = (row: QrUserCard) => ({ qrUser: row, ...here });
  const open = (row: QrUserCard) => void navigate(detailsPath(row.id), { state: state(row) });

  const columns: Column<QrUserCard>[] = [
    { key: 'index', header: t('list.columns.index'), render: (_row, index) => index + 1 },
    {
      key: 'name',
      header: t('list.columns.name'),
      render: (row) => (
        <Anchor component={Link} to={detailsPath(row.id)} state={state(row)} fw={600}>
          {displayName(row) || row.uidn}
        </Anchor>
      ),
    },
    { key: 'email', header: t('list.columns.email'), render: (row) => row.email ?? '' },
    { key: 'contact', header: t('list.columns.contact'), render: (row) => row.contact ?? '' },
    {
      key: 'image',
      header: t('list.columns.image'),
      // Opened on demand, never drawn: the list shows nobody's document (issue 27).
      render: (row) => (
        <ViewDocument
          src={row.user_document}
          type={row.user_document_type}
          name={displayName(row) || row.uidn}
          alt={displayName(row) || row.uidn}
        />
      ),
    },
    {
      key: 'qrcode',
      header: t('list.columns.qrcode'),
      render: (row) => (
        <UnstyledButton
          onClick={() => open(row)}
          aria-label={t('list.openDetails', { name: displayName(row) || row.uidn })}
        >
          <Image src={row.qrcode} alt="" w={IMAGE_SIZES.small} h={IMAGE_SIZES.small} />
        </UnstyledButton>
      ),
    },
    {
      key: 'expiry',
      header: t('list.columns.expiry'),
      render: (row) =>
        row.dateExp ? (
          <Text size="sm" c={row.expired ? 'red.8' : undefined} fw={row.expired ? 700 : undefined}>
            {t(row.expired ? 'card.expired' : 'card.expires', {
              date: formatDay(row.dateExp, i18n.language),
            })}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            {t('card.noExpiry')}
          </Text>
        ),
    },
  ];

  return (
    <Container size="xl" py="lg">
      <PageTitle>{t('list.title')}</PageTitle>
      <ServerTable
        queryKey={qrUserKeys.list()}
        fetchPage={getQrUsers}
        columns={columns}
        rowKey={(row) => row.id}
        emptyMessage={t('list.empty')}
        errorMessage={t('list.failed')}
        searchable
      />
    </Container>
  );
}
