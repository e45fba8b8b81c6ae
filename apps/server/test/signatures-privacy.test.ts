/**
 * Issue 31, on PGlite and PostgreSQL: signed documents are their own retention class
 * (`signatures_days`, 3 years by default): the settings and the notice say it, the purge
 * deletes older signatures with their PDFs and keeps the recent ones, counted; a person's
 * export carries their signatures (the JSON and each PDF) and their erasure removes them.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { RETENTION_DEFAULTS } from '@sesame/shared';
import {
  auditEvents,
  companies,
  documentVersions,
  files,
  mailOutbox,
  signatures,
  siteDocuments,
  visitorTypeDocuments,
  visitorTypes,
  visitors,
} from '../src/db/schema';
import { queueSignedDocumentMail, signForVisit, type SignatureRow } from '../src/documents/signing';
import { withStoredFileCleanup } from '../src/files/uploads';
import { purgeDue } from '../src/privacy/retention';
import { insertDefaultVisitorTypes } from '../src/visitor-types/defaults';
import { as, tokenFor, useTestApp, type TestContext } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildCompany, buildUser, buildVisitor } from './helpers/factories';

type Db = TestContext['db'];
const DAY = 86_400_000;

async function documentOfType(db: Db, companyId: string, siteId: string) {
  await insertDefaultVisitorTypes(db, companyId, siteId);
  const [type] = await db
    .select()
    .from(visitorTypes)
    .where(and(eq(visitorTypes.siteId, siteId), eq(visitorTypes.nameFr, 'Prestataire')));
  const [doc] = await db.insert(siteDocuments).values({ companyId, siteId }).returning();
  await db.insert(documentVersions).values({
    companyId,
    documentId: doc!.id,
    version: 1,
    titleFr: 'Accord de confidentialité',
    titleEn: 'Non-disclosure agreement',
    bodyFr: 'Je ne dirai rien.',
    bodyEn: 'I will tell nothing.',
  });
  await db.insert(visitorTypeDocuments).values({
    companyId,
    visitorTypeId: type!.id,
    documentId: doc!.id,
    validity: 'visit',
  });
  return { typeId: type!.id, documentId: doc!.id };
}

describe(`signed documents and privacy (${testDatabaseKind})`, () => {
  const ctx = useTestApp();

  async function setUp() {
    const company = await buildCompany(ctx.db);
    const doc = await documentOfType(ctx.db, company.id, company.siteId);
    const manager = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });
    return { company, doc, manager: as(ctx.app, await tokenFor(ctx.app, manager.email)) };
  }

  async function sign(
    place: Awaited<ReturnType<typeof setUp>>,
    visitor: { id: string; email: string },
    at: Date,
  ): Promise<SignatureRow> {
    const [row] = await withStoredFileCleanup(ctx.app.storage, (storage) =>
      ctx.db.transaction((tx) =>
        signForVisit(tx, {
          companyId: place.company.id,
          siteId: place.company.siteId,
          visitorId: visitor.id,
          typeId: place.doc.typeId,
          email: visitor.email,
          language: 'fr',
          signed: [
            {
              document_id: place.doc.documentId,
              version: 1,
              signer_name: 'Awa Koné',
              method: 'typed',
              accepted: true,
            },
          ],
          now: at,
          storage,
        }),
      ),
    );
    return row!;
  }

  const storedNameOf = async (row: SignatureRow) => {
    const [file] = await ctx.db.select().from(files).where(eq(files.id, row.pdfFileId!));
    return file!.storedName;
  };

  it('shows the signatures period in the settings and the notice, and saves it', async () => {
    const place = await setUp();
    const url = `/api/company/${place.company.id}/privacy`;
    const shown = (await place.manager({ method: 'GET', url })).json().data;
    expect(shown.signatures_days).toBe(RETENTION_DEFAULTS.signatures_days);
    expect(shown.signatures_days).toBe(1095);
    expect(shown.pending.signatures_days).toBeNull();
    expect(shown.notice_text).toContain("Les documents que vous signez à l'arrivée");
    expect(shown.notice_text).toContain('conservés 1095 jours');
    expect(shown.notice_text_en).toContain('The documents you sign on arrival are kept 1095 days');

    const base = {
      documents_days: shown.documents_days,
      identity_days: shown.identity_days,
      checks_days: shown.checks_days,
      audit_days: shown.audit_days,
    };
    // Longer: at once.
    const longer = await place.manager({
      method: 'PUT',
      url,
      payload: { ...base, signatures_days: 1825 },
    });
    expect(longer.statusCode).toBe(200);
    expect(longer.json().data.signatures_days).toBe(1825);
    // Shorter: waits its delay, like every class.
    const shorter = await place.manager({
      method: 'PUT',
      url,
      payload: { ...base, signatures_days: 365 },
    });
    expect(shorter.json().data.signatures_days).toBe(1825);
    expect(shorter.json().data.pending.signatures_days.days).toBe(365);
    // Left out (an older client): unchanged, its shortening still waiting.
    const omitted = await place.manager({ method: 'PUT', url, payload: base });
    expect(omitted.json().data.pending.signatures_days.days).toBe(365);
    // Too long: refused.
    const tooLong = await place.manager({
      method: 'PUT',
      url,
      payload: { ...base, signatures_days: 99_999 },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(Object.keys(tooLong.json().errors)).toEqual(['signatures_days']);
  });

  it('purges signatures past the period with their PDFs, and keeps the recent ones', async () => {
    const place = await setUp();
    await ctx.db
      .update(companies)
      .set({ retentionSignaturesDays: 100 })
      .where(eq(companies.id, place.company.id));
    const visitor = await buildVisitor(ctx.db, {
      company: place.company,
      email: 'old-signer@example.com',
    });
    const old = await sign(place, visitor, new Date(Date.now() - 101 * DAY));
    // A later visit of the same person.
    const later = await buildVisitor(ctx.db, {
      company: place.company,
      email: 'old-signer@example.com',
    });
    const recent = await sign(place, later, new Date(Date.now() - 99 * DAY));
    // Another company keeps the default three years: its 101-day-old signature stays.
    const elsewhere = await setUp();
    const theirVisitor = await buildVisitor(ctx.db, {
      company: elsewhere.company,
      email: 'x@example.com',
    });
    const theirs = await sign(elsewhere, theirVisitor, new Date(Date.now() - 101 * DAY));
    const oldFile = await storedNameOf(old);
    await ctx.db.transaction((tx) => queueSignedDocumentMail(tx, old.id));

    const counts = await purgeDue(ctx.db, ctx.app.storage);
    expect(counts.signatures).toBe(1);
    const left = await ctx.db
      .select({ id: signatures.id })
      .from(signatures)
      .where(inArray(signatures.id, [old.id, recent.id, theirs.id]));
    expect(left.map((r) => r.id).sort()).toEqual([recent.id, theirs.id].sort());
    expect(await ctx.db.select().from(files).where(eq(files.id, old.pdfFileId!))).toEqual([]);
    expect(await ctx.app.storage.get(oldFile)).toBeNull();
    expect(await ctx.app.storage.get(await storedNameOf(recent))).not.toBeNull();
    // The audit entry of the signing stays (its own period), the hash with it.
    const [signedEntry] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'document.signed'), eq(auditEvents.subjectId, old.id)));
    expect((signedEntry!.detail as { hash: string }).hash).toBe(old.hash);
    // A second run finds nothing more.
    expect((await purgeDue(ctx.db, ctx.app.storage)).signatures).toBe(0);
  });

  it('exports a person’s signatures with their PDFs, and erasure removes them', async () => {
    const place = await setUp();
    const email = `person-${Math.random().toString(36).slice(2)}@example.com`;
    const first = await buildVisitor(ctx.db, { company: place.company, email });
    const second = await buildVisitor(ctx.db, { company: place.company, email });
    const a = await sign(place, first, new Date(Date.now() - 2 * DAY));
    const b = await sign(place, second, new Date());
    await ctx.db.transaction((tx) => queueSignedDocumentMail(tx, b.id));
    // Someone else's signature in the same company stays.
    const stranger = await buildVisitor(ctx.db, {
      company: place.company,
      email: 'stranger@example.com',
    });
    const kept = await sign(place, stranger, new Date());

    const zip = await place.manager({
      method: 'GET',
      url: `/api/privacy/visitor/${first.id}/export`,
    });
    expect(zip.statusCode).toBe(200);
    const entries = unzipSync(new Uint8Array(zip.rawPayload));
    const data = JSON.parse(strFromU8(entries['donnees.json']!)) as {
      signatures: Record<string, unknown>[];
    };
    expect(data.signatures.map((s) => s.id).sort()).toEqual([a.id, b.id].sort());
    expect(data.signatures.find((s) => s.id === a.id)).toMatchObject({
      title: 'Accord de confidentialité',
      version: 1,
      language: 'fr',
      signerName: 'Awa Koné',
      method: 'typed',
      hash: a.hash,
      file: `signatures/${a.id}.pdf`,
    });
    expect(JSON.stringify(data.signatures)).not.toContain('imagePng');
    expect(strFromU8(entries[`signatures/${a.id}.pdf`]!.subarray(0, 5))).toBe('%PDF-');

    const preview = await place.manager({
      method: 'GET',
      url: `/api/privacy/visitor/${first.id}/erasure`,
    });
    expect(preview.json().data.signatures).toBe(2);
    const names = [await storedNameOf(a), await storedNameOf(b)];
    const erased = await place.manager({
      method: 'POST',
      url: `/api/privacy/visitor/${first.id}/erase`,
    });
    expect(erased.statusCode).toBe(200);
    expect(
      await ctx.db
        .select()
        .from(signatures)
        .where(inArray(signatures.id, [a.id, b.id])),
    ).toEqual([]);
    expect(
      await ctx.db
        .select()
        .from(files)
        .where(inArray(files.id, [a.pdfFileId!, b.pdfFileId!])),
    ).toEqual([]);
    for (const name of names) expect(await ctx.app.storage.get(name)).toBeNull();
    expect(
      await ctx.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.dedupeKey, `signed_document:${b.id}`)),
    ).toEqual([]);
    expect(
      await ctx.db
        .select()
        .from(visitors)
        .where(inArray(visitors.id, [first.id, second.id])),
    ).toEqual([]);
    expect(await ctx.db.select().from(signatures).where(eq(signatures.id, kept.id))).toHaveLength(
      1,
    );
    const [entry] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'person.erased'), eq(auditEvents.subjectId, first.id)));
    expect(entry!.detail).toMatchObject({ signatures: 2 });
  });
});
