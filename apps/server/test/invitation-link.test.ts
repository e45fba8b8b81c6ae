/**
 * Issue 30: the invited visitor's own page, by the signed link of their mail, on PGlite and
 * PostgreSQL — the visit shown (a good link, an altered one, an expired one), the details
 * completed with a real document (PNG, JPEG, PDF; a second one replaces the first) and
 * refused inputs that store nothing, and "Je suis arrivé(e)": refused the day before,
 * accepted on the day, the host and the front desk mailed once, heard live.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { InvitationCreated, InvitationLinkView } from '@sesame/shared';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import { column, rowsOf } from '../src/db/rows';
import {
  auditEvents,
  files,
  mailOutbox,
  sites,
  users,
  visitRequests,
  visitors,
} from '../src/db/schema';
import { InvitationLinks } from '../src/invitations/link';
import type { InvitationMailPayload } from '../src/mail/outbox';
import { qrPng } from '../src/qr/qr';
import { dayOf } from '../src/time-zones';
import { as, multipart, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildTenant } from './helpers/factories';
import { openLiveStream, type LiveStream } from './helpers/live-stream';

type Tenant = Awaited<ReturnType<typeof buildTenant>>;
type Upload = { filename: string; contentType: string; bytes: Buffer };

const jpeg = () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);
const pdf = () => Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

/** DD/MM/YYYY of the day `offset` days from today in `timeZone`. */
function dayIn(timeZone: string, offset: number): string {
  const [y, m, d] = dayOf(new Date(), timeZone).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d + offset));
  return day.toISOString().slice(0, 10).split('-').reverse().join('/');
}

describe(`the invited visitor's link (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let acme: Tenant;
  let siteId: string;
  let timeZone: string;
  let hostToken: string;
  let links: InvitationLinks;
  let png: Buffer;
  let base = '';
  let stream: LiveStream | undefined;

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    const [site] = await ctx.db.select().from(sites).where(eq(sites.companyId, acme.company.id));
    siteId = site!.id;
    timeZone = site!.timezone;
    await ctx.db
      .update(sites)
      .set({ address: '12 rue des Jardins', city: 'Abidjan', zipcode: '01 BP 12', country: 'CI' })
      .where(eq(sites.id, siteId));
    hostToken = await tokenFor(ctx.app, acme.staff.ROLE_USER.email);
    links = new InvitationLinks(ctx.config.jwtSecret);
    png = await qrPng('an identity document');
  });

  afterAll(() => stream?.close());

  const hostName = () => `${acme.staff.ROLE_USER.firstname} ${acme.staff.ROLE_USER.name}`;

  /** Invites one visitor (or two) on `date`; answers the requests and each one's link. */
  async function invite(date: string, others: Record<string, string>[] = []) {
    const res = await as(
      ctx.app,
      hostToken,
    )({
      method: 'POST',
      url: '/api/invitations',
      payload: {
        site_id: siteId,
        date,
        time: '09:00',
        end_time: '10:00',
        reason: 'Audit',
        language: 'en',
        visitors: [
          { firstname: 'Awa', lastname: 'Koné', email: 'awa@example.com', organisation: 'Orange' },
          ...others,
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<InvitationCreated>();
    const requestId = created.visitors[0]!.request_id;
    const [visitor] = await ctx.db
      .select()
      .from(visitors)
      .where(eq(visitors.id, created.visitors[0]!.visitor_id));
    return {
      created,
      requestId,
      visitorId: visitor!.id,
      token: links.sign(requestId, visitor!.dayEndsAt!),
    };
  }

  const call = (options: InjectOptions) => ctx.app.inject(options);
  const view = (token: string, lang = 'fr') =>
    call({
      method: 'GET',
      url: `/api/public/invitation?token=${encodeURIComponent(token)}`,
      headers: { 'accept-language': lang },
    });
  const details = (token: string, fields: Record<string, string>, document?: Upload) =>
    call({
      method: 'POST',
      url: `/api/public/invitation/details?token=${encodeURIComponent(token)}`,
      ...multipart(fields, document ? { request_image: document } : {}),
    });
  const here = (token: string, lang = 'fr') =>
    call({
      method: 'POST',
      url: `/api/public/invitation/here?token=${encodeURIComponent(token)}`,
      headers: { 'accept-language': lang },
    });

  /** Every file under the storage folder. */
  async function storedFiles(): Promise<string[]> {
    const root = path.join(ctx.config.dataDir, 'files');
    const found: string[] = [];
    let shards: string[];
    try {
      shards = await readdir(root);
    } catch {
      return found;
    }
    for (const shard of shards) found.push(...(await readdir(path.join(root, shard))));
    return found.sort();
  }

  const visitorRow = async (id: string) =>
    (await ctx.db.select().from(visitors).where(eq(visitors.id, id)))[0]!;

  const hereMails = async (requestId: string) =>
    (await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'invitation_here'))).filter(
      (mail) => (mail.payload as InvitationMailPayload).requestId === requestId,
    );

  describe('GET /api/public/invitation', () => {
    it('shows the visitor their visit, and nothing of anyone else', async () => {
      const { token, created } = await invite(dayIn(timeZone, 0), [
        { firstname: 'Yao', lastname: 'Kouassi', email: 'yao@example.com', organisation: '' },
      ]);
      const res = await view(token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const data = res.json<{ data: InvitationLinkView }>().data;
      expect(data).toMatchObject({
        company: { name: acme.company.name, slug: acme.company.slug },
        host: hostName(),
        firstname: 'Awa',
        lastname: 'Koné',
        code: created.visitors[0]!.code,
        date: dayIn(timeZone, 0),
        time: '09:00',
        end_time: '10:00',
        reason: 'Audit',
        language: 'en',
        cancelled: false,
        details_completed: false,
        today_is_visit_day: true,
        here_at: null,
        privacy_notice_url: `/api/public/privacy-notice/${acme.company.slug}`,
      });
      expect(data.site.address).toBe('12 rue des Jardins, 01 BP 12 Abidjan, Côte d’Ivoire');
      expect(data.site.map_url).toBe(
        `https://www.openstreetmap.org/search?query=${encodeURIComponent(data.site.address)}`,
      );
      expect(data.days).toEqual([
        { day: dayIn(timeZone, 0).split('/').reverse().join('-'), cancelled: false },
      ]);
      // Theirs alone: no other visitor of the group, no identity document, no contact.
      expect(res.body).not.toContain('Kouassi');
      expect(res.body).not.toContain(created.visitors[1]!.code);
      expect(res.body).not.toMatch(/id_number|request_image|awa@example\.com/);
      // The country is named in the reader's language.
      const english = (await view(token, 'en')).json<{ data: InvitationLinkView }>().data;
      expect(english.site.address).toMatch(/^12 rue des Jardins, 01 BP 12 Abidjan, /);
      expect(english.privacy_notice_url).toBe(
        `/api/public/privacy-notice/${acme.company.slug}?lang=en`,
      );
    });

    it('refuses an altered link (404), a link of another kind (404), an expired one (410)', async () => {
      const { requestId, token } = await invite(dayIn(timeZone, 1));
      const altered = `${token.slice(0, -3)}${token.slice(-3) === 'AAA' ? 'BBB' : 'AAA'}`;
      const res = await view(altered);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe("Ce lien d'invitation n'est pas valide ou a expiré.");
      expect((await view(altered, 'en')).json().message).toBe(
        'This invitation link is not valid or has expired.',
      );
      expect((await view('not-a-token')).statusCode).toBe(404);
      // Signed with another key (another secret): refused as forged.
      const stranger = new InvitationLinks('another-secret-that-is-long-enough-for-hs256');
      expect(
        (await view(stranger.sign(requestId, new Date(Date.now() + 3600_000)))).statusCode,
      ).toBe(404);
      // A request that is no invitation's, with a good signature: nothing to show.
      const [plain] = await ctx.db
        .select({ id: visitRequests.id })
        .from(visitRequests)
        .where(sql`${visitRequests.invitationId} is null`)
        .limit(1);
      if (plain) {
        expect((await view(links.sign(plain.id, new Date(Date.now() + 3600_000)))).statusCode).toBe(
          404,
        );
      }
      // Past its visit's end: the clock of a link checked tomorrow says it is expired.
      const ends = new Date(Date.now() - 1000);
      const expired = links.sign(requestId, ends);
      const gone = await view(expired);
      expect(gone.statusCode).toBe(410);
      expect(gone.json().message).toBe("Ce lien d'invitation n'est pas valide ou a expiré.");
      const later = new InvitationLinks(ctx.config.jwtSecret, () => Date.now() + 3 * 86_400_000);
      expect(later.verify(token)).toEqual({ ok: false, reason: 'expired' });
      expect((await view('')).statusCode).toBe(400);
    });
  });

  describe('POST /api/public/invitation/details', () => {
    it('stores the identity number and document, and a second document replaces the first', async () => {
      const { token, visitorId } = await invite(dayIn(timeZone, 1));
      const before = await storedFiles();
      const res = await details(
        token,
        { id_number: 'CI-0042', privacy_accepted: '1' },
        { filename: 'passport.png', contentType: 'image/png', bytes: png },
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe('Merci, vos informations sont enregistrées. À bientôt !');
      const first = await visitorRow(visitorId);
      expect(first.idNumber).toBe('CI-0042');
      expect(first.detailsCompletedAt).not.toBeNull();
      const [file] = await ctx.db.select().from(files).where(eq(files.id, first.requestImageId!));
      expect(file).toMatchObject({
        ownerType: 'visitor',
        ownerId: visitorId,
        companyId: acme.company.id,
        mediaType: 'image/png',
        size: png.length,
      });
      expect(await ctx.app.storage.get(file!.storedName)).toEqual(png);
      expect((await storedFiles()).length).toBe(before.length + 1);
      const audited = await ctx.db
        .select()
        .from(auditEvents)
        .where(
          and(
            eq(auditEvents.action, 'invitation.details_completed'),
            eq(auditEvents.subjectId, visitorId),
          ),
        );
      expect(audited).toHaveLength(1);
      expect(audited[0]).toMatchObject({
        actorUserId: null,
        subjectType: 'visitor',
        companyId: acme.company.id,
      });
      expect(JSON.stringify(audited[0]!.detail)).not.toContain('CI-0042');
      expect((await view(token)).json<{ data: InvitationLinkView }>().data.details_completed).toBe(
        true,
      );

      // A JPEG then a PDF: each replaces the one before, whose bytes and row are gone.
      for (const [document, type] of [
        [{ filename: 'id.jpg', contentType: 'image/jpeg', bytes: jpeg() }, 'image/jpeg'],
        [{ filename: 'id.pdf', contentType: 'application/pdf', bytes: pdf() }, 'application/pdf'],
      ] as const) {
        const previous = await visitorRow(visitorId);
        const [old] = await ctx.db
          .select()
          .from(files)
          .where(eq(files.id, previous.requestImageId!));
        const again = await details(
          token,
          { id_number: 'CI-0043', privacy_accepted: 'on' },
          {
            ...document,
          },
        );
        expect(again.statusCode, again.body).toBe(200);
        const now = await visitorRow(visitorId);
        expect(now.idNumber).toBe('CI-0043');
        expect(now.requestImageId).not.toBe(previous.requestImageId);
        const [stored] = await ctx.db.select().from(files).where(eq(files.id, now.requestImageId!));
        expect(stored!.mediaType).toBe(type);
        expect(await ctx.db.select().from(files).where(eq(files.id, old!.id))).toEqual([]);
        expect(await ctx.app.storage.get(old!.storedName)).toBeNull();
        expect((await storedFiles()).length).toBe(before.length + 1);
      }
    });

    it('refuses a missing document, a wrong type, no privacy notice, no number: 400, nothing stored', async () => {
      const { token, visitorId } = await invite(dayIn(timeZone, 1));
      const before = await storedFiles();
      const rowsBefore = await ctx.db.select({ id: files.id }).from(files);
      const good = { id_number: 'CI-7', privacy_accepted: '1' };
      const image: Upload = { filename: 'id.png', contentType: 'image/png', bytes: png };

      const noFile = await details(token, good);
      expect(noFile.statusCode).toBe(400);
      expect(noFile.json()).toMatchObject({
        message: 'Veuillez sélectionner un fichier valide',
        errors: { request_image: 'Veuillez sélectionner un fichier valide' },
      });
      const empty = await details(token, good, { ...image, bytes: Buffer.alloc(0) });
      expect(empty.statusCode).toBe(400);

      const noPrivacy = await details(token, { id_number: 'CI-7' }, image);
      expect(noPrivacy.statusCode).toBe(400);
      expect(noPrivacy.json().errors).toEqual({
        privacy_accepted: 'Veuillez accepter la notice de confidentialité.',
      });

      const noNumber = await details(token, { privacy_accepted: '1' }, image);
      expect(noNumber.statusCode).toBe(400);
      expect(noNumber.json().errors.id_number).toBe(
        'Le champ "Numéro de pièce d\'identité" est requis.',
      );

      // Bytes that are no image nor PDF, whatever their name says: refused as the visitor
      // form refuses them (415, its message under the field on the page).
      const text = await details(token, good, {
        filename: 'id.png',
        contentType: 'image/png',
        bytes: Buffer.from('this is not an image at all'),
      });
      expect(text.statusCode).toBe(415);
      expect(text.json().message).toBe("Ce type de fichier n'est pas accepté.");

      const tooLarge = await details(token, good, {
        ...image,
        bytes: Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]),
      });
      expect(tooLarge.statusCode).toBe(413);

      expect(await storedFiles()).toEqual(before);
      expect(await ctx.db.select({ id: files.id }).from(files)).toHaveLength(rowsBefore.length);
      const visitor = await visitorRow(visitorId);
      expect(visitor).toMatchObject({
        idNumber: '',
        requestImageId: null,
        detailsCompletedAt: null,
      });
    });

    it('leaves no file behind when the transaction fails after the bytes were written', async () => {
      const { token, visitorId } = await invite(dayIn(timeZone, 1));
      const before = await storedFiles();
      await ctx.db.execute(sql`
        create or replace function test_refuse_file_row() returns trigger language plpgsql as $$
        begin raise exception 'test: the files row is refused'; end $$`);
      await ctx.db.execute(sql`
        create trigger test_refuse_file_row before insert on files
        for each row execute function test_refuse_file_row()`);
      try {
        const res = await details(
          token,
          { id_number: 'CI-9', privacy_accepted: '1' },
          { filename: 'id.png', contentType: 'image/png', bytes: png },
        );
        expect(res.statusCode).toBeGreaterThanOrEqual(500);
      } finally {
        await ctx.db.execute(sql`drop trigger if exists test_refuse_file_row on files`);
      }
      expect(await storedFiles()).toEqual(before);
      expect((await visitorRow(visitorId)).detailsCompletedAt).toBeNull();
    });

    it('has nothing to complete once the invitation is cancelled', async () => {
      const { token, created, visitorId } = await invite(dayIn(timeZone, 1));
      const cancel = await as(
        ctx.app,
        hostToken,
      )({ method: 'POST', url: `/api/invitations/${created.invitation_id}/cancel`, payload: {} });
      expect(cancel.statusCode, cancel.body).toBe(200);
      const before = await storedFiles();
      const res = await details(
        token,
        { id_number: 'CI-1', privacy_accepted: '1' },
        { filename: 'id.png', contentType: 'image/png', bytes: png },
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(
        'Cette invitation est annulée : il n’y a plus rien à compléter.',
      );
      expect(await storedFiles()).toEqual(before);
      expect((await visitorRow(visitorId)).detailsCompletedAt).toBeNull();
      const shown = (await view(token)).json<{ data: InvitationLinkView }>().data;
      expect(shown).toMatchObject({ cancelled: true, today_is_visit_day: false, next_day: null });
    });
  });

  describe('POST /api/public/invitation/here', () => {
    it('is refused the day before the visit, and queues nothing', async () => {
      const { token, requestId } = await invite(dayIn(timeZone, 1));
      const res = await here(token);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(
        "Votre visite n'est pas prévue aujourd'hui : le bouton sert le jour de la visite.",
      );
      expect(await hereMails(requestId)).toEqual([]);
      const [request] = await ctx.db
        .select()
        .from(visitRequests)
        .where(eq(visitRequests.id, requestId));
      expect(request!.hereAt).toBeNull();
      const shown = (await view(token)).json<{ data: InvitationLinkView }>().data;
      expect(shown.today_is_visit_day).toBe(false);
      expect(shown.next_day).toBe(dayIn(timeZone, 1).split('/').reverse().join('-'));
    });

    it('on the day: tells the host and the front desk once, live, and opens no door', async () => {
      base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      stream = await openLiveStream(base, hostToken);
      const { token, requestId, created } = await invite(dayIn(timeZone, 0));

      const res = await here(token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe(`${hostName()} est prévenu(e) de votre arrivée.`);

      const mails = await hereMails(requestId);
      const host = acme.staff.ROLE_USER;
      const desk = acme.staff.ROLE_EMPLOYEE;
      expect(mails.map((m) => m.toAddress).sort()).toEqual([desk.email, host.email].sort());
      const today = dayIn(timeZone, 0).split('/').reverse().join('-');
      for (const mail of mails) {
        const payload = mail.payload as InvitationMailPayload;
        expect(payload).toMatchObject({
          requestId,
          invitationId: created.invitation_id,
          day: today,
        });
        expect(mail.dedupeKey).toBe(`invitation-here:${requestId}:${today}:${payload.userId}`);
      }
      expect(mails.map((m) => (m.payload as InvitationMailPayload).userId).sort()).toEqual(
        [desk.id, host.id].sort(),
      );

      const heard = await stream.next(
        (event) => event.type === 'invitation' && event.request_id === requestId,
      );
      expect(heard).toMatchObject({
        type: 'invitation',
        op: 'here',
        company_id: acme.company.id,
        site_id: siteId,
        invitation_id: created.invitation_id,
        host_user_id: host.id,
      });

      const [request] = await ctx.db
        .select()
        .from(visitRequests)
        .where(eq(visitRequests.id, requestId));
      expect(request!.hereAt).not.toBeNull();
      const shown = (await view(token)).json<{ data: InvitationLinkView }>().data;
      expect(shown.here_at).toBe(request!.hereAt!.toISOString());
      // No check-in: the visitor is not inside.
      const checks = await rowsOf(
        ctx.db,
        z.object({ n: column.count }),
        sql`select count(*) as n from visitor_checks where visitor_id = ${created.visitors[0]!.visitor_id}`,
      );
      expect(checks[0]!.n).toBe(0);

      // Pressed again the same day: the same answer (in English now), nothing queued again.
      const again = await here(token, 'en');
      expect(again.statusCode).toBe(200);
      expect(again.json().message).toBe(`${hostName()} knows you have arrived.`);
      expect(await hereMails(requestId)).toHaveLength(2);
      const [still] = await ctx.db
        .select()
        .from(visitRequests)
        .where(eq(visitRequests.id, requestId));
      expect(still!.hereAt).toEqual(request!.hereAt);
    });

    it('says the front desk knows when the host can no longer be told', async () => {
      const { token, requestId } = await invite(dayIn(timeZone, 0));
      const host = acme.staff.ROLE_USER;
      await ctx.db.update(users).set({ status: false }).where(eq(users.id, host.id));
      try {
        const res = await here(token);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().message).toBe("L'accueil est prévenu de votre arrivée.");
        const mails = await hereMails(requestId);
        expect(mails.map((m) => m.toAddress)).toEqual([acme.staff.ROLE_EMPLOYEE.email]);
      } finally {
        await ctx.db.update(users).set({ status: true }).where(eq(users.id, host.id));
      }
    });

    it('refuses a visitor whose invitation was cancelled', async () => {
      const { token, requestId, created } = await invite(dayIn(timeZone, 0));
      await as(
        ctx.app,
        hostToken,
      )({
        method: 'POST',
        url: `/api/invitations/${created.invitation_id}/cancel`,
        payload: { request_id: requestId },
      });
      const res = await here(token);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Cette visite a été annulée par votre hôte.');
      expect(await hereMails(requestId)).toEqual([]);
    });
  });
});

describe(`the invited visitor's link is rate-limited (${testDatabaseKind})`, () => {
  const ctx = useTestApp({
    rateLimits: { ...DEFAULT_RATE_LIMITS, codeLookupPerWindow: 3, publicFormPerWindow: 2 },
  });

  it('answers 429 past the window’s limit, in the caller’s language', async () => {
    const get = () =>
      ctx.app.inject({
        method: 'GET',
        url: '/api/public/invitation?token=x',
        headers: { 'accept-language': 'en' },
      });
    for (let i = 0; i < 3; i += 1) expect((await get()).statusCode).toBe(404);
    const limited = await get();
    expect(limited.statusCode).toBe(429);
    const post = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/public/invitation/details?token=x',
        ...multipart({ id_number: 'x' }),
      });
    for (let i = 0; i < 2; i += 1) expect((await post()).statusCode).toBe(404);
    expect((await post()).statusCode).toBe(429);
  });
});
