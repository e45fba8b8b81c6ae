/**
 * Issue 34's screens in Chromium against a mocked API (test/support/screens.ts): what each
 * page shows and what it sends. 'Clés API' shows a new key once and asks before revoking;
 * 'Webhooks' shows its endpoints, switches them, and its delivery log says each state and
 * sends again; 'Messagerie' keeps the Slack token write-only; 'Mes notifications' disables
 * the chat choices until the company connects a chat, and sends the channels chosen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey, ChatSettings, Site, Webhook, WebhookDelivery } from '@sesame/shared';
import {
  MockApi,
  PHONE,
  overflowsSideways,
  personOf,
  startScreens,
  type Screens,
} from './support/screens';

let screens: Screens;
beforeAll(async () => {
  screens = await startScreens();
}, 120_000);
afterAll(async () => {
  await screens?.close();
});

const SLOW = 60_000;
const KEYS = '/api/company/acme/api-keys';

const apiKey = (over: Partial<ApiKey> = {}): ApiKey => ({
  id: '8d2f3a4b-1c5e-4f6a-8b7c-9d0e1f2a3b4c',
  name: 'Outil RH',
  scopes: ['visits.read', 'visits.write'],
  prefix: 'sk_AbCd',
  created_at: '2026-11-20T09:00:00.000Z',
  created_by: null,
  expires_at: null,
  last_used_at: null,
  revoked_at: null,
  ...over,
});

describe('Clés API', () => {
  it(
    'says there is no key yet, how keys are sent, and where the API is described',
    async () => {
      const api = new MockApi().on('GET', KEYS, { body: { data: [] } });
      const page = await screens.open('/acme/api-keys', api);
      await page.getByText("Aucune clé API pour l'instant.").waitFor();
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Clés API');
      const docs = page.getByTestId('api-docs-line');
      expect(await docs.textContent()).toContain('Authorization: Bearer sk_…');
      expect(
        await page.getByRole('link', { name: "Documentation de l'API" }).getAttribute('href'),
      ).toBe('/api/docs');
      expect(api.unanswered).toEqual([]);
      await page.context().close();
    },
    SLOW,
  );

  it(
    'checks the form with the server’s words, then shows the new key once',
    async () => {
      const keys: ApiKey[] = [];
      const secret = 'sk_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
      const api = new MockApi()
        .on('GET', KEYS, () => ({ body: { data: keys } }))
        .on('POST', KEYS, (call) => {
          const input = call.body as { name: string; scopes: ApiKey['scopes']; expires_at: string };
          const created = apiKey({
            name: input.name,
            scopes: input.scopes,
            expires_at: input.expires_at,
          });
          keys.push(created);
          return {
            status: 201,
            body: {
              message: 'Clé API créée. Copiez-la maintenant : elle ne sera plus affichée.',
              data: { ...created, key: secret },
            },
          };
        });
      const page = await screens.open('/acme/api-keys', api);
      await page.getByText("Aucune clé API pour l'instant.").waitFor();
      await page.getByRole('button', { name: 'Nouvelle clé API' }).click();

      // Nothing typed: the shared schema's messages, and nothing sent.
      await page.getByRole('button', { name: 'Créer la clé' }).click();
      await page.getByText('Veuillez nommer cette clé (par exemple : Outil RH).').first().waitFor();
      await page.getByText('Choisissez au moins une autorisation.').first().waitFor();
      expect(api.sent('POST', KEYS)).toEqual([]);

      await page.getByLabel('Nom de la clé').fill('Outil RH');
      await page.getByRole('checkbox', { name: /Lire les visites/ }).check();
      await page
        .getByRole('checkbox', { name: /Scanner les codes \(arrivées et départs\)/ })
        .check();
      await page.getByLabel('Expire le (facultatif)').fill('31122030');
      await page.getByRole('button', { name: 'Créer la clé' }).click();

      const dialog = page.getByRole('dialog', { name: 'Clé API « Outil RH »' });
      await dialog.waitFor();
      expect(await dialog.getByLabel('Clé API', { exact: true }).inputValue()).toBe(secret);
      await dialog.getByRole('button', { name: 'Copier : Clé API' }).waitFor();
      expect(await dialog.getByRole('alert').textContent()).toContain(
        'elle ne sera plus jamais affichée',
      );

      const [sent] = api.sent('POST', KEYS);
      // The end of 31/12/2030 in the browser's zone (Europe/Paris: UTC+1 in winter).
      expect(sent?.body).toEqual({
        name: 'Outil RH',
        scopes: ['visits.read', 'codes.scan'],
        expires_at: '2030-12-31T22:59:59.999Z',
      });

      // Closed, the key is gone from the page: the list shows its first characters only.
      await dialog.getByRole('button', { name: "J'ai copié la clé" }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByTestId('api-key-prefix').first().waitFor();
      expect(await page.getByTestId('api-key-prefix').first().textContent()).toBe('sk_AbCd…');
      await page.getByText('Jamais utilisée').first().waitFor();
      expect(await page.content()).not.toContain(secret);
      await page.context().close();
    },
    SLOW,
  );

  it(
    'asks before revoking, naming the key, and revokes only once confirmed',
    async () => {
      let keys = [
        apiKey(),
        apiKey({
          id: 'b1c2d3e4-0000-4000-8000-000000000002',
          name: 'Tourniquets',
          scopes: ['codes.scan'],
          last_used_at: '2026-11-27T08:30:00.000Z',
        }),
      ];
      const api = new MockApi()
        .on('GET', KEYS, () => ({ body: { data: keys } }))
        .on('DELETE', /^\/api\/company\/acme\/api-keys\/[\w-]+$/, (call) => {
          keys = keys.map((k) =>
            call.path.endsWith(k.id) ? { ...k, revoked_at: '2026-11-28T10:00:00.000Z' } : k,
          );
          return { body: { message: 'Clé API révoquée.' } };
        });
      const page = await screens.open('/acme/api-keys', api);
      await page.getByRole('button', { name: 'Révoquer la clé Outil RH' }).click();
      const confirm = page.getByRole('dialog', { name: 'Révoquer la clé « Outil RH » ?' });
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain('ne pourra plus appeler l');

      // Cancelled: nothing sent.
      await confirm.getByRole('button', { name: 'Annuler' }).click();
      await confirm.waitFor({ state: 'detached' });
      expect(api.sent('DELETE', /api-keys/)).toEqual([]);

      await page.getByRole('button', { name: 'Révoquer la clé Outil RH' }).click();
      await page
        .getByRole('dialog', { name: 'Révoquer la clé « Outil RH » ?' })
        .getByRole('button', { name: 'Révoquer' })
        .click();
      await page.getByText(/^Révoquée le/).waitFor();
      expect(api.sent('DELETE', /api-keys/).map((c) => c.path)).toEqual([`${KEYS}/${apiKey().id}`]);
      // A revoked key has nothing more to do; the other still may be revoked.
      expect(await page.getByRole('button', { name: 'Révoquer la clé Outil RH' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Révoquer la clé Tourniquets' }).waitFor();
      await page.context().close();
    },
    SLOW,
  );

  it(
    'says why the list could not be loaded',
    async () => {
      const api = new MockApi().on('GET', KEYS, {
        status: 503,
        body: { message: 'Service indisponible.' },
      });
      const page = await screens.open('/acme/api-keys', api);
      await page
        .getByRole('alert')
        .filter({ hasText: 'Service indisponible.' })
        .waitFor({ timeout: 15_000 });
      await page.context().close();
    },
    SLOW,
  );

  it(
    'fits a phone: the keys become cards, nothing scrolls sideways',
    async () => {
      const api = new MockApi().on('GET', KEYS, { body: { data: [apiKey()] } });
      const page = await screens.open('/acme/api-keys', api, { viewport: PHONE });
      await page.locator('[data-layout="cards"]').waitFor();
      expect(await overflowsSideways(page)).toBe(false);
      await page.context().close();
    },
    SLOW,
  );
});

const HOOKS = '/api/company/acme/webhooks';
const HOOK_ID = 'c3d4e5f6-1111-4222-8333-944455566677';

const webhook = (over: Partial<Webhook> = {}): Webhook => ({
  id: HOOK_ID,
  url: 'https://rh.acme.test/sesame/events',
  events: ['visit.requested', 'visitor.checked_in'],
  enabled: false,
  disabled_reason: 'gone',
  created_at: '2026-11-20T09:00:00.000Z',
  created_by: null,
  last_delivery_at: '2026-11-27T16:42:00.000Z',
  last_delivery_ok: false,
  ...over,
});

const delivery = (over: Partial<WebhookDelivery>): WebhookDelivery => ({
  id: 'd0000000-0000-4000-8000-000000000001',
  message_id: 'msg_2pQw',
  type: 'visitor.checked_in',
  state: 'delivered',
  attempts: 1,
  response_status: 200,
  response_body: null,
  created_at: '2026-11-27T16:40:00.000Z',
  last_attempt_at: '2026-11-27T16:40:01.000Z',
  next_attempt_at: null,
  ...over,
});

const DELIVERIES: WebhookDelivery[] = [
  delivery({
    id: 'd1',
    state: 'pending',
    attempts: 0,
    response_status: null,
    last_attempt_at: null,
  }),
  delivery({
    id: 'd2',
    type: 'visit.requested',
    state: 'retrying',
    attempts: 3,
    response_status: 503,
    response_body: '{"error":"maintenance en cours"}',
    next_attempt_at: '2026-11-27T17:10:00.000Z',
  }),
  delivery({ id: 'd3', state: 'delivered', response_body: 'ok' }),
  delivery({
    id: 'd4',
    type: 'webhook.test',
    state: 'failed',
    attempts: 9,
    response_status: 410,
    response_body: 'Gone',
  }),
];

describe('Webhooks', () => {
  it(
    'lists each endpoint with its events, its 410 and its last delivery, and switches it back on',
    async () => {
      let hooks = [webhook()];
      const api = new MockApi()
        .on('GET', HOOKS, () => ({ body: { data: hooks } }))
        .on('PATCH', `${HOOKS}/${HOOK_ID}`, (call) => {
          hooks = [{ ...hooks[0]!, ...(call.body as Partial<Webhook>), disabled_reason: null }];
          return { body: { message: 'Webhook enregistré.', data: hooks[0] } };
        });
      const page = await screens.open('/acme/webhooks', api);
      const card = page.getByTestId('webhook');
      await card.waitFor();
      expect(await card.textContent()).toContain('https://rh.acme.test/sesame/events');
      expect(await card.getByTestId('webhook-state').textContent()).toBe(
        'Désactivé : le récepteur a répondu 410',
      );
      // Each event in words, its technical name beside.
      const events = await card.getByRole('list', { name: 'Événements' }).textContent();
      expect(events).toContain('Demande de visite reçue visit.requested');
      expect(events).toContain("Arrivée d'un visiteur visitor.checked_in");
      expect(await card.getByTestId('webhook-last-delivery').textContent()).toMatch(
        /^Dernier envoi en échec le 27 novembre 2026/,
      );
      expect(await page.getByTestId('webhook-signature-line').textContent()).toContain(
        'webhook-id, webhook-timestamp et webhook-signature',
      );

      await card
        .getByRole('switch', { name: `Envois activés pour ${webhook().url}` })
        .click({ force: true });
      await card.getByTestId('webhook-state').filter({ hasText: 'Actif' }).waitFor();
      expect(api.sent('PATCH', `${HOOKS}/${HOOK_ID}`).map((c) => c.body)).toEqual([
        { enabled: true },
      ]);
      await page.context().close();
    },
    SLOW,
  );

  it(
    'shows the delivery log’s states, the answer folded in monospace, and sends a message again',
    async () => {
      const api = new MockApi()
        .on('GET', HOOKS, { body: { data: [webhook({ enabled: true, disabled_reason: null })] } })
        .on('GET', `${HOOKS}/${HOOK_ID}/deliveries`, {
          body: { data: DELIVERIES, meta: { page: 1, per_page: 100, total: 4 } },
        })
        .on('POST', `${HOOKS}/${HOOK_ID}/deliveries/d4/resend`, {
          body: { message: 'Nouvel envoi programmé.' },
        });
      const page = await screens.open('/acme/webhooks', api);
      await page.getByRole('button', { name: `Journal des envois de ${webhook().url}` }).click();
      const log = page.getByTestId('delivery-log');
      await log.getByTestId('delivery-state').first().waitFor();
      expect(await log.getByTestId('delivery-state').allTextContents()).toEqual([
        'En attente',
        'Nouvel essai',
        'Livré',
        'Échec',
      ]);
      expect(api.sent('GET', `${HOOKS}/${HOOK_ID}/deliveries`)[0]?.query.get('page')).toBe('1');
      const text = await log.textContent();
      expect(text).toContain('Pas de réponse');
      expect(text).toContain('503');
      expect(text).toContain('Nouvel essai le 27 novembre 2026');
      expect(text).toContain('Événement de test');

      // The answer's first bytes, folded until asked for, in monospace.
      const body = log.getByTestId('delivery-body').first();
      const code = body.locator('pre');
      expect(await code.isVisible()).toBe(false);
      await body.getByText('Voir la réponse').click();
      expect(await code.textContent()).toBe('{"error":"maintenance en cours"}');
      expect(await code.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/mono/i);

      await log.getByRole('button', { name: /^Renvoyer : Événement de test/ }).click();
      await page.getByText('Nouvel envoi programmé.').waitFor();
      expect(api.sent('POST', /\/resend$/).map((c) => c.path)).toEqual([
        `${HOOKS}/${HOOK_ID}/deliveries/d4/resend`,
      ]);
      await page.context().close();
    },
    SLOW,
  );

  it(
    'creates an endpoint with the shared schema’s checks and shows its signing secret once',
    async () => {
      const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
      const hooks: Webhook[] = [];
      const api = new MockApi()
        .on('GET', HOOKS, () => ({ body: { data: hooks } }))
        .on('POST', HOOKS, (call) => {
          const input = call.body as { url: string; events: Webhook['events'] };
          const created = webhook({
            ...input,
            enabled: true,
            disabled_reason: null,
            last_delivery_at: null,
            last_delivery_ok: null,
          });
          hooks.push(created);
          return { status: 201, body: { message: 'Webhook créé.', data: { ...created, secret } } };
        })
        .on('POST', `${HOOKS}/${HOOK_ID}/test`, { body: { message: 'Événement de test envoyé.' } })
        .on('GET', `${HOOKS}/${HOOK_ID}/deliveries`, {
          body: { data: [], meta: { page: 1, per_page: 100, total: 0 } },
        });
      const page = await screens.open('/acme/webhooks', api);
      await page.getByText('Aucun webhook pour l’instant.'.replace('’', "'")).waitFor();
      await page.getByRole('button', { name: 'Nouveau webhook' }).click();
      await page.getByLabel('Adresse du récepteur (URL)').fill('ftp://rh.acme.test');
      await page.getByLabel('Secret (facultatif, format whsec_…)').fill('mon-secret');
      await page.getByRole('button', { name: 'Créer le webhook' }).click();
      await page
        .getByText("Veuillez saisir l'adresse complète du récepteur (https://…).")
        .first()
        .waitFor();
      await page
        .getByText('Le secret doit être au format Standard Webhooks', { exact: false })
        .first()
        .waitFor();
      await page.getByText('Choisissez au moins un événement.').first().waitFor();
      expect(api.sent('POST', HOOKS)).toEqual([]);

      await page
        .getByLabel('Adresse du récepteur (URL)')
        .fill('https://rh.acme.test/sesame/events');
      await page.getByLabel('Secret (facultatif, format whsec_…)').fill('');
      await page.getByRole('checkbox', { name: /Visite confirmée/ }).check();
      await page.getByRole('checkbox', { name: /Appel d'évacuation commencé/ }).check();
      await page.getByRole('button', { name: 'Créer le webhook' }).click();

      const dialog = page.getByRole('dialog', { name: 'Secret du webhook' });
      await dialog.waitFor();
      expect(await dialog.getByLabel('Secret de signature', { exact: true }).inputValue()).toBe(
        secret,
      );
      await dialog.getByRole('button', { name: 'Copier : Secret de signature' }).waitFor();
      expect(api.sent('POST', HOOKS).map((c) => c.body)).toEqual([
        {
          url: 'https://rh.acme.test/sesame/events',
          events: ['visit.confirmed', 'roll_call.started'],
        },
      ]);
      await dialog.getByRole('button', { name: "J'ai copié le secret" }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await page.content()).not.toContain(secret);

      // "Envoyer un événement de test": the server's words, and the log opens.
      await page.getByRole('button', { name: /^Envoyer un événement de test à/ }).click();
      await page.getByText('Événement de test envoyé.').waitFor();
      await page
        .getByTestId('delivery-log')
        .getByText('Aucun envoi pour l’instant.'.replace('’', "'"))
        .waitFor();
      expect(api.sent('POST', `${HOOKS}/${HOOK_ID}/test`)).toHaveLength(1);
      await page.context().close();
    },
    SLOW,
  );

  it(
    'asks before deleting an endpoint',
    async () => {
      const api = new MockApi()
        .on('GET', HOOKS, { body: { data: [webhook()] } })
        .on('DELETE', `${HOOKS}/${HOOK_ID}`, { body: { message: 'Webhook supprimé.' } });
      const page = await screens.open('/acme/webhooks', api);
      await page.getByRole('button', { name: `Supprimer ${webhook().url}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Supprimer ce webhook ?' });
      expect(await confirm.textContent()).toContain(webhook().url);
      expect(api.sent('DELETE', `${HOOKS}/${HOOK_ID}`)).toEqual([]);
      await confirm.getByRole('button', { name: 'Supprimer' }).click();
      await page.getByText('Webhook supprimé.').waitFor();
      expect(api.sent('DELETE', `${HOOKS}/${HOOK_ID}`)).toHaveLength(1);
      await page.context().close();
    },
    SLOW,
  );

  it(
    'fits a phone with its log open',
    async () => {
      const api = new MockApi()
        .on('GET', HOOKS, { body: { data: [webhook()] } })
        .on('GET', `${HOOKS}/${HOOK_ID}/deliveries`, {
          body: { data: DELIVERIES, meta: { page: 1, per_page: 100, total: 4 } },
        });
      const page = await screens.open('/acme/webhooks', api, { viewport: PHONE });
      await page.getByRole('button', { name: `Journal des envois de ${webhook().url}` }).click();
      await page.getByTestId('delivery-log').locator('[data-layout="cards"]').waitFor();
      expect(await overflowsSideways(page)).toBe(false);
      await page.context().close();
    },
    SLOW,
  );
});

const CHAT = '/api/company/acme/chat';
const SITES: Site[] = [
  { id: '9a8b7c6d-0000-4000-8000-00000000000a', name: 'Siège Plateau' },
  { id: '9a8b7c6d-0000-4000-8000-00000000000b', name: 'Usine Yopougon' },
].map((site) => ({ ...site }) as Site);

const chatSettings = (over: Partial<ChatSettings> = {}): ChatSettings => ({
  has_slack_bot_token: true,
  channels: [
    {
      id: 'e1',
      kind: 'slack_webhook',
      name: '#accueil-plateau',
      url_host: 'hooks.slack.com',
      site_id: SITES[0]!.id,
      created_at: '2026-11-20T09:00:00.000Z',
    },
    {
      id: 'e2',
      kind: 'teams_workflow',
      name: 'Accueil (Teams)',
      url_host: 'prod-42.westeurope.logic.azure.com',
      site_id: null,
      created_at: '2026-11-21T09:00:00.000Z',
    },
  ],
  ...over,
});

describe('Messagerie', () => {
  it(
    'keeps the Slack token write-only: never shown, blank keeps it, removing sends null',
    async () => {
      let settings = chatSettings();
      const api = new MockApi()
        .on('GET', CHAT, () => ({ body: { data: settings } }))
        .on('GET', '/api/company/acme/sites', { body: { data: SITES } })
        .on('PUT', CHAT, (call) => {
          const token = (call.body as { slack_bot_token: string | null }).slack_bot_token;
          settings = { ...settings, has_slack_bot_token: token !== null };
          return { body: { message: 'Messagerie enregistrée.', data: settings } };
        });
      const page = await screens.open('/acme/chat', api);
      const field = page.getByLabel('Jeton du bot Slack (xoxb-…)');
      await field.waitFor();
      expect(await field.inputValue()).toBe('');
      expect(await field.getAttribute('type')).toBe('password');
      expect(await field.getAttribute('placeholder')).toBe(
        'Enregistré — laissez vide pour le conserver',
      );

      // Blank: nothing to send, the stored token stays.
      await page.getByRole('button', { name: 'Enregistrer le jeton' }).click();
      await page.getByText('Collez le jeton du bot Slack (il commence par xoxb-).').waitFor();
      expect(api.sent('PUT', CHAT)).toEqual([]);

      await field.fill('  xoxb-1234-5678-abcdef  ');
      await page.getByRole('button', { name: 'Enregistrer le jeton' }).click();
      await page.getByText('Messagerie enregistrée.').waitFor();
      expect(await field.inputValue()).toBe('');

      await page.getByRole('button', { name: 'Retirer le jeton' }).click();
      await page
        .getByRole('dialog', { name: 'Retirer le jeton du bot Slack ?' })
        .getByRole('button', { name: 'Retirer' })
        .click();
      await page.getByText('Aucun jeton enregistré.').waitFor();
      expect(api.sent('PUT', CHAT).map((c) => c.body)).toEqual([
        { slack_bot_token: 'xoxb-1234-5678-abcdef' },
        { slack_bot_token: null },
      ]);
      expect(await page.getByRole('button', { name: 'Retirer le jeton' }).count()).toBe(0);
      await page.context().close();
    },
    SLOW,
  );

  it(
    'lists the channels with their site, adds one for a site and removes one after asking',
    async () => {
      let settings = chatSettings();
      const api = new MockApi()
        .on('GET', CHAT, () => ({ body: { data: settings } }))
        .on('GET', '/api/company/acme/sites', { body: { data: SITES } })
        .on('POST', `${CHAT}/channels`, (call) => {
          const input = call.body as {
            kind: 'slack_webhook';
            name: string;
            site_id: string | null;
          };
          settings = {
            ...settings,
            channels: [
              ...settings.channels,
              {
                id: 'e3',
                kind: input.kind,
                name: input.name,
                url_host: 'hooks.slack.com',
                site_id: input.site_id,
                created_at: '2026-11-28T09:00:00.000Z',
              },
            ],
          };
          return {
            status: 201,
            body: { message: 'Canal connecté.', data: settings.channels.at(-1) },
          };
        })
        .on('DELETE', `${CHAT}/channels/e2`, () => {
          settings = { ...settings, channels: settings.channels.filter((c) => c.id !== 'e2') };
          return { body: { message: 'Canal déconnecté.' } };
        });
      const page = await screens.open('/acme/chat', api);
      const channels = page.getByTestId('chat-channels');
      await channels.getByTestId('chat-channel-name').first().waitFor();
      const rows = await channels.locator('tbody tr').allTextContents();
      expect(rows[0]).toContain('#accueil-plateau');
      expect(rows[0]).toContain('Slack');
      expect(rows[0]).toContain('hooks.slack.com');
      expect(rows[0]).toContain('Siège Plateau');
      expect(rows[1]).toContain('Microsoft Teams');
      expect(rows[1]).toContain('Tous les sites');

      // The shared schema's words, nothing sent.
      await page.getByRole('button', { name: 'Connecter le canal' }).click();
      await page.getByText('Veuillez nommer ce canal (par exemple : #accueil).').first().waitFor();
      expect(api.sent('POST', `${CHAT}/channels`)).toEqual([]);

      await page.getByLabel('Nom du canal').fill('#accueil-usine');
      await page.getByLabel('URL du webhook').fill('https://hooks.slack.com/services/T0/B0/secret');
      await page.getByLabel('Site').selectOption({ label: 'Usine Yopougon' });
      await page.getByRole('button', { name: 'Connecter le canal' }).click();
      await channels.getByText('#accueil-usine').waitFor();
      expect(api.sent('POST', `${CHAT}/channels`).map((c) => c.body)).toEqual([
        {
          kind: 'slack_webhook',
          name: '#accueil-usine',
          url: 'https://hooks.slack.com/services/T0/B0/secret',
          site_id: SITES[1]!.id,
        },
      ]);
      // The URL is a secret: once sent, the page keeps none of it.
      expect(await page.getByLabel('URL du webhook').inputValue()).toBe('');
      expect(await page.content()).not.toContain('/services/T0/B0/secret');

      await page.getByRole('button', { name: 'Retirer le canal Accueil (Teams)' }).click();
      await page
        .getByRole('dialog', { name: 'Retirer le canal « Accueil (Teams) » ?' })
        .getByRole('button', { name: 'Retirer' })
        .click();
      await page.getByText('Canal déconnecté.').waitFor();
      expect(api.sent('DELETE', /\/channels\//).map((c) => c.path)).toEqual([
        `${CHAT}/channels/e2`,
      ]);
      await page.context().close();
    },
    SLOW,
  );

  it(
    'fits a phone',
    async () => {
      const api = new MockApi()
        .on('GET', CHAT, { body: { data: chatSettings() } })
        .on('GET', '/api/company/acme/sites', { body: { data: SITES } });
      const page = await screens.open('/acme/chat', api, { viewport: PHONE });
      await page.getByTestId('chat-channels').locator('[data-layout="cards"]').waitFor();
      expect(await overflowsSideways(page)).toBe(false);
      await page.context().close();
    },
    SLOW,
  );
});

const PREFS = '/api/me/mail-preferences';

describe('Mes notifications', () => {
  const prefs = (chat_available: boolean) => ({
    language: 'fr',
    arrival_mail: true,
    channels: { request: 'mail', arrival: 'mail', here: 'mail' },
    chat_available,
  });

  it(
    'disables the chat choices until the company connects a chat, and sends the channels',
    async () => {
      const api = new MockApi()
        .on('GET', PREFS, { body: { data: prefs(false) } })
        .on('PUT', PREFS, (call) => ({
          body: {
            message: 'Préférences enregistrées.',
            data: { ...(call.body as object), chat_available: false },
          },
        }));
      const page = await screens.open('/acme/my-mail-settings', api, {
        user: personOf('ROLE_USER'),
      });
      await page.getByRole('heading', { level: 1, name: 'Mes notifications' }).waitFor();
      await page
        .getByText("Votre entreprise n'a pas encore connecté de messagerie (Slack ou Teams).")
        .waitFor();
      for (const message of [
        'Demande de rendez-vous à décider',
        'Arrivée de votre visiteur',
        '« Je suis arrivé(e) » de votre visiteur',
      ]) {
        const group = page.getByRole('radiogroup', { name: message });
        expect(await group.getByRole('radio', { name: 'E-mail' }).isDisabled()).toBe(false);
        expect(await group.getByRole('radio', { name: 'Chat' }).isDisabled()).toBe(true);
        expect(await group.getByRole('radio', { name: 'Les deux' }).isDisabled()).toBe(true);
      }
      await page.getByTestId('arrival-mail-switch').uncheck({ force: true });
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByText('Préférences enregistrées.').waitFor();
      expect(api.sent('PUT', PREFS).map((c) => c.body)).toEqual([
        {
          language: 'fr',
          arrival_mail: false,
          channels: { request: 'mail', arrival: 'mail', here: 'mail' },
        },
      ]);
      await page.context().close();
    },
    SLOW,
  );

  it(
    'sends each message’s choice once the company has a chat',
    async () => {
      const api = new MockApi()
        .on('GET', PREFS, { body: { data: prefs(true) } })
        .on('PUT', PREFS, (call) => ({
          body: {
            message: 'Préférences enregistrées.',
            data: { ...(call.body as object), chat_available: true },
          },
        }));
      const page = await screens.open('/acme/my-mail-settings', api, {
        user: personOf('ROLE_USER'),
        viewport: PHONE,
      });
      const request = page.getByRole('radiogroup', { name: 'Demande de rendez-vous à décider' });
      await request.waitFor();
      expect(await page.getByTestId('no-chat').count()).toBe(0);
      await request.getByText('Les deux').click();
      await page
        .getByRole('radiogroup', { name: '« Je suis arrivé(e) » de votre visiteur' })
        .getByText('Chat')
        .click();
      expect(await overflowsSideways(page)).toBe(false);
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByText('Préférences enregistrées.').waitFor();
      expect(api.sent('PUT', PREFS).map((c) => (c.body as { channels: unknown }).channels)).toEqual(
        [{ request: 'both', arrival: 'mail', here: 'chat' }],
      );
      await page.context().close();
    },
    SLOW,
  );
});
