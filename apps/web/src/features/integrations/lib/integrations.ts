/**
 * Issue 34's screens' plain logic: an expiry day as the instant the key stops, a key's
 * state, the lists' order, the server's field errors under their field. No React here
 * (test/integrations.test.ts).
 */
import type { ApiKey, ChatChannel, Webhook, WebhookDeliveryState } from '@sesame/shared';
import { ApiError } from '../../../lib/api-client';

/**
 * The field's `DD/MM/YYYY` as the last instant of that day in the browser's time zone (the
 * key works all that day), ISO; null when blank; undefined when it is not a real date.
 */
export function endOfDay(ddmmyyyy: string): string | null | undefined {
  const text = ddmmyyyy.trim();
  if (!text) return null;
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  if (!match) return undefined;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const end = new Date(year, month - 1, day, 23, 59, 59, 999);
  // 31/02 rolls over into March: not a day of the calendar.
  if (end.getFullYear() !== year || end.getMonth() !== month - 1 || end.getDate() !== day) {
    return undefined;
  }
  return end.toISOString();
}

/** Today in the browser's time zone, `YYYY-MM-DD` (the calendar's first day to pick). */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export type ApiKeyState = 'active' | 'expired' | 'revoked';

export function apiKeyState(key: ApiKey, now = Date.now()): ApiKeyState {
  if (key.revoked_at) return 'revoked';
  if (key.expires_at && Date.parse(key.expires_at) <= now) return 'expired';
  return 'active';
}

/** Working keys first (the newest on top), then the expired, then the revoked. */
export function sortApiKeys(keys: readonly ApiKey[], now = Date.now()): ApiKey[] {
  const rank: Record<ApiKeyState, number> = { active: 0, expired: 1, revoked: 2 };
  return [...keys].sort(
    (a, b) =>
      rank[apiKeyState(a, now)] - rank[apiKeyState(b, now)] ||
      b.created_at.localeCompare(a.created_at),
  );
}

/** The prefix as the list shows it: `sk_AbCd…`, so nobody takes it for the whole key. */
export const shownPrefix = (prefix: string) => `${prefix}…`;

/** What an endpoint's state line says. */
export type WebhookState = 'enabled' | 'disabled' | 'gone';

export function webhookState(webhook: Webhook): WebhookState {
  if (webhook.enabled) return 'enabled';
  return webhook.disabled_reason === 'gone' ? 'gone' : 'disabled';
}

/** Oldest first, as they were created: an endpoint keeps its place when it is switched. */
export function sortWebhooks(webhooks: readonly Webhook[]): Webhook[] {
  return [...webhooks].sort((a, b) => a.created_at.localeCompare(b.created_at));
}

export const DELIVERY_COLORS: Record<WebhookDeliveryState, string> = {
  pending: 'gray',
  retrying: 'orange',
  delivered: 'teal',
  failed: 'red',
};

/** Channels by name, as people look for them. */
export function sortChannels(channels: readonly ChatChannel[]): ChatChannel[] {
  return [...channels].sort((a, b) => a.name.localeCompare(b.name));
}

/** The server's refusal of a form, each field's first message under that field. */
export function serverFieldErrors(error: unknown): Record<string, string> | undefined {
  if (!(error instanceof ApiError) || !error.errors) return undefined;
  const fields: Record<string, string> = {};
  for (const [path, message] of Object.entries(error.errors)) {
    const field = path.split(/[.[]/)[0] || 'body';
    fields[field] ??= message;
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}
