/**
 * The host's confirmation page (`/company/{domain}/host-decision?token=…&choice=…`),
 * opened from the Valider / Annuler buttons of the host's mail (issue 15). Opening it
 * decides nothing (a mail scanner's preview is not a click): the host confirms the
 * choice here. A decision already taken, by them or someone else, is shown.
 */
import { useState } from 'react';
import { Alert, Button, Container, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import type { DecisionView } from '@sesame/shared';
import { useTranslation, withFrenchWords } from '../../../lib/i18n';
import { useSearchParams } from 'react-router';
import { DetailRows } from '../../../components/DetailRows';
import { PageTitle } from '../../../components/PageTitle';
import { QueryState } from '../../../components/QueryState';
import { ApiError } from '../../../lib/api-client';
import { useDecide, useDecision } from '../api/host-decision';
import hostLoopWords from '../../../locales/fr/hostLoop.json';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ hostLoop: hostLoopWords });

export default function HostDecisionPage() {
  const { t } = useTranslation('hostLoop');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [choice, setChoice] = useState<'confirm' | 'decline'>(
    params.get('choice') === 'decline' ? 'decline' : 'confirm',
  );
  const [reason, setReason] = useState('');
  const view = useDecision(token);
  const decide = useDecide(token);

  const linkError = (error: unknown) => {
    const status = error instanceof ApiError ? error.status : 0;
    return status === 410
      ? t('decision.expired')
      : status === 404 || status === 400 || !token
        ? t('decision.invalid')
        : t('decision.failed');
  };

  /** The request as the host's mail names it, and the decision asked or already taken. */
  const decision = (d: DecisionView) => {
    const visitor = `${d.visitor.firstname} ${d.visitor.lastname}`;
    const rows: [string, string | null][] = [
      [t('recap.date'), d.request_date],
      [t('recap.time'), d.request_time],
      [t('recap.reason'), d.reason],
      [t('recap.company'), d.company.name],
    ];
    const by = d.decided_by && !d.decided_by_you ? t('decision.by', { name: d.decided_by }) : '';
    return (
      <Paper withBorder radius="md" p="lg">
        <Stack gap="md">
          <Text fw={600}>
            {d.is_host || !d.host
              ? t('decision.intro', { visitor, organisation: d.visitor.organisation_name })
              : t('decision.introDesk', {
                  visitor,
                  organisation: d.visitor.organisation_name,
                  host: d.host,
                })}
          </Text>
          <DetailRows rows={rows} labelWidth={90} align="center" />
          {d.state === 'pending' ? (
            <Stack gap="sm">
              <Text fw={600}>
                {choice === 'confirm'
                  ? t('decision.confirmQuestion')
                  : t('decision.declineQuestion')}
              </Text>
              {choice === 'decline' && (
                <Textarea
                  label={t('decision.reasonLabel')}
                  value={reason}
                  maxLength={1000}
                  autosize
                  minRows={2}
                  onChange={(event) => setReason(event.currentTarget.value)}
                />
              )}
              {decide.isError && (
                <Alert color="red" role="alert">
                  {linkError(decide.error)}
                </Alert>
              )}
              <Group>
                <Button
                  color={choice === 'confirm' ? 'teal.9' : 'red.8'}
                  loading={decide.isPending}
                  onClick={() =>
                    decide.mutate(
                      choice === 'confirm'
                        ? { decision: 'confirm' }
                        : { decision: 'decline', reason },
                    )
                  }
                  data-testid="decision-submit"
                >
                  {choice === 'confirm' ? t('decision.confirm') : t('decision.decline')}
                </Button>
                <Button
                  variant="subtle"
                  onClick={() => setChoice(choice === 'confirm' ? 'decline' : 'confirm')}
                >
                  {choice === 'confirm'
                    ? t('decision.switchToDecline')
                    : t('decision.switchToConfirm')}
                </Button>
              </Group>
            </Stack>
          ) : d.decided_by_you ? (
            <Alert
              color={d.state === 'confirmed' ? 'teal' : 'yellow'}
              role="status"
              data-testid="decision-done"
            >
              {d.state === 'confirmed' ? t('decision.confirmed') : t('decision.declinedDone')}
            </Alert>
          ) : (
            <Alert color="blue" role="status" data-testid="decision-done">
              {d.state === 'confirmed'
                ? t('decision.alreadyConfirmed', { by })
                : t('decision.alreadyDeclined', { by })}
            </Alert>
          )}
        </Stack>
      </Paper>
    );
  };

  return (
    <Container size="xs" py={{ base: 'md', sm: 'xl' }}>
      <PageTitle ta="center">{t('decision.title')}</PageTitle>
      {token ? (
        <QueryState query={view} errorText={linkError} errorTestId="decision-error">
          {decision}
        </QueryState>
      ) : (
        <Alert color="red" role="alert">
          {t('decision.invalid')}
        </Alert>
      )}
    </Container>
  );
}
