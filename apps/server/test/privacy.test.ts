/**
 * Issue 16: retention and per-person rights. The daily purge deletes exactly what is
 * due (rows and stored files) and nothing else, keeps daily counts, and runs once when
 * two sweeps race; an export holds every record of the person and no one else's; an
 * erasure leaves no personal field or file of the person anywhere and keeps the counts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  auditEvents,
  checkDailyCounts,
  companies,
  files,
  qrUsers,
  userChecks,
  visitorChecks,
  visitors,
} from '../src/db/schema';
import { openPostgres } from '../src/db/client';
import { purgeDue, retentionSweep } from '../src/privacy/retention';
import { qrPng } from '../src/qr/qr';
import { as, multipart, tokenFor, useTestApp, type TestContext } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import {
  buildCompany,
  buildEvent,
  buildQrUser,
  buildRequest,
  buildTenant,
  buildUser,
  buildVisitor,
} from './helpers/factories';

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);

/** A stored document (bytes on disk and its row); answers the row. */
async function storedDocument(ctx: TestContext, companyId: string, bytes = randomBytes(64)) {
  const storedName = `${randomBytes(16).toString('hex')}.png`;
  await ctx.app.storage.put(storedName, bytes);
  const [file] = await ctx.db
    .insert(files)
    .values({
      companyId,
      ownerType: 'visitor',
      storedName,
      mediaType: 'image/png',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    })
    .returning();
  return file!;
}

async function visitorWithDocument(
  ctx: TestContext,
  company: { id: string },
  createdDaysAgo: number,
  values: Partial<typeof visitors.$inferInsert> = {},
) {
  const file = await storedDocument(ctx, company.id);
  const visitor = await buildVisitor(ctx.db, {
    company,
    createdAt: ago(createdDaysAgo),
    // The meeting was on the day the form was filed.
    dayStartsAt: ago(createdDaysAgo),
    dayEndsAt: ago(createdDaysAgo),
    requestImageId: file.id,
    ...values,
  });
  await buildRequest(ctx.db, { company, visitor, createdAt: ago(createdDaysAgo) });
  return { visitor, file };
}

const stored = async (ctx: TestContext, name: string) => (await ctx.app.storage.get(name)) !== null;

/** Every text-like value of every table, and every stored file's bytes, as one text. */
async function everything(ctx: TestContext): Promise<string> {
  const result = await ctx.db.execute(sql`
    select table_name, column_name from information_schema.columns
    where table_schema = 'public' and data_type in ('text', 'jsonb', 'ARRAY', 'character varying')`);
  const columns = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    table_name: string;
    column_name: string;
  }[];
  const parts: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const rows = await ctx.db.execute(
      sql`select ${sql.identifier(column)}::text as v from ${sql.identifier(table)} where ${sql.identifier(column)} is not null`,
    );
    const values = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as {
      v: string;
    }[];
    parts.push(...values.map((r) => r.v));
  }
  const root = path.join(ctx.config.dataDir, 'files');
  const names = await readdir(root, { recursive: true }).catch(() => [] as string[]);
  for (const name of names) {
    const bytes = await readFile(path.join(root, name)).catch(() => null);
    if (bytes) parts.push(bytes.toString('latin1'));
  }
  return parts.join('\n');
}

describe(`retention (${testDatabaseKind})`, () => {
  const ctx = useTestApp();

  it('purges exactly what is due, files included, and keeps daily counts', async () => {
    // Earlier test data must not be due: this file's only company set-up is here.
    const acme = await buildCompany(ctx.db);
    const lenient = await buildCompany(ctx.db, { retentionDocumentsDays: 60 });
    const recent = await visitorWithDocument(ctx, acme, 5);
    const oldDocument = await visitorWithDocument(ctx, acme, 40);
    const notYetForLenient = await visitorWithDocument(ctx, lenient, 40);
    // Filed 40 days ago for a meeting in 10 days: its document waits for the visit.
    const bookedAhead = await visitorWithDocument(ctx, acme, 40, {
      dayStartsAt: new Date(Date.now() + 10 * DAY),
      dayEndsAt: new Date(Date.now() + 11 * DAY),
    });
    const oldIdentity = await visitorWithDocument(ctx, acme, 400);
    await ctx.db.insert(visitorChecks).values({
      companyId: acme.id,
      siteId: oldIdentity.visitor.siteId,
      visitorId: oldIdentity.visitor.id,
      checkInAt: ago(400),
      checkOutAt: ago(400),
      checkInMethod: 'scan',
    });
    const oldChecks = await buildVisitor(ctx.db, {
      company: acme,
      createdAt: ago(800),
      dayStartsAt: ago(800),
      dayEndsAt: ago(800),
    });
    await ctx.db.insert(visitorChecks).values([
      {
        companyId: acme.id,
        siteId: oldChecks.siteId,
        visitorId: oldChecks.id,
        checkInAt: new Date('2020-03-02T10:00:00Z'),
        checkInMethod: 'scan',
        checkOutAt: new Date('2020-03-02T12:00:00Z'),
      },
      {
        companyId: acme.id,
        siteId: oldChecks.siteId,
        visitorId: oldChecks.id,
        checkInAt: new Date('2020-03-03T10:00:00Z'),
        checkInMethod: 'scan',
        checkOutAt: new Date('2020-03-03T12:00:00Z'),
      },
    ]);
    const card = await buildQrUser(ctx.db, { company: acme });
    // Card documents: an expired card's (40 days ago) goes, a valid card's stays.
    const expiredDoc = await storedDocument(ctx, acme.id);
    const validDoc = await storedDocument(ctx, acme.id);
    const expiredCard = await buildQrUser(ctx.db, {
      company: acme,
      dateExp: ago(40),
      documentId: expiredDoc.id,
    });
    await ctx.db.update(qrUsers).set({ documentId: validDoc.id }).where(eq(qrUsers.id, card.id));
    await ctx.db.insert(userChecks).values([
      {
        companyId: acme.id,
        siteId: acme.siteId,
        qrUserId: card.id,
        checkInAt: new Date('2020-03-02T08:00:00Z'),
        checkOutAt: new Date('2020-03-02T09:00:00Z'),
        checkInMethod: 'scan',
      },
      {
        companyId: acme.id,
        siteId: acme.siteId,
        qrUserId: card.id,
        checkInAt: ago(10),
        checkOutAt: ago(10),
        checkInMethod: 'scan',
      },
    ]);
    await ctx.db.insert(auditEvents).values([
      {
        id: crypto.randomUUID(),
        companyId: acme.id,
        actorUserId: null,
        action: 'company.updated',
        at: ago(2000),
      },
      {
        id: crypto.randomUUID(),
        companyId: acme.id,
        actorUserId: null,
        action: 'company.updated',
        at: ago(20),
      },
    ]);

    const counts = await purgeDue(ctx.db, ctx.app.storage);
    expect(counts).toMatchObject({
      documents: 3,
      identities: 2,
      visitorChecks: 2,
      userChecks: 1,
      auditEntries: 1,
    });

    // Documents: the 40-day and 400-day ones of acme, rows and bytes; none other.
    for (const gone of [oldDocument, oldIdentity]) {
      expect(await stored(ctx, gone.file.storedName)).toBe(false);
      expect(await ctx.db.select().from(files).where(eq(files.id, gone.file.id))).toEqual([]);
    }
    for (const kept of [recent, notYetForLenient, bookedAhead]) {
      expect(await stored(ctx, kept.file.storedName)).toBe(true);
      const [row] = await ctx.db.select().from(visitors).where(eq(visitors.id, kept.visitor.id));
      expect(row!.requestImageId).toBe(kept.file.id);
    }
    expect(await stored(ctx, expiredDoc.storedName)).toBe(false);
    expect(await stored(ctx, validDoc.storedName)).toBe(true);
    const [expiredRow] = await ctx.db.select().from(qrUsers).where(eq(qrUsers.id, expiredCard.id));
    expect(expiredRow!.documentId).toBeNull();
    // Identities: anonymised past 365 days, kept otherwise.
    const [anonymous] = await ctx.db
      .select()
      .from(visitors)
      .where(eq(visitors.id, oldIdentity.visitor.id));
    expect(anonymous).toMatchObject({
      firstname: 'Anonyme',
      lastname: '',
      email: '',
      contact: '',
      idNumber: '',
    });
    const [still] = await ctx.db
      .select()
      .from(visitors)
      .where(eq(visitors.id, oldDocument.visitor.id));
    expect(still!.email).toBe(oldDocument.visitor.email);
    // Checks: the 400-day check stays; the 2020 ones are counts now.
    expect(
      await ctx.db
        .select()
        .from(visitorChecks)
        .where(eq(visitorChecks.visitorId, oldIdentity.visitor.id)),
    ).toHaveLength(1);
    expect(
      await ctx.db.select().from(visitorChecks).where(eq(visitorChecks.visitorId, oldChecks.id)),
    ).toEqual([]);
    expect(
      await ctx.db.select().from(userChecks).where(eq(userChecks.qrUserId, card.id)),
    ).toHaveLength(1);
    const daily = await ctx.db
      .select()
      .from(checkDailyCounts)
      .where(eq(checkDailyCounts.companyId, acme.id));
    expect(daily.sort((a, b) => `${a.day}${a.kind}`.localeCompare(`${b.day}${b.kind}`))).toEqual([
      { companyId: acme.id, day: '2020-03-02', kind: 'user', checks: 1 },
      { companyId: acme.id, day: '2020-03-02', kind: 'visitor', checks: 1 },
      { companyId: acme.id, day: '2020-03-03', kind: 'visitor', checks: 1 },
    ]);
    expect(
      await ctx.db.select().from(auditEvents).where(eq(auditEvents.companyId, acme.id)),
    ).toHaveLength(1);

    // A second run finds nothing left to do.
    expect(await purgeDue(ctx.db, ctx.app.storage)).toEqual({
      documents: 0,
      identities: 0,
      visitorChecks: 0,
      userChecks: 0,
      auditEntries: 0,
      rollCalls: 0,
      signatures: 0,
    });
  });

  it('runs once a day however many instances sweep at once', async () => {
    const day = `2099-01-${String(Math.floor(Math.random() * 28) + 1).padStart(2, '0')}`;
    // On PostgreSQL a second pool on the same database stands for a second instance.
    const second =
      testDatabaseKind === 'postgres'
        ? await openPostgres(
            (ctx.db.$client as unknown as { options: { connectionString: string } }).options
              .connectionString,
            4,
          )
        : null;
    const otherDb = second?.db ?? ctx.db;
    const runs = await Promise.all([
      retentionSweep(ctx.db, ctx.app.storage, { day }),
      retentionSweep(otherDb, ctx.app.storage, { day }),
      retentionSweep(ctx.db, ctx.app.storage, { day }),
      retentionSweep(otherDb, ctx.app.storage, { day }),
    ]).finally(() => second?.close());
    expect(runs.filter((r) => r !== null)).toHaveLength(1);
    expect(await retentionSweep(ctx.db, ctx.app.storage, { day })).toBeNull();
    const purged = await ctx.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'retention.purged'));
    expect(purged.length).toBeGreaterThanOrEqual(1);
  });
});

describe(`a person's export and erasure (${testDatabaseKind})`, () => {
  const ctx = useTestApp();

  it('exports every record of the person and no one else’s, then erases them everywhere', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const manager = as(ctx.app, await tokenFor(ctx.app, staff.ROLE_MANAGER.email));
    const tag = randomBytes(4).toString('hex');
    const person = {
      firstname: `Zephyrine${tag}`,
      lastname: `Quartermaine${tag}`,
      email: `zq-${tag}@example.org`,
      contact: `07${tag.replace(/\D/g, '7').padEnd(8, '9').slice(0, 8)}`,
      idNumber: `ID-${tag}`,
      organisationName: `Orga${tag}`,
    };
    const first = await visitorWithDocument(ctx, company, 3, person);
    const second = await visitorWithDocument(ctx, company, 1, {
      ...person,
      email: person.email.toUpperCase(),
    });
    await ctx.db.insert(visitorChecks).values({
      companyId: company.id,
      siteId: first.visitor.siteId,
      visitorId: first.visitor.id,
      checkInAt: new Date('2026-01-05T09:00:00Z'),
      checkOutAt: new Date('2026-01-05T10:00:00Z'),
      checkInMethod: 'scan',
    });
    const someoneElse = await visitorWithDocument(ctx, company, 2);

    const zip = await manager({
      method: 'GET',
      url: `/api/privacy/visitor/${first.visitor.id}/export`,
    });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const entries = unzipSync(new Uint8Array(zip.rawPayload));
    const data = JSON.parse(strFromU8(entries['donnees.json']!)) as {
      profile: { id: string }[];
      requests: { visitorId: string }[];
      checks: { visitorId: string }[];
      documents: { id: string; file: string }[];
    };
    expect(data.profile.map((p) => p.id).sort()).toEqual(
      [first.visitor.id, second.visitor.id].sort(),
    );
    expect(data.requests).toHaveLength(2);
    expect(data.checks).toHaveLength(1);
    expect(data.documents.map((d) => d.id).sort()).toEqual([first.file.id, second.file.id].sort());
    for (const d of data.documents) {
      expect(Buffer.from(entries[d.file]!)).toEqual(
        await ctx.app.storage.get(
          d.id === first.file.id ? first.file.storedName : second.file.storedName,
        ),
      );
    }
    const json = strFromU8(entries['donnees.json']!);
    expect(json).not.toContain(someoneElse.visitor.id);
    expect(json).not.toContain(someoneElse.visitor.email);
    expect(json).not.toContain('stored');

    // What the search below looks through does hold the person before the erasure.
    const before = await everything(ctx);
    for (const value of [person.lastname, person.email, person.idNumber, first.visitor.uidn]) {
      expect(before).toContain(value);
    }
    const preview = await manager({
      method: 'GET',
      url: `/api/privacy/visitor/${first.visitor.id}/erasure`,
    });
    expect(preview.json().data).toEqual({
      name: `${person.firstname} ${person.lastname}`,
      documents: 2,
      requests: 2,
      checks: 1,
      mails: 0,
      signatures: 0,
    });
    const erased = await manager({
      method: 'POST',
      url: `/api/privacy/visitor/${first.visitor.id}/erase`,
    });
    expect(erased.statusCode).toBe(200);

    const all = await everything(ctx);
    for (const value of [
      person.firstname,
      person.lastname,
      person.email,
      person.email.toUpperCase(),
      person.contact,
      person.idNumber,
      person.organisationName,
      first.visitor.uidn,
      second.visitor.uidn,
    ]) {
      expect(all.includes(value), value).toBe(false);
    }
    expect(await stored(ctx, first.file.storedName)).toBe(false);
    expect(await stored(ctx, second.file.storedName)).toBe(false);
    expect(await stored(ctx, someoneElse.file.storedName)).toBe(true);
    expect(
      await ctx.db.select().from(visitors).where(eq(visitors.id, someoneElse.visitor.id)),
    ).toHaveLength(1);
    const [count] = await ctx.db
      .select()
      .from(checkDailyCounts)
      .where(eq(checkDailyCounts.companyId, company.id));
    expect(count).toMatchObject({ day: '2026-01-05', kind: 'visitor', checks: 1 });
  });

  it('erases a card holder with every card they held, their checks kept as counts', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const admin = as(ctx.app, await tokenFor(ctx.app, staff.ROLE_ADMIN.email));
    const photo = await storedDocument(ctx, company.id);
    const tag = randomBytes(4).toString('hex');
    const card = await buildQrUser(ctx.db, {
      company,
      kind: 'member',
      firstname: `Holder${tag}`,
      email: `holder-${tag}@example.org`,
      documentId: photo.id,
    });
    await ctx.db.insert(userChecks).values({
      companyId: company.id,
      siteId: company.siteId,
      qrUserId: card.id,
      checkInAt: new Date('2026-02-01T08:00:00Z'),
      checkOutAt: new Date('2026-02-01T17:00:00Z'),
      checkInMethod: 'scan',
    });
    const reissued = await admin({ method: 'POST', url: `/api/qruser/${card.id}/reissue` });
    expect(reissued.statusCode).toBe(201);
    const fresh = reissued.json().data.id as string;
    const zip = await admin({ method: 'GET', url: `/api/privacy/qr_user/${fresh}/export` });
    const data = JSON.parse(strFromU8(unzipSync(new Uint8Array(zip.rawPayload))['donnees.json']!));
    expect((data.profile as { id: string }[]).map((p) => p.id).sort()).toEqual(
      [card.id, fresh].sort(),
    );
    expect(
      (await admin({ method: 'POST', url: `/api/privacy/qr_user/${fresh}/erase` })).statusCode,
    ).toBe(200);
    const all = await everything(ctx);
    expect(all).not.toContain(`Holder${tag}`);
    expect(all).not.toContain(`holder-${tag}@example.org`);
    expect(await ctx.db.select().from(qrUsers).where(eq(qrUsers.companyId, company.id))).toEqual(
      [],
    );
    expect(await stored(ctx, photo.storedName)).toBe(false);
    const [count] = await ctx.db
      .select()
      .from(checkDailyCounts)
      .where(eq(checkDailyCounts.companyId, company.id));
    expect(count).toMatchObject({ day: '2026-02-01', kind: 'user', checks: 1 });
  });

  it('answers 403 to roles without the right and 404 for another company’s person', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const other = await buildCompany(ctx.db);
    const theirs = await buildVisitor(ctx.db, { company: other });
    const ours = await buildVisitor(ctx.db, { company });
    const employee = as(ctx.app, await tokenFor(ctx.app, staff.ROLE_EMPLOYEE.email));
    expect(
      (await employee({ method: 'POST', url: `/api/privacy/visitor/${ours.id}/erase` })).statusCode,
    ).toBe(403);
    const admin = as(
      ctx.app,
      await tokenFor(ctx.app, (await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' })).email),
    );
    expect(
      (await admin({ method: 'POST', url: `/api/privacy/visitor/${theirs.id}/erase` })).statusCode,
    ).toBe(404);
    expect(await ctx.db.select().from(visitors).where(eq(visitors.id, theirs.id))).toHaveLength(1);
  });
});

describe(`the privacy notice (${testDatabaseKind})`, () => {
  const ctx = useTestApp();

  it('is filled from the retention settings, or the company’s own text, and must be accepted', async () => {
    const company = await buildCompany(ctx.db, { retentionDocumentsDays: 12 });
    const event = await buildEvent(ctx.db, { company });
    const notice = await ctx.app.inject({
      method: 'GET',
      url: `/api/public/privacy-notice/${company.slug}`,
    });
    expect(notice.statusCode).toBe(200);
    expect(notice.json().notice).toContain('supprimées 12 jours après la visite');
    await ctx.db
      .update(companies)
      .set({ privacyNotice: 'Notre texte.' })
      .where(eq(companies.id, company.id));
    const own = await ctx.app.inject({
      method: 'GET',
      url: `/api/public/privacy-notice/${company.slug}`,
    });
    expect(own.json().notice).toBe('Notre texte.');

    const png = await qrPng('identity');
    const fields = {
      company_id: company.slug,
      firstname: 'Awa',
      lastname: 'Koné',
      id_number: 'CI-1',
      organisation_name: 'Acme',
      email: 'awa@example.com',
      contact: '0701020304',
      request_date: '24/11/2030',
      request_time: '10:30',
    };
    const file = { request_image: { filename: 'id.png', contentType: 'image/png', bytes: png } };
    for (const url of [
      '/api/visitor/create',
      `/api/evenement/${company.slug}/${event.slug}/register`,
    ]) {
      const refused = await ctx.app.inject({ method: 'POST', url, ...multipart(fields, file) });
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json()).toMatchObject({
        message: 'Veuillez accepter la notice de confidentialité.',
        errors: { privacy_accepted: 'Veuillez accepter la notice de confidentialité.' },
      });
      const accepted = await ctx.app.inject({
        method: 'POST',
        url,
        ...multipart({ ...fields, privacy_accepted: '1' }, file),
      });
      expect(accepted.statusCode, `${url}: ${accepted.body}`).toBeLessThan(300);
    }
  });
});
