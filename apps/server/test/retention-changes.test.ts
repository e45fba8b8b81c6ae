/**
 * Issue 26 §2 and §0: a company role cannot erase the audit trail. The audit log has the
 * operator's floor (AUDIT_MIN_DAYS), refused below with a clear message in both languages;
 * a shortened period of any class applies only 7 days later, keeping data until then; the
 * entry recording the change survives the purges it causes. The daily purge resumes the
 * same day when it was killed, failed or stopped midway, and every run leaves its entry.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  auditEvents,
  companies,
  files,
  retentionRuns,
  visitorChecks,
  visitors,
} from '../src/db/schema';
import type { FileStorage } from '../src/files/storage';
import { purgeDue, retentionSweep } from '../src/privacy/retention';
import { as, tokenFor, useTestApp, type TestContext } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildCompany, buildRequest, buildTenant, buildVisitor } from './helpers/factories';

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);

const FLOOR_FR =
  "Le journal d'audit est conservé au moins 365 jours : c'est le minimum fixé par l'exploitant.";
const FLOOR_EN = 'The audit log is kept for at least 365 days: the minimum set by the operator.';

const settings = (values: Partial<Record<string, number | string>> = {}) => ({
  documents_days: 30,
  identity_days: 365,
  checks_days: 730,
  audit_days: 1095,
  privacy_notice: '',
  ...values,
});

async function managerOf(ctx: TestContext) {
  const { company, staff } = await buildTenant(ctx.db);
  return {
    company,
    manager: as(ctx.app, await tokenFor(ctx.app, staff.ROLE_MANAGER.email)),
    admin: as(ctx.app, await tokenFor(ctx.app, staff.ROLE_ADMIN.email)),
  };
}

async function companyRow(ctx: TestContext, id: string) {
  const [row] = await ctx.db.select().from(companies).where(eq(companies.id, id));
  return row!;
}

async function entriesOf(ctx: TestContext, companyId: string, action = 'retention.changed') {
  return ctx.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.companyId, companyId), eq(auditEvents.action, action)));
}

async function oldEntry(ctx: TestContext, companyId: string, daysAgo: number) {
  const id = crypto.randomUUID();
  await ctx.db
    .insert(auditEvents)
    .values({ id, companyId, actorUserId: null, action: 'company.updated', at: ago(daysAgo) });
  return id;
}

const exists = async (ctx: TestContext, id: string) =>
  (await ctx.db.select().from(auditEvents).where(eq(auditEvents.id, id))).length === 1;

async function checkOf(ctx: TestContext, company: { id: string }, daysAgo: number) {
  const visitor = await buildVisitor(ctx.db, { company });
  const [check] = await ctx.db
    .insert(visitorChecks)
    .values({
      companyId: company.id,
      siteId: visitor.siteId,
      visitorId: visitor.id,
      checkInAt: ago(daysAgo),
      checkOutAt: ago(daysAgo),
      checkInMethod: 'scan',
    })
    .returning();
  return check!.id;
}

const checkExists = async (ctx: TestContext, id: string) =>
  (await ctx.db.select().from(visitorChecks).where(eq(visitorChecks.id, id))).length === 1;

describe(`retention changes (${testDatabaseKind})`, () => {
  const ctx = useTestApp();

  it("refuses an audit period under the operator's floor, in both languages, and changes nothing", async () => {
    const { company, manager, admin } = await managerOf(ctx);
    const url = `/api/company/${company.id}/privacy`;

    // The incident: a manager asking for one day of audit log and of check history.
    const refused = await manager({
      method: 'PUT',
      url,
      payload: settings({ checks_days: 1, audit_days: 1 }),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      message: FLOOR_FR,
      errors: { audit_days: FLOOR_FR },
    });
    const english = await manager({
      method: 'PUT',
      url,
      headers: { 'accept-language': 'en' },
      payload: settings({ audit_days: 364 }),
    });
    expect(english.statusCode).toBe(400);
    expect(english.json()).toMatchObject({ message: FLOOR_EN, errors: { audit_days: FLOOR_EN } });
    // The platform admin is no operator either.
    const byAdmin = await admin({ method: 'PUT', url, payload: settings({ audit_days: 30 }) });
    expect(byAdmin.statusCode).toBe(400);
    expect(byAdmin.json().message).toBe(FLOOR_FR);

    expect(await companyRow(ctx, company.id)).toMatchObject({
      retentionChecksDays: 730,
      retentionAuditDays: 1095,
      retentionChecksPendingDays: null,
      retentionAuditPendingDays: null,
    });
    expect(await entriesOf(ctx, company.id)).toEqual([]);

    // The screen reads the floor and the delay from the server.
    const shown = await manager({ method: 'GET', url });
    expect(shown.json().data).toMatchObject({
      audit_days: 1095,
      audit_min_days: 365,
      shortening_delay_days: 7,
      pending: { documents_days: null, identity_days: null, checks_days: null, audit_days: null },
    });
    // At the floor itself, it is taken.
    const atFloor = await manager({ method: 'PUT', url, payload: settings({ audit_days: 365 }) });
    expect(atFloor.statusCode).toBe(200);
  });

  it('keeps data under a shortened period until its date, then purges; the change stays audited', async () => {
    const { company, manager } = await managerOf(ctx);
    const url = `/api/company/${company.id}/privacy`;
    const tenDaysOld = await checkOf(ctx, company, 10);
    const threeDaysOld = await checkOf(ctx, company, 3);
    const entry400 = await oldEntry(ctx, company.id, 400);
    const entry200 = await oldEntry(ctx, company.id, 200);

    const before = Date.now();
    const saved = await manager({
      method: 'PUT',
      url,
      payload: settings({ documents_days: 60, checks_days: 1, audit_days: 365 }),
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().message).toBe(
      "Les paramètres de confidentialité ont été enregistrés. Une durée raccourcie ne s'appliquera que dans 7 jours.",
    );
    const data = saved.json().data;
    // Lengthened: at once. Shortened: today's period holds, the new one waits 7 days.
    expect(data).toMatchObject({ documents_days: 60, checks_days: 730, audit_days: 1095 });
    expect(data.pending.documents_days).toBeNull();
    expect(data.pending.checks_days.days).toBe(1);
    expect(data.pending.audit_days.days).toBe(365);
    const appliesAt = Date.parse(data.pending.checks_days.applies_at);
    expect(appliesAt).toBeGreaterThanOrEqual(before + 7 * DAY);
    expect(appliesAt).toBeLessThanOrEqual(Date.now() + 7 * DAY);

    // The change is audited with what it asked and when it applies.
    const [change] = await entriesOf(ctx, company.id);
    expect(change!.actorUserId).not.toBeNull();
    expect(change!.detail).toMatchObject({
      documentsDays: '30→60',
      checksDays: '730→1',
      auditDays: '1095→365',
      checksAppliesAt: data.pending.checks_days.applies_at,
      auditAppliesAt: data.pending.audit_days.applies_at,
    });
    expect(change!.detail).not.toHaveProperty('documentsAppliesAt');

    // Saving the same form again does not push the date back.
    const again = await manager({
      method: 'PUT',
      url,
      payload: settings({ documents_days: 60, checks_days: 1, audit_days: 365 }),
    });
    expect(again.json().data.pending.checks_days.applies_at).toBe(
      data.pending.checks_days.applies_at,
    );

    // Until the date, the purge keeps what the old periods keep.
    await purgeDue(ctx.db, ctx.app.storage, { auditMinDays: 365 });
    expect(await checkExists(ctx, tenDaysOld)).toBe(true);
    expect(await checkExists(ctx, threeDaysOld)).toBe(true);
    expect(await exists(ctx, entry400)).toBe(true);

    // Seven days later (the dates moved back instead of the clock forward).
    await ctx.db
      .update(companies)
      .set({
        retentionChecksPendingAt: new Date(Date.now() - 60_000),
        retentionAuditPendingAt: new Date(Date.now() - 60_000),
      })
      .where(eq(companies.id, company.id));
    const shown = await manager({ method: 'GET', url });
    expect(shown.json().data).toMatchObject({
      checks_days: 1,
      audit_days: 365,
      pending: { checks_days: null, audit_days: null },
    });
    await purgeDue(ctx.db, ctx.app.storage, { auditMinDays: 365 });
    expect(await checkExists(ctx, tenDaysOld)).toBe(false);
    expect(await checkExists(ctx, threeDaysOld)).toBe(false);
    expect(await exists(ctx, entry400)).toBe(false);
    expect(await exists(ctx, entry200)).toBe(true);
    // Both saves' entries outlive the purge they caused.
    expect(await entriesOf(ctx, company.id)).toHaveLength(2);
  });

  it("applies a longer period at once; entering today's period again cancels a shortening", async () => {
    const { company, manager } = await managerOf(ctx);
    const url = `/api/company/${company.id}/privacy`;
    const shortened = await manager({
      method: 'PUT',
      url,
      payload: settings({ identity_days: 100 }),
    });
    expect(shortened.json().data).toMatchObject({ identity_days: 365 });
    expect(shortened.json().data.pending.identity_days.days).toBe(100);

    const cancelled = await manager({ method: 'PUT', url, payload: settings() });
    expect(cancelled.json().message).toBe('Les paramètres de confidentialité ont été enregistrés.');
    expect(cancelled.json().data).toMatchObject({
      identity_days: 365,
      pending: { identity_days: null },
    });
    const longer = await manager({ method: 'PUT', url, payload: settings({ identity_days: 500 }) });
    expect(longer.json().data).toMatchObject({
      identity_days: 500,
      pending: { identity_days: null },
    });
    expect(await companyRow(ctx, company.id)).toMatchObject({
      retentionIdentityDays: 500,
      retentionIdentityPendingDays: null,
      retentionIdentityPendingAt: null,
    });
  });

  it('never purges an audit entry younger than the floor, whatever a company stored', async () => {
    // As the incident left it: one day stored, and a one-day shortening already due.
    const company = await buildCompany(ctx.db, {
      retentionAuditDays: 1,
      retentionChecksPendingDays: 1,
      retentionChecksPendingAt: ago(1),
    });
    const company2 = await buildCompany(ctx.db, {
      retentionAuditPendingDays: 1,
      retentionAuditPendingAt: ago(1),
    });
    const young = await oldEntry(ctx, company.id, 2);
    const older = await oldEntry(ctx, company.id, 300);
    const past = await oldEntry(ctx, company.id, 400);
    const young2 = await oldEntry(ctx, company2.id, 100);
    await purgeDue(ctx.db, ctx.app.storage, { auditMinDays: 365 });
    expect(await exists(ctx, young)).toBe(true);
    expect(await exists(ctx, older)).toBe(true);
    expect(await exists(ctx, young2)).toBe(true);
    expect(await exists(ctx, past)).toBe(false);
  });
});

describe(`a lower floor set by the operator (${testDatabaseKind})`, () => {
  const ctx = useTestApp({ auditMinDays: 30 });

  it('takes audit periods down to it, and says it on the screen', async () => {
    const { company, manager } = await managerOf(ctx);
    const url = `/api/company/${company.id}/privacy`;
    const refused = await manager({ method: 'PUT', url, payload: settings({ audit_days: 29 }) });
    expect(refused.json().errors.audit_days).toBe(
      "Le journal d'audit est conservé au moins 30 jours : c'est le minimum fixé par l'exploitant.",
    );
    const taken = await manager({ method: 'PUT', url, payload: settings({ audit_days: 30 }) });
    expect(taken.statusCode).toBe(200);
    expect(taken.json().data).toMatchObject({ audit_min_days: 30, audit_days: 1095 });
    expect(taken.json().data.pending.audit_days.days).toBe(30);
  });
});

/** A stored document of a visitor whose visit was `daysAgo` (due after 30 days). */
async function dueDocument(ctx: TestContext, company: { id: string }, daysAgo = 40) {
  const bytes = randomBytes(32);
  const storedName = `${randomBytes(16).toString('hex')}.png`;
  await ctx.app.storage.put(storedName, bytes);
  const [file] = await ctx.db
    .insert(files)
    .values({
      companyId: company.id,
      ownerType: 'visitor',
      storedName,
      mediaType: 'image/png',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    })
    .returning();
  const visitor = await buildVisitor(ctx.db, {
    company,
    createdAt: ago(daysAgo),
    dayStartsAt: ago(daysAgo),
    dayEndsAt: ago(daysAgo),
    requestImageId: file!.id,
  });
  await buildRequest(ctx.db, { company, visitor, createdAt: ago(daysAgo) });
  return visitor.id;
}

const documentGone = async (ctx: TestContext, visitorId: string) => {
  const [row] = await ctx.db.select().from(visitors).where(eq(visitors.id, visitorId));
  return row!.requestImageId === null;
};

async function runEntries(ctx: TestContext, day: string) {
  return ctx.db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.action, 'retention.purged'),
        sql`${auditEvents.detail} ->> 'day' = ${day}`,
      ),
    );
}

async function runRow(ctx: TestContext, day: string) {
  const [row] = await ctx.db.select().from(retentionRuns).where(eq(retentionRuns.day, day));
  return row!;
}

/** The files of `base`, whose `remove` does what `remove` says. */
function storageWith(base: FileStorage, remove: (name: string) => Promise<void>): FileStorage {
  return Object.assign(Object.create(base) as FileStorage, { remove });
}

describe(`the daily purge's runs (${testDatabaseKind})`, () => {
  const ctx = useTestApp();

  it('leaves its audit entry when it deleted nothing', async () => {
    const day = '2098-01-10';
    const run = await retentionSweep(ctx.db, ctx.app.storage, { day });
    expect(run).toMatchObject({ day, documents: 0, auditEntries: 0, attempts: 1 });
    const [entry, ...more] = await runEntries(ctx, day);
    expect(more).toEqual([]);
    expect(entry!.detail).toMatchObject({ day, documents: 0, attempts: 1, finished: true });
    expect(await retentionSweep(ctx.db, ctx.app.storage, { day })).toBeNull();
    expect(await runEntries(ctx, day)).toHaveLength(1);
  });

  it('takes over the same day a run whose process was killed, and counts what it had done', async () => {
    const company = await buildCompany(ctx.db);
    const due = await dueDocument(ctx, company);
    // Killed 20 minutes ago after two documents: its heartbeat is past the 10-minute lease.
    const day = '2098-02-10';
    await ctx.db.insert(retentionRuns).values({
      day,
      startedAt: new Date(Date.now() - 30 * 60_000),
      heartbeatAt: new Date(Date.now() - 20 * 60_000),
      counts: { unfiledVisitors: 0, documents: 2 },
    });
    // A run another instance is still doing (its heartbeat is fresh) is left to it.
    const held = '2098-02-05';
    await ctx.db.insert(retentionRuns).values({ day: held, heartbeatAt: new Date() });
    expect(await retentionSweep(ctx.db, ctx.app.storage, { day: held })).toBeNull();
    expect(await runRow(ctx, held)).toMatchObject({ attempts: 1, finishedAt: null });

    const run = await retentionSweep(ctx.db, ctx.app.storage, { day });
    expect(run).toMatchObject({ day, documents: 3, attempts: 2 });
    expect(await documentGone(ctx, due)).toBe(true);
    expect((await runRow(ctx, day)).finishedAt).not.toBeNull();
    const [entry, ...more] = await runEntries(ctx, day);
    expect(more).toEqual([]);
    expect(entry!.detail).toMatchObject({ day, documents: 3, attempts: 2, finished: true });
    expect(await retentionSweep(ctx.db, ctx.app.storage, { day })).toBeNull();
  });

  it('takes up a run that failed midway at the next sweep, the same day', async () => {
    const company = await buildCompany(ctx.db);
    const first = await dueDocument(ctx, company);
    const due = await dueDocument(ctx, company, 400);
    const day = '2098-03-10';
    // The documents' batch commits, then the run throws before it goes further.
    const failing = storageWith(ctx.app.storage, () => {
      throw new Error('storage unreachable');
    });
    await expect(retentionSweep(ctx.db, failing, { day })).rejects.toThrow('storage unreachable');
    expect(await documentGone(ctx, first)).toBe(true);
    const [anonymised] = await ctx.db.select().from(visitors).where(eq(visitors.id, due));
    expect(anonymised!.anonymisedAt).toBeNull();
    expect(await runRow(ctx, day)).toMatchObject({
      finishedAt: null,
      heartbeatAt: null,
      counts: { documents: 2 },
    });
    expect(await runEntries(ctx, day)).toEqual([]);

    const run = await retentionSweep(ctx.db, ctx.app.storage, { day });
    expect(run).toMatchObject({ documents: 2, identities: 1, attempts: 2 });
    const [entry, ...more] = await runEntries(ctx, day);
    expect(more).toEqual([]);
    expect(entry!.detail).toMatchObject({ documents: 2, identities: 1, attempts: 2 });
  });

  it('takes up a run the server stopped at once, at its next start', async () => {
    const company = await buildCompany(ctx.db);
    await dueDocument(ctx, company);
    const identity = await dueDocument(ctx, company, 400);
    const day = '2098-04-10';
    const stopping = new AbortController();
    // The stop comes while the documents' batch is under way.
    const stopped = storageWith(ctx.app.storage, (name) => {
      stopping.abort();
      return ctx.app.storage.remove(name);
    });
    expect(await retentionSweep(ctx.db, stopped, { day, signal: stopping.signal })).toBeNull();
    expect(await runRow(ctx, day)).toMatchObject({ finishedAt: null, heartbeatAt: null });
    const [kept] = await ctx.db.select().from(visitors).where(eq(visitors.id, identity));
    expect(kept!.anonymisedAt).toBeNull();

    const run = await retentionSweep(ctx.db, ctx.app.storage, { day });
    expect(run).toMatchObject({ documents: 2, identities: 1, attempts: 2 });
    expect(await runEntries(ctx, day)).toHaveLength(1);
  });

  it('closes, with its own audit entry, a day whose run never finished', async () => {
    const day = '2098-05-10';
    await ctx.db.insert(retentionRuns).values({
      day,
      heartbeatAt: new Date(Date.now() - 3 * 60 * 60_000),
      counts: { documents: 4 },
    });
    const next = '2098-05-11';
    expect(await retentionSweep(ctx.db, ctx.app.storage, { day: next })).toMatchObject({
      day: next,
    });
    expect((await runRow(ctx, day)).finishedAt).not.toBeNull();
    const [closed, ...more] = await runEntries(ctx, day);
    expect(more).toEqual([]);
    expect(closed!.detail).toMatchObject({ day, documents: 4, attempts: 1, finished: false });
    expect(await runEntries(ctx, next)).toHaveLength(1);
  });
});
