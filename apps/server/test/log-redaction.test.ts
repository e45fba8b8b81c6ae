/**
 * Issue 11 §6 "No personal data in logs": a failed insert once logged a visitor's
 * code, name, e-mail, phone and identity number. Every log line now keeps the
 * route and the reason, never the query string nor a personal field.
 * Issue 26 §7: request lines carried the path, and with it visitor codes (door
 * credentials), file ids and request ids; they now name the route's pattern.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { visitors } from '../src/db/schema';
import { NO_ROUTE, appLoggerOptions, redactError } from '../src/log-redaction';
import { testConfig } from './helpers/app';
import { createTestDatabase } from './helpers/db';
import { buildRequest, buildTenant, buildVisitor } from './helpers/factories';
import { tokenFor } from './helpers/app';

const PERSON = {
  uidn: 'SECRET-CODE-7KQ2',
  firstname: 'Adjoua',
  lastname: 'Konan-Secret',
  email: 'adjoua.secret@example.com',
  contact: '0708091011',
  idNumber: 'CI-SECRET-99',
  organisationName: 'Acme',
};

/** Today as the request form stores it (DD/MM/YYYY, UTC like the test company's zone). */
function today(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}

/** The level a server runs at when LOG_LEVEL is not set. */
const DEFAULT_LEVEL = loadConfig({ JWT_SECRET: 'x'.repeat(40) }).logLevel;

describe('log redaction', () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  let close: () => Promise<void>;
  let ctx: {
    app: Awaited<ReturnType<typeof buildApp>>;
    db: Awaited<ReturnType<typeof createTestDatabase>>['db'];
  };

  beforeAll(async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sesame-log-'));
    const handle = await createTestDatabase();
    const app = await buildApp({
      config: testConfig(dataDir),
      db: handle.db,
      logger: { ...appLoggerOptions(DEFAULT_LEVEL), stream },
    });
    await app.ready();
    ctx = { app, db: handle.db };
    close = async () => {
      await app.close();
      await handle.close();
      await rm(dataDir, { recursive: true, force: true });
    };
  });
  afterAll(async () => close());

  it('cuts query strings from request lines and censors personal fields', async () => {
    lines.length = 0;
    const { staff } = await buildTenant(ctx.db);
    const token = await tokenFor(ctx.app, staff.ROLE_ADMIN.email);
    await ctx.app.inject({
      method: 'GET',
      url: `/api/user/list?q=${encodeURIComponent(PERSON.email)}`,
      headers: { authorization: `Bearer ${token}` },
    });
    ctx.app.log.info({ to: PERSON.email, visitor: { email: PERSON.email } }, 'mail sent');
    const all = lines.join('');
    expect(all).toContain('"url":"/api/user/list"');
    expect(all).not.toContain('?q=');
    expect(all).not.toContain(encodeURIComponent(PERSON.email));
    expect(all).not.toContain(PERSON.email);
    expect(all).not.toContain(token);
  });

  it('names the route, never a code, request id or file id from the path (issue 26 §7)', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const visitor = await buildVisitor(ctx.db, { company, requestDate: today() });
    const request = await buildRequest(ctx.db, { company, visitor, status: 1, confirmed: true });
    const token = await tokenFor(ctx.app, staff.ROLE_EMPLOYEE.email);
    const fileId = randomUUID();
    const code = visitor.uidn;
    lines.length = 0;
    const statuses: number[] = [];
    const call = async (url: string, bearer?: string) => {
      const res = await ctx.app.inject({
        method: 'GET',
        url,
        headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
      });
      statuses.push(res.statusCode);
      return res;
    };

    // A scan (the code checked in), the visitor's card, the waiting screen's poll, a file.
    expect((await call(`/api/get-qr-data/${code}`, token)).statusCode).toBe(200);
    expect((await call(`/api/visitor/card/${code}`)).statusCode).toBe(200);
    expect((await call(`/api/requests/status/${request.id}`)).statusCode).toBe(200);
    const file = await call(
      `/api/files/${fileId}?session=${randomUUID()}&expires=${Date.now() + 60_000}&signature=${code}`,
    );
    // Refused (an unsigned link), whatever the reason: the line is what is tested.
    expect(file.statusCode).toBeGreaterThanOrEqual(400);
    expect(file.statusCode).toBeLessThan(500);
    // Paths no route takes: an API path and a screen of the web app, each with the code.
    expect((await call(`/api/no-such-thing/${code}`, token)).statusCode).toBe(404);
    expect((await call(`/scan/${code}`)).statusCode).toBe(404);
    // An error quoting a path (a stored file gone, a framework error naming the URL).
    ctx.app.log.error(
      { err: new Error(`ENOENT: no such file or directory, open '/data/files/${code}'`) },
      'file unreadable',
    );

    const all = lines.join('');
    for (const secret of [code, code.toLowerCase(), request.id, fileId, token])
      expect(all).not.toContain(secret);
    for (const pattern of [
      '/api/get-qr-data/:uidn',
      '/api/visitor/card/:uidn',
      '/api/requests/status/:id',
      '/api/files/:id',
    ])
      expect(all).toContain(`"url":"${pattern}"`);
    expect(all).toContain("open '[path]'");

    // Every request line names a route of the table or says no route took it; the
    // response lines say the status and carry no URL at all.
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const known = new Set([...ctx.app.routeTable.map((route) => route.url), NO_ROUTE]);
    const requestLines = logged.filter((line) => line.msg === 'incoming request');
    expect(requestLines).toHaveLength(6);
    for (const line of requestLines) expect(known).toContain((line.req as { url: string }).url);
    expect(
      requestLines.filter((line) => (line.req as { url: string }).url === NO_ROUTE),
    ).toHaveLength(2);
    const responseLines = logged.filter((line) => line.msg === 'request completed');
    expect(responseLines.map((line) => (line.res as { statusCode: number }).statusCode)).toEqual(
      statuses,
    );
    for (const line of responseLines) expect(Object.keys(line)).not.toContain('req');
  });

  it('keeps a failed insert’s reason, not the values it was given', async () => {
    const failure = await ctx.db
      .insert(visitors)
      .values({
        ...PERSON,
        companyId: '00000000-0000-4000-8000-000000000000',
        siteId: '00000000-0000-4000-8000-000000000000',
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(Error);
    // The driver's own message names every value; the redacted one names none.
    const logged = JSON.stringify(redactError(failure));
    for (const value of Object.values(PERSON)) expect(logged).not.toContain(value);
    expect(redactError(failure).message).toContain('insert into "visitors"');
    expect((failure as Error).message).toContain(PERSON.email);
  });
});
