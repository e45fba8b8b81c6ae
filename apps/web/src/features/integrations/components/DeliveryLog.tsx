/**
 * A webhook's delivery log (issue 34): each message sent, its state, its attempts, the
 * receiver's last status and the first bytes of its answer (folded, in monospace), newest
 * first, by pages; "Renvoyer" sends a message again with the same `webhook-id`.
 */
import { useState } from 'react';
import { Badge, Code, Group, Pagination, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { Webhook, WebhookDelivery } from '@sesame/shared';
import { QueryState } from '../../../components/QueryState';
import { ResponsiveRows } from '../../../components/ResponsiveRows';
import { RowActions, RowButton, useRecordAction } from '../../../components/RowActions';
import type { Column } from '../../../components/RowsTable';
import { serverMessageOf } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { browserZone } from '../../../lib/zone-label';
import { resendDelivery, useWebhookDeliveries, webhookKeys } from '../api/webhooks';
import { DELIVERY_COLORS } from '../lib/integrations';
import '@mantine/core/styles/Code.css';

export function DeliveryLog({ company, webhook }: { company: string; webhook: Webhook }) {
  const { t, i18n } = useTranslation('integrations');
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const deliveries = useWebhookDeliveries(company, webhook.id, page);
  const zone = browserZone();
  const when = (iso: string) => formatDateTime(iso, zone, i18n.language);
  const typeOf = (delivery: WebhookDelivery) =>
    t(`webhooks.events.${delivery.type}`, { defaultValue: delivery.type });
  const titleId = `webhook-log-${webhook.id}`;

  const resend = useRecordAction({
    run: (delivery: WebhookDelivery) => resendDelivery(company, webhook.id, delivery.id),
    done: t('webhooks.deliveries.resent'),
    failed: t('webhooks.deliveries.resendFailed'),
    refresh: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(company, webhook.id) }),
        queryClient.invalidateQueries({ queryKey: webhookKeys.list(company), exact: true }),
      ]),
  });

  const columns: Column<WebhookDelivery>[] = [
    {
      key: 'type',
      header: t('webhooks.deliveries.columns.type'),
      card: 'title',
      render: (delivery) => (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {typeOf(delivery)}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace">
            {delivery.type}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'state',
      header: t('webhooks.deliveries.columns.state'),
      render: (delivery) => (
        <Badge
          color={DELIVERY_COLORS[delivery.state]}
          variant="light"
          data-state={delivery.state}
          data-testid="delivery-state"
        >
          {t(`webhooks.deliveries.states.${delivery.state}`)}
        </Badge>
      ),
    },
    {
      key: 'attempts',
      header: t('webhooks.deliveries.columns.attempts'),
      render: (delivery) => delivery.attempts,
    },
    {
      key: 'status',
      header: t('webhooks.deliveries.columns.status'),
      render: (delivery) =>
        delivery.response_status === null ? (
          <Text span size="sm" c="dimmed">
            {t('webhooks.deliveries.noStatus')}
          </Text>
        ) : (
          <Text span size="sm" ff="monospace">
            {delivery.response_status}
          </Text>
        ),
    },
    {
      key: 'at',
      header: t('webhooks.deliveries.columns.at'),
      render: (delivery) => (
        <Stack gap={0}>
          <Text span size="sm">
            {when(delivery.last_attempt_at ?? delivery.created_at)}
          </Text>
          {delivery.state === 'retrying' && delivery.next_attempt_at && (
            <Text span size="xs" c="dimmed">
              {t('webhooks.deliveries.nextAttempt', { date: when(delivery.next_attempt_at) })}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'body',
      header: t('webhooks.deliveries.columns.body'),
      card: 'wide',
      render: (delivery) =>
        delivery.response_body ? (
          <details data-testid="delivery-body">
            <summary style={{ cursor: 'pointer' }}>
              <Text span size="sm">
                {t('webhooks.deliveries.showBody')}
              </Text>
            </summary>
            <Code
              block
              mt={4}
              style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 240 }}
            >
              {delivery.response_body}
            </Code>
          </details>
        ) : delivery.response_status === null ? null : (
          <Text span size="sm" c="dimmed">
            {t('webhooks.deliveries.noBody')}
          </Text>
        ),
    },
    {
      key: 'actions',
      header: t('webhooks.deliveries.columns.actions'),
      card: 'actions',
      render: (delivery) => (
        <RowActions>
          <RowButton
            label={t('webhooks.deliveries.resend')}
            ariaLabel={t('webhooks.deliveries.resendOf', {
              type: typeOf(delivery),
              date: when(delivery.created_at),
            })}
            onClick={() => resend.mutate(delivery)}
            loading={resend.busy(delivery.id)}
          />
        </RowActions>
      ),
    },
  ];

  const meta = deliveries.data?.meta;
  const pages = meta ? Math.max(1, Math.ceil(meta.total / Math.max(1, meta.per_page))) : 1;

  return (
    <Stack gap="sm" component="section" aria-labelledby={titleId} data-testid="delivery-log">
      <Title order={3} size="h5" id={titleId}>
        {t('webhooks.deliveries.title')}
      </Title>
      <QueryState
        query={deliveries}
        errorText={(error) => serverMessageOf(error) ?? t('webhooks.deliveries.loadFailed')}
        isEmpty={(answer) => answer.data.length === 0}
        empty={t('webhooks.deliveries.empty')}
      >
        {(answer) => (
          <ResponsiveRows
            columns={columns}
            rows={answer.data}
            rowKey={(delivery) => delivery.id}
            offset={(page - 1) * answer.meta.per_page}
            label={t('webhooks.actions.logOf', { url: webhook.url })}
            minWidth={900}
            busy={deliveries.isPlaceholderData}
          />
        )}
      </QueryState>
      {pages > 1 && (
        <Group justify="center">
          <Pagination
            value={page}
            onChange={setPage}
            total={pages}
            aria-label={t('webhooks.deliveries.pages')}
          />
        </Group>
      )}
    </Stack>
  );
}
