/**
 * `/{domain}/webhooks` (issue 34): 'Webhooks' — the addresses Sésame posts what happens to,
 * signed the Standard Webhooks way. A new endpoint's signing secret is shown once, in a
 * dialog with its copy button; each endpoint is switched, tested, changed and deleted in
 * place, and keeps a delivery log whose messages can be sent again.
 */
import { useState } from 'react';
import { Container, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import type { Webhook, WebhookCreated } from '@sesame/shared';
import { ListHeader } from '../../../components/ListHeader';
import { QueryState } from '../../../components/QueryState';
import { ShownOnce } from '../../../components/ShownOnce';
import { serverMessageOf } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';
import { toastDone, useInlineEdit } from '../../../lib/use-inline-edit';
import { createWebhook, updateWebhook, useWebhooks, webhookKeys } from '../api/webhooks';
import { CodeText } from '../components/CodeText';
import { WebhookCard } from '../components/WebhookCard';
import { WebhookForm, type WebhookSubmitted } from '../components/WebhookForm';
import { sortWebhooks } from '../lib/integrations';

export default function WebhooksPage() {
  const { t } = useTranslation('integrations');
  const { domain = '' } = useParams();
  const queryClient = useQueryClient();
  const webhooks = useWebhooks(domain);
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.list(domain) });

  const edit = useInlineEdit<Webhook, WebhookSubmitted>({
    t,
    save: async (submitted) => {
      if (submitted.mode === 'create') {
        const answer = await createWebhook(domain, submitted.input);
        toastDone(answer, t('webhooks.create.created'));
        setCreated(answer.data);
      } else {
        const answer = await updateWebhook(domain, submitted.webhook.id, submitted.input);
        toastDone(answer, t('webhooks.saved'));
      }
      void refresh();
    },
  });

  return (
    <Container size="lg">
      <ListHeader
        title={t('webhooks.title')}
        intro={t('webhooks.intro')}
        create={edit.createAction(t('webhooks.create.open'))}
      />
      <Stack gap="lg">
        <CodeText
          size="sm"
          c="dimmed"
          text={t('webhooks.signature')}
          data-testid="webhook-signature-line"
        />
        {edit.editing && (
          <WebhookForm
            key={edit.formKey}
            webhook={edit.record}
            feedback={edit.feedback}
            onSubmit={edit.submit}
            onCancel={edit.close}
          />
        )}
        <QueryState
          query={webhooks}
          errorText={(error) => serverMessageOf(error) ?? t('webhooks.loadFailed')}
          isEmpty={(rows) => rows.length === 0}
          empty={t('webhooks.empty')}
        >
          {(rows) => (
            <Stack
              component="ul"
              gap="md"
              p={0}
              m={0}
              style={{ listStyle: 'none' }}
              aria-label={t('webhooks.title')}
            >
              {sortWebhooks(rows).map((webhook) => (
                <WebhookCard
                  key={webhook.id}
                  company={domain}
                  webhook={webhook}
                  onEdit={() => edit.openEdit(webhook)}
                />
              ))}
            </Stack>
          )}
        </QueryState>
      </Stack>
      <ShownOnce
        secret={created?.secret ?? null}
        title={t('webhooks.shown.title')}
        warning={t('webhooks.shown.warning')}
        label={t('webhooks.shown.label')}
        done={t('webhooks.shown.done')}
        onClose={() => setCreated(null)}
        testId="webhook-created"
      />
    </Container>
  );
}
