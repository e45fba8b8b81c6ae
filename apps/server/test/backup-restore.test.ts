/**
 * Issue 32: the backup commands deploy/README.md gives, run for real. A PostgreSQL database
 * of its own is migrated and seeded as a first start does; a visit request with an identity
 * document, its confirmation, a check-in and the audit trail are written through the API, and
 * a signed document (row and PDF) through the signing service; then `pg_dump --format=custom`
 * and a `tar` of DATA_DIR/files, `pg_restore --no-owner` into another new database and the
 * archive unpacked into another data folder. A server started on the restored pair serves the
 * same request, the document's bytes, the check log, the signed PDF and the admin's sign-in;
 * it takes new writes (sequences and ids restored), and its start runs no migration again.
 * PostgreSQL only: the embedded database is backed up by copying DATA_DIR.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestRow, SignedDocument, VisitorLogRow } from '@sesame/shared';
import { buildApp } from '../src/app';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import { openPostgres, type DatabaseHandle } from '../src/db/client';
import {
  companies,
  documentVersions,
  files,
  siteDocuments,
  sites,
  visitorTypeDocuments,
  visitorTypes,
} from '../src/db/schema';
import { partsOf, signatureHash, signForVisit, type SignatureRow } from '../src/documents/signing';
import { withStoredFileCleanup } from '../src/files/uploads';
import { qrPng } from '../src/qr/qr';
import { seedFirstRun } from '../src/setup/seed';
import { withDatabase } from './global-setup';
import { as, multipart, testConfig, tokenFor } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { onConnection } from '../src/db/one-connection';

const run = promisify(execFile);
const onPostgres = testDatabaseKind === 'postgres';
const adminUrl = process.env.TEST_DATABASE_URL ?? '';
const ADMIN_EMAIL = 'backup-admin@example.com';
const ADMIN_PASSWORD = 'Backup-Password-123';
// A PNG's signature and a few bytes that differ each run: the restored file must be this one.
const documentBytes = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  randomBytes(2048),
]);

/** Today as the visitor form writes it (DD/MM/YYYY), in the server's zone (UTC here). */
function today(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}

const admin = <T>(work: (client: pg.Client) => Promise<T>) => onConnection(adminUrl, work);

/** A new, empty database with a unique name; its URL. */
async function newDatabase(label: string): Promise<{ name: string; url: string }> {
  const name = `sesame_${label}_${randomBytes(4).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  return { name, url: withDatabase(adminUrl, name) };
}

/** Rows of drizzle's migrations journal: what a start has applied. */
async function migrationsApplied(url: string): Promise<{ hash: string; created_at: string }[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ hash: string; created_at: string }>(
      'select hash, created_at::text from drizzle.__drizzle_migrations order by id',
    );
    return rows;
  } finally {
    await client.end();
  }
}

interface Instance {
  app: FastifyInstance;
  handle: DatabaseHandle;
  dataDir: string;
}

/** What main.ts does at start (migrate, seed once), then the app on that database and folder. */
async function startOn(url: string, dataDir: string): Promise<Instance> {
  const handle = await openPostgres(url, 5);
  const config = testConfig(dataDir, {
    databaseUrl: url,
    timezone: 'UTC',
    // The check-out right after the restore is a real one, not a repeated scan.
    repeatScanWindowMs: 0,
    adminEmail: ADMIN_EMAIL,
    adminPassword: ADMIN_PASSWORD,
    rateLimits: { ...DEFAULT_RATE_LIMITS, publicFormPerWindow: 1_000 },
  });
  await seedFirstRun(handle.db, config);
  const app = await buildApp({ config, db: handle.db, logger: false });
  await app.ready();
  return { app, handle, dataDir };
}

/**
 * The visitor signs a document of the demo site, as the kiosk's signing step does
 * (signForVisit: the signature row, its audit entry and its PDF in the storage). The
 * document's setup is rows, as the signatures test writes them; the PDF's bytes are returned.
 */
async function signDocument(instance: Instance, visitorId: string, email: string) {
  const { db } = instance.handle;
  const [place] = await db
    .select({ companyId: companies.id, siteId: sites.id })
    .from(companies)
    .innerJoin(sites, eq(sites.companyId, companies.id))
    .where(eq(companies.slug, 'demo'));
  const { companyId, siteId } = place!;
  const [type] = await db
    .select()
    .from(visitorTypes)
    .where(and(eq(visitorTypes.siteId, siteId), eq(visitorTypes.nameFr, 'Prestataire')));
  const [doc] = await db
    .insert(siteDocuments)
    .values({ companyId, siteId, currentVersion: 1 })
    .returning();
  await db.insert(documentVersions).values({
    companyId,
    documentId: doc!.id,
    version: 1,
    titleFr: 'Consignes de sécurité',
    titleEn: 'Safety rules',
    bodyFr: 'Le port du badge est obligatoire.',
    bodyEn: 'The badge must be worn.',
  });
  await db
    .insert(visitorTypeDocuments)
    .values({ companyId, visitorTypeId: type!.id, documentId: doc!.id, validity: 'visit' });
  const drawn = await qrPng('a drawn signature');
  const [row] = await withStoredFileCleanup(instance.app.storage, (storage) =>
    db.transaction((tx) =>
      signForVisit(tx, {
        companyId,
        siteId,
        visitorId,
        typeId: type!.id,
        email,
        language: 'fr',
        signed: [
          {
            document_id: doc!.id,
            version: 1,
            signer_name: 'Awa Sauvegarde',
            method: 'drawn',
            image: `data:image/png;base64,${drawn.toString('base64')}`,
          },
        ],
        storage,
      }),
    ),
  );
  const [pdf] = await db.select().from(files).where(eq(files.id, row!.pdfFileId!));
  const bytes = await instance.app.storage.get(pdf!.storedName);
  if (!bytes) throw new Error('the signed PDF is missing from the storage');
  return { signature: row!, pdf: bytes };
}

// PostgreSQL only: the embedded database is backed up by copying DATA_DIR while the server is stopped.
describe.runIf(onPostgres)('backup and restore (pg_dump, pg_restore, the files folder)', () => {
  const databases: string[] = [];
  const folders: string[] = [];
  let source: Instance;
  let restored: Instance;
  let restoredUrl: string;
  let migrationsBefore: { hash: string; created_at: string }[];
  let requestId: string;
  let visitorId: string;
  let visitorUidn: string;
  let signature: SignatureRow;
  let signedPdf: Buffer;

  beforeAll(async () => {
    // 1. A first start on a new database, and real data written through the API.
    const first = await newDatabase('backup_src');
    databases.push(first.name);
    const sourceDir = await mkdtemp(path.join(os.tmpdir(), 'sesame-backup-src-'));
    folders.push(sourceDir);
    source = await startOn(first.url, sourceDir);

    const form = await source.app.inject({
      method: 'POST',
      url: '/api/visitor/create',
      ...multipart(
        {
          company_id: 'demo',
          firstname: 'Awa',
          lastname: 'Sauvegarde',
          id_number: 'CI-BACKUP-1',
          organisation_name: 'Acme',
          email: 'awa.backup@example.com',
          contact: '0701020304',
          request_date: today(),
          request_time: '10:30',
          privacy_accepted: '1',
        },
        {
          request_image: { filename: 'carte.png', contentType: 'image/png', bytes: documentBytes },
        },
      ),
    });
    expect(form.statusCode, form.body).toBe(200);
    visitorId = form.json().data.visitor_id as string;
    const created = await source.app.inject({
      method: 'POST',
      url: '/api/requests/create',
      payload: { visitor_id: visitorId, host: 'M. Diallo' },
    });
    expect(created.statusCode, created.body).toBe(201);
    requestId = created.json().data.id as string;

    const call = as(source.app, await tokenFor(source.app, ADMIN_EMAIL, ADMIN_PASSWORD));
    const confirmed = await call({
      method: 'PUT',
      url: `/api/requests/update/${requestId}`,
      payload: { status: 1, confirmed: 1 },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    visitorUidn = confirmed.json().data.uidn as string;
    const checkIn = await call({ method: 'GET', url: `/api/get-qr-data/${visitorUidn}` });
    expect(checkIn.statusCode, checkIn.body).toBe(200);
    expect(checkIn.json()).toMatchObject({ status: 'success', action: 'check_in' });
    ({ signature, pdf: signedPdf } = await signDocument(
      source,
      visitorId,
      'awa.backup@example.com',
    ));
    migrationsBefore = await migrationsApplied(first.url);
    expect(migrationsBefore.length).toBeGreaterThan(0);

    // 2. The backup, as deploy/README.md gives it: a custom-format dump and the files folder.
    const backupDir = await mkdtemp(path.join(os.tmpdir(), 'sesame-backup-'));
    folders.push(backupDir);
    const dumpFile = path.join(backupDir, 'sesame.dump');
    const filesArchive = path.join(backupDir, 'sesame-files.tar.gz');
    await run('/usr/bin/pg_dump', ['--format=custom', `--file=${dumpFile}`, first.url]);
    await run('/usr/bin/tar', ['-C', sourceDir, '-czf', filesArchive, 'files']);
    // The source is gone before the restore: nothing below can read from it.
    await source.app.close();
    await source.handle.close();
    await admin((client) => client.query(`DROP DATABASE ${first.name} WITH (FORCE)`));
    await rm(sourceDir, { recursive: true, force: true });

    // 3. The restore into another new database and another data folder.
    const second = await newDatabase('backup_dst');
    databases.push(second.name);
    restoredUrl = second.url;
    await run('/usr/bin/pg_restore', ['--no-owner', `--dbname=${second.url}`, dumpFile]);
    const restoredDir = await mkdtemp(path.join(os.tmpdir(), 'sesame-backup-dst-'));
    folders.push(restoredDir);
    await run('/usr/bin/tar', ['-C', restoredDir, '-xzf', filesArchive]);
    restored = await startOn(second.url, restoredDir);
  }, 120_000);

  afterAll(async () => {
    await restored?.app.close();
    await restored?.handle.close();
    await source?.app.close().catch(() => undefined);
    await source?.handle.close().catch(() => undefined);
    if (onPostgres) {
      await admin(async (client) => {
        for (const name of databases)
          await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      });
    }
    for (const dir of folders) await rm(dir, { recursive: true, force: true });
  });

  it('the restored files folder holds the uploaded document', async () => {
    expect((await readdir(path.join(restored.dataDir, 'files'))).length).toBeGreaterThan(0);
  });

  it('signs in the same admin and serves the request with its document, byte for byte', async () => {
    const token = await tokenFor(restored.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const call = as(restored.app, token);
    const list = await call({ method: 'GET', url: '/api/requests/list?per_page=100' });
    expect(list.statusCode, list.body).toBe(200);
    const row = list.json<{ data: RequestRow[] }>().data.find((r) => r.id === requestId);
    expect(row).toMatchObject({
      id: requestId,
      visitor: { id: visitorId, lastname: 'Sauvegarde', uidn: visitorUidn },
    });
    expect(row!.visitor.request_image).toBeTruthy();
    const file = await call({ method: 'GET', url: row!.visitor.request_image! });
    expect(file.statusCode, file.body).toBe(200);
    expect(file.rawPayload.equals(documentBytes)).toBe(true);
  });

  it('serves the check log and the audit trail written before the backup', async () => {
    const call = as(restored.app, await tokenFor(restored.app, ADMIN_EMAIL, ADMIN_PASSWORD));
    const day = new Date().toISOString().slice(0, 10);
    const from = `${day}T00:00:00Z`;
    const to = new Date(Date.parse(from) + 86_400_000).toISOString();
    const log = await call({
      method: 'GET',
      url: `/api/visitorlog?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    });
    expect(log.statusCode, log.body).toBe(200);
    const checks = log
      .json<{ data: VisitorLogRow[] }>()
      .data.filter((r) => r.visitor_lastname === 'Sauvegarde');
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ check_in_method: 'scan', check_out_time: null });

    const audit = await call({ method: 'GET', url: '/api/audit?per_page=100' });
    expect(audit.statusCode, audit.body).toBe(200);
    const actions = audit.json<{ data: { action: string }[] }>().data.map((e) => e.action);
    // The confirmation and the sign-in from before the backup are in the restored trail.
    expect(actions).toContain('auth.signed_in');
    expect(actions).toContain('request.confirmed');
  });

  it('takes new writes: a visitor with a new document, a request, the check-out of the restored check-in', async () => {
    const laterBytes = Buffer.concat([documentBytes.subarray(0, 8), randomBytes(512)]);
    const form = await restored.app.inject({
      method: 'POST',
      url: '/api/visitor/create',
      ...multipart(
        {
          company_id: 'demo',
          firstname: 'Koffi',
          lastname: 'Après',
          id_number: 'CI-BACKUP-2',
          organisation_name: 'Acme',
          email: 'koffi.after@example.com',
          contact: '0701020305',
          request_date: today(),
          request_time: '11:00',
          privacy_accepted: '1',
        },
        { request_image: { filename: 'carte.png', contentType: 'image/png', bytes: laterBytes } },
      ),
    });
    expect(form.statusCode, form.body).toBe(200);
    const created = await restored.app.inject({
      method: 'POST',
      url: '/api/requests/create',
      payload: { visitor_id: form.json().data.visitor_id as string, host: 'M. Diallo' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.id).not.toBe(requestId);
    const newId = created.json().data.id as string;

    const call = as(restored.app, await tokenFor(restored.app, ADMIN_EMAIL, ADMIN_PASSWORD));
    const checkOut = await call({ method: 'GET', url: `/api/get-qr-data/${visitorUidn}` });
    expect(checkOut.statusCode, checkOut.body).toBe(200);
    expect(checkOut.json()).toMatchObject({ status: 'success', action: 'check_out' });

    // The new document went to the restored folder and is served from it.
    const list = await call({ method: 'GET', url: '/api/requests/list?per_page=100' });
    const row = list.json<{ data: RequestRow[] }>().data.find((r) => r.id === newId);
    const file = await call({ method: 'GET', url: row!.visitor.request_image! });
    expect(file.statusCode, file.body).toBe(200);
    expect(file.rawPayload.equals(laterBytes)).toBe(true);
  });

  it('serves the signed document: its row, whose hash the restored parts recompute, and its PDF', async () => {
    const call = as(restored.app, await tokenFor(restored.app, ADMIN_EMAIL, ADMIN_PASSWORD));
    const list = await call({ method: 'GET', url: `/api/visitors/${visitorId}/signatures` });
    expect(list.statusCode, list.body).toBe(200);
    const [listed] = list.json<{ data: SignedDocument[] }>().data;
    expect(listed).toMatchObject({
      id: signature.id,
      signer_name: 'Awa Sauvegarde',
      hash: signature.hash,
    });
    const pdf = await call({ method: 'GET', url: listed!.pdf_url! });
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.rawPayload.equals(signedPdf)).toBe(true);
    const restoredRow = (await restored.handle.db.query.signatures.findFirst({
      where: (row, { eq: equals }) => equals(row.id, signature.id),
    }))!;
    expect(signatureHash(partsOf(restoredRow))).toBe(signature.hash);
  });

  it("keeps the migrations journal: the restored database's start applied none again", async () => {
    expect(await migrationsApplied(restoredUrl)).toEqual(migrationsBefore);
  });
});
