/**
 * `/api/company/{id}/webhooks` (issue 34): where Sésame posts what happens, signed
 * (Standard Webhooks). The signing secret is answered once, at the creation; each endpoint
 * keeps a log of its deliveries, any of which may be sent again.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  Webhook,
  WebhookCreated,
  WebhookDelivery,
  WebhookInput,
  webhookUpdateSchema,
} from '@sesame/shared';
import type { z } from 'zod';
import { api, toQuery, type Paginated } from '../../../lib/api-client';
import { companyPath, recordPath, type Said } from './company-path';

export type WebhookUpdate = z.input<typeof webhookUpdateSchema>;

export const webhookKeys = {
  list: (company: string) => ['webhooks', company.toLowerCase()] as const,
  deliveries: (company: string, webhookId: string) =>
    ['webhooks', company.toLowerCase(), webhookId, 'deliveries'] as const,
};

const one = (company: string, webhookId: string) => recordPath(company, 'webhooks', webhookId);

export function useWebhooks(company: string) {
  return useQuery({
    queryKey: webhookKeys.list(company),
    queryFn: () =>
      api.get<{ data: Webhook[] }>(`${companyPath(company)}/webhooks`).then((r) => r.data),
    enabled: !!company,
  });
}

export const createWebhook = (company: string, body: WebhookInput) =>
  api.post<Said & { data: WebhookCreated }>(`${companyPath(company)}/webhooks`, body);

export const updateWebhook = (company: string, webhookId: string, body: WebhookUpdate) =>
  api.patch<Said & { data?: Webhook }>(one(company, webhookId), body);

export const deleteWebhook = (company: string, webhookId: string) =>
  api.delete<Said | undefined>(one(company, webhookId));

/** "Envoyer un événement de test": a `webhook.test` delivery, seen in the log. */
export const testWebhook = (company: string, webhookId: string) =>
  api.post<Said>(`${one(company, webhookId)}/test`);

/** While a delivery of the page is still on its way, the log is read again this often. */
export const DELIVERY_LOG_REFRESH_MS = 5_000;

export function useWebhookDeliveries(company: string, webhookId: string, page: number) {
  return useQuery({
    queryKey: [...webhookKeys.deliveries(company, webhookId), page],
    queryFn: () =>
      api.get<Paginated<WebhookDelivery>>(
        `${one(company, webhookId)}/deliveries${toQuery({ page })}`,
      ),
    placeholderData: keepPreviousData,
    // A test event, a resend or a retry shows its outcome without a reload.
    refetchInterval: (query) =>
      query.state.data?.data.some((d) => d.state === 'pending' || d.state === 'retrying')
        ? DELIVERY_LOG_REFRESH_MS
        : false,
  });
}

/** "Renvoyer": the same message (its `webhook-id`) delivered again. */
export const resendDelivery = (company: string, webhookId: string, deliveryId: string) =>
  api.post<Said>(`${one(company, webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/resend`);
