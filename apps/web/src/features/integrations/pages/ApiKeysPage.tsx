/**
 * `/{domain}/api-keys` (issue 34): 'Clés API' — the keys the company's other systems call
 * the API with, each opening only its scopes. A new key is shown once, in a dialog with its
 * copy button; the list shows its first characters only. Revoking asks first, naming the key.
 */
import { useState } from 'react';
import { Anchor, Badge, Container, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import type { ApiKey, ApiKeyCreated, ApiKeyInput } from '@sesame/shared';
import type { Feedback } from '../../../components/FeedbackAlert';
import { ListHeader } from '../../../components/ListHeader';
import { QueryRows } from '../../../components/QueryRows';
import { ShownOnce } from '../../../components/ShownOnce';
import { RowActions, RowButton, useRecordAction } from '../../../components/RowActions';
import { nameColumn, type Column } from '../../../components/RowsTable';
import { formatShortDate, formatTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { saveWithFeedback, toastDone } from '../../../lib/use-inline-edit';
import { browserZone } from '../../../lib/zone-label';
import { apiKeyKeys, createApiKey, revokeApiKey, useApiKeys } from '../api/api-keys';
import { ApiKeyForm } from '../components/ApiKeyForm';
import { CodeText } from '../components/CodeText';
import { apiKeyState, serverFieldErrors, shownPrefix, sortApiKeys } from '../lib/integrations';

const STATE_COLORS = { active: 'teal', expired: 'gray', revoked: 'red' } as const;

export default function ApiKeysPage() {
  const { t, i18n } = useTranslation('integrations');
  const { domain = '' } = useParams();
  const queryClient = useQueryClient();
  const keys = useApiKeys(domain);
  const [creating, setCreating] = useState(false);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.list(domain) });
  const zone = browserZone();
  // A table's dates stay short ('20/11/2026 10:00'): the columns are many.
  const day = (iso: string) => formatShortDate(iso, zone, i18n.language);
  const when = (iso: string) => `${day(iso)} ${formatTime(iso, zone, i18n.language)}`;

  const create = (input: ApiKeyInput) =>
    saveWithFeedback(
      async () => {
        const answer = await createApiKey(domain, input);
        toastDone(answer, t('apiKeys.create.created'));
        setCreating(false);
        setCreated(answer.data);
        void refresh();
      },
      { t, setFeedback, fieldErrors: serverFieldErrors },
    );

  const revoke = useRecordAction({
    run: (key: ApiKey) => revokeApiKey(domain, key.id),
    done: t('apiKeys.revoke.done'),
    failed: t('apiKeys.revoke.failed'),
    refresh,
    confirm: (key) => ({
      title: t('apiKeys.revoke.title', { name: key.name }),
      body: t('apiKeys.revoke.body', { name: key.name }),
      confirm: t('apiKeys.revoke.yes'),
      cancel: t('cancel'),
    }),
  });

  const columns: Column<ApiKey>[] = [
    nameColumn(t('apiKeys.columns.name'), (key) => key.name, 'api-key-name'),
    {
      key: 'scopes',
      header: t('apiKeys.columns.scopes'),
      card: 'wide',
      render: (key) => (
        <Group gap={4}>
          {key.scopes.map((scope) => (
            <Badge key={scope} variant="light" color="gray" tt="none" title={scope}>
              {t(`apiKeys.scopes.${scope}`)}
            </Badge>
          ))}
        </Group>
      ),
    },
    {
      key: 'prefix',
      header: t('apiKeys.columns.prefix'),
      render: (key) => (
        <Text span size="sm" ff="monospace" data-testid="api-key-prefix">
          {shownPrefix(key.prefix)}
        </Text>
      ),
    },
    { key: 'created', header: t('apiKeys.columns.created'), render: (key) => day(key.created_at) },
    {
      key: 'expires',
      header: t('apiKeys.columns.expires'),
      render: (key) => (key.expires_at ? day(key.expires_at) : t('apiKeys.noExpiry')),
    },
    {
      key: 'lastUsed',
      header: t('apiKeys.columns.lastUsed'),
      render: (key) => (key.last_used_at ? when(key.last_used_at) : t('apiKeys.neverUsed')),
    },
    {
      key: 'state',
      header: t('apiKeys.columns.state'),
      render: (key) => {
        const state = apiKeyState(key);
        return (
          <Badge color={STATE_COLORS[state]} variant="light" tt="none" data-state={state}>
            {t(`apiKeys.state.${state}`, { date: key.revoked_at ? day(key.revoked_at) : '' })}
          </Badge>
        );
      },
    },
    {
      key: 'actions',
      header: t('apiKeys.columns.actions'),
      card: 'actions',
      render: (key) =>
        key.revoked_at ? null : (
          <RowActions>
            <RowButton
              label={t('apiKeys.revoke.button')}
              ariaLabel={t('apiKeys.revoke.aria', { name: key.name })}
              color="red"
              onClick={() => revoke.ask(key)}
              loading={revoke.busy(key.id)}
            />
          </RowActions>
        ),
    },
  ];

  return (
    <Container size="lg">
      <ListHeader
        title={t('apiKeys.title')}
        intro={t('apiKeys.intro')}
        create={
          creating
            ? undefined
            : {
                label: t('apiKeys.create.title'),
                onClick: () => {
                  setFeedback(null);
                  setCreating(true);
                },
              }
        }
      />
      <Stack gap="lg">
        <Text size="sm" c="dimmed" component="div" data-testid="api-docs-line">
          <CodeText span text={t('apiKeys.header')} />{' '}
          <Anchor href="/api/docs" target="_blank" rel="noopener" underline="always">
            {t('apiKeys.docs')}
          </Anchor>
        </Text>
        {creating && (
          <ApiKeyForm feedback={feedback} onSubmit={create} onCancel={() => setCreating(false)} />
        )}
        <QueryRows
          query={keys}
          loadFailed={t('apiKeys.loadFailed')}
          empty={t('apiKeys.empty')}
          order={sortApiKeys}
          columns={columns}
          rowKey={(key) => key.id}
          label={t('apiKeys.title')}
          minWidth={880}
        />
      </Stack>
      <ShownOnce
        secret={created?.key ?? null}
        title={t('apiKeys.shown.title', { name: created?.name ?? '' })}
        warning={t('apiKeys.shown.warning')}
        label={t('apiKeys.shown.label')}
        done={t('apiKeys.shown.done')}
        onClose={() => setCreated(null)}
        testId="api-key-created"
      />
    </Container>
  );
}
