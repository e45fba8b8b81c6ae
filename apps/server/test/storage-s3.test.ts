/**
 * Issue 32: files behind one interface with two drivers. The same contract runs against the
 * local folder and an S3-compatible bucket (s3rver, started here on a free port); then an app
 * whose STORAGE_URL points at the bucket takes an identity document through the public form
 * and serves it back, the orphan sweep and the retention purge act on the bucket, the move
 * command copies a folder into it, and a missing bucket is a clear sentence and a 503.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestRow } from '@sesame/shared';
import { DEFAULT_RATE_LIMITS, parseStorageUrl, type StorageLocation } from '../src/config';
import { files } from '../src/db/schema';
import { moveToBucket } from '../src/files/move-to-bucket';
import { S3Storage } from '../src/files/s3-storage';
import { LocalStorage, StorageUnavailable, type FileStorage } from '../src/files/storage';
import { sweepOrphanFiles } from '../src/files/sweep';
import { purgeDue } from '../src/privacy/retention';
import { qrPng } from '../src/qr/qr';
import { as, multipart, startTestApp, tokenFor, type TestContext } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildRequest, buildTenant, buildVisitor } from './helpers/factories';

/** The part of s3rver (CommonJS, untyped) the test drives. */
interface S3rverServer {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverServer;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

const BUCKET = 'sesame-test';
const ROOT = path.resolve(import.meta.dirname, '../../..');

let s3dir = '';
let s3: S3rverServer | undefined;
let endpoint = '';
const opened: S3Storage[] = [];

async function bucket(prefix: string, name = BUCKET): Promise<S3Storage> {
  const location = parseStorageUrl(
    `s3://${name}/${prefix}?endpoint=${endpoint}&region=us-east-1&path_style=true`,
  ) as StorageLocation;
  const storage = await S3Storage.open(location);
  opened.push(storage);
  return storage;
}

beforeAll(async () => {
  // s3rver's fixed credentials, read by the SDK's default chain as in production.
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  s3dir = await mkdtemp(path.join(os.tmpdir(), 'sesame-s3rver-'));
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: s3dir,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await s3.run();
  endpoint = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  for (const storage of opened) storage.close();
  await s3?.close();
  await rm(s3dir, { recursive: true, force: true });
});

const name = (ext = 'png') => `${randomBytes(16).toString('hex')}.${ext}`;

async function text(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

async function names(storage: FileStorage): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of storage.list()) found.push(entry.name);
  return found.sort();
}

const drivers: [string, () => Promise<FileStorage>][] = [
  [
    'local folder',
    async () => new LocalStorage(await mkdtemp(path.join(os.tmpdir(), 'sesame-files-'))),
  ],
  ['S3 bucket', () => bucket(`contract-${randomBytes(4).toString('hex')}`)],
];

describe.each(drivers)('the storage contract: %s', (_label, make) => {
  let storage: FileStorage;
  beforeAll(async () => {
    storage = await make();
  });

  it('stores, reads whole and streamed, lists, removes; a missing name is null', async () => {
    const a = name();
    const b = name('pdf');
    const bytes = randomBytes(200_000);
    await storage.put(a, bytes);
    await storage.put(b, Readable.from([Buffer.from('%PDF-1.4 '), Buffer.from('streamed')]));
    expect(await storage.get(a)).toEqual(bytes);
    const streamed = await storage.getStream(a);
    expect(streamed?.size).toBe(bytes.length);
    expect(await text(streamed!.stream)).toEqual(bytes);
    expect((await storage.get(b))?.toString()).toBe('%PDF-1.4 streamed');

    const listed = new Map<string, number>();
    for await (const entry of storage.list()) {
      listed.set(entry.name, entry.size);
      expect(Date.now() - entry.modifiedAt.getTime()).toBeLessThan(3_600_000);
    }
    expect(listed).toEqual(
      new Map([
        [a, bytes.length],
        [b, 17],
      ]),
    );

    await storage.remove(a);
    await storage.remove(a); // twice is harmless
    expect(await storage.get(a)).toBeNull();
    expect(await storage.getStream(a)).toBeNull();
    expect(await storage.getStream(name())).toBeNull();
    expect(await names(storage)).toEqual([b]);
  });

  it('refuses names that are not its own: never a path', async () => {
    for (const unsafe of ['../etc/passwd', 'a/b.png', '.hidden', '', 'x y.png']) {
      await expect(storage.put(unsafe, Buffer.from('x'))).rejects.toThrow(/unsafe stored name/);
      await expect(storage.get(unsafe)).rejects.toThrow(/unsafe stored name/);
      await expect(storage.getStream(unsafe)).rejects.toThrow(/unsafe stored name/);
      await expect(storage.remove(unsafe)).rejects.toThrow(/unsafe stored name/);
    }
  });

  it('answers the readiness probe', async () => {
    await expect(storage.check()).resolves.toBeUndefined();
  });
});

describe('a bucket that is not there', () => {
  it('fails the probe with a sentence naming it, and every operation with a 503', async () => {
    const missing = await bucket('', 'no-such-bucket');
    await expect(missing.check()).rejects.toThrow(
      `The bucket no-such-bucket at ${endpoint} does not exist.`,
    );
    const fault = await missing.get(name()).catch((error: unknown) => error);
    expect(fault).toBeInstanceOf(StorageUnavailable);
    expect((fault as StorageUnavailable).statusCode).toBe(503);
    expect((fault as Error).message).toBe(
      `The bucket no-such-bucket at ${endpoint} does not exist.`,
    );
    await expect(missing.put(name(), Buffer.from('x'))).rejects.toBeInstanceOf(StorageUnavailable);
    await expect(names(missing)).rejects.toBeInstanceOf(StorageUnavailable);
  });

  it('an endpoint that does not answer is said so', async () => {
    const location = parseStorageUrl(
      `s3://${BUCKET}?endpoint=http://127.0.0.1:9&path_style=true`,
    ) as StorageLocation;
    const dead = await S3Storage.open(location);
    opened.push(dead);
    await expect(dead.check()).rejects.toThrow(/could not be reached/);
  });

  it('an endpoint that accepts and never answers fails the probe instead of holding it', async () => {
    const held: net.Socket[] = [];
    const silent = net.createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const location = parseStorageUrl(
      `s3://${BUCKET}?endpoint=http://127.0.0.1:${port}&path_style=true`,
    ) as StorageLocation;
    const mute = await S3Storage.open(location);
    opened.push(mute);
    await expect(mute.check()).rejects.toThrow(
      `The bucket ${BUCKET} at http://127.0.0.1:${port} did not answer in time.`,
    );
    for (const socket of held) socket.destroy();
    silent.close();
  });
});

describe('the move command', () => {
  it('copies a folder into the bucket, then skips what is already there', async () => {
    const folder = new LocalStorage(await mkdtemp(path.join(os.tmpdir(), 'sesame-move-')));
    const target = await bucket(`move-${randomBytes(4).toString('hex')}`);
    const contents = new Map<string, Buffer>();
    for (let i = 0; i < 5; i += 1) {
      const n = name();
      contents.set(n, randomBytes(1000 + i));
      await folder.put(n, contents.get(n)!);
    }
    expect(await moveToBucket(folder, target)).toEqual({ copied: 5, skipped: 0, failed: 0 });
    for (const [n, bytes] of contents) expect(await target.get(n)).toEqual(bytes);

    // Run again: nothing copied. A file whose size differs in the bucket is copied again.
    expect(await moveToBucket(folder, target)).toEqual({ copied: 0, skipped: 5, failed: 0 });
    const [changed] = contents.keys();
    await target.put(changed!, Buffer.from('truncated'));
    expect(await moveToBucket(folder, target)).toEqual({ copied: 1, skipped: 4, failed: 0 });
    expect(await target.get(changed!)).toEqual(contents.get(changed!));
    await rm(folder.root, { recursive: true, force: true });
  });

  it('into a missing bucket: the sentence, nothing copied', async () => {
    const folder = new LocalStorage(await mkdtemp(path.join(os.tmpdir(), 'sesame-move-')));
    await folder.put(name(), Buffer.from('x'));
    await expect(moveToBucket(folder, await bucket('', 'no-such-bucket'))).rejects.toThrow(
      'does not exist',
    );
    await rm(folder.root, { recursive: true, force: true });
  });

  it('as a command: counts printed, one sentence without STORAGE_URL', async () => {
    const run = promisify(execFile);
    const tsx = path.join(ROOT, 'node_modules/.bin/tsx');
    const script = path.join(ROOT, 'apps/server/src/files/move-to-bucket.ts');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sesame-move-'));
    const folder = new LocalStorage(dir);
    await folder.put(name(), Buffer.from('one'));
    await folder.put(name(), Buffer.from('two'));

    const env = { ...process.env, STORAGE_URL: '' };
    const unset = await run(tsx, [script, '--from', dir], { env }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect((unset as { code: number }).code).not.toBe(0);
    expect((unset as { stderr: string }).stderr.trim()).toBe(
      'STORAGE_URL is not set: set it to the bucket to copy the files into (s3://BUCKET?endpoint=...).',
    );

    env.STORAGE_URL = `s3://${BUCKET}/cli-${randomBytes(4).toString('hex')}?endpoint=${endpoint}&path_style=true`;
    const first = await run(tsx, [script, '--from', dir], { env });
    expect(first.stdout.trim()).toBe('2 copied, 0 already in the bucket, 0 failed.');
    const again = await run(tsx, [script, `--from=${dir}`], { env });
    expect(again.stdout.trim()).toBe('0 copied, 2 already in the bucket, 0 failed.');
    await rm(dir, { recursive: true, force: true });
  });
});

describe(`an app whose files are in the bucket (${testDatabaseKind})`, () => {
  let ctx: TestContext & { close(): Promise<void> };
  let store: S3Storage;
  beforeAll(async () => {
    const prefix = `app-${randomBytes(4).toString('hex')}`;
    store = await bucket(prefix);
    ctx = await startTestApp({
      storage: store.location,
      rateLimits: { ...DEFAULT_RATE_LIMITS, publicFormPerWindow: 10_000 },
    });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('takes an identity document through the public form and serves it back from the bucket', async () => {
    expect(ctx.app.storage).toBeInstanceOf(S3Storage);
    const acme = await buildTenant(ctx.db);
    const png = await qrPng(`identity ${Math.random()}`);
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/visitor/create',
      ...multipart(
        {
          company_id: acme.company.slug,
          firstname: 'Awa',
          lastname: 'Koné',
          id_number: 'CI-0042',
          organisation_name: 'Acme',
          email: `awa-${Math.random().toString(36).slice(2)}@example.com`,
          contact: '0701020304',
          request_date: '24/11/2030',
          request_time: '10:30',
          privacy_accepted: '1',
        },
        { request_image: { filename: 'carte.png', contentType: 'image/png', bytes: png } },
      ),
    });
    expect(created.statusCode).toBe(200);
    const visitorId = created.json().data.visitor_id as string;
    const filed = await ctx.app.inject({
      method: 'POST',
      url: '/api/requests/create',
      payload: { visitor_id: visitorId, host: 'M. Diallo' },
    });
    expect(filed.statusCode).toBe(201);

    // The bytes are in the bucket, not in DATA_DIR.
    const [file] = await ctx.db
      .select()
      .from(files)
      .where(eq(files.sha256, sha(png)));
    expect(await store.get(file!.storedName)).toEqual(png);
    await expect(
      readFile(path.join(ctx.config.dataDir, 'files', file!.storedName.slice(0, 2))),
    ).rejects.toThrow();

    const token = await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email);
    const list = await as(ctx.app, token)({ method: 'GET', url: '/api/requests/list' });
    const row = list.json<{ data: RequestRow[] }>().data.find((r) => r.visitor.id === visitorId);
    const served = await as(ctx.app, token)({ method: 'GET', url: row!.visitor.request_image! });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['content-length']).toBe(String(png.length));
    expect(served.rawPayload).toEqual(png);

    // Gone from the bucket: the route answers 404, as for a missing file on disk.
    await store.remove(file!.storedName);
    const gone = await as(ctx.app, token)({ method: 'GET', url: row!.visitor.request_image! });
    expect(gone.statusCode).toBe(404);
  });

  it('the orphan sweep removes an old orphan in the bucket and keeps referenced files', async () => {
    const acme = await buildTenant(ctx.db);
    const kept = await storedDocument(ctx, acme.company.id);
    const orphan = name();
    await store.put(orphan, Buffer.from('orphan'));
    // The bucket's clock says "now"; an hour later by the sweep's own, both are old enough.
    const result = await sweepOrphanFiles(ctx.db, store, { now: Date.now() + 2 * 3_600_000 });
    expect(result.removed).toContain(orphan);
    expect(result.removed).not.toContain(kept.storedName);
    expect(await store.get(orphan)).toBeNull();
    expect(await store.get(kept.storedName)).not.toBeNull();
    // A young orphan (an upload in flight) is left alone.
    const young = name();
    await store.put(young, Buffer.from('in flight'));
    expect((await sweepOrphanFiles(ctx.db, store)).removed).not.toContain(young);
    expect(await store.get(young)).not.toBeNull();
  });

  it("the retention purge removes a purged visitor's document from the bucket", async () => {
    const acme = await buildTenant(ctx.db);
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000);
    const documents = [];
    for (const days of [400, 1]) {
      const file = await storedDocument(ctx, acme.company.id);
      const visitor = await buildVisitor(ctx.db, {
        company: acme.company,
        createdAt: ago(days),
        dayStartsAt: ago(days),
        dayEndsAt: ago(days),
        requestImageId: file.id,
      });
      await buildRequest(ctx.db, { company: acme.company, visitor, createdAt: ago(days) });
      documents.push(file);
    }
    const [old, recent] = documents;
    expect(await store.get(old!.storedName)).not.toBeNull();
    await purgeDue(ctx.db, ctx.app.storage);
    expect(await store.get(old!.storedName)).toBeNull();
    expect(await store.get(recent!.storedName)).not.toBeNull();
  });
});

describe(`an app whose bucket is missing (${testDatabaseKind})`, () => {
  let ctx: TestContext & { close(): Promise<void> };
  beforeAll(async () => {
    const missing = await bucket('', 'no-such-bucket');
    ctx = await startTestApp({ storage: missing.location });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('an upload answers 503 with a message, not a bare 500', async () => {
    const acme = await buildTenant(ctx.db);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/visitor/create',
      ...multipart(
        {
          company_id: acme.company.slug,
          firstname: 'Awa',
          lastname: 'Koné',
          id_number: 'CI-0042',
          organisation_name: 'Acme',
          email: 'awa@example.com',
          contact: '0701020304',
          request_date: '24/11/2030',
          request_time: '10:30',
          privacy_accepted: '1',
        },
        {
          request_image: {
            filename: 'carte.png',
            contentType: 'image/png',
            bytes: await qrPng('missing bucket'),
          },
        },
      ),
    });
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toBe(
      'Service momentanément indisponible (stockage des fichiers injoignable). Réessayez dans un instant.',
    );
  });
});

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A stored document (bytes in the app's storage and its row). */
async function storedDocument(ctx: TestContext, companyId: string) {
  const bytes = randomBytes(64);
  const storedName = name();
  await ctx.app.storage.put(storedName, bytes);
  const [file] = await ctx.db
    .insert(files)
    .values({
      companyId,
      ownerType: 'visitor',
      storedName,
      mediaType: 'image/png',
      size: bytes.length,
      sha256: sha(bytes),
    })
    .returning();
  return file!;
}
