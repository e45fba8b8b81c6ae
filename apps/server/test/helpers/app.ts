/**
 * The server under test: buildApp on a fresh database and data folder, plus an
 * authenticated request helper. Each test file calls `useTestApp()` once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { AUDIT_MIN_DAYS_DEFAULT } from '@sesame/shared';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/app';
import { DEFAULT_RATE_LIMITS, type Config } from '../../src/config';
import type { Database, DatabaseHandle } from '../../src/db/client';
import { createTestDatabase } from './db';
import { TEST_PASSWORD } from './factories';

export interface TestContext {
  app: FastifyInstance;
  db: Database;
  config: Config;
  handle: DatabaseHandle;
}

export function testConfig(dataDir: string, overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    publicUrl: 'http://sesame.test',
    dataDir,
    databaseUrl: undefined,
    jwtSecret: 'test-secret-that-is-long-enough-for-hs256-signing',
    ssoSecretKey: 'test-sso-secret-key-that-is-long-enough',
    // Issue 34: the tests' receivers listen on 127.0.0.1 over plain http.
    webhookAllowPrivate: true,
    slackApiUrl: 'http://127.0.0.1:9/api',
    smtpUrl: undefined,
    mailFrom: 'Sésame <no-reply@sesame.test>',
    defaultCompanySlug: 'demo',
    timezone: 'Africa/Abidjan',
    adminEmail: undefined,
    adminPassword: undefined,
    logLevel: 'silent',
    webDist: undefined,
    repeatScanWindowMs: 60_000,
    rateLimits: { ...DEFAULT_RATE_LIMITS },
    auditMinDays: AUDIT_MIN_DAYS_DEFAULT,
    ...overrides,
  };
}

export async function startTestApp(
  overrides: Partial<Config> = {},
): Promise<TestContext & { close(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sesame-data-'));
  const handle = await createTestDatabase();
  const config = testConfig(dataDir, overrides);
  const app = await buildApp({ config, db: handle.db, logger: false });
  await app.ready();
  return {
    app,
    db: handle.db,
    config,
    handle,
    close: async () => {
      await app.close();
      await handle.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** beforeAll/afterAll wiring; the returned object is filled once the app is up. */
export function useTestApp(overrides: Partial<Config> = {}): TestContext {
  const ctx = {} as TestContext & { close?: () => Promise<void> };
  beforeAll(async () => {
    Object.assign(ctx, await startTestApp(overrides));
  });
  afterAll(async () => {
    await ctx.close?.();
  });
  return ctx;
}

/** Signs in through the real endpoint and returns the bearer token. */
export async function tokenFor(
  app: FastifyInstance,
  email: string,
  password = TEST_PASSWORD,
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/login_check',
    payload: { username: email, password },
  });
  if (res.statusCode !== 200)
    throw new Error(`login failed for ${email}: ${res.statusCode} ${res.body}`);
  return res.json<{ token: string }>().token;
}

/** `app.inject` with a bearer token. */
export function as(app: FastifyInstance, token: string | null) {
  return (options: InjectOptions) =>
    app.inject({
      ...options,
      headers: {
        ...(options.headers ?? {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
}

/**
 * A test file's `call(options, email?)`: the route called as the person with that e-mail (their
 * token fetched once through the real login, then reused), anonymously without one.
 */
export function callAs(ctx: TestContext) {
  const tokens = new Map<string, string>();
  return async (options: InjectOptions, email?: string) => {
    let token: string | null = null;
    if (email) {
      token = tokens.get(email) ?? (await tokenFor(ctx.app, email));
      tokens.set(email, token);
    }
    return as(ctx.app, token)(options);
  };
}

/** A multipart body for inject (fields and files), without an extra dependency. */
export function multipart(
  fields: Record<string, string | undefined>,
  files: Record<string, { filename: string; contentType: string; bytes: Buffer }> = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----sesame${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  for (const [name, file] of Object.entries(files)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
