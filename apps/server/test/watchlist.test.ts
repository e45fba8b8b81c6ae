/**
 * Issue 31, the watchlist: its entries (the API's ladder: 401, 400, 403, 404 for another
 * company, what is stored and audited), and the holds at the request and the staff scan:
 * exact e-mail, phone and ID number and a close name hold a visit, a similar name under the
 * threshold and an expired entry do not; allow once lets this visit go on (the host's mail,
 * the scan) and a new visit is held again; deny declines; the reviewers hear it live, an
 * employee does not; the site's security contacts get the mail (a real SMTP server).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sayIn, type WatchlistEntry, type WatchlistHold } from '@sesame/shared';
import {
  auditEvents,
  mailOutbox,
  sites,
  visitRequests,
  visitorChecks,
  visitors,
  watchlistEntries,
  watchlistHolds,
} from '../src/db/schema';
import { smtpTransport } from '../src/mail/transport';
import { MailWorker } from '../src/mail/worker';
import { DecisionTokens } from '../src/requests/decision-token';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildRequest, buildTenant, buildVisitor } from './helpers/factories';
import { openLiveStream } from './helpers/live-stream';
import { freePort, startSmtp, type TestSmtp } from './helpers/smtp';

const fr = (say: Parameters<typeof sayIn>[1]) => sayIn('fr', say);
const quiet = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
let serial = 0;
const fresh = () => `${Date.now().toString(36)}${(serial++).toString(36)}`;

describe(`watchlist (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let acme: Awaited<ReturnType<typeof buildTenant>>;
  let globex: Awaited<ReturnType<typeof buildTenant>>;
  const tokens: Record<string, string> = {};
  let smtp: TestSmtp;

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    globex = await buildTenant(ctx.db);
    for (const [role, user] of Object.entries(acme.staff)) {
      tokens[role] = await tokenFor(ctx.app, user.email);
    }
    tokens.other = await tokenFor(ctx.app, globex.staff.ROLE_MANAGER.email);
    smtp = await startSmtp(await freePort());
    await ctx.db
      .update(sites)
      .set({ securityEmails: ['securite@acme.test', 'poste@acme.test'] })
      .where(eq(sites.id, acme.company.siteId));
  });
  afterAll(async () => {
    await smtp?.stop();
  });

  const call = (role: string) => as(ctx.app, tokens[role] ?? null);
  const base = (company = acme.company) => `/api/company/${company.id}/watchlist`;

  async function addEntry(body: Record<string, unknown>): Promise<WatchlistEntry> {
    const res = await call('ROLE_MANAGER')({
      method: 'POST',
      url: base(),
      payload: { reason: 'Incident du 3 mars', until: '', ...body },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: WatchlistEntry }>().data;
  }

  /** A visitor of acme (today, the site's main one), with a request filed by the public route. */
  async function fileRequest(values: Partial<typeof visitors.$inferInsert> = {}) {
    const visitor = await buildVisitor(ctx.db, {
      company: acme.company,
      firstname: 'Paul',
      lastname: `Durand${fresh()}`,
      email: `p-${fresh()}@example.com`,
      contact: '+2250707000000',
      idNumber: `CI-${fresh()}`,
      ...values,
    });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/requests/create',
      payload: { visitor_id: visitor.id, host: 'M. Diallo', reason: 'Réunion' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { visitor, requestId: res.json<{ data: { id: string } }>().data.id };
  }

  const holdsOf = (visitorId: string) =>
    ctx.db.select().from(watchlistHolds).where(eq(watchlistHolds.visitorId, visitorId));

  const frontDeskMails = (requestId: string) =>
    ctx.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'host_request')))
      .then((rows) =>
        rows.filter((r) => (r.payload as { requestId?: string }).requestId === requestId),
      );

  const scan = (uidn: string) =>
    call('ROLE_EMPLOYEE')({ method: 'GET', url: `/api/get-qr-data/${uidn}` });

  const decide = (holdId: string, decision: 'allow' | 'deny', role = 'ROLE_SUPERVISOR') =>
    call(role)({
      method: 'POST',
      url: `${base()}/holds/${holdId}/decision`,
      payload: { decision, reason: 'Vu avec la sécurité' },
    });

  describe('entries', () => {
    it('refuses without a token, with a bad body, to a role without the right, for another company', async () => {
      expect((await call('none')({ method: 'GET', url: base() })).statusCode).toBe(401);
      const missing = await call('ROLE_MANAGER')({
        method: 'POST',
        url: base(),
        payload: { firstname: '', lastname: 'Seul', reason: 'x', until: '' },
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().message).toBe(fr((m) => m.watchlist.identifierRequired));
      const badUntil = await call('ROLE_MANAGER')({
        method: 'POST',
        url: base(),
        payload: { email: 'a@b.fr', reason: 'x', until: '31/02/2030' },
      });
      expect(badUntil.statusCode).toBe(400);
      expect(badUntil.json().message).toBe(fr((m) => m.watchlist.untilInvalid));
      for (const role of ['ROLE_USER', 'ROLE_EMPLOYEE', 'ROLE_SUPERVISOR', 'ROLE_SESAME']) {
        const res = await call(role)({
          method: 'POST',
          url: base(),
          payload: { email: 'a@b.fr', reason: 'x', until: '' },
        });
        expect(res.statusCode, role).toBe(403);
      }
      const entry = await addEntry({ email: `other-${fresh()}@example.com` });
      const foreign = await call('other')({
        method: 'PUT',
        url: `${base(globex.company)}/${entry.id}`,
        payload: { email: 'x@example.com', reason: 'x', until: '' },
      });
      expect(foreign.statusCode).toBe(404);
      expect(
        (await call('other')({ method: 'GET', url: base() })).statusCode,
        "another company's list",
      ).toBe(404);
      expect(
        (await call('other')({ method: 'DELETE', url: `${base()}/${entry.id}` })).statusCode,
      ).toBe(404);
    });

    it('stores the e-mail lower-cased, the phone in E.164, the end day in the main site’s zone; lists, edits, removes, audits without a personal field', async () => {
      const entry = await addEntry({
        firstname: 'Jean',
        lastname: 'Bon',
        email: 'Jean.BON@Example.com',
        phone: '07 07 12 34 56',
        id_number: 'AB123',
        until: '31/12/2030',
      });
      expect(entry).toMatchObject({
        email: 'jean.bon@example.com',
        phone: '+2250707123456',
        id_number: 'AB123',
        until: '31/12/2030',
        active: true,
      });
      const [row] = await ctx.db
        .select()
        .from(watchlistEntries)
        .where(eq(watchlistEntries.id, entry.id));
      expect(row!.until!.toISOString()).toBe('2031-01-01T00:00:00.000Z');
      const list = await call('ROLE_ADMIN')({
        method: 'GET',
        url: `${base()}?q=jean.bon&per_page=5`,
      });
      expect(list.statusCode).toBe(200);
      expect(list.json().data.map((e: WatchlistEntry) => e.id)).toEqual([entry.id]);
      expect(list.json().meta).toMatchObject({ page: 1, per_page: 5, total: 1 });
      const edited = await call('ROLE_SUPER_ADMIN')({
        method: 'PUT',
        url: `${base()}/${entry.id}`,
        payload: { firstname: 'Jean', lastname: 'Bon', reason: 'Autre', until: '01/01/2020' },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json().data).toMatchObject({ email: null, active: false, until: '01/01/2020' });
      const removed = await call('ROLE_MANAGER')({
        method: 'DELETE',
        url: `${base()}/${entry.id}`,
      });
      expect(removed.statusCode).toBe(200);
      const entries = await ctx.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.subjectId, entry.id));
      expect(entries.map((e) => e.action).sort()).toEqual([
        'watchlist.added',
        'watchlist.removed',
        'watchlist.updated',
      ]);
      const details = JSON.stringify(entries.map((e) => e.detail));
      for (const personal of ['jean', 'Bon', '2250707', 'AB123', 'Incident', 'Autre']) {
        expect(details).not.toContain(personal);
      }
    });

    it('reads and sets the name threshold (0.3 to 1), audited', async () => {
      const read = await call('ROLE_MANAGER')({ method: 'GET', url: `${base()}/settings` });
      expect(read.json()).toEqual({ data: { name_threshold: expect.closeTo(0.6, 5) } });
      const bad = await call('ROLE_MANAGER')({
        method: 'PUT',
        url: `${base()}/settings`,
        payload: { name_threshold: 0.1 },
      });
      expect(bad.statusCode).toBe(400);
      const set = await call('ROLE_MANAGER')({
        method: 'PUT',
        url: `${base()}/settings`,
        payload: { name_threshold: 0.6 },
      });
      expect(set.statusCode).toBe(200);
      expect(set.json().data.name_threshold).toBeCloseTo(0.6, 5);
      const [changed] = await ctx.db
        .select()
        .from(auditEvents)
        .where(
          and(
            eq(auditEvents.action, 'watchlist.settings_changed'),
            eq(auditEvents.companyId, acme.company.id),
          ),
        );
      expect(changed).toBeDefined();
      expect(
        (await call('ROLE_SUPERVISOR')({ method: 'GET', url: `${base()}/settings` })).statusCode,
      ).toBe(403);
    });
  });

  it("keeps each company's count of entries as they are added, moved and removed (migration 0037)", async () => {
    // The code check screens a visitor only when their company's count (or a hold) says so.
    const counts = async () =>
      (
        await ctx.db.execute<{ id: string; kept: number; actual: string }>(sql`
          select c.id, c.watchlist_entry_count as kept,
                 (select count(*) from watchlist_entries w where w.company_id = c.id) as actual
            from companies c where c.id in (${acme.company.id}, ${globex.company.id})`)
      ).rows.map((row) => ({ id: row.id, kept: Number(row.kept), actual: Number(row.actual) }));
    const expectKept = async () => {
      for (const row of await counts()) expect(row.kept, row.id).toBe(row.actual);
    };
    await expectKept();
    const added = await ctx.db
      .insert(watchlistEntries)
      .values(
        ['Un', 'Deux', 'Trois'].map((lastname) => ({
          companyId: globex.company.id,
          lastname,
          reason: 'Compte',
        })),
      )
      .returning({ id: watchlistEntries.id });
    await expectKept();
    expect(
      (await counts()).find((row) => row.id === globex.company.id)!.kept,
    ).toBeGreaterThanOrEqual(3);
    await ctx.db
      .update(watchlistEntries)
      .set({ reason: 'Compte revu' })
      .where(eq(watchlistEntries.id, added[0]!.id));
    await expectKept();
    await ctx.db
      .update(watchlistEntries)
      .set({ companyId: acme.company.id })
      .where(eq(watchlistEntries.id, added[1]!.id));
    await expectKept();
    await ctx.db.delete(watchlistEntries).where(
      inArray(
        watchlistEntries.id,
        added.map((entry) => entry.id),
      ),
    );
    await expectKept();
  });

  describe('holds', () => {
    it('holds a request on an exact e-mail, phone, ID number and a close name: filed, no host mail, confirming it 409', async () => {
      const email = `held-${fresh()}@example.com`;
      const phone = '+2250708090807';
      const idNumber = `PASS-${fresh()}`.toUpperCase();
      await addEntry({ email: email.toUpperCase() });
      await addEntry({ phone: '0708090807' });
      await addEntry({ id_number: idNumber.toLowerCase() });
      await addEntry({ firstname: 'Gérard', lastname: 'Lefébvre-Moulin' });
      const cases = [
        { values: { email }, matched: 'email' },
        { values: { contact: phone }, matched: 'phone' },
        { values: { idNumber }, matched: 'id_number' },
        { values: { firstname: 'Gerard', lastname: 'Lefebvre Moulin' }, matched: 'name' },
      ] as const;
      for (const { values, matched } of cases) {
        const { visitor, requestId } = await fileRequest(values);
        const holds = await holdsOf(visitor.id);
        expect(holds, matched).toHaveLength(1);
        expect(holds[0]).toMatchObject({
          matchedOn: matched,
          status: 'pending',
          source: 'request',
        });
        if (matched === 'name') expect(holds[0]!.similarity).toBeGreaterThanOrEqual(0.6);
        expect(await frontDeskMails(requestId), matched).toHaveLength(0);
        const confirm = await call('ROLE_EMPLOYEE')({
          method: 'PUT',
          url: `/api/requests/update/${requestId}`,
          payload: { status: 1, confirmed: 1 },
        });
        expect(confirm.statusCode).toBe(409);
        expect(confirm.json().message).toBe(fr((m) => m.watchlist.requestHeld));
      }
    });

    it('lets through a similar but different name under the threshold, and an entry past its end', async () => {
      await addEntry({ firstname: 'Mariam', lastname: 'Traoré-Sissoko' });
      await addEntry({ email: `expired-${fresh()}@example.com`, until: '01/01/2020' });
      const similar = await fileRequest({ firstname: 'Marius', lastname: 'Traore' });
      expect(await holdsOf(similar.visitor.id)).toHaveLength(0);
      expect(await frontDeskMails(similar.requestId)).not.toHaveLength(0);
      const [expired] = await ctx.db
        .select()
        .from(watchlistEntries)
        .where(and(eq(watchlistEntries.companyId, acme.company.id)))
        .then((rows) => rows.filter((r) => r.email?.startsWith('expired-')));
      const past = await fileRequest({ email: expired!.email! });
      expect(await holdsOf(past.visitor.id)).toHaveLength(0);
    });

    it('allow once: the host is told, the request can be confirmed; a new visit of the same person is held again', async () => {
      const email = `allow-${fresh()}@example.com`;
      await addEntry({ email });
      const first = await fileRequest({ email });
      const [hold] = await holdsOf(first.visitor.id);
      const list = await call('ROLE_SUPERVISOR')({
        method: 'GET',
        url: `${base()}/holds?status=pending`,
      });
      expect(list.statusCode).toBe(200);
      const shown = list.json<{ data: WatchlistHold[] }>().data.find((h) => h.id === hold!.id);
      expect(shown).toMatchObject({ matched_on: 'email', visitor: { email } });
      expect(
        (await call('ROLE_EMPLOYEE')({ method: 'GET', url: `${base()}/holds` })).statusCode,
      ).toBe(403);
      expect((await call('other')({ method: 'GET', url: `${base()}/holds` })).statusCode).toBe(404);
      expect((await decide(hold!.id, 'allow', 'other')).statusCode).toBe(404);

      const allowed = await decide(hold!.id, 'allow');
      expect(allowed.statusCode, allowed.body).toBe(200);
      expect(allowed.json().data).toMatchObject({
        status: 'allowed',
        decision_reason: 'Vu avec la sécurité',
      });
      expect(await frontDeskMails(first.requestId)).not.toHaveLength(0);
      const again = await decide(hold!.id, 'deny');
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(fr((m) => m.watchlist.alreadyDecided));
      const confirm = await call('ROLE_EMPLOYEE')({
        method: 'PUT',
        url: `/api/requests/update/${first.requestId}`,
        payload: { status: 1, confirmed: 1 },
      });
      expect(confirm.statusCode, confirm.body).toBe(200);
      expect((await scan(first.visitor.uidn)).statusCode).toBe(200);

      const second = await fileRequest({ email });
      expect(await holdsOf(second.visitor.id)).toMatchObject([{ status: 'pending' }]);
      const audits = await ctx.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.subjectId, hold!.id));
      expect(audits.map((a) => a.action).sort()).toEqual(['watchlist.allowed', 'watchlist.held']);
    });

    it('deny: the request is declined without a reason and the visitor gets the ordinary decline mail', async () => {
      const idNumber = `DENY-${fresh()}`.toUpperCase();
      await addEntry({ id_number: idNumber });
      const { visitor, requestId } = await fileRequest({ idNumber });
      const [hold] = await holdsOf(visitor.id);
      const denied = await decide(hold!.id, 'deny');
      expect(denied.statusCode).toBe(200);
      const [request] = await ctx.db
        .select()
        .from(visitRequests)
        .where(eq(visitRequests.id, requestId));
      expect(request).toMatchObject({ confirmed: false, status: 2, declineReason: null });
      const declined = await ctx.db
        .select()
        .from(mailOutbox)
        .where(
          and(eq(mailOutbox.kind, 'visitor_declined'), eq(mailOutbox.toAddress, visitor.email)),
        );
      expect(declined).toHaveLength(1);
      const scanned = await scan(visitor.uidn);
      expect(scanned.statusCode).toBe(409);
      expect(scanned.json().message).toBe(fr((m) => m.watchlist.scanHeld));
    });

    it('holds a scan: an entry added after the request stops a confirmed visitor, no check made, one hold; allowed, the scan passes', async () => {
      const visitor = await buildVisitor(ctx.db, {
        company: acme.company,
        firstname: 'Ibrahim',
        lastname: `Scan${fresh()}`,
        email: `scan-${fresh()}@example.com`,
        contact: '+2250700000001',
      });
      await buildRequest(ctx.db, { company: acme.company, visitor, status: 1, confirmed: true });
      await addEntry({ email: visitor.email.toUpperCase() });
      for (let i = 0; i < 2; i++) {
        const res = await scan(visitor.uidn);
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual({
          message: fr((m) => m.watchlist.scanHeld),
          errors: { uidn: fr((m) => m.watchlist.scanHeldDetail) },
        });
      }
      expect(
        await ctx.db.select().from(visitorChecks).where(eq(visitorChecks.visitorId, visitor.id)),
      ).toHaveLength(0);
      const holds = await holdsOf(visitor.id);
      expect(holds).toMatchObject([{ source: 'scan', status: 'pending', matchedOn: 'email' }]);
      expect((await decide(holds[0]!.id, 'allow')).statusCode).toBe(200);
      const passed = await scan(visitor.uidn);
      expect(passed.statusCode, passed.body).toBe(200);
      expect(passed.json().action).toBe('check_in');
    });

    it('a request held after its host was asked (a scan) is not confirmed from the host’s link', async () => {
      const host = acme.staff.ROLE_USER;
      const visitor = await buildVisitor(ctx.db, {
        company: acme.company,
        email: `link-${fresh()}@example.com`,
      });
      const request = await buildRequest(ctx.db, {
        company: acme.company,
        visitor,
        hostUserId: host.id,
      });
      await addEntry({ email: visitor.email });
      expect((await scan(visitor.uidn)).statusCode).toBe(409);
      const token = new DecisionTokens(ctx.config.jwtSecret).sign(
        { userId: host.id, requestId: request.id },
        new Date(Date.now() + 86_400_000),
      );
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/requests/decision',
        payload: { token, decision: 'confirm' },
      });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().message).toBe(fr((m) => m.watchlist.requestHeld));
      const [after] = await ctx.db
        .select()
        .from(visitRequests)
        .where(eq(visitRequests.id, request.id));
      expect(after!.confirmed).toBeNull();
    });

    it('does not screen a member’s permanent code', async () => {
      const email = `member-${fresh()}@example.com`;
      await addEntry({ email });
      const { buildQrUser } = await import('./helpers/factories');
      const member = await buildQrUser(ctx.db, { company: acme.company, kind: 'member', email });
      const res = await call('ROLE_EMPLOYEE')({
        method: 'GET',
        url: `/api/get-qr-user-data/${member.uidn}`,
      });
      expect(res.statusCode, res.body).toBe(200);
    });

    it('tells a reviewer live, not an employee; mails the site’s security contacts without the reason', async () => {
      const url = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const reviewer = await openLiveStream(url, tokens.ROLE_SUPERVISOR!);
      const employee = await openLiveStream(url, tokens.ROLE_EMPLOYEE!);
      try {
        const phone = '+2250701987654';
        await addEntry({ phone, reason: 'Vol de matériel' });
        const { visitor } = await fileRequest({
          contact: phone,
          firstname: 'Koffi',
          lastname: 'Yao',
        });
        const [hold] = await holdsOf(visitor.id);
        const heard = await reviewer.next(
          (e) => e.type === 'watchlist' && (e as { hold_id?: string }).hold_id === hold!.id,
        );
        expect(heard).toMatchObject({ type: 'watchlist', op: 'held' });
        // The employee's stream hears the request itself, never the hold.
        await employee.next((e) => e.type === 'request');
        expect(employee.seen.some((e) => e.type === 'watchlist')).toBe(false);

        await new MailWorker({
          db: ctx.db,
          config: ctx.config,
          log: quiet,
          transport: smtpTransport(smtp.url),
        }).drain();
        for (const address of ['securite@acme.test', 'poste@acme.test']) {
          const mail = await smtp.waitForMessage(
            (m) =>
              (Array.isArray(m.to) ? m.to : [m.to]).some((to) =>
                to?.value.some((v) => v.address === address),
              ) && (m.text ?? '').includes('Koffi Yao'),
          );
          expect(mail.subject).toContain('Visite à contrôler');
          expect(mail.text).toContain('téléphone identique');
          expect(mail.text).toContain(`/${acme.company.slug}/watchlist-reviews`);
          expect(mail.text).not.toContain('Vol de matériel');
          expect(mail.html).not.toContain('Vol de matériel');
        }
      } finally {
        reviewer.close();
        employee.close();
      }
    });
  });
});
