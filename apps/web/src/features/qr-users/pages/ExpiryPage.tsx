/**
 * Expiry update (spec §2, §4, §5, §8): read-only first name, last name and
 * email, a required expiration date and Update. PUT /api/qruser/{id} sends
 * { dateExp }. A 200 (and a 401) go back to the attendance list after the
 * delay; an unknown user shows 'QR User not found.' and nothing is sent.
 */
import { useState } from 'react';
import { Button, Container, Grid, Paper, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from '../../../lib/i18n';
import { useParams } from 'react-router';
import { expiryFormSchema, type QrUserCard } from '@sesame/shared';
import { FeedbackAlert, type Feedback } from '../../../components/FeedbackAlert';
import { PageTitle } from '../../../components/PageTitle';
import { QueryState } from '../../../components/QueryState';
import { ApiError } from '../../../lib/api-client';
import { statusSentence } from '../../../lib/failure';
import { endSession } from '../../../lib/session';
import { useDelayedNavigate } from '../../../lib/use-delayed-navigate';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useQrUser, useUpdateExpiry } from '../api/qr-users';
import { DayInput } from '../components/DayInput';
import { formatDay } from '../lib/names';

const STATUSES = [400, 401, 403, 404, 500];

export default function ExpiryPage() {
  const { t } = useTranslation('qrUsers');
  const { id = '' } = useParams();
  const query = useQrUser(id);

  const loadFailure = (error: unknown) => {
    const status = error instanceof ApiError ? error.status : 0;
    if (status === 404 || status === 400) return t('expiry.notFound');
    return status === 0
      ? t('expiry.status.500')
      : statusSentence(t, 'expiry.status', STATUSES, status);
  };

  return (
    <Container size="sm" py="lg">
      <PageTitle>{t('expiry.title')}</PageTitle>
      <QueryState query={query} loadingLabel={t('expiry.loading')} errorText={loadFailure}>
        {(card) => <ExpiryForm card={card} />}
      </QueryState>
    </Container>
  );
}

function ExpiryForm({ card }: { card: QrUserCard }) {
  const { t, i18n } = useTranslation('qrUsers');
  const { domain = '' } = useParams();
  const update = useUpdateExpiry(card.id);
  const navigateLater = useDelayedNavigate();
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const done = feedback?.color === 'teal';
  const backToAttendance = () => navigateLater(`/${domain}/user-check-ins`);

  const { form, submit } = useSchemaForm(expiryFormSchema, {
    ns: 'qrUsers',
    initialValues: { dateExp: card.dateExp ?? '' },
    onSubmit: async ({ dateExp }) => {
      if (done) return;
      setFeedback(null);
      try {
        await update.mutateAsync(dateExp);
        const message = t('expiry.status.200');
        setFeedback({ color: 'teal', title: message });
        notifications.show({ color: 'teal', message });
        backToAttendance();
      } catch (error) {
        const status = error instanceof ApiError ? error.status : 0;
        const message =
          status === 0
            ? t('expiry.status.500')
            : statusSentence(t, 'expiry.status', STATUSES, status);
        setFeedback({ color: 'red', title: message });
        notifications.show({ color: 'red', message });
        if (status === 401) {
          endSession();
          backToAttendance();
        }
      }
    },
  });

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
      <form onSubmit={submit} noValidate>
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
                {...form.getInputProps('dateExp')}
                value={form.values.dateExp || null}
                onChange={(value) => form.setFieldValue('dateExp', value ? String(value) : '')}
                required
                clearable
                name="dateExp"
              />
            </Grid.Col>
          </Grid>
          <FeedbackAlert feedback={feedback} testId="expiry-feedback" />
          <Button type="submit" size="md" loading={update.isPending} disabled={done} fullWidth>
            {t('expiry.submit')}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
