/**
 * Issue 31, on PGlite and PostgreSQL: what is kept of a signature. Its hash recomputed from
 * the stored parts matches the row and its audit entry; its PDF (pdf-lib) opens and
 * `pdftotext` reads the title, the version and the signer's name, in French and in English;
 * staff list a visit's signatures and download the PDF (audited; 403 without
 * signatures.read, 404 for another company's); the visitor's mail carries the PDF (a real
 * SMTP server), asked for only within 30 minutes of signing, once.
 */
import { execFileSync } from 'node:child_process';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIONS, ROLES, sayIn, type Role, type SignedDocument } from '@sesame/shared';
import {
  auditEvents,
  documentVersions,
  files,
  mailOutbox,
  signatures,
  siteDocuments,
  sites,
  visitorTypeDocuments,
  visitorTypes,
} from '../src/db/schema';
import { partsOf, signForVisit, signatureHash, type SignatureRow } from '../src/documents/signing';
import { signaturePdf } from '../src/documents/pdf';
import { withStoredFileCleanup } from '../src/files/uploads';
import { smtpTransport } from '../src/mail/transport';
import { MailWorker } from '../src/mail/worker';
import { qrPng } from '../src/qr/qr';
import { insertDefaultVisitorTypes } from '../src/visitor-types/defaults';
import { as, tokenFor, useTestApp, type TestContext } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildCompany, buildSite, buildTenant, buildUser, buildVisitor } from './helpers/factories';
import { freePort, startSmtp, type TestSmtp } from './helpers/smtp';

type Db = TestContext['db'];
const quiet = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

const TITLE_FR = 'Règles de sécurité du chantier';
const TITLE_EN = 'Site safety rules';

/** The text of a PDF as `pdftotext` reads it. */
function pdfText(bytes: Buffer | Uint8Array): string {
  return execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: bytes }).toString('utf8');
}

/** A type of the site with one document (version 2, so the version shows), signed each visit. */
async function typeWithDocument(db: Db, companyId: string, siteId: string) {
  await insertDefaultVisitorTypes(db, companyId, siteId);
  const [type] = await db
    .select()
    .from(visitorTypes)
    .where(and(eq(visitorTypes.siteId, siteId), eq(visitorTypes.nameFr, 'Prestataire')));
  const [doc] = await db
    .insert(siteDocuments)
    .values({ companyId, siteId, currentVersion: 2 })
    .returning();
  for (const version of [1, 2]) {
    await db.insert(documentVersions).values({
      companyId,
      documentId: doc!.id,
      version,
      titleFr: TITLE_FR,
      titleEn: TITLE_EN,
      bodyFr:
        '# Consignes\n\nLe port du **casque** est obligatoire.\n\n- Suivez le guide\n- Restez dans la zone — 中文',
      bodyEn:
        '# Instructions\n\nA **helmet** must be worn.\n\n- Follow the guide\n- Stay in the area',
    });
  }
  await db.insert(visitorTypeDocuments).values({
    companyId,
    visitorTypeId: type!.id,
    documentId: doc!.id,
    validity: 'visit',
  });
  return { typeId: type!.id, documentId: doc!.id };
}

describe(`signed documents (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let smtp: TestSmtp;
  let tenant: Awaited<ReturnType<typeof buildTenant>>;
  let other: Awaited<ReturnType<typeof buildCompany>>;
  let doc: Awaited<ReturnType<typeof typeWithDocument>>;
  let png: Buffer;

  beforeAll(async () => {
    smtp = await startSmtp(await freePort());
    tenant = await buildTenant(ctx.db);
    // The PDF says the time in the site's zone, with its offset.
    await ctx.db
      .update(sites)
      .set({ timezone: 'Europe/Paris', name: 'Chantier Nord' })
      .where(eq(sites.id, tenant.company.siteId));
    other = await buildCompany(ctx.db);
    doc = await typeWithDocument(ctx.db, tenant.company.id, tenant.company.siteId);
    png = await qrPng('a drawn signature');
  });
  afterAll(async () => {
    await smtp?.stop();
  });

  /** A visit of the tenant's site whose visitor signs the document now (or at `now`). */
  async function signed(
    language: 'fr' | 'en',
    method: 'drawn' | 'typed',
    options: { now?: Date; signerName?: string; email?: string } = {},
  ): Promise<SignatureRow> {
    const email = options.email ?? `signer-${Math.random().toString(36).slice(2)}@example.com`;
    const visitor = await buildVisitor(ctx.db, { company: tenant.company, email });
    const signerName = options.signerName ?? 'Awa Koné';
    const [row] = await withStoredFileCleanup(ctx.app.storage, (storage) =>
      ctx.db.transaction((tx) =>
        signForVisit(tx, {
          companyId: tenant.company.id,
          siteId: tenant.company.siteId,
          visitorId: visitor.id,
          typeId: doc.typeId,
          email,
          language,
          signed: [
            method === 'drawn'
              ? {
                  document_id: doc.documentId,
                  version: 2,
                  signer_name: signerName,
                  method: 'drawn',
                  image: `data:image/png;base64,${png.toString('base64')}`,
                }
              : {
                  document_id: doc.documentId,
                  version: 2,
                  signer_name: signerName,
                  method: 'typed',
                  accepted: true,
                },
          ],
          now: options.now,
          storage,
        }),
      ),
    );
    if (!row) throw new Error('no signature written');
    return row;
  }

  const storedPdf = async (row: SignatureRow) => {
    const [file] = await ctx.db.select().from(files).where(eq(files.id, row.pdfFileId!));
    expect(file).toMatchObject({ ownerType: 'signature_pdf', ownerId: row.id });
    expect(file!.mediaType).toBe('application/pdf');
    const bytes = await ctx.app.storage.get(file!.storedName);
    expect(bytes).not.toBeNull();
    return { file: file!, bytes: bytes! };
  };

  it('keeps a hash that the stored parts recompute, recorded in the audit entry', async () => {
    const row = await signed('fr', 'drawn');
    expect(row.imagePng).toBe(png.toString('base64'));
    expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(signatureHash(partsOf(row))).toBe(row.hash);
    const [stored] = await ctx.db.select().from(signatures).where(eq(signatures.id, row.id));
    expect(signatureHash(partsOf(stored!))).toBe(row.hash);
    const [entry] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'document.signed'), eq(auditEvents.subjectId, row.id)));
    expect((entry!.detail as { hash: string }).hash).toBe(row.hash);
    // Any part changed changes the hash.
    expect(signatureHash({ ...partsOf(stored!), signerName: 'Awa Kone' })).not.toBe(row.hash);
  });

  it('stores a PDF that reads the title, version and signer, in French and in English', async () => {
    const french = await signed('fr', 'drawn', { signerName: 'Awa Koné' });
    const { bytes: frBytes } = await storedPdf(french);
    expect(frBytes.subarray(0, 5).toString()).toBe('%PDF-');
    const frText = pdfText(frBytes);
    expect(frText).toContain(TITLE_FR);
    expect(frText).toContain('Version 2');
    expect(frText).toContain('Awa Koné');
    expect(frText).toContain('casque');
    expect(frText).toContain('UTC+01:00, Europe/Paris');
    expect(frText).toContain(french.hash);
    // A character outside WinAnsi is replaced, not a crash.
    expect(frText).toContain('zone — ??');

    const english = await signed('en', 'typed', { signerName: 'John Smith' });
    const enText = pdfText((await storedPdf(english)).bytes);
    expect(enText).toContain(TITLE_EN);
    expect(enText).toContain('Version 2');
    expect(enText).toContain('Signed by typing their name: John Smith');
    expect(enText).toContain('helmet');
    expect(enText).not.toContain(TITLE_FR);

    // The same row always makes the same bytes (the dates are the signing time).
    const again = await signaturePdf(english, {
      companyName: tenant.company.name,
      siteName: 'Chantier Nord',
      timeZone: 'Europe/Paris',
    });
    expect(again.equals((await storedPdf(english)).bytes)).toBe(true);
  });

  it('lists a visit’s signatures and lets staff download the PDF, audited', async () => {
    const row = await signed('fr', 'typed', { signerName: 'Mariam Traoré' });
    const reader = await tokenFor(ctx.app, tenant.staff.ROLE_MANAGER.email);
    const call = as(ctx.app, reader);

    const list = await call({ method: 'GET', url: `/api/visitors/${row.visitorId}/signatures` });
    expect(list.statusCode).toBe(200);
    const data = list.json().data as SignedDocument[];
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      id: row.id,
      title: TITLE_FR,
      version: 2,
      language: 'fr',
      signer_name: 'Mariam Traoré',
      method: 'typed',
      hash: row.hash,
    });
    expect(data[0]!.pdf_url).toMatch(new RegExp(`^/api/files/${row.pdfFileId}\\?session=`));
    // The signed URL opens the PDF with the session's token, audited as a download.
    const viaUrl = await call({ method: 'GET', url: data[0]!.pdf_url! });
    expect(viaUrl.statusCode).toBe(200);
    expect(viaUrl.headers['content-disposition']).toBe('attachment; filename="document-signe.pdf"');
    expect(pdfText(viaUrl.rawPayload)).toContain('Mariam Traoré');

    const pdf = await call({ method: 'GET', url: `/api/signatures/${row.id}/pdf` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(
      `attachment; filename="regles-de-securite-du-chantier-v2-${row.signedAt.toISOString().slice(0, 10)}.pdf"`,
    );
    expect(pdfText(pdf.rawPayload)).toContain('Mariam Traoré');
    const downloads = await ctx.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'signature.downloaded'), eq(auditEvents.subjectId, row.id)),
      );
    expect(downloads).toHaveLength(2);
    expect(downloads[1]).toMatchObject({
      companyId: tenant.company.id,
      actorUserId: tenant.staff.ROLE_MANAGER.id,
      subjectType: 'signature',
    });

    // The stored file gone: the PDF is made again from the row, the same bytes.
    const { file, bytes } = await storedPdf(row);
    await ctx.app.storage.remove(file.storedName);
    const remade = await call({ method: 'GET', url: `/api/signatures/${row.id}/pdf` });
    expect(remade.statusCode).toBe(200);
    expect(Buffer.from(remade.rawPayload).equals(bytes)).toBe(true);
  });

  it('refuses a role without signatures.read (403) and another company’s signature (404)', async () => {
    const row = await signed('fr', 'typed');
    const without = ROLES.find(
      (role) => !(ACTIONS['signatures.read'].roles as readonly Role[]).includes(role),
    );
    expect(without, 'a role without signatures.read').toBeDefined();
    const outsider = as(ctx.app, await tokenFor(ctx.app, tenant.staff[without!].email));
    expect(
      (await outsider({ method: 'GET', url: `/api/signatures/${row.id}/pdf` })).statusCode,
    ).toBe(403);
    expect(
      (await outsider({ method: 'GET', url: `/api/visitors/${row.visitorId}/signatures` }))
        .statusCode,
    ).toBe(403);
    expect(
      (await as(ctx.app, null)({ method: 'GET', url: `/api/signatures/${row.id}/pdf` })).statusCode,
    ).toBe(401);

    // A manager of the same company limited to another site: not theirs to reach.
    const annex = await buildSite(ctx.db, { company: tenant.company, name: 'Annexe' });
    const limited = await buildUser(ctx.db, {
      company: tenant.company,
      role: 'ROLE_MANAGER',
      siteIds: [annex.id],
    });
    const elsewhereSite = as(ctx.app, await tokenFor(ctx.app, limited.email));
    expect(
      (await elsewhereSite({ method: 'GET', url: `/api/signatures/${row.id}/pdf` })).statusCode,
    ).toBe(404);
    expect(
      (await elsewhereSite({ method: 'GET', url: `/api/visitors/${row.visitorId}/signatures` }))
        .statusCode,
    ).toBe(404);

    const otherManager = await buildUser(ctx.db, { company: other, role: 'ROLE_MANAGER' });
    const elsewhere = as(ctx.app, await tokenFor(ctx.app, otherManager.email));
    expect(
      (await elsewhere({ method: 'GET', url: `/api/signatures/${row.id}/pdf` })).statusCode,
    ).toBe(404);
    expect(
      (await elsewhere({ method: 'GET', url: `/api/visitors/${row.visitorId}/signatures` }))
        .statusCode,
    ).toBe(404);
    const downloads = await ctx.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'signature.downloaded'), eq(auditEvents.subjectId, row.id)),
      );
    expect(downloads).toEqual([]);
  });

  it('mails the signed PDF to the signer’s address, once, within 30 minutes of signing', async () => {
    const email = `mail-${Math.random().toString(36).slice(2)}@example.com`;
    const row = await signed('en', 'drawn', { email, signerName: 'John Smith' });
    const anonymous = as(ctx.app, null);
    const send = () =>
      anonymous({
        method: 'POST',
        url: `/api/public/signatures/${row.id}/send`,
        headers: { 'accept-language': 'en' },
      });
    const first = await send();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ message: sayIn('en', (m) => m.visitorType.pdfSent) });
    expect((await send()).statusCode).toBe(200);
    const queued = await ctx.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'signed_document'), eq(mailOutbox.toAddress, email)));
    expect(queued).toHaveLength(1);

    await new MailWorker({
      db: ctx.db,
      config: ctx.config,
      log: quiet,
      transport: smtpTransport(smtp.url),
    }).drain();
    const mail = await smtp.waitForMessage((m) =>
      [m.to].flat().some((to) => to?.value.some((a) => a.address === email)),
    );
    expect(mail.subject).toBe(`Your signed document – ${TITLE_EN}`);
    expect(mail.text).toContain(row.hash);
    const attachment = mail.attachments.find((a) => a.contentType === 'application/pdf');
    expect(attachment?.filename).toMatch(/^site-safety-rules-v2-\d{4}-\d{2}-\d{2}\.pdf$/);
    const text = pdfText(attachment!.content);
    expect(text).toContain(TITLE_EN);
    expect(text).toContain('Version 2');
    expect(text).toContain('John Smith');

    // Signed more than 30 minutes ago: refused, nothing queued.
    const old = await signed('fr', 'typed', { now: new Date(Date.now() - 31 * 60_000) });
    const late = await anonymous({ method: 'POST', url: `/api/public/signatures/${old.id}/send` });
    expect(late.statusCode).toBe(404);
    expect(late.json().message).toBe(sayIn('fr', (m) => m.visitorType.pdfSendClosed));
    // No address recorded: nothing to send to.
    const unaddressed = await signed('fr', 'typed', { email: '' });
    const none = await anonymous({
      method: 'POST',
      url: `/api/public/signatures/${unaddressed.id}/send`,
    });
    expect(none.statusCode).toBe(409);
    expect(
      await ctx.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.dedupeKey, `signed_document:${old.id}`)),
    ).toEqual([]);
    // An unknown signature.
    expect(
      (
        await anonymous({
          method: 'POST',
          url: `/api/public/signatures/00000000-0000-4000-8000-000000000000/send`,
        })
      ).statusCode,
    ).toBe(404);
  });
});
