/**
 * The invited visitor's page (`/{domain}/invitation?token=…`, issue 30), opened from their
 * invitation mail on a phone: their visit (company, host, site with its address and map,
 * days and time in the site's zone, their code), the details the site asks before arrival,
 * and on a day of the visit "Je suis arrivé(e)", which tells the host — no door opens, the
 * front desk still scans the code. `&here=1` (the mail's button) brings that button into
 * view with the focus. Shown first in the invitation's language; the navbar's FR/EN switch
 * changes it. No staff session: the signed link is the visitor's key.
 * Issue 31: the details step asks what the visit's type requires (the ID number, the identity
 * document, the organisation, the phone) and has the type's documents still to sign signed
 * (the signing step, loaded only then), sent as `signatures`.
 */
import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Center,
  Container,
  Group,
  List,
  Loader,
  Paper,
  Stack,
  Text,
  TextInput,
  type TextInputProps,
  Title,
} from '@mantine/core';
import { useSearchParams } from 'react-router';
import {
  type InvitationLinkView,
  type SignatureInput,
  type VisitorTypeField,
} from '@sesame/shared';
import { CompanyLogo } from '../../../components/CompanyLogo';
import { PageTitle } from '../../../components/PageTitle';
import { DocumentsToSign } from '../../../components/signing/DocumentsToSign';
import { signaturesField } from '../../../components/signing/signatures';
import {
  ID_FILE_MO,
  IdentityDocumentField,
} from '../../../components/visitor-form/IdentityDocumentField';
import { PrivacyNotice } from '../../../components/visitor-form/PrivacyNotice';
import { ApiError } from '../../../lib/api-client';
import { useTranslation, withFrenchWords } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { formatDayWords } from '../../../lib/format';
import { withZone } from '../../../lib/zone-label';
import { useArrived, useCompleteDetails, useInvitation } from '../api/invitation';
import invitationWords from '../../../locales/fr/invitation.json';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ invitation: invitationWords });

/**
 * A public form: its schema (and zod) comes as the visitor types, at the latest on submit.
 * Issue 31: the schema of the visit's type, whose required fields come with the input
 * (`type_fields`, which the schema does not keep).
 */
const loadDetailsSchema = () =>
  import('../details-schema').then((m) => {
    const schemas = new Map<string, ReturnType<typeof m.invitationDetailsSchemaFor>>();
    return {
      safeParse: (input: unknown) => {
        const fields = (input as { type_fields?: readonly VisitorTypeField[] }).type_fields;
        const key = fields ? fields.join(',') : '*';
        let schema = schemas.get(key);
        if (!schema) schemas.set(key, (schema = m.invitationDetailsSchemaFor(fields)));
        return schema.safeParse(input);
      },
    };
  });

/** A visit without a type asks these (shared's INVITATION_DETAILS_DEFAULT_FIELDS, without zod). */
const DEFAULT_DETAILS_FIELDS: readonly VisitorTypeField[] = ['id_number', 'id_document'];

const locale = (language: string) => (language.startsWith('en') ? 'en-GB' : 'fr-FR');

/** '2030-03-04' or '04/03/2030' → 'lundi 4 mars 2030' in the reader's language. */
function longDay(day: string, language: string): string {
  const ddmmyyyy = day.includes('/') ? day : day.split('-').reverse().join('/');
  const words = formatDayWords(ddmmyyyy, language, { weekday: true });
  // Unreadable: the day as it came.
  return words === ddmmyyyy ? day : words;
}

/** What the invitation's steps (the visit, the arrival) are given. */
interface StepProps {
  token: string;
  visit: InvitationLinkView;
  wantsHere: boolean;
}

/** An instant's HH:MM in the site's zone. */
const clockIn = (iso: string, timeZone: string, language: string) =>
  new Intl.DateTimeFormat(locale(language), {
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
  }).format(new Date(iso));

export default function InvitationPage() {
  const { t, i18n } = useTranslation('invitation');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const wantsHere = params.get('here') === '1';
  const invitation = useInvitation(token, i18n.language);

  // The invitation's language first (the host chose it); the navbar's switch then rules.
  const languageSet = useRef(false);
  const data = invitation.data;
  useEffect(() => {
    if (!data || languageSet.current) return;
    languageSet.current = true;
    if (data.language !== i18n.language) void i18n.changeLanguage(data.language);
  }, [data, i18n]);

  let body;
  if (!token || invitation.isError) {
    const status = invitation.error instanceof ApiError ? invitation.error.status : 404;
    const linkRefused = !token || status === 404 || status === 410 || status === 400;
    body = (
      <Alert color="red" role="alert" data-testid="invitation-error">
        <Text fw={600}>{linkRefused ? t('link.invalid') : t('link.failed')}</Text>
        {linkRefused && <Text size="sm">{t('link.help')}</Text>}
      </Alert>
    );
  } else if (!data) {
    body = (
      <Center py="xl">
        <Loader aria-label={t('common:loading')} />
      </Center>
    );
  } else {
    body = <Visit token={token} visit={data} wantsHere={wantsHere} />;
  }

  return (
    <Container size="xs" px="sm" py={{ base: 'md', sm: 'xl' }}>
      {data ? (
        <Group gap="sm" wrap="nowrap" mb="sm">
          <CompanyLogo company={data.company} h={48} />
          <PageTitle mb={0}>{t('heading', { company: data.company.name })}</PageTitle>
        </Group>
      ) : (
        <PageTitle>{t('title')}</PageTitle>
      )}
      {body}
    </Container>
  );
}

function Visit({ token, visit, wantsHere }: StepProps) {
  const { t, i18n } = useTranslation('invitation');
  const language = i18n.language;
  const zone = visit.site.timezone;
  const standing = visit.days.filter((d) => !d.cancelled);
  const several = visit.days.length > 1;
  const rows: [string, React.ReactElement | string | null][] = [
    [t('visit.host'), visit.host],
    [t('visit.site'), visit.site.name],
    [
      t('visit.address'),
      visit.site.address ? (
        <Stack gap={2} align="flex-start">
          <Text size="sm">{visit.site.address}</Text>
          {visit.site.map_url && (
            <Anchor
              href={visit.site.map_url}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={t('visit.mapLabel', { site: visit.site.name })}
              data-testid="invitation-map"
            >
              {t('visit.map')}
            </Anchor>
          )}
        </Stack>
      ) : null,
    ],
    [
      several ? t('visit.days') : t('visit.date'),
      several ? (
        <List size="sm" spacing={2}>
          {visit.days.map((d) => (
            <List.Item key={d.day}>
              {d.cancelled
                ? t('visit.dayCancelled', { day: longDay(d.day, language) })
                : longDay(d.day, language)}
            </List.Item>
          ))}
        </List>
      ) : (
        longDay(visit.date, language)
      ),
    ],
    [
      t('visit.time'),
      withZone(t('visit.timeRange', { time: visit.time, end: visit.end_time }), zone, language),
    ],
    [t('visit.reason'), visit.reason],
  ];

  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p="md" component="section" aria-labelledby="invitation-visit">
        <Stack gap="sm">
          <Title order={2} size="h4" id="invitation-visit">
            {t('greeting', { name: visit.firstname })}
          </Title>
          {visit.cancelled && (
            <Alert color="red" role="status" data-testid="invitation-cancelled">
              {t('cancelled')}
            </Alert>
          )}
          <Stack component="dl" gap="xs" m={0}>
            {rows
              .filter(([, value]) => value !== null && value !== '')
              .map(([label, value]) => (
                <div key={label}>
                  <Text component="dt" size="sm" c="dimmed">
                    {label}
                  </Text>
                  <Box component="dd" m={0} fz="sm" fw={500}>
                    {value}
                  </Box>
                </div>
              ))}
          </Stack>
          {several && visit.next_day && standing.length > 1 && (
            <Text size="sm" fw={500}>
              {t('visit.next', { day: longDay(visit.next_day, language) })}
            </Text>
          )}
          {!visit.cancelled && (
            <div>
              <Text size="sm" c="dimmed">
                {t('visit.code')}
              </Text>
              <Text ff="monospace" fz="xl" fw={700} data-testid="invitation-code">
                {visit.code}
              </Text>
              <Text size="sm">{t('visit.codeHint')}</Text>
            </div>
          )}
        </Stack>
      </Paper>
      {!visit.cancelled && visit.today_is_visit_day && (
        <Arrival token={token} visit={visit} wantsHere={wantsHere} />
      )}
      {!visit.cancelled && <Details token={token} visit={visit} />}
    </Stack>
  );
}

function Arrival({ token, visit, wantsHere }: StepProps) {
  const { t, i18n } = useTranslation('invitation');
  const arrived = useArrived(token);
  const button = useRef<HTMLButtonElement>(null);
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!wantsHere) return;
    section.current?.scrollIntoView({ block: 'center' });
    button.current?.focus();
  }, [wantsHere]);
  // The server's answer is in the language it was asked in: another language drops it
  // (the page then says the arrival in its own words, from `here_at`).
  const { reset } = arrived;
  useEffect(() => reset(), [i18n.language, reset]);
  const answer = arrived.data?.message;
  const failure =
    arrived.error instanceof ApiError && arrived.error.serverMessage
      ? arrived.error.serverMessage
      : arrived.isError
        ? t('here.failed')
        : null;
  return (
    <Paper
      ref={section}
      withBorder
      radius="md"
      p="md"
      component="section"
      aria-labelledby="invitation-here"
      bg="teal.0"
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id="invitation-here">
          {t('here.title')}
        </Title>
        <Button
          ref={button}
          size="lg"
          color="teal.8"
          fullWidth
          loading={arrived.isPending}
          onClick={() => arrived.mutate()}
          data-testid="invitation-here"
        >
          {t('here.button')}
        </Button>
        {/* In the page before its words change, so a screen reader says them. */}
        <div role="status" aria-live="polite" data-testid="invitation-here-answer">
          {answer ? (
            <Text fw={600} c="teal.9">
              {answer}
            </Text>
          ) : visit.here_at ? (
            <Text size="sm">
              {t('here.already', {
                time: clockIn(visit.here_at, visit.site.timezone, i18n.language),
              })}
            </Text>
          ) : null}
        </div>
        {failure && (
          <Text role="alert" c="red.8" fw={500}>
            {failure}
          </Text>
        )}
        <Text size="sm">{t('here.note')}</Text>
      </Stack>
    </Paper>
  );
}

interface DetailsValues {
  id_number: string;
  organisation: string;
  contact: string;
  request_image: File | null;
  privacy_accepted: boolean;
}

const NO_DETAILS: DetailsValues = {
  id_number: '',
  organisation: '',
  contact: '',
  request_image: null,
  privacy_accepted: false,
};

function Details({ token, visit }: { token: string; visit: InvitationLinkView }) {
  const { t, i18n } = useTranslation('invitation');
  const complete = useCompleteDetails(token);
  // The server's thanks, in the language they were asked in: another language drops them.
  const [thanks, setThanks] = useState<{ text: string; language: string } | null>(null);
  const saved = thanks?.language === i18n.language ? thanks.text : null;
  // Issue 31: the type's fields (a visit without a type: the ID number and its document).
  const fields: readonly VisitorTypeField[] =
    visit.visitor_type?.required_fields ?? DEFAULT_DETAILS_FIELDS;
  const asks = (field: VisitorTypeField) => fields.includes(field);
  const documents = visit.to_sign;
  const [signatures, setSignatures] = useState<SignatureInput[] | null>(null);
  const { form, submit, summary, setSummary, validateField } = useSchemaForm(loadDetailsSchema, {
    ns: 'invitation',
    keys: { errors: 'details.errors', fields: 'details.fields' },
    initialValues: NO_DETAILS,
    toInput: (values) => ({
      ...values,
      request_image: values.request_image ?? undefined,
      signatures: signatures ?? [],
      type_fields: fields,
    }),
    check: () => ({
      signatures: documents.length && !signatures ? t('details.errors.toSign') : undefined,
    }),
    onSubmit: async (data, values) => {
      const body = new FormData();
      if (asks('id_number') || data.id_number) body.set('id_number', data.id_number);
      if (asks('organisation') || data.organisation) body.set('organisation', data.organisation);
      if (asks('phone') || data.contact) body.set('contact', data.contact);
      if (values.request_image) body.set('request_image', values.request_image);
      const signed = signaturesField(signatures ?? []);
      if (signed) body.set('signatures', signed);
      body.set('privacy_accepted', 'true');
      setThanks(null);
      try {
        const answer = await complete.mutateAsync(body);
        setThanks({ text: answer.message, language: i18n.language });
        form.setValues(NO_DETAILS);
        setSignatures(null);
      } catch (error) {
        if (error instanceof ApiError) {
          // A refused document (413, 415) or field: said under its field.
          if (error.status === 413 || error.status === 415) {
            return error.serverMessage ? { request_image: error.serverMessage } : undefined;
          }
          if (error.errors && Object.keys(error.errors).length > 0) return error.errors;
          setSummary(error.serverMessage ?? t('details.failed'));
          return;
        }
        setSummary(t('details.failed'));
      }
    },
  });
  const values = form.values;
  /** A detail the visit's type asks, under its own name. */
  const detail = (
    field: 'id_number' | 'organisation' | 'contact',
    extra: Partial<TextInputProps> = {},
  ) => (
    <TextInput
      label={t(`details.fields.${field}`)}
      {...form.getInputProps(field)}
      name={field}
      {...extra}
      required
    />
  );
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="invitation-details">
      <form onSubmit={form.submitting ? (e) => e.preventDefault() : submit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h4" id="invitation-details">
            {t('details.title')}
          </Title>
          <Text size="sm">{visit.details_completed ? t('details.done') : t('details.intro')}</Text>
          <div role="status" aria-live="polite">
            {saved && (
              <Alert color="teal" data-testid="invitation-details-saved">
                {saved}
              </Alert>
            )}
          </div>
          {asks('id_number') && detail('id_number')}
          {asks('organisation') && detail('organisation', { autoComplete: 'organization' })}
          {asks('phone') &&
            detail('contact', { type: 'tel', inputMode: 'tel', autoComplete: 'tel' })}
          {asks('id_document') && (
            <IdentityDocumentField
              schemaForm={{ form, validateField }}
              label={t('details.fields.request_image')}
              description={t('details.fileHint', { mo: ID_FILE_MO })}
              placeholder={t('details.filePlaceholder')}
              clearLabel={t('details.clearFile')}
              required
            />
          )}
          {documents.length > 0 && (
            <Stack gap="sm" data-path="signatures">
              <Title order={3} size="h5">
                {t('details.signingTitle')}
              </Title>
              <DocumentsToSign
                resetKey={documents.map((d) => `${d.document_id}:${d.version}`).join(',')}
                documents={documents}
                name={`${visit.firstname} ${visit.lastname}`.trim()}
                loadingLabel={t('common:loading')}
                form={form}
                onSigned={setSignatures}
              />
            </Stack>
          )}
          <PrivacyNotice
            companySlug={visit.company.slug}
            checked={values.privacy_accepted}
            error={form.errors.privacy_accepted}
            onChange={(checked) => form.setFieldValue('privacy_accepted', checked)}
          />
          {summary && (
            <Text role="alert" c="red.8" fw={500} data-testid="invitation-details-error">
              {summary}
            </Text>
          )}
          <Button type="submit" size="md" fullWidth loading={form.submitting}>
            {t('details.submit')}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
