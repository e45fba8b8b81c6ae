/**
 * Every environment variable, parsed and validated in one place (ARCHITECTURE §3).
 * A missing or malformed variable stops the start with one clear line.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isIP } from 'node:net';
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH, REPEAT_SCAN_WINDOW_MS, SLUG_PATTERN } from '@sesame/shared';
import { passwordProblem } from './auth/password-policy';
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from './db/availability';
import { SERVER_ROOT } from './paths';

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

export interface HttpTimeouts {
  requestMs: number;
  connectionMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { requestMs: 30_000, connectionMs: 60_000 };

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: optionalString.pipe(z.url({ error: 'must be an absolute URL' }).optional()),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres://')
      .optional(),
  ),
  JWT_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
  ),
  MAIL_FROM: z.string().default('Sésame <no-reply@sesame.local>'),
  DEFAULT_COMPANY_SLUG: z.string().regex(SLUG_PATTERN, 'must be a lower-case slug').default('demo'),
  APP_TIMEZONE: z
    .string()
    .default('Africa/Abidjan')
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('fr-FR', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as Africa/Abidjan'),
  ADMIN_EMAIL: optionalString.pipe(z.email({ error: 'must be an e-mail address' }).optional()),
  ADMIN_PASSWORD: optionalString.pipe(
    z
      .string()
      .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
      .refine((value) => passwordProblem(value) === null, 'is too common or too easy to guess')
      .optional(),
  ),
  TRUST_PROXY: optionalString.pipe(
    z
      .string()
      .refine(
        (value) => parseTrustProxy(value) !== null,
        'must be a hop count (1 to 10) or a comma-separated list of proxy addresses or CIDR ranges',
      )
      .optional(),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: optionalString,
  REPEAT_SCAN_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(0, 'must be 0 or more seconds')
    .max(3600, 'must be at most 3600 seconds')
    .default(REPEAT_SCAN_WINDOW_MS / 1000),
  // Timeouts on the request path (issue 12): a dead or slow database answers 503 quickly.
  DB_CONNECT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100, 'must be at least 100 ms')
    .default(DEFAULT_DATABASE_TIMEOUTS.connectMs),
  DB_STATEMENT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100, 'must be at least 100 ms')
    .default(DEFAULT_DATABASE_TIMEOUTS.statementMs),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000, 'must be at least 1000 ms')
    .default(DEFAULT_HTTP_TIMEOUTS.requestMs),
  HTTP_CONNECTION_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000, 'must be at least 1000 ms')
    .default(DEFAULT_HTTP_TIMEOUTS.connectionMs),
});

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  defaultCompanySlug: string;
  timezone: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  logLevel: string;
  /** Folder of the built web app; undefined when the server only serves the API. */
  webDist: string | undefined;
  /**
   * A second scan of the same code within this window reports the check just made
   * instead of toggling it back (a badge held twice in front of the camera).
   */
  repeatScanWindowMs: number;
  /** Rate limits; tests and benchmarks may pass their own. */
  rateLimits: RateLimits;
  /**
   * Which proxies' X-Forwarded-For to believe (TRUST_PROXY): none by default, so a
   * client's address is its socket's; a hop count, or the proxies' addresses.
   */
  trustProxy?: false | number | string[];
  /** PostgreSQL connect and statement timeouts (defaults when absent). */
  databaseTimeouts?: DatabaseTimeouts;
  /** Fastify's requestTimeout (whole request received) and connectionTimeout (idle socket). */
  httpTimeouts?: HttpTimeouts;
}

export interface RateLimits {
  /** Failed sign-ins of one account from one client before each next one waits (1 s, 2 s, 4 s…). */
  loginAccountFreeAttempts: number;
  /** Failed sign-ins from one client, all accounts together, before each next one waits. */
  loginClientFreeAttempts: number;
  /** The first wait after the free failures, doubled at each further one (up to 15 minutes). */
  loginFirstDelaySeconds: number;
  /** Public form submissions (visitor, event registration) per client per window. */
  publicFormPerWindow: number;
  /** Event registrations from one client to one event per registration window. */
  registrationsPerClientPerEvent: number;
  registrationWindowMs: number;
  /** Registration mails one e-mail address may receive in a day, all events together. */
  registrationMailsPerRecipientPerDay: number;
  /** Code look-ups per client per window. */
  codeLookupPerWindow: number;
  windowMs: number;
  /** Clients exempt from limits (benchmarks on loopback only). */
  allowList: string[];
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  loginAccountFreeAttempts: 5,
  loginClientFreeAttempts: 30,
  loginFirstDelaySeconds: 1,
  publicFormPerWindow: 30,
  codeLookupPerWindow: 600,
  registrationsPerClientPerEvent: 5,
  registrationWindowMs: 60 * 60_000,
  registrationMailsPerRecipientPerDay: 3,
  windowMs: 60_000,
  allowList: [],
};

export class ConfigError extends Error {}

/** Parses the environment. Throws ConfigError with one readable line. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(
      `Configuration error: ${String(issue.path[0] ?? 'environment')} ${issue.message}`,
    );
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const port = e.PORT;
  return {
    port,
    host: e.HOST,
    publicUrl: withoutTrailingSlashes(e.PUBLIC_URL ?? `http://localhost:${port}`),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    jwtSecret: e.JWT_SECRET ?? persistedSecret(dataDir),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    defaultCompanySlug: e.DEFAULT_COMPANY_SLUG,
    timezone: e.APP_TIMEZONE,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST ?? defaultWebDist(),
    repeatScanWindowMs: e.REPEAT_SCAN_WINDOW_SECONDS * 1000,
    rateLimits: DEFAULT_RATE_LIMITS,
    trustProxy: e.TRUST_PROXY ? (parseTrustProxy(e.TRUST_PROXY) ?? false) : false,
    databaseTimeouts: {
      connectMs: e.DB_CONNECT_TIMEOUT_MS,
      statementMs: e.DB_STATEMENT_TIMEOUT_MS,
    },
    httpTimeouts: {
      requestMs: e.HTTP_REQUEST_TIMEOUT_MS,
      connectionMs: e.HTTP_CONNECTION_TIMEOUT_MS,
    },
  };
}

/** When JWT_SECRET is unset, one is generated on first start and kept in DATA_DIR. */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

function defaultWebDist(): string | undefined {
  const dist = path.resolve(SERVER_ROOT, '../web/dist');
  return existsSync(dist) ? dist : undefined;
}

/**
 * TRUST_PROXY: "2" trusts two hops of proxies; "10.0.0.5, 10.1.0.0/16" trusts
 * those addresses only. Null when the value is neither.
 */
export function parseTrustProxy(value: string): number | string[] | null {
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops >= 1 && hops <= 10 ? hops : null;
  }
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const valid = entries.every((entry) => {
    const [address = '', bits, ...rest] = entry.split('/');
    if (rest.length || !isIP(address)) return false;
    if (bits === undefined) return true;
    const max = isIP(address) === 4 ? 32 : 128;
    return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
  });
  return entries.length && valid ? entries : null;
}

/** 'https://a.example//' → 'https://a.example', without a pattern that rescans the string. */
function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
}
