/**
 * A company's members (spec §2 Member list): row number, photo (or 'Aucune
 * Photo'), name (last name then first name), contact, email and QR code; a
 * click on the QR opens the badge (recto and verso) with its Capture. Paged and
 * searched on the server.
 */
import { useState } from 'react';
import { Container, Image, Modal, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { useParams } from 'react-router';
import { IMAGE_SIZES, type MemberListItem } from '@sesame/shared';
import { ImageModal } from '../../../components/ImageModal';
import { PageTitle } from '../../../components/PageTitle';
import { ServerTable, type Column } from '../../../components/ServerTable';
import { useCompany } from '../../../lib/company';
import { getCompanyMembers, qrUserKeys, type PageParams } from '../api/qr-users';
import { MemberBadge, type BadgeData } from '../components/MemberCard';
import { displayName } from '../lib/names';

function badgeOf(member: MemberListItem): BadgeData {
  return {
    uidn: member.uidn,
    firstname: member.firstname,
    lastname: member.lastname,
    title: member.title,
    contact: member.contact,
    photo: member.user_image,
    qrcode: member.code,
    company: member.company,
  };
}

export default function MemberListPage() {
  const { t } = useTranslation('qrUsers');
  const { slug = '' } = useParams();
  const company = useCompany(slug);
  const [badge, setBadge] = useState<MemberListItem | null>(null);
  const nameOf = (member: MemberListItem) => displayName(member) || member.uidn;

  const columns: Column<MemberListItem>[] = [
    { key: 'index', header: t('members.columns.index'), render: (_row, index) => index + 1 },
    {
      key: 'photo',
      header: t('members.columns.photo'),
      render: (row) =>
        row.user_image ? (
          <ImageModal
            src={row.user_image}
            alt={t('card.photoOf', { name: nameOf(row) })}
            size={IMAGE_SIZES.small}
          />
        ) : (
          <Text size="sm" c="dimmed">
            {t('card.noPhoto')}
          </Text>
        ),
    },
    {
      key: 'name',
      header: t('members.columns.name'),
      render: (row) => (
        <Text size="sm" fw={600}>
          {displayName(row)}
        </Text>
      ),
    },
    { key: 'contact', header: t('members.columns.contact'), render: (row) => row.contact ?? '' },
    { key: 'email', header: t('members.columns.email'), render: (row) => row.email ?? '' },
    {
      key: 'qrcode',
      header: t('members.columns.qrcode'),
      render: (row) => (
        <UnstyledButton
          onClick={() => setBadge(row)}
          aria-label={t('members.openBadge', { name: nameOf(row) })}
        >
          <Image src={row.code} alt="" w={IMAGE_SIZES.small} h={IMAGE_SIZES.small} />
        </UnstyledButton>
      ),
    },
  ];

  return (
    <Container size="xl" py="lg">
      <PageTitle>
        {t('members.title', { company: company.data?.name ?? badge?.company.name ?? slug })}
      </PageTitle>
      <ServerTable
        queryKey={qrUserKeys.members(slug)}
        fetchPage={(params: PageParams) => getCompanyMembers(slug, params)}
        columns={columns}
        rowKey={(row) => row.id}
        emptyMessage={t('members.empty')}
        errorMessage={t('members.failed')}
        searchable
      />
      <Modal
        opened={!!badge}
        onClose={() => setBadge(null)}
        title={badge ? t('members.badgeTitle', { name: nameOf(badge) }) : ''}
        size="auto"
        centered
        closeButtonProps={{ 'aria-label': t('members.close') }}
      >
        {badge && <MemberBadge data={badgeOf(badge)} domain={badge.company.slug} />}
      </Modal>
    </Container>
  );
}
