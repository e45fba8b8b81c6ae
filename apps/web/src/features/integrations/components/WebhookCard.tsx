/**
 * One webhook (issue 34): its address, whether it is on (switched off by hand, or by the
 * receiver's 410), the events it hears, its last delivery's outcome, and what can be done
 * with it — a test event, its delivery log, a change, its deletion (asked first).
 */
import { useState } from 'react';
import { Badge, Button, Group, Paper, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { Webhook } from '@sesame/shared';
import { useRecordAction } from '../../../components/RowActions';
import { formatDateTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { browserZone } from '../../../lib/zone-label';
import { deleteWebhook, testWebhook, updateWebhook, webhookKeys } from '../api/webhooks';
import { webhookState } from '../lib/integrations';
import { DeliveryLog } from './DeliveryLog';
import '@mantine/core/styles/Switch.css';
import '@mantine/core/styles/SimpleGrid.css';

const STATE_COLORS = { enabled: 'teal', disabled: 'gray', gone: 'orange' } as const;

export function WebhookCard(props: { company: string; webhook: Webhook; onEdit: () => void }) {
  const { company, webhook } = props;
  const { t, i18n } = useTranslation('integrations');
  const queryClient = useQueryClient();
  const [logOpen, setLogOpen] = useState(false);
  const state = webhookState(webhook);
  const when = (iso: string) => formatDateTime(iso, browserZone(), i18n.language);
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.list(company) });

  const toggle = useRecordAction({
    run: (enabled: boolean) => updateWebhook(company, webhook.id, { enabled }),
    done: t('webhooks.saved'),
    failed: t('webhooks.switchFailed'),
    refresh,
  });
  const test = useRecordAction({
    run: () => testWebhook(company, webhook.id),
    done: t('webhooks.testSent'),
    failed: t('webhooks.testFailed'),
    refresh,
    onDone: () => setLogOpen(true),
  });
  const remove = useRecordAction({
    run: () => deleteWebhook(company, webhook.id),
    done: t('webhooks.delete.done'),
    failed: t('webhooks.delete.failed'),
    refresh,
    confirm: () => ({
      title: t('webhooks.delete.title'),
      body: t('webhooks.delete.body', { url: webhook.url }),
      confirm: t('webhooks.delete.yes'),
      cancel: t('cancel'),
    }),
  });

  const lastDelivery = !webhook.last_delivery_at
    ? t('webhooks.lastDelivery.none')
    : t(webhook.last_delivery_ok ? 'webhooks.lastDelivery.ok' : 'webhooks.lastDelivery.failed', {
        date: when(webhook.last_delivery_at),
      });
  const urlId = `webhook-url-${webhook.id}`;

  return (
    <Paper
      component="li"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'lg' }}
      aria-labelledby={urlId}
      data-testid="webhook"
      data-state={state}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          {/* A phone puts the switch under the address, which keeps the width. */}
          <Stack gap={4} style={{ flex: '1 1 260px', minWidth: 0 }}>
            <Text id={urlId} fw={600} ff="monospace" size="sm" style={{ overflowWrap: 'anywhere' }}>
              {webhook.url}
            </Text>
            <Group gap="xs">
              <Badge
                color={STATE_COLORS[state]}
                variant="light"
                tt="none"
                h="auto"
                styles={{ label: { whiteSpace: 'normal' } }}
                data-testid="webhook-state"
              >
                {t(`webhooks.state.${state}`)}
              </Badge>
              <Text
                size="xs"
                c={webhook.last_delivery_ok === false ? 'red.8' : 'dimmed'}
                data-testid="webhook-last-delivery"
              >
                {lastDelivery}
              </Text>
            </Group>
          </Stack>
          <Switch
            label={t('webhooks.switch')}
            aria-label={t('webhooks.switchOf', { url: webhook.url })}
            checked={toggle.isPending ? toggle.variables : webhook.enabled}
            disabled={toggle.isPending}
            onChange={(event) => toggle.mutate(event.currentTarget.checked)}
          />
        </Group>
        <SimpleGrid
          cols={{ base: 1, sm: 2, md: 3 }}
          spacing={4}
          verticalSpacing={2}
          component="ul"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label={t('webhooks.fields.events')}
        >
          {webhook.events.map((event) => (
            <Text component="li" size="sm" key={event}>
              {t(`webhooks.events.${event}`)}{' '}
              <Text span size="xs" c="dimmed" ff="monospace">
                {event}
              </Text>
            </Text>
          ))}
        </SimpleGrid>
        <Group gap="xs">
          <Button
            size="xs"
            variant="light"
            onClick={() => test.mutate()}
            loading={test.isPending}
            disabled={!webhook.enabled}
            aria-label={t('webhooks.actions.testOf', { url: webhook.url })}
          >
            {t('webhooks.actions.test')}
          </Button>
          <Button
            size="xs"
            variant={logOpen ? 'filled' : 'light'}
            onClick={() => setLogOpen(!logOpen)}
            aria-expanded={logOpen}
            aria-label={t('webhooks.actions.logOf', { url: webhook.url })}
          >
            {t('webhooks.actions.log')}
          </Button>
          <Button
            size="xs"
            variant="light"
            onClick={props.onEdit}
            aria-label={t('webhooks.actions.editOf', { url: webhook.url })}
          >
            {t('webhooks.actions.edit')}
          </Button>
          <Button
            size="xs"
            variant="light"
            color="red"
            onClick={() => remove.ask()}
            loading={remove.isPending}
            aria-label={t('webhooks.actions.deleteOf', { url: webhook.url })}
          >
            {t('webhooks.actions.delete')}
          </Button>
        </Group>
        {logOpen && <DeliveryLog company={company} webhook={webhook} />}
      </Stack>
    </Paper>
  );
}
