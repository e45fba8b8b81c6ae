/**
 * Expiry update (spec §2, §4, §5, §8): read-only first name, last name and
 * email, a required expiration date and Update. PUT /api/qruser/{id} sends
 * { dateExp }. A 200 (and a 401) go back to the attendance list after the
 * delay; an unknown user shows 'QR User not found.' and nothing is sent.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Center,
  Container,
  Grid,
  Loader,
  Paper,
  Stack,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { expiryFormSchema, QR_USER_MESSAGES, REDIRECT_DELAY_MS } from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { ApiError } from '../../../lib/api-client';
import { clearSession } from '../../../lib/session';
import { useQrUser, useUpdateExpiry } from '../api/qr-users';
import { DayInput } from '../components/DayInput';
import { formatDay } from '../lib/names';

const STATUSES = [400, 401, 403, 404, 500];

interface Feedback {
  color: 'teal' | 'red';
  message: string;
}

export default function ExpiryPage() {
  const { t, i18n } = useTranslation('qrUsers');
  const { domain = '', id = '' } = useParams();
  const navigate = useNavigate();
  const query = useQrUser(id);
  const update = useUpdateExpiry(id);
  // undefined: untouched, the card's current date shows.
  const [picked, setPicked] = useState<string | null | undefined>(undefined);
  const [dateError, setDateError] = useState<string | undefined>(undefined);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(redirect.current), []);

  const statusText = (status: number) =>
    STATUSES.includes(status) ? t(`expiry.status.${status}`) : t('expiry.status.other', { status });

  const backToAttendance = () => {
    redirect.current = setTimeout(
      () => void navigate(`/${domain}/user-check-ins`),
      REDIRECT_DELAY_MS,
    );
  };

  const card = query.data;
  const unknown =
    query.isError &&
    query.error instanceof ApiError &&
    (query.error.status === 404 || query.error.status === 400);
  const dateExp = picked === undefined ? (card?.dateExp ?? null) : picked;
  const done = feedback?.color === 'teal';

  const handleSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (update.isPending || done) return;
    if (!card) {
      // Spec §4: an unknown user skips the update.
      setFeedback({ color: 'red', message: t('expiry.notFound') });
      return;
    }
    const parsed = expiryFormSchema.safeParse({ dateExp: dateExp ?? '' });
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message;
      setDateError(
        message === QR_USER_MESSAGES.dateInvalid
          ? t('form.errors.dateInvalid')
          : t('form.errors.required', { label: t('fields.dateExp') }),
      );
      return;
    }
    setDateError(undefined);
    setFeedback(null);
    try {
      await update.mutateAsync(parsed.data.dateExp);
      const message = t('expiry.status.200');
      setFeedback({ color: 'teal', message });
      notifications.show({ color: 'teal', message });
      backToAttendance();
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      const message = status === 0 ? t('expiry.status.500') : statusText(status);
      setFeedback({ color: 'red', message });
      notifications.show({ color: 'red', message });
      if (status === 401) {
        clearSession();
        backToAttendance();
      }
    }
  };

  const content = () => {
    if (unknown) {
      return (
        <Alert color="red" role="alert">
          {t('expiry.notFound')}
        </Alert>
      );
    }
    if (query.isError) {
      const status = query.error instanceof ApiError ? query.error.status : 0;
      return (
        <Alert color="red" role="alert">
          {status === 0 ? t('expiry.status.500') : statusText(status)}
        </Alert>
      );
    }
    if (!card) {
      return (
        <Center py="xl">
          <Loader aria-label={t('expiry.loading')} />
        </Center>
      );
    }
    return (
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
        <form onSubmit={(e) => void handleSubmit(e)} noValidate>
          <Stack gap="md">
            <Grid gap="md">
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <TextInput label={t('fields.firstname')} value={card.firstname ?? ''} readOnly />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <TextInput label={t('fields.lastname')} value={card.lastname ?? ''} readOnly />
              </Grid.Col>
              <Grid.Col span={12}>
                <TextInput label={t('fields.email')} value={card.email ?? ''} readOnly />
              </Grid.Col>
              <Grid.Col span={12}>
                <DayInput
                  language={i18n.language}
                  label={t('fields.dateExp')}
                  description={
                    card.dateExp
                      ? t('expiry.current', { date: formatDay(card.dateExp, i18n.language) })
                      : t('card.noExpiry')
                  }
                  placeholder={t('form.datePlaceholder')}
                  value={dateExp}
                  onChange={(value) => {
                    setPicked(value ? String(value) : null);
                    setDateError(undefined);
                  }}
                  required
                  clearable
                  error={dateError}
                  name="dateExp"
                />
              </Grid.Col>
            </Grid>
            {feedback && (
              <Alert
                color={feedback.color}
                role={feedback.color === 'red' ? 'alert' : 'status'}
                data-testid="expiry-feedback"
              >
                {feedback.message}
              </Alert>
            )}
            <Button type="submit" size="md" loading={update.isPending} disabled={done} fullWidth>
              {t('expiry.submit')}
            </Button>
          </Stack>
        </form>
      </Paper>
    );
  };

  return (
    <Container size="sm" py="lg">
      <PageTitle>{t('expiry.title')}</PageTitle>
      {content()}
    </Container>
  );
}
