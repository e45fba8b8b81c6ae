/**
 * Every environment variable, parsed and validated in one place (ARCHITECTURE §3).
 * A malformed variable stops the start with one sentence saying what it must be;
 * relative paths are relative to the folder the command was typed in (paths.ts).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isIP } from 'node:net';
import { z } from 'zod';
import {
  API_KEY_LIMITS,
  AUDIT_MIN_DAYS_DEFAULT,
  AUDIT_MIN_DAYS_RANGE,
  PASSWORD_MIN_LENGTH,
  REPEAT_SCAN_WINDOW_MS,
  SLUG_PATTERN,
} from '@sesame/shared';
import { passwordProblem } from './auth/password-policy';
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from './db/availability';
import { DEFAULT_DATA_DIR, resolvePathSetting, SERVER_ROOT } from './paths';

export interface HttpTimeouts {
  requestMs: number;
  connectionMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { requestMs: 30_000, connectionMs: 60_000 };

/** The process's settings after checking, before the files they name are read. */
export interface Settings {
  PORT: number;
  HOST: string;
  PUBLIC_URL: string | undefined;
  DATA_DIR: string;
  DATABASE_URL: string | undefined;
  JWT_SECRET: string | undefined;
  SMTP_URL: string | undefined;
  MAIL_FROM: string;
  DEFAULT_COMPANY_SLUG: string;
  APP_TIMEZONE: string;
  ADMIN_EMAIL: string | undefined;
  ADMIN_PASSWORD: string | undefined;
  TRUST_PROXY: false | number | string[];
  LOG_LEVEL: string;
  WEB_DIST: string | undefined;
  REPEAT_SCAN_WINDOW_SECONDS: number;
  DB_CONNECT_TIMEOUT_MS: number;
  DB_STATEMENT_TIMEOUT_MS: number;
  HTTP_REQUEST_TIMEOUT_MS: number;
  HTTP_CONNECTION_TIMEOUT_MS: number;
  AUDIT_MIN_DAYS: number;
  STORAGE_URL: StorageLocation | undefined;
  DATABASE_LISTEN_URL: string | undefined;
  REDIS_URL: string | undefined;
  METRICS_TOKEN: string | undefined;
  SSO_SECRET_KEY: string | undefined;
  WEBHOOK_ALLOW_PRIVATE: boolean;
  SLACK_API_URL: string;
}

/**
 * STORAGE_URL=s3://BUCKET?endpoint=http://HOST:PORT&region=REGION&path_style=true (issue 32):
 * an S3-compatible bucket; endpoint, region and path-style addressing are optional for AWS
 * itself. Credentials come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, never the URL.
 */
export interface StorageLocation {
  kind: 's3';
  bucket: string;
  /** Key prefix inside the bucket ('' when the URL names the bucket alone). */
  prefix: string;
  endpoint: string | undefined;
  region: string;
  pathStyle: boolean;
}

/** The S3 location a STORAGE_URL names, or the sentence saying what it must be. */
export function parseStorageUrl(value: string): StorageLocation | string {
  const must =
    'must be an S3 address such as s3://bucket?endpoint=http://127.0.0.1:9000&region=us-east-1&path_style=true';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return must;
  }
  if (url.protocol !== 's3:' || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(url.hostname))
    return must;
  if (url.username || url.password)
    return 'must not carry credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead';
  const endpoint = url.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined && !isUrl(endpoint, ['http:', 'https:']))
    return 'has an endpoint that is not an http:// or https:// address';
  const pathStyle = url.searchParams.get('path_style');
  if (pathStyle !== null && pathStyle !== 'true' && pathStyle !== 'false')
    return 'has a path_style that is neither true nor false';
  for (const key of url.searchParams.keys()) {
    if (!['endpoint', 'region', 'path_style'].includes(key))
      return `has an unknown parameter "${key}" (endpoint, region and path_style are known)`;
  }
  let keyPath: string;
  try {
    keyPath = decodeURIComponent(url.pathname);
  } catch {
    return 'has a path that is not valid percent-encoding';
  }
  return {
    kind: 's3',
    bucket: url.hostname,
    // Leading, trailing and doubled slashes dropped (split, not a regexp: linear on any input).
    prefix: keyPath.split('/').filter(Boolean).join('/'),
    endpoint,
    region: url.searchParams.get('region') ?? 'us-east-1',
    pathStyle: pathStyle === 'true',
  };
}

/**
 * How one environment variable is read. `parse` gets the trimmed value (an empty
 * variable counts as unset) and answers the value, or a sentence saying what the
 * variable must be — the sentence a person reads at start, after the variable's name.
 */
interface Spec<T> {
  parse: (value: string, env: NodeJS.ProcessEnv) => T | Problem;
  fallback: (env: NodeJS.ProcessEnv) => T;
  /** Never repeat the value in a message: it holds a password or a key. */
  secret?: boolean;
}

class Problem {
  constructor(readonly sentence: string) {}
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
/** The longest timeout a setting may ask for: an hour. */
const HOUR_MS = 3_600_000;

function wholeNumber(min: number, max: number, sentence: string) {
  return (value: string): number | Problem => {
    const n = /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
    return n >= min && n <= max ? n : new Problem(sentence);
  };
}

function matching(test: (value: string) => boolean, sentence: string) {
  return (value: string): string | Problem => (test(value) ? value : new Problem(sentence));
}

function isUrl(value: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('fr-FR', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const HOST_NAME =
  /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const unset = () => undefined;

const SPECS: { [Name in keyof Settings]: Spec<Settings[Name]> } = {
  PORT: {
    parse: wholeNumber(1, 65535, 'must be a number between 1 and 65535'),
    fallback: () => 3000,
  },
  HOST: {
    parse: matching(
      (value) => isIP(value) !== 0 || (value.length <= 253 && HOST_NAME.test(value)),
      'must be an IP address or a host name to listen on, such as 0.0.0.0 or 127.0.0.1',
    ),
    fallback: () => '0.0.0.0',
  },
  PUBLIC_URL: {
    parse: matching(
      (value) => isUrl(value, ['http:', 'https:']),
      'must be an address starting with http:// or https://, such as https://sesame.example.com',
    ),
    fallback: unset,
  },
  DATA_DIR: {
    parse: (value, env) => resolvePathSetting(value, env),
    fallback: () => DEFAULT_DATA_DIR,
  },
  DATABASE_URL: {
    parse: matching(
      (value) => /^postgres(?:ql)?:\/\/./.test(value) && isUrl(value, ['postgres:', 'postgresql:']),
      'must be a PostgreSQL address starting with postgres://, such as postgres://user:password@host:5432/sesame',
    ),
    fallback: unset,
    secret: true,
  },
  JWT_SECRET: {
    parse: matching((value) => value.length >= 32, 'must be at least 32 characters long'),
    fallback: unset,
    secret: true,
  },
  SMTP_URL: {
    parse: matching(
      (value) => isUrl(value, ['smtp:', 'smtps:']),
      'must be a mail server address starting with smtp:// or smtps://, such as smtp://user:password@mail.example.com:587',
    ),
    fallback: unset,
    secret: true,
  },
  MAIL_FROM: { parse: (value) => value, fallback: () => 'Sésame <no-reply@sesame.local>' },
  DEFAULT_COMPANY_SLUG: {
    parse: matching(
      (value) => SLUG_PATTERN.test(value),
      'must be a company slug: lower-case letters and digits, words joined by dashes, such as demo',
    ),
    fallback: () => 'demo',
  },
  APP_TIMEZONE: {
    parse: matching(
      isTimeZone,
      'must be an IANA time zone, such as Africa/Abidjan or Europe/Paris',
    ),
    fallback: () => 'Africa/Abidjan',
  },
  ADMIN_EMAIL: {
    parse: matching(
      (value) => z.email().safeParse(value).success,
      'must be an e-mail address, such as admin@example.com',
    ),
    fallback: unset,
  },
  ADMIN_PASSWORD: {
    parse: (value) => {
      if (value.length < PASSWORD_MIN_LENGTH)
        return new Problem(`must be at least ${PASSWORD_MIN_LENGTH} characters long`);
      if (passwordProblem(value) !== null)
        return new Problem('is too common or too easy to guess: choose a longer, less usual one');
      return value;
    },
    fallback: unset,
    secret: true,
  },
  TRUST_PROXY: {
    parse: (value) =>
      parseTrustProxy(value) ??
      new Problem(
        'must be a hop count (1 to 10) or a comma-separated list of proxy addresses or CIDR ranges',
      ),
    fallback: () => false,
  },
  LOG_LEVEL: {
    parse: matching(
      (value) => LOG_LEVELS.includes(value),
      `must be one of ${LOG_LEVELS.slice(0, -1).join(', ')} or ${LOG_LEVELS.at(-1)}`,
    ),
    fallback: () => 'info',
  },
  WEB_DIST: {
    parse: (value, env) => {
      const folder = resolvePathSetting(value, env);
      return existsSync(path.join(folder, 'index.html'))
        ? folder
        : new Problem(
            `must be the folder of the built web app (holding index.html); ${folder} is not`,
          );
    },
    fallback: unset,
  },
  REPEAT_SCAN_WINDOW_SECONDS: {
    parse: wholeNumber(0, 3600, 'must be a number of seconds between 0 and 3600'),
    fallback: () => REPEAT_SCAN_WINDOW_MS / 1000,
  },
  // Timeouts on the request path (issue 12): a dead or slow database answers 503 quickly.
  DB_CONNECT_TIMEOUT_MS: {
    parse: wholeNumber(100, HOUR_MS, 'must be a number of milliseconds between 100 and 3600000'),
    fallback: () => DEFAULT_DATABASE_TIMEOUTS.connectMs,
  },
  DB_STATEMENT_TIMEOUT_MS: {
    parse: wholeNumber(100, HOUR_MS, 'must be a number of milliseconds between 100 and 3600000'),
    fallback: () => DEFAULT_DATABASE_TIMEOUTS.statementMs,
  },
  HTTP_REQUEST_TIMEOUT_MS: {
    parse: wholeNumber(1000, HOUR_MS, 'must be a number of milliseconds between 1000 and 3600000'),
    fallback: () => DEFAULT_HTTP_TIMEOUTS.requestMs,
  },
  HTTP_CONNECTION_TIMEOUT_MS: {
    parse: wholeNumber(1000, HOUR_MS, 'must be a number of milliseconds between 1000 and 3600000'),
    fallback: () => DEFAULT_HTTP_TIMEOUTS.connectionMs,
  },
  // The audit log's floor (issue 26): no company role keeps its audit log for less.
  AUDIT_MIN_DAYS: {
    parse: wholeNumber(
      AUDIT_MIN_DAYS_RANGE.min,
      AUDIT_MIN_DAYS_RANGE.max,
      `must be a number of days between ${AUDIT_MIN_DAYS_RANGE.min} and ${AUDIT_MIN_DAYS_RANGE.max}`,
    ),
    fallback: () => AUDIT_MIN_DAYS_DEFAULT,
  },
  // Several instances (issue 32): files in a bucket, a direct connection for LISTEN, shared
  // rate limits in Redis, and the metrics' own token.
  STORAGE_URL: {
    parse: (value) => {
      const parsed = parseStorageUrl(value);
      return typeof parsed === 'string' ? new Problem(parsed) : parsed;
    },
    fallback: unset,
    // Never echoed: the one mistake it is refused for may be a key and secret put in the URL.
    secret: true,
  },
  DATABASE_LISTEN_URL: {
    parse: matching(
      (value) => /^postgres(?:ql)?:\/\/./.test(value) && isUrl(value, ['postgres:', 'postgresql:']),
      'must be a PostgreSQL address starting with postgres://, the direct (not pooled) connection the live screens listen on',
    ),
    fallback: unset,
    secret: true,
  },
  REDIS_URL: {
    parse: matching(
      (value) => isUrl(value, ['redis:', 'rediss:']),
      'must be a Redis address starting with redis:// or rediss://, such as redis://127.0.0.1:6379',
    ),
    fallback: unset,
    secret: true,
  },
  METRICS_TOKEN: {
    parse: matching((value) => value.length >= 24, 'must be at least 24 characters long'),
    fallback: unset,
    secret: true,
  },
  // Issue 33: the key the companies' identity-provider client secrets are encrypted with.
  SSO_SECRET_KEY: {
    parse: matching((value) => value.length >= 32, 'must be at least 32 characters long'),
    fallback: unset,
    secret: true,
  },
  // Issue 34: webhooks and chat messages may go to private or local addresses, over plain
  // http (a receiver on the operator's own network, the tests' receivers). Off: https to
  // public addresses only, checked again at each send.
  WEBHOOK_ALLOW_PRIVATE: {
    parse: (value) =>
      value === '1' || value === 'true'
        ? true
        : value === '0' || value === 'false'
          ? false
          : new Problem('must be 1 or 0'),
    fallback: () => false,
  },
  // Slack's Web API (a bot token's direct messages to hosts); a stand-in's address in tests.
  SLACK_API_URL: {
    parse: matching(
      (value) => isUrl(value, ['https:', 'http:']),
      'must be an http(s) address, such as https://slack.com/api',
    ),
    fallback: () => 'https://slack.com/api',
  },
};

/** Every environment variable Sésame reads (the README's configuration table lists them). */
// Object.keys gives string[]; SPECS has exactly the keys of Settings.
export const SETTING_NAMES = Object.keys(SPECS) as (keyof Settings)[];

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
  /**
   * The audit log's floor in days (AUDIT_MIN_DAYS): a company's setting is refused under it,
   * and the purge never deletes an entry younger than it.
   */
  auditMinDays: number;
  /** STORAGE_URL: an S3-compatible bucket; undefined keeps files under DATA_DIR/files. */
  storage?: StorageLocation;
  /**
   * DATABASE_LISTEN_URL: the direct connection the live feed LISTENs on when DATABASE_URL
   * points at a pooler in transaction mode (which drops LISTEN); DATABASE_URL otherwise.
   */
  databaseListenUrl?: string;
  /** REDIS_URL: rate-limit counters in Redis instead of PostgreSQL. */
  redisUrl?: string;
  /** METRICS_TOKEN: /metrics answers only with it (Bearer); unset, /metrics is off. */
  metricsToken?: string;
  /**
   * SSO_SECRET_KEY (issue 33): the companies' client secrets are encrypted with a key drawn
   * from it (sso/secret-box.ts); unset, from JWT_SECRET (or the secret kept in DATA_DIR).
   */
  ssoSecretKey: string;
  /** WEBHOOK_ALLOW_PRIVATE (issue 34): webhooks and chat may reach private addresses and http. */
  webhookAllowPrivate: boolean;
  /** SLACK_API_URL: Slack's Web API, for a bot token's direct messages. */
  slackApiUrl: string;
}

export interface RateLimits {
  /** Failed sign-ins of one account from one client before each next one waits (1 s, 2 s, 4 s…). */
  loginAccountFreeAttempts: number;
  /**
   * Failed sign-ins from one client, all accounts together, before each next one waits;
   * an account that has not failed from that client is not held back by it.
   */
  loginClientFreeAttempts: number;
  /**
   * Failed sign-ins of one account from every client together before its verifications are
   * spaced (the first wait apart, doubled at each further one, up to 15 minutes).
   */
  loginAccountWideFreeAttempts: number;
  /** The first wait after the free failures, doubled at each further one (up to 15 minutes). */
  loginFirstDelaySeconds: number;
  /**
   * The longest a sign-in waits on the server for its account's turn: a right password
   * from a client without failures is then verified, however busy the account is.
   */
  loginHoldSeconds: number;
  /** Sign-in requests per client per window, right or wrong (an office's morning fits). */
  loginPerWindow: number;
  /** Public form submissions (visitor, event registration) per client per window. */
  publicFormPerWindow: number;
  /** Event registrations from one client to one event per registration window. */
  registrationsPerClientPerEvent: number;
  registrationWindowMs: number;
  /** Registration mails one e-mail address may receive in a day, all events together. */
  registrationMailsPerRecipientPerDay: number;
  /** Code look-ups per client per window. */
  codeLookupPerWindow: number;
  /** Issue 34: calls one API key makes a minute, every route together (API_KEY_LIMITS). */
  apiKeyPerMinute: number;
  windowMs: number;
  /** Clients exempt from limits (benchmarks on loopback only). */
  allowList: string[];
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  loginAccountFreeAttempts: 5,
  loginClientFreeAttempts: 30,
  loginAccountWideFreeAttempts: 10,
  loginFirstDelaySeconds: 1,
  loginHoldSeconds: 10,
  loginPerWindow: 120,
  publicFormPerWindow: 30,
  codeLookupPerWindow: 600,
  apiKeyPerMinute: API_KEY_LIMITS.requestsPerMinute,
  registrationsPerClientPerEvent: 5,
  registrationWindowMs: 60 * 60_000,
  registrationMailsPerRecipientPerDay: 3,
  windowMs: 60_000,
  allowList: [],
};

/** The settings that stop the start, one sentence each ("PORT must be a number …"). */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(describeConfigProblems(problems));
  }
}

/**
 * Checks every variable without writing anything (the start launcher asks before it
 * builds): the settings, or one sentence per wrong variable.
 */
export function checkSettings(
  env: NodeJS.ProcessEnv = process.env,
): { settings: Settings; problems: [] } | { settings: undefined; problems: string[] } {
  const settings: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const name of SETTING_NAMES) {
    // Each spec parses its own type; the loop reads them all as parsers of unknown values.
    const spec = SPECS[name] as Spec<unknown>;
    const value = env[name]?.trim();
    if (!value) {
      settings[name] = spec.fallback(env);
      continue;
    }
    const parsed = spec.parse(value, env);
    if (parsed instanceof Problem) {
      const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
      problems.push(`${name} ${parsed.sentence}${spec.secret ? '.' : ` (it is "${shown}").`}`);
    } else settings[name] = parsed;
  }
  // Every setting was parsed by its spec just above, with no problem.
  return problems.length
    ? { settings: undefined, problems }
    : { settings: settings as unknown as Settings, problems: [] };
}

/** What a person reads when settings are wrong: the sentences, then what to do. */
export function describeConfigProblems(problems: string[]): string {
  const lines =
    problems.length === 1
      ? [`Sésame cannot start: ${problems[0]}`]
      : [
          `Sésame cannot start: ${problems.length} settings are wrong.`,
          ...problems.map((problem) => `  ${problem}`),
        ];
  lines.push(
    'Change it in the environment, or unset it to use the default (README.md, "Configuration").',
  );
  return lines.join('\n');
}

/** Parses the environment. Throws ConfigError with one sentence per wrong variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const checked = checkSettings(env);
  if (!checked.settings) throw new ConfigError(checked.problems);
  const e = checked.settings;
  const port = e.PORT;
  const jwtSecret = e.JWT_SECRET ?? persistedSecret(e.DATA_DIR);
  return {
    port,
    host: e.HOST,
    publicUrl: withoutTrailingSlashes(e.PUBLIC_URL ?? `http://localhost:${port}`),
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    jwtSecret,
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
    trustProxy: e.TRUST_PROXY,
    databaseTimeouts: {
      connectMs: e.DB_CONNECT_TIMEOUT_MS,
      statementMs: e.DB_STATEMENT_TIMEOUT_MS,
    },
    httpTimeouts: {
      requestMs: e.HTTP_REQUEST_TIMEOUT_MS,
      connectionMs: e.HTTP_CONNECTION_TIMEOUT_MS,
    },
    auditMinDays: e.AUDIT_MIN_DAYS,
    storage: e.STORAGE_URL,
    databaseListenUrl: e.DATABASE_LISTEN_URL,
    redisUrl: e.REDIS_URL,
    metricsToken: e.METRICS_TOKEN,
    ssoSecretKey: e.SSO_SECRET_KEY ?? jwtSecret,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    // One trailing slash dropped: the worker appends '/users.lookupByEmail'.
    slackApiUrl: e.SLACK_API_URL.endsWith('/') ? e.SLACK_API_URL.slice(0, -1) : e.SLACK_API_URL,
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
