/**
 * Sésame talks to the company's other systems (issue 34): API keys for its HR tool or its
 * access control, signed webhooks (Standard Webhooks) for what happens, and chat messages
 * (Slack, Microsoft Teams) for hosts. The screens and the server read these schemas; the
 * limits and the scope → action table are named here once.
 */
import { z } from 'zod';
import type { Action } from '../permissions';
import { atMost, formText, keyed } from './common';

export const API_KEY_LIMITS = {
  nameMax: 100,
  /** Keys a company may hold unrevoked. */
  keysMax: 25,
  /** Calls a minute per key, on every route (the per-address limits still apply). */
  requestsPerMinute: 600,
  /** `last_used_at` is written at most this often per key (not on every call). */
  lastUseResolutionMs: 60_000,
} as const;

/** API keys start with this, so a log or a leak says what the secret is. */
export const API_KEY_PREFIX = 'sk_';

/** What a key may do: each scope opens the routes of its actions, and nothing else. */
export const API_KEY_SCOPES = [
  'visits.read',
  'visits.write',
  'presence.read',
  'codes.scan',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/**
 * The actions each scope grants. A route opens to a key when one of its actions is here;
 * a route that names no action (a signed-in person's own pages) never does.
 */
export const API_KEY_SCOPE_ACTIONS: Readonly<Record<ApiKeyScope, readonly Action[]>> = {
  // The visits and their log, and the lists a caller needs to name a site or a type.
  'visits.read': ['requests.list', 'visitorLogs.list', 'sites.list', 'visitorTypes.list'],
  // Confirm or decline a request, invite a visitor (the HR tool's candidates).
  'visits.write': ['requests.validate', 'invitations.create', 'sites.list', 'visitorTypes.list'],
  // Who is inside now (the access-control system's view).
  'presence.read': ['onSite.list'],
  // Record an arrival or a departure from a code (a turnstile's reader).
  'codes.scan': ['checks.record'],
};

/** The actions a key holding `scopes` may perform. */
export function apiKeyActions(scopes: readonly string[]): Set<Action> {
  const actions = new Set<Action>();
  for (const scope of scopes) {
    for (const action of API_KEY_SCOPE_ACTIONS[scope as ApiKeyScope] ?? []) actions.add(action);
  }
  return actions;
}

/** The scopes that open `action`: what the API description names beside each route. */
export function scopesFor(action: Action): ApiKeyScope[] {
  return API_KEY_SCOPES.filter((scope) => API_KEY_SCOPE_ACTIONS[scope].includes(action));
}

const integrationIssue = (
  key:
    | 'nameRequired'
    | 'scopesRequired'
    | 'expiryPast'
    | 'urlInvalid'
    | 'eventsRequired'
    | 'secretInvalid'
    | 'channelNameRequired',
  field: string,
) => keyed((m) => m.integrations[key], { key, field });

/** Whether `text` is a URL Sésame will post to (http or https; the server checks the rest). */
export function isDeliveryUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.username || url.password || url.hash) return false;
  return url.protocol === 'https:' || url.protocol === 'http:';
}

/** POST `/api/company/{id}/api-keys`. */
export const apiKeyInputSchema = z.object({
  name: formText(API_KEY_LIMITS.nameMax).refine((n) => n.length > 0, {
    ...integrationIssue('nameRequired', 'name'),
  }),
  scopes: z
    .array(z.enum(API_KEY_SCOPES))
    .min(1, { ...integrationIssue('scopesRequired', 'scopes') })
    .max(API_KEY_SCOPES.length)
    .transform((scopes) => [...new Set(scopes)]),
  /** The key stops working at this instant; null or absent: until revoked. */
  expires_at: z.iso
    .datetime({ offset: true })
    .nullable()
    .optional()
    .refine((at) => !at || Date.parse(at) > Date.now(), {
      ...integrationIssue('expiryPast', 'expires_at'),
    }),
});
export type ApiKeyInput = z.input<typeof apiKeyInputSchema>;

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  /** The key's first characters (`sk_AbCd`), to tell keys apart; never the key. */
  prefix: z.string(),
  created_at: z.string(),
  created_by: z.string().nullable(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;
/** The answer to a creation: the key in clear, this once. */
export const apiKeyCreatedSchema = apiKeySchema.extend({ key: z.string() });
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;

// ---------------------------------------------------------------------------------------
// Webhooks (Standard Webhooks: https://www.standardwebhooks.com)

export const WEBHOOK_EVENTS = [
  'visit.requested',
  'visit.confirmed',
  'visit.declined',
  'visitor.checked_in',
  'visitor.checked_out',
  'invitation.created',
  'watchlist.matched',
  'roll_call.started',
  'roll_call.ended',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** The event "Envoyer un événement de test" sends; no endpoint subscribes to it. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_LIMITS = {
  endpointsMax: 10,
  urlMax: 2000,
  /** A delivery is retried with back-off for this long after its event, then given up. */
  retryWindowMs: 24 * 60 * 60_000,
  /**
   * Waits between attempts (the last repeats until the window closes): an endpoint down for
   * a minute gets its events within seconds of coming back.
   */
  backoffMs: [5_000, 15_000, 30_000, 60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000, 2 * 60 * 60_000],
  /** How long one attempt may take, connection included. */
  timeoutMs: 5_000,
  /** The most of an answer read; the delivery log keeps its first `answerKeptBytes`. */
  answerReadBytes: 64 * 1024,
  answerKeptBytes: 1024,
  /** Deliveries one page of the log shows. */
  logPageMax: 100,
  /**
   * A finished delivery stays in the log this long, then the hourly sweep deletes it: its
   * body names a visitor, and a receiver has had its copy since.
   */
  logKeptDays: 30,
  /** The secret's random bytes (Standard Webhooks: 24 to 64). */
  secretBytesMin: 24,
  secretBytesMax: 64,
} as const;

/** A Standard Webhooks secret: `whsec_` and 24 to 64 bytes in base64. */
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/;

const eventsField = z
  .array(z.enum(WEBHOOK_EVENTS))
  .min(1, { ...integrationIssue('eventsRequired', 'events') })
  .max(WEBHOOK_EVENTS.length)
  .transform((events) => [...new Set(events)]);

const urlField = z
  .string()
  .trim()
  .max(...atMost(WEBHOOK_LIMITS.urlMax))
  .refine(isDeliveryUrl, { ...integrationIssue('urlInvalid', 'url') });

/** POST `/api/company/{id}/webhooks`. No secret: one is drawn and answered once. */
export const webhookInputSchema = z.object({
  url: urlField,
  events: eventsField,
  secret: z
    .string()
    .trim()
    .max(...atMost(100))
    .refine((s) => WEBHOOK_SECRET_PATTERN.test(s), {
      ...integrationIssue('secretInvalid', 'secret'),
    })
    .optional(),
});
export type WebhookInput = z.input<typeof webhookInputSchema>;

/** PATCH `/api/company/{id}/webhooks/{webhookId}`: switch it on again after a 410, or change it. */
export const webhookUpdateSchema = z.object({
  url: urlField.optional(),
  events: eventsField.optional(),
  enabled: z.boolean().optional(),
});

/** Why an endpoint is off: switched off by hand, or it answered 410 Gone. */
export const WEBHOOK_DISABLED_REASONS = ['manual', 'gone'] as const;

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  disabled_reason: z.enum(WEBHOOK_DISABLED_REASONS).nullable(),
  created_at: z.string(),
  created_by: z.string().nullable(),
  /** The last delivery's outcome, for the list. */
  last_delivery_at: z.string().nullable(),
  last_delivery_ok: z.boolean().nullable(),
});
export type Webhook = z.infer<typeof webhookSchema>;
/** The answer to a creation: the signing secret in clear, this once. */
export const webhookCreatedSchema = webhookSchema.extend({ secret: z.string() });
export type WebhookCreated = z.infer<typeof webhookCreatedSchema>;

export const WEBHOOK_DELIVERY_STATES = ['pending', 'retrying', 'delivered', 'failed'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

export const webhookDeliverySchema = z.object({
  id: z.string(),
  /** The message's id (`webhook-id`): the same on every attempt and on "Renvoyer". */
  message_id: z.string(),
  type: z.string(),
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  attempts: z.number().int(),
  /** The endpoint's last HTTP status; null when it never answered. */
  response_status: z.number().int().nullable(),
  /** The first bytes of its last answer, or why the attempt failed. */
  response_body: z.string().nullable(),
  created_at: z.string(),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** The body Sésame posts (Standard Webhooks' shape): `data` never holds an identity document. */
export interface WebhookPayload<T = Record<string, unknown>> {
  type: WebhookEvent | typeof WEBHOOK_TEST_EVENT;
  timestamp: string;
  data: T;
}

// ---------------------------------------------------------------------------------------
// Chat notifications for hosts

/**
 * Where a company's chat messages go: a Slack incoming webhook (one channel), a Teams
 * Workflows webhook (one channel), or Slack's API with a bot token (a direct message to
 * each host, found by e-mail).
 */
export const CHAT_CHANNEL_KINDS = ['slack_webhook', 'teams_workflow'] as const;
export type ChatChannelKind = (typeof CHAT_CHANNEL_KINDS)[number];

export const CHAT_LIMITS = {
  channelsMax: 20,
  channelNameMax: 100,
  tokenMax: 500,
} as const;

export const chatChannelInputSchema = z.object({
  kind: z.enum(CHAT_CHANNEL_KINDS),
  name: formText(CHAT_LIMITS.channelNameMax).refine((n) => n.length > 0, {
    ...integrationIssue('channelNameRequired', 'name'),
  }),
  url: urlField,
  /** The site whose visits it hears; null: every site of the company. */
  site_id: z.uuid().nullable(),
});
export type ChatChannelInput = z.input<typeof chatChannelInputSchema>;

export const chatChannelSchema = z.object({
  id: z.string(),
  kind: z.enum(CHAT_CHANNEL_KINDS),
  name: z.string(),
  /** The URL's host only: the whole URL is a secret (whoever has it posts to the channel). */
  url_host: z.string(),
  site_id: z.string().nullable(),
  created_at: z.string(),
});
export type ChatChannel = z.infer<typeof chatChannelSchema>;

/** PUT `/api/company/{id}/chat`: the Slack bot token (write-only; blank keeps, null removes). */
export const chatSettingsInputSchema = z.object({
  slack_bot_token: z
    .string()
    .trim()
    .max(...atMost(CHAT_LIMITS.tokenMax))
    .nullable()
    .optional(),
});
export const chatSettingsSchema = z.object({
  has_slack_bot_token: z.boolean(),
  channels: z.array(chatChannelSchema),
});
export type ChatSettings = z.infer<typeof chatSettingsSchema>;

/** The host's messages that may go by chat (issue 34), each by mail, by chat or both. */
export const HOST_NOTIFICATIONS = ['request', 'arrival', 'here'] as const;
export type HostNotification = (typeof HOST_NOTIFICATIONS)[number];
export const NOTIFICATION_CHANNELS = ['mail', 'chat', 'both'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
export const notificationChannelsSchema = z.object({
  request: z.enum(NOTIFICATION_CHANNELS),
  arrival: z.enum(NOTIFICATION_CHANNELS),
  here: z.enum(NOTIFICATION_CHANNELS),
});
export type NotificationChannels = z.infer<typeof notificationChannelsSchema>;
export const DEFAULT_NOTIFICATION_CHANNELS: NotificationChannels = {
  request: 'mail',
  arrival: 'mail',
  here: 'mail',
};
/** Whether `channel` sends by mail, by chat. */
export const goesByMail = (channel: NotificationChannel) => channel !== 'chat';
export const goesByChat = (channel: NotificationChannel) => channel !== 'mail';
