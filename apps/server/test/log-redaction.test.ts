/**
 * Issue 11 §6 "No personal data in logs": a failed insert once logged a visitor's
 * code, name, e-mail, phone and identity number. Every log line now keeps the
 * route and the reason, never the query string nor a personal field.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { visitors } from '../src/db/schema';
import { appLoggerOptions, redactError } from '../src/log-redaction';
import { testConfig } from './helpers/app';
import { createTestDatabase } from './helpers/db';
import { buildTenant } from './helpers/factories';
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
      logger: { ...appLoggerOptions('info'), stream },
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
    const { staff } = await buildTenant(ctx.db);
    const token = await tokenFor(ctx.app, staff.ROLE_ADMIN.email);
    await ctx.app.inject({
      method: 'GET',
      url: `/api/user/list?q=${encodeURIComponent(PERSON.email)}`,
      headers: { authorization: `Bearer ${token}` },
    });
    ctx.app.log.info({ to: PERSON.email, visitor: { email: PERSON.email } }, 'mail sent');
    const all = lines.join('');
    expect(all).toContain('/api/user/list?[redacted]');
    expect(all).not.toContain(PERSON.email);
    expect(all).not.toContain(token);
  });

  it('keeps a failed insert’s reason, not the values it was given', async () => {
    const failure = await ctx.db
      .insert(visitors)
      .values({ ...PERSON, companyId: '00000000-0000-4000-8000-000000000000' })
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
