/**
 * `/{domain}/invite` (issue 30): a host invites one visitor or several to a site of their
 * company — the meeting (site, day, times, reason, the mails' language, a weekly repetition),
 * then the visitors typed in or imported from a CSV (checked by the server first, its refused
 * lines listed, nothing created until it is right). Once sent, each visitor's code, and the way
 * to "Mes visiteurs". Opened by "Inviter à nouveau", the form comes filled with that visitor.
 */
import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Button,
  Container,
  Group,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import {
  INVITATION_LIMITS,
  invitationInputSchema,
  invitationScheduleSchema,
  invitedVisitSchema,
  megabytes,
  type InvitationCreate,
  type InvitationCsvError,
  type InvitationSchedule,
  type Site,
} from '@sesame/shared';
import type { Feedback } from '../../../components/FeedbackAlert';
import { FeedbackAlert } from '../../../components/FeedbackAlert';
import { SubmitSummary } from '../../../components/FormFrame';
import { PanelSection } from '../../../components/InlineForm';
import { PageTitle } from '../../../components/PageTitle';
import { QueryState } from '../../../components/QueryState';
import { usePhoneLayout } from '../../../components/ResponsiveRows';
import { ApiError, serverMessageOf } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { DEFAULT_TIMEZONE, todayIn } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useCompanySites } from '../../../lib/site';
import { useSchemaForm, type SafeParser } from '../../../lib/use-schema-form';
import {
  CsvRefused,
  createInvitation,
  importInvitations,
  invitationKeys,
  type ImportPreview,
  type InvitationAnswer,
} from '../api/invitations';
import { CsvImport } from '../components/CsvImport';
import { ScheduleFields } from '../components/ScheduleFields';
import { VisitorRows } from '../components/VisitorRows';
import {
  againValues,
  emptyVisitor,
  inviteInput,
  preselectedSite,
  scheduleFields,
  scheduleInput,
  scheduleProblems,
  scheduleValues,
  withDottedPaths,
  type InviteValues,
} from '../lib/invitations';
import '@mantine/core/styles/Table.css';

type Mode = 'typed' | 'csv';
type Parsed = InvitationCreate | InvitationSchedule;

const typedSchema: SafeParser<Parsed> = withDottedPaths<Parsed>(invitationInputSchema);
const csvSchema: SafeParser<Parsed> = withDottedPaths<Parsed>(invitationScheduleSchema);

export default function InvitePage() {
  const { t } = useTranslation('invitations');
  const { user } = useAuth();
  const location = useLocation();
  // Archived sites are left out by the server; a person limited to sites gets theirs.
  const sites = useCompanySites(user?.company_id);
  const again = invitedVisitSchema.safeParse((location.state as { again?: unknown } | null)?.again);

  return (
    <Container size="md">
      <PageTitle>{t('invite.title')}</PageTitle>
      <Text c="dimmed" size="sm" mb="md">
        {t('invite.intro')}
      </Text>
      <QueryState
        query={sites}
        errorText={(error) => serverMessageOf(error) ?? t('invite.sitesFailed')}
        isEmpty={(rows) => rows.filter((site) => !site.archived_at).length === 0}
        empty={t('invite.noSite')}
      >
        {(rows) => {
          const active = rows.filter((site) => !site.archived_at);
          return (
            <InviteForm
              // "Inviter à nouveau" from another row: a fresh form.
              key={again.success ? again.data.request_id : 'new'}
              sites={active}
              initial={
                again.success
                  ? againValues(again.data, active, user?.home_site_id)
                  : {
                      ...scheduleValues(preselectedSite(active, user?.home_site_id)),
                      visitors: [emptyVisitor()],
                    }
              }
            />
          );
        }}
      </QueryState>
    </Container>
  );
}

function InviteForm({ sites, initial }: { sites: Site[]; initial: InviteValues }) {
  const { t } = useTranslation('invitations');
  const { domain = '' } = useParams();
  const queryClient = useQueryClient();
  const phone = usePhoneLayout();
  const [mode, setMode] = useState<Mode>('typed');
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<{ data: ImportPreview; body: FormData } | null>(null);
  const [refused, setRefused] = useState<{ message: string; lines: InvitationCsvError[] } | null>(
    null,
  );
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [created, setCreated] = useState<InvitationAnswer | null>(null);
  const doneRef = useRef<HTMLHeadingElement>(null);
  const previewShown = useRef(false);

  const zoneOf = (siteId: string) =>
    sites.find((site) => site.id === siteId)?.timezone ??
    (sites.length === 1 ? sites[0]!.timezone : DEFAULT_TIMEZONE);

  const failed = (error: unknown): Record<string, string> | undefined => {
    const status = error instanceof ApiError ? error.status : 0;
    setFeedback({
      color: 'red',
      title:
        serverMessageOf(error) ??
        (status === 0 ? t('invite.failed') : t('invite.failedStatus', { status })),
    });
    return error instanceof ApiError ? error.errors : undefined;
  };

  const done = (answer: InvitationAnswer) => {
    setCreated(answer);
    notifications.show({ color: 'teal', message: answer.message });
    void queryClient.invalidateQueries({ queryKey: invitationKeys.all });
  };

  const { form, submit, summary, busy } = useSchemaForm<InviteValues, Parsed>(
    mode === 'csv' ? csvSchema : typedSchema,
    {
      ns: 'invitations',
      initialValues: initial,
      toInput: mode === 'csv' ? scheduleInput : inviteInput,
      check: (values) => {
        const problems = scheduleProblems(values, todayIn(zoneOf(values.site_id)));
        return {
          site_id: sites.length > 1 && !values.site_id ? t('form.errors.siteChoose') : undefined,
          date: problems.date && t(`form.errors.${problems.date}`),
          until: problems.until && t(`form.errors.${problems.until}`),
          file:
            mode !== 'csv'
              ? undefined
              : !file
                ? t('csv.fileRequired')
                : file.size > INVITATION_LIMITS.csvMaxBytes
                  ? t('csv.tooLarge', { mo: megabytes(INVITATION_LIMITS.csvMaxBytes) })
                  : undefined,
        };
      },
      onSubmit: async (data, values) => {
        setFeedback(null);
        setRefused(null);
        setPreview(null);
        if (mode === 'typed') {
          try {
            done(await createInvitation(data as InvitationCreate));
            return undefined;
          } catch (error) {
            return failed(error);
          }
        }
        const body = new FormData();
        for (const [key, value] of Object.entries(scheduleFields(values))) body.set(key, value);
        body.set('file', file!);
        try {
          const checked = await importInvitations(body, true);
          previewShown.current = false;
          setPreview({ data: checked, body });
          return undefined;
        } catch (error) {
          if (error instanceof CsvRefused) {
            setRefused({ message: error.message, lines: error.lines });
            return undefined;
          }
          return failed(error);
        }
      },
    },
  );

  const send = useMutation({
    mutationFn: (body: FormData) => importInvitations(body, false),
    onSuccess: done,
    onError: (error) => {
      if (error instanceof CsvRefused) {
        setPreview(null);
        setRefused({ message: error.message, lines: error.lines });
      } else {
        const errors = failed(error);
        if (errors) form.setErrors(errors);
      }
    },
  });

  // A checked file says what it holds, and the keyboard goes there; a change of the meeting
  // or of the file asks for a new check.
  useEffect(() => {
    if (!preview || previewShown.current) return;
    previewShown.current = true;
    document.getElementById('csv-preview-title')?.focus();
  }, [preview]);
  const values = form.values;
  const [checked, setChecked] = useState({ values, file });
  if (checked.values !== values || checked.file !== file) {
    setChecked({ values, file });
    if (!send.isPending) {
      setPreview(null);
      setRefused(null);
    }
  }

  useEffect(() => {
    if (created) doneRef.current?.focus();
  }, [created]);

  if (created) {
    return (
      <PanelSection titleId="invite-done-title" data-testid="invite-done">
        <Stack gap="md">
          <Title order={2} size="h3" id="invite-done-title" ref={doneRef} tabIndex={-1}>
            {t('done.title', { count: created.visitors.length })}
          </Title>
          <Text>{created.message}</Text>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('done.visitor')}</Table.Th>
                <Table.Th>{t('done.code')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {created.visitors.map((visitor) => (
                <Table.Tr key={visitor.request_id} data-testid="invite-done-row">
                  <Table.Td>{`${visitor.firstname} ${visitor.lastname}`.trim()}</Table.Td>
                  <Table.Td>
                    <Text component="span" ff="monospace" fw={600}>
                      {visitor.code}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Group>
            <Button component={Link} to={`/${domain}/my-visitors`}>
              {t('done.myVisitors')}
            </Button>
            <Button
              variant="default"
              onClick={() => {
                form.reset();
                form.setValues({ visitors: [emptyVisitor()] });
                setFile(null);
                setCreated(null);
              }}
            >
              {t('done.again')}
            </Button>
          </Group>
        </Stack>
      </PanelSection>
    );
  }

  const count = values.visitors.length;
  return (
    <form onSubmit={submit} noValidate aria-label={t('invite.title')}>
      <Stack gap="lg">
        <PanelSection titleId="invite-schedule-title">
          <Stack gap="md">
            <Title order={2} size="h4" id="invite-schedule-title">
              {t('invite.schedule')}
            </Title>
            <ScheduleFields form={form} sites={sites} idPrefix="invite" withType />
          </Stack>
        </PanelSection>

        <PanelSection titleId="invite-visitors-title">
          <Stack gap="md">
            <Title order={2} size="h4" id="invite-visitors-title">
              {t('invite.visitors')}
            </Title>
            <SegmentedControl
              value={mode}
              onChange={(next) => {
                setMode(next as Mode);
                setFeedback(null);
                form.clearErrors();
              }}
              data={[
                { value: 'typed', label: t('invite.typed') },
                { value: 'csv', label: t('invite.csv') },
              ]}
              aria-label={t('invite.how')}
              // Side by side the two choices need more than a phone's width.
              orientation={phone ? 'vertical' : 'horizontal'}
              fullWidth
              size="md"
            />
            {mode === 'typed' ? (
              <VisitorRows form={form} />
            ) : (
              <CsvImport
                file={file}
                onFile={(picked) => {
                  setFile(picked);
                  form.clearFieldError('file');
                }}
                fileError={form.errors.file}
                preview={preview?.data ?? null}
                refused={refused}
                sending={send.isPending}
                onSend={() => preview && send.mutate(preview.body)}
              />
            )}
          </Stack>
        </PanelSection>

        <SubmitSummary summary={summary} feedback={feedback} />
        <FeedbackAlert feedback={feedback} testId="invite-feedback" />
        {!(mode === 'csv' && preview) && (
          <Group>
            <Button type="submit" size="md" loading={busy} data-testid="invite-submit">
              {mode === 'csv' ? t('csv.check') : t('invite.submit', { count })}
            </Button>
          </Group>
        )}
        {mode === 'csv' && preview && (
          <Alert color="blue" variant="light">
            {t('csv.changeHint')}
          </Alert>
        )}
      </Stack>
    </form>
  );
}
