/**
 * `/{domain}/sso` (issue 33): 'Connexion unique (SSO)' — the company's identity provider
 * (OpenID Connect) and the SCIM tokens of its provisioning. The company is the address's
 * (the platform's admins open any company's page; the others their own, RequireAuth).
 */
import { useState } from 'react';
import { Container, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import type { SsoSettingsInput } from '@sesame/shared';
import type { Feedback } from '../../../components/FeedbackAlert';
import { ListHeader } from '../../../components/ListHeader';
import { QueryState } from '../../../components/QueryState';
import { serverMessageOf } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';
import { saveWithFeedback, toastDone } from '../../../lib/use-inline-edit';
import { saveSsoSettings, ssoKeys, useSsoSettings } from '../api/sso';
import { ScimTokens } from '../components/ScimTokens';
import { SsoSettingsForm } from '../components/SsoSettingsForm';
import { serverFieldErrors } from '../lib/sso';

export default function SsoPage() {
  const { t } = useTranslation('sso');
  const { domain = '' } = useParams();
  const queryClient = useQueryClient();
  const settings = useSsoSettings(domain);
  const [feedback, setFeedback] = useState<Feedback | null>(null);

  const save = (input: SsoSettingsInput) =>
    saveWithFeedback(
      async () => {
        const answer = await saveSsoSettings(domain, input);
        toastDone(answer, t('settings.saved'));
        setFeedback({ color: 'teal', title: answer.message ?? t('settings.saved') });
        queryClient.setQueryData(ssoKeys.settings(domain), answer.data);
      },
      {
        t,
        setFeedback,
        fieldErrors: serverFieldErrors,
        keys: { failed: 'settings.saveFailed', failedStatus: 'settings.saveFailedStatus' },
      },
    );

  return (
    <Container size="lg">
      <ListHeader title={t('title')} intro={t('intro')} />
      <Stack gap="lg">
        <QueryState
          query={settings}
          errorText={(error) => serverMessageOf(error) ?? t('settings.loadFailed')}
        >
          {(view) => (
            <SsoSettingsForm
              // A save (or another tab's) brings the stored values back: the secret field empties.
              key={view.updated_at ?? 'new'}
              company={domain}
              settings={view}
              feedback={feedback}
              onSubmit={save}
            />
          )}
        </QueryState>
        <ScimTokens company={domain} />
      </Stack>
    </Container>
  );
}
