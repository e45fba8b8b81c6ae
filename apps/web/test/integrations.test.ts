/**
 * Issue 34's screens' plain logic (features/integrations/lib/integrations.ts) and words: an
 * expiry day as the last instant of that day, a key's state and the lists' order, the server's
 * field errors under their field, and a label in both languages for every scope, event,
 * delivery state, channel kind and notification choice the shared schemas name.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  API_KEY_SCOPES,
  CHAT_CHANNEL_KINDS,
  HOST_NOTIFICATIONS,
  NOTIFICATION_CHANNELS,
  WEBHOOK_DELIVERY_STATES,
  WEBHOOK_EVENTS,
  WEBHOOK_TEST_EVENT,
  type ApiKey,
  type AuditListEntry,
  type Webhook,
} from '@sesame/shared';
import { auditSentence } from '../src/features/audit/lib/sentence';
import { Translator, type Words } from '../src/lib/translator';
import {
  apiKeyState,
  endOfDay,
  serverFieldErrors,
  shownPrefix,
  sortApiKeys,
  webhookState,
} from '../src/features/integrations/lib/integrations';
import { ApiError } from '../src/lib/api-client';
import en from '../src/locales/en/integrations.json';
import fr from '../src/locales/fr/integrations.json';
import menuFr from '../src/locales/fr/menu.json';
import hostLoopFr from '../src/locales/fr/hostLoop.json';

const key = (over: Partial<ApiKey>): ApiKey => ({
  id: 'k',
  name: 'Outil RH',
  scopes: ['visits.read'],
  prefix: 'sk_AbCd',
  created_at: '2026-11-20T09:00:00.000Z',
  created_by: null,
  expires_at: null,
  last_used_at: null,
  revoked_at: null,
  ...over,
});

describe('an expiry day', () => {
  it('is the last instant of that day in the browser’s zone, blank for none', () => {
    const end = endOfDay('31/12/2030');
    expect(end).toBe(new Date(2030, 11, 31, 23, 59, 59, 999).toISOString());
    expect(endOfDay('  ')).toBeNull();
  });

  it('is refused when it is not a day of the calendar', () => {
    expect(endOfDay('31/02/2030')).toBeUndefined();
    expect(endOfDay('12/2030')).toBeUndefined();
    expect(endOfDay('2030-12-31')).toBeUndefined();
  });
});

describe('the keys’ list', () => {
  const now = Date.parse('2026-11-28T12:00:00.000Z');
  it('says a key active, expired or revoked', () => {
    expect(apiKeyState(key({}), now)).toBe('active');
    expect(apiKeyState(key({ expires_at: '2026-11-28T11:59:59.000Z' }), now)).toBe('expired');
    expect(apiKeyState(key({ expires_at: '2027-01-01T00:00:00.000Z' }), now)).toBe('active');
    expect(apiKeyState(key({ revoked_at: '2026-11-01T00:00:00.000Z' }), now)).toBe('revoked');
  });

  it('puts the working keys first, the newest on top, then the expired, then the revoked', () => {
    const rows = [
      key({ id: 'revoked', revoked_at: '2026-11-01T00:00:00.000Z' }),
      key({ id: 'old', created_at: '2026-01-01T00:00:00.000Z' }),
      key({ id: 'expired', expires_at: '2026-11-01T00:00:00.000Z' }),
      key({ id: 'new', created_at: '2026-11-27T00:00:00.000Z' }),
    ];
    expect(sortApiKeys(rows, now).map((k) => k.id)).toEqual(['new', 'old', 'expired', 'revoked']);
  });

  it('never passes the prefix off as the whole key', () => {
    expect(shownPrefix('sk_AbCd')).toBe('sk_AbCd…');
  });
});

describe('a webhook’s state', () => {
  const hook = (over: Partial<Webhook>) =>
    ({ enabled: true, disabled_reason: null, ...over }) as Webhook;
  it('tells a 410 from a switch', () => {
    expect(webhookState(hook({}))).toBe('enabled');
    expect(webhookState(hook({ enabled: false, disabled_reason: 'manual' }))).toBe('disabled');
    expect(webhookState(hook({ enabled: false, disabled_reason: 'gone' }))).toBe('gone');
  });
});

describe('the server’s refusal of a form', () => {
  it('puts each field’s first message under the field', () => {
    const error = new ApiError(400, 'Données invalides.', {
      url: 'Adresse privée.',
      'events.0': 'Événement inconnu.',
      'events.1': 'Autre.',
    });
    expect(serverFieldErrors(error)).toEqual({
      url: 'Adresse privée.',
      events: 'Événement inconnu.',
    });
    expect(serverFieldErrors(new ApiError(409, 'Trop de clés.'))).toBeUndefined();
    expect(serverFieldErrors(new Error('x'))).toBeUndefined();
  });
});

describe('the words', () => {
  it('name every scope, event, state, kind and choice in both languages', () => {
    for (const words of [fr, en]) {
      for (const scope of API_KEY_SCOPES) expect(words.apiKeys.scopes[scope]).toBeTruthy();
      const events: (keyof typeof words.webhooks.events)[] = [...WEBHOOK_EVENTS, 'webhook.test'];
      expect(events).toContain(WEBHOOK_TEST_EVENT);
      for (const event of events) {
        expect(words.webhooks.events[event]).toBeTruthy();
      }
      for (const state of WEBHOOK_DELIVERY_STATES) {
        expect(words.webhooks.deliveries.states[state]).toBeTruthy();
      }
      for (const kind of CHAT_CHANNEL_KINDS) expect(words.chat.channels.kinds[kind]).toBeTruthy();
      for (const message of HOST_NOTIFICATIONS) {
        expect(words.notifications.messages[message]).toBeTruthy();
      }
      for (const channel of NOTIFICATION_CHANNELS) {
        expect(words.notifications.channels[channel]).toBeTruthy();
      }
    }
  });

  it('holds issue 34’s French wording', () => {
    expect(fr.apiKeys.scopes).toEqual({
      'visits.read': 'Lire les visites',
      'visits.write': 'Créer et décider les visites et invitations',
      'presence.read': 'Lire les présents',
      'codes.scan': 'Scanner les codes (arrivées et départs)',
    });
    expect(fr.webhooks.deliveries.states).toEqual({
      pending: 'En attente',
      retrying: 'Nouvel essai',
      delivered: 'Livré',
      failed: 'Échec',
    });
    expect(fr.webhooks.events['watchlist.matched']).toBe('Correspondance liste de surveillance');
    expect(fr.webhooks.state.gone).toBe('Désactivé : le récepteur a répondu 410');
    expect(fr.apiKeys.empty).toBe("Aucune clé API pour l'instant.");
    expect(fr.apiKeys.neverUsed).toBe('Jamais utilisée');
    expect(fr.chat.slack.token).toBe('Jeton du bot Slack (xoxb-…)');
    expect(fr.webhooks.fields.secret).toBe('Secret (facultatif, format whsec_…)');
    expect(fr.notifications.noChat).toBe(
      "Votre entreprise n'a pas encore connecté de messagerie (Slack ou Teams).",
    );
    expect(menuFr.tiles).toMatchObject({
      apiKeys: 'Clés API',
      webhooks: 'Webhooks',
      chat: 'Messagerie (Slack, Teams)',
      mailSettings: 'Mes notifications',
    });
    expect(hostLoopFr.preferences.title).toBe('Mes notifications');
  });
});

describe('the audit log’s sentences of issue 34', () => {
  const LOCALES = join(import.meta.dirname, '../src/locales');
  async function wordsIn(language: 'fr' | 'en') {
    const tr = new Translator({
      language,
      fallbackLanguage: language,
      defaultNamespace: 'audit',
      load: (lng, ns) =>
        Promise.resolve(
          JSON.parse(readFileSync(join(LOCALES, lng, `${ns}.json`), 'utf8')) as Words,
        ),
    });
    await tr.ensure(['audit', 'privacy', 'users']);
    return tr.fixedT(['audit', 'privacy', 'users']);
  }
  const entry = (action: string, detail: Record<string, unknown>) =>
    ({
      id: '1',
      at: '2026-11-28T10:00:00.000Z',
      company_id: 'c',
      company_name: 'Acme',
      actor_id: 'u',
      actor_name: 'Awa Koné',
      actor_role: 'ROLE_SUPER_ADMIN',
      actor_company_name: 'Acme',
      action,
      subject_type: action.startsWith('chat.channel') ? 'chat_channel' : 'webhook',
      subject_id: 's',
      subject_name: null,
      subject_role: null,
      subject_company_name: null,
      subject_state: 'gone',
      other_company_name: null,
      detail,
      by_platform: false,
    }) as AuditListEntry;

  it('says what the detail holds, never a secret', async () => {
    const fr = await wordsIn('fr');
    const said = (action: string, detail: Record<string, unknown>) =>
      auditSentence(entry(action, detail), fr, 'fr');
    expect(said('webhook.created', { host: 'rh.acme.test', events: ['visit.requested'] })).toBe(
      'Awa Koné a créé un webhook vers rh.acme.test.',
    );
    expect(said('webhook.updated', { enabled: true })).toBe('Awa Koné a activé un webhook.');
    expect(said('webhook.updated', { enabled: false })).toBe('Awa Koné a désactivé un webhook.');
    expect(said('webhook.updated', { events: ['visit.declined'] })).toBe(
      'Awa Koné a modifié un webhook.',
    );
    expect(said('webhook.deleted', { host: 'rh.acme.test' })).toBe(
      'Awa Koné a supprimé le webhook vers rh.acme.test.',
    );
    expect(said('webhook.resent', { messageId: 'msg_1', type: 'visitor.checked_in' })).toBe(
      "Awa Koné a fait renvoyer un message visitor.checked_in d'un webhook.",
    );
    expect(said('chat.updated', { slackBotToken: 'replaced' })).toBe(
      'Awa Koné a enregistré un nouveau jeton du bot Slack.',
    );
    expect(said('chat.updated', { slackBotToken: 'removed' })).toBe(
      'Awa Koné a retiré le jeton du bot Slack.',
    );
    expect(said('chat.updated', { slackBotToken: 'kept' })).toBe(
      'Awa Koné a enregistré les réglages de messagerie.',
    );
    expect(said('chat.channel_added', { kind: 'teams_workflow', siteId: null })).toBe(
      'Awa Koné a connecté un canal de messagerie (Microsoft Teams).',
    );
    expect(said('chat.channel_removed', { kind: 'slack_webhook' })).toBe(
      'Awa Koné a retiré un canal de messagerie (Slack).',
    );
    // A key is named (the server joins its name); revoked, it is still there.
    const aboutKey = (action: string, name: string | null) =>
      auditSentence(
        {
          ...entry(action, {}),
          subject_type: 'api_key',
          subject_name: name,
          subject_state: 'present',
        },
        fr,
        'fr',
      );
    expect(aboutKey('api_key.created', 'Outil RH')).toBe(
      'Awa Koné a créé la clé API « Outil RH ».',
    );
    expect(aboutKey('api_key.revoked', 'Outil RH')).toBe(
      'Awa Koné a révoqué la clé API « Outil RH ».',
    );
    expect(aboutKey('api_key.revoked', null)).toBe('Awa Koné a révoqué cette clé API.');
    const en = await wordsIn('en');
    expect(auditSentence(entry('webhook.updated', { enabled: false }), en, 'en')).toBe(
      'Awa Koné switched a webhook off.',
    );
  });
});
