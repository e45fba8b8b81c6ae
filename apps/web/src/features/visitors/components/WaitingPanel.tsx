/**
 * The waiting screen (spec §2 WaitingValidation): 'En attente de la confirmation de
 * l'hôte...' until the host decides — it asks the server every few seconds and
 * changes by itself — then the visitor card. Staff who may decide get Valider /
 * Annuler; once confirmed, signed-in staff get Menu and Capture, an anonymous
 * visitor the spec's e-mail sentence.
 */
import { type ReactElement, useRef, useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation, withFrenchWords } from '../../../lib/i18n';
import { Link, useNavigate } from 'react-router';
import { TEXT_MAX, mayPerform, type RequestRow, type RequestStatus } from '@sesame/shared';
import { DetailRows } from '../../../components/DetailRows';
import { IdentityDocument } from '../../../components/visitor-form/IdentityDocument';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { withZone } from '../../../lib/zone-label';
import { useConfirmRequest, useDeclineRequest, useRequestStatus } from '../api/visitors';
import { failureText, statusText } from '../lib/outcome';
import { CaptureButton, meetingCaptureName } from './CaptureButton';
import { VisitorCardView } from './VisitorCardView';
import { NotFoundPage } from '../../../components/NotFoundPage';
import hostLoopWords from '../../../locales/fr/hostLoop.json';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ hostLoop: hostLoopWords });

export function WaitingPanel({ domain, id }: { domain: string; id: string }) {
  const { t } = useTranslation('visitors');
  const navigate = useNavigate();
  const { role, isAuthenticated } = useAuth();
  const status = useRequestStatus(id);
  const confirm = useConfirmRequest(id);
  const decline = useDeclineRequest(id);
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState('');
  const cardRef = useRef<HTMLDivElement>(null);

  if (status.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common:loading')} />
      </Center>
    );
  }
  if (status.isError) {
    const code = status.error instanceof ApiError ? status.error.status : 0;
    return (
      <Alert color="red" role="alert">
        {code ? statusText(t, code) : t('outcome.unexpected')}
      </Alert>
    );
  }

  const data = status.data;
  // The request of another company's URL is not found there (as its meeting card).
  if (data.recap.company_slug.toLowerCase() !== domain.toLowerCase()) return <NotFoundPage />;
  const mayDecide = !!role && mayPerform(role, 'requests.validate') && !!data.request;

  const validate = async () => {
    try {
      const result = await confirm.mutateAsync();
      notifications.show({ color: 'teal', message: result.message });
      await status.refetch();
    } catch (error) {
      const { title, message } = failureText(t, error);
      notifications.show({ color: 'red', title, message });
    }
  };

  // Annuler (issue 15): the request is declined and the visitor hears it by mail.
  const refuse = async () => {
    try {
      const result = await decline.mutateAsync(reason.trim());
      notifications.show({ color: 'teal', message: result.message });
      void navigate(`/${domain}/list-qrcode`);
    } catch (error) {
      const { title, message } = failureText(t, error);
      notifications.show({ color: 'red', title, message });
      await status.refetch();
    }
  };

  if (data.state === 'confirmed' && data.card) {
    const card = data.card;
    return (
      <Stack align="center" gap="md">
        <VisitorCardView ref={cardRef} card={card} />
        {isAuthenticated ? (
          <Group>
            <Button component={Link} to={`/${domain}/menu`} variant="default">
              {t('waiting.menu')}
            </Button>
            <CaptureButton
              target={cardRef}
              filename={meetingCaptureName(card.company.slug, card.uidn)}
            />
          </Group>
        ) : (
          <Alert color="teal" role="status" maw={420} w="100%" data-testid="mail-sent">
            {t('waiting.mailSent')}
          </Alert>
        )}
      </Stack>
    );
  }

  // Staff of the request's company get its row; the page then speaks to them (issue 27).
  const staff = !!data.request;
  if (data.state === 'declined') {
    return <DeclinedPanel domain={domain} reason={data.decline_reason} staff={staff} />;
  }

  // The visitor's recap after sending (issue 15): what they asked for, and what comes next.
  if (!isAuthenticated) return <RecapPanel recap={data.recap} />;

  return (
    <Paper withBorder radius="md" p="lg" maw={520} mx="auto">
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" role="status" aria-live="polite">
          <Loader size="sm" aria-hidden="true" />
          <Title order={2} size="h4" data-testid="waiting-text">
            {t(staff ? 'waiting.staffPending' : 'waiting.pending')}
          </Title>
        </Group>
        {!isAuthenticated && (
          <Text size="sm" c="dimmed">
            {t('waiting.autoRefresh')}
          </Text>
        )}
        {data.request && <RequestSummary request={data.request} />}
        {mayDecide && !declining && (
          <Group>
            <Button onClick={() => void validate()} loading={confirm.isPending}>
              {t('waiting.validate')}
            </Button>
            <Button variant="default" onClick={() => setDeclining(true)}>
              {t('waiting.cancel')}
            </Button>
          </Group>
        )}
        {mayDecide && declining && (
          <Stack gap="sm" data-testid="decline-form">
            <Textarea
              label={t('waiting.declineReason')}
              description={t('waiting.declineHint')}
              value={reason}
              maxLength={TEXT_MAX.freeText}
              autosize
              minRows={2}
              onChange={(event) => setReason(event.currentTarget.value)}
            />
            <Group>
              <Button color="red" onClick={() => void refuse()} loading={decline.isPending}>
                {t('waiting.declineConfirm')}
              </Button>
              <Button variant="default" onClick={() => setDeclining(false)}>
                {t('waiting.declineBack')}
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

function RequestSummary({ request }: { request: RequestRow }) {
  const { t, i18n } = useTranslation('visitors');
  const { role } = useAuth();
  const v = request.visitor;
  // A host with an account (issue 15): a link to the user for those who may edit users.
  const host =
    request.host_user && role && mayPerform(role, 'users.update') ? (
      <Anchor
        component={Link}
        to={`/${request.company.slug}/edit-user/${request.host_user.id}`}
        size="sm"
        fw={500}
      >
        {request.host_user.name}
      </Anchor>
    ) : (
      (request.host_user?.name ?? request.host)
    );
  const rows: [string, ReactElement | string | null][] = [
    [t('card.name'), `${v.firstname} ${v.lastname}`],
    [t('card.organisation'), v.organisation_name],
    [t('form.fields.email'), v.email],
    [t('form.fields.contact'), v.contact],
    [t('form.fields.host'), host],
    [t('form.fields.reason'), request.reason],
    // The site of the visit (issue 28); its time says its zone when not the reader's.
    [t('form.fields.site_id'), request.site?.name ?? null],
    [
      t('card.date'),
      withZone(
        [request.request_date, request.request_time].filter(Boolean).join(' '),
        request.site?.timezone,
        i18n.language,
      ),
    ],
  ];
  return (
    <Group align="flex-start" gap="lg" wrap="wrap" data-testid="request-summary">
      <Stack gap={4}>
        {rows
          .filter(([, value]) => value)
          .map(([label, value]) => (
            <Group key={label} gap="xs" wrap="nowrap">
              <Text size="sm" c="dimmed" miw={110}>
                {label}
              </Text>
              <Text size="sm" fw={500} component="div">
                {value}
              </Text>
            </Group>
          ))}
      </Stack>
      <IdentityDocument
        src={v.request_image}
        type={v.request_image_type}
        name={`${v.firstname} ${v.lastname}`}
      />
    </Group>
  );
}

/**
 * A declined request: the visitor reads that it was not accepted and may ask again; staff of
 * the company read what happened and go back to the list (issue 27). The reason, when given.
 */
function DeclinedPanel({
  domain,
  reason,
  staff,
}: {
  domain: string;
  reason: string | null;
  staff: boolean;
}) {
  const { t } = useTranslation(['hostLoop', 'visitors']);
  const words = staff
    ? {
        title: 'visitors:waiting.staffDeclinedTitle',
        text: 'visitors:waiting.staffDeclined',
        action: 'visitors:waiting.backToList',
        to: `/${domain}/list-qrcode`,
      }
    : {
        title: 'declined.title',
        text: 'declined.text',
        action: 'declined.again',
        to: `/${domain}/request-meeting`,
      };
  return (
    <Alert
      color="yellow"
      role="status"
      title={t(words.title)}
      maw={520}
      mx="auto"
      data-testid="request-declined"
    >
      <Stack gap="sm">
        <Text size="sm">{t(words.text)}</Text>
        {reason && <Text size="sm">{t('declined.reason', { reason })}</Text>}
        <Button component={Link} to={words.to} variant="default" w="fit-content">
          {t(words.action)}
        </Button>
      </Stack>
    </Alert>
  );
}

/**
 * The site of the visit (issue 28), when it says more than the company: a company of one
 * site has it named after itself (its first site took its name), and shows no such row.
 */
function siteOfRecap(recap: RequestStatus['recap']): string | null {
  return recap.site.name === recap.company ? null : recap.site.name;
}

function RecapPanel({ recap }: { recap: RequestStatus['recap'] }) {
  const { t, i18n } = useTranslation('hostLoop');
  const rows: [string, string | null][] = [
    [t('recap.company'), recap.company],
    // The site of the visit (issue 28).
    [t('visitors:form.fields.site_id'), siteOfRecap(recap)],
    [t('recap.name'), `${recap.firstname} ${recap.lastname}`],
    [t('recap.organisation'), recap.organisation_name],
    [t('recap.date'), recap.request_date],
    [
      t('recap.time'),
      recap.request_time && withZone(recap.request_time, recap.site.timezone, i18n.language),
    ],
    [t('recap.host'), recap.host],
    [t('recap.reason'), recap.reason],
  ];
  return (
    <Paper withBorder radius="md" p="lg" maw={520} mx="auto" data-testid="request-recap">
      <Stack gap="md">
        <Title order={2} size="h4">
          {t('recap.title')}
        </Title>
        <Text size="sm">{t('recap.mailSent')}</Text>
        <DetailRows rows={rows} />
        <Group gap="sm" wrap="nowrap" role="status" aria-live="polite">
          <Loader size="xs" aria-hidden="true" />
          <Text size="sm" data-testid="waiting-text">
            {t('recap.waiting')}
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          {t('recap.keepPage')}
        </Text>
      </Stack>
    </Paper>
  );
}
