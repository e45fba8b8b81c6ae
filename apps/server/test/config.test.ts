import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkSettings,
  ConfigError,
  describeConfigProblems,
  loadConfig,
  parseStorageUrl,
  SETTING_NAMES,
} from '../src/config';
import { DEFAULT_DATA_DIR, PROJECT_ROOT } from '../src/paths';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'sesame-config-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const base = { DATA_DIR: path.join(scratch, 'data'), JWT_SECRET: 'x'.repeat(40) };

/** The sentences a start would print for `env`, or [] when it would start. */
const problemsOf = (env: NodeJS.ProcessEnv) => checkSettings({ ...base, ...env }).problems;

describe('configuration', () => {
  it('has working defaults; the data folder is ./data in the project folder', () => {
    const config = loadConfig({ JWT_SECRET: 'x'.repeat(40) });
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:3000',
      dataDir: path.join(PROJECT_ROOT, 'data'),
      defaultCompanySlug: 'demo',
      timezone: 'Africa/Abidjan',
      logLevel: 'info',
      trustProxy: false,
    });
    expect(DEFAULT_DATA_DIR).toBe(path.join(PROJECT_ROOT, 'data'));
    expect(existsSync(path.join(PROJECT_ROOT, 'package.json'))).toBe(true);
  });

  it('keeps the audit log 365 days at least unless the operator says otherwise', () => {
    expect(loadConfig(base).auditMinDays).toBe(365);
    expect(loadConfig({ ...base, AUDIT_MIN_DAYS: '30' }).auditMinDays).toBe(30);
    expect(loadConfig({ ...base, AUDIT_MIN_DAYS: '3650' }).auditMinDays).toBe(3650);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ ...base, PORT: '', LOG_LEVEL: ' ', PUBLIC_URL: '' })).toMatchObject({
      port: 3000,
      logLevel: 'info',
      publicUrl: 'http://localhost:3000',
    });
  });

  it('resolves a relative path from the folder the command was typed in (INIT_CWD), else the working directory', () => {
    const typedIn = path.join(scratch, 'typed-in');
    expect(loadConfig({ ...base, DATA_DIR: './mydata', INIT_CWD: typedIn }).dataDir).toBe(
      path.join(typedIn, 'mydata'),
    );
    expect(loadConfig({ ...base, DATA_DIR: 'mydata' }).dataDir).toBe(
      path.join(process.cwd(), 'mydata'),
    );
    expect(loadConfig({ ...base, DATA_DIR: '/srv/sesame', INIT_CWD: typedIn }).dataDir).toBe(
      '/srv/sesame',
    );

    const web = path.join(typedIn, 'web-build');
    rmSync(web, { recursive: true, force: true });
    expect(problemsOf({ WEB_DIST: 'web-build', INIT_CWD: typedIn })).toEqual([
      `WEB_DIST must be the folder of the built web app (holding index.html); ${web} is not (it is "web-build").`,
    ]);
    mkdirSync(web, { recursive: true });
    writeFileSync(path.join(web, 'index.html'), '<!doctype html>');
    expect(loadConfig({ ...base, WEB_DIST: 'web-build', INIT_CWD: typedIn }).webDist).toBe(web);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be a number between 1 and 65535 (it is "abc").'],
    [{ PORT: '0' }, 'PORT must be a number between 1 and 65535 (it is "0").'],
    [{ PORT: '70000' }, 'PORT must be a number between 1 and 65535 (it is "70000").'],
    [{ PORT: '80.5' }, 'PORT must be a number between 1 and 65535 (it is "80.5").'],
    [
      { HOST: 'not a host' },
      'HOST must be an IP address or a host name to listen on, such as 0.0.0.0 or 127.0.0.1 (it is "not a host").',
    ],
    [
      { PUBLIC_URL: 'sesame.example.com' },
      'PUBLIC_URL must be an address starting with http:// or https://, such as https://sesame.example.com (it is "sesame.example.com").',
    ],
    [
      { DATABASE_URL: 'mysql://root:hunter2@db/x' },
      'DATABASE_URL must be a PostgreSQL address starting with postgres://, such as postgres://user:password@host:5432/sesame.',
    ],
    [{ JWT_SECRET: 'short-secret' }, 'JWT_SECRET must be at least 32 characters long.'],
    [
      { SMTP_URL: 'http://mail' },
      'SMTP_URL must be a mail server address starting with smtp:// or smtps://, such as smtp://user:password@mail.example.com:587.',
    ],
    [
      { DEFAULT_COMPANY_SLUG: 'Acme Corp' },
      'DEFAULT_COMPANY_SLUG must be a company slug: lower-case letters and digits, words joined by dashes, such as demo (it is "Acme Corp").',
    ],
    [
      { APP_TIMEZONE: 'Mars/Olympus' },
      'APP_TIMEZONE must be an IANA time zone, such as Africa/Abidjan or Europe/Paris (it is "Mars/Olympus").',
    ],
    [
      { ADMIN_EMAIL: 'admin' },
      'ADMIN_EMAIL must be an e-mail address, such as admin@example.com (it is "admin").',
    ],
    [{ ADMIN_PASSWORD: 'Court-1' }, 'ADMIN_PASSWORD must be at least 12 characters long.'],
    [
      { ADMIN_PASSWORD: 'password1234' },
      'ADMIN_PASSWORD is too common or too easy to guess: choose a longer, less usual one.',
    ],
    [
      { TRUST_PROXY: 'yes' },
      'TRUST_PROXY must be a hop count (1 to 10) or a comma-separated list of proxy addresses or CIDR ranges (it is "yes").',
    ],
    [
      { LOG_LEVEL: 'verbose' },
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace or silent (it is "verbose").',
    ],
    [
      { REPEAT_SCAN_WINDOW_SECONDS: '-1' },
      'REPEAT_SCAN_WINDOW_SECONDS must be a number of seconds between 0 and 3600 (it is "-1").',
    ],
    [
      { DB_CONNECT_TIMEOUT_MS: '50' },
      'DB_CONNECT_TIMEOUT_MS must be a number of milliseconds between 100 and 3600000 (it is "50").',
    ],
    [
      { DB_STATEMENT_TIMEOUT_MS: '2s' },
      'DB_STATEMENT_TIMEOUT_MS must be a number of milliseconds between 100 and 3600000 (it is "2s").',
    ],
    [
      { HTTP_REQUEST_TIMEOUT_MS: '999' },
      'HTTP_REQUEST_TIMEOUT_MS must be a number of milliseconds between 1000 and 3600000 (it is "999").',
    ],
    [
      { HTTP_CONNECTION_TIMEOUT_MS: 'forever' },
      'HTTP_CONNECTION_TIMEOUT_MS must be a number of milliseconds between 1000 and 3600000 (it is "forever").',
    ],
    // Issue 26: the audit floor stays past the 7-day delay of a shortened retention.
    [
      { AUDIT_MIN_DAYS: '7' },
      'AUDIT_MIN_DAYS must be a number of days between 30 and 7300 (it is "7").',
    ],
    [
      { AUDIT_MIN_DAYS: '7301' },
      'AUDIT_MIN_DAYS must be a number of days between 30 and 7300 (it is "7301").',
    ],
    [
      { AUDIT_MIN_DAYS: '1 year' },
      'AUDIT_MIN_DAYS must be a number of days between 30 and 7300 (it is "1 year").',
    ],
  ])('says what %j must be, in one sentence', (env, sentence) => {
    expect(problemsOf(env)).toEqual([sentence]);
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ...env })).toThrow(`Sésame cannot start: ${sentence}`);
  });

  it('never repeats a secret setting in its sentence', () => {
    const problems = problemsOf({
      DATABASE_URL: 'mysql://root:hunter2@db/x',
      SMTP_URL: 'http://u:hunter3@mail',
      JWT_SECRET: 'hunter4',
      ADMIN_PASSWORD: 'hunter5',
    });
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).not.toMatch(/hunter/);
  });

  it('names every wrong setting at once, one per line, then what to do', () => {
    const problems = problemsOf({ PORT: '99999', LOG_LEVEL: 'loud' });
    expect(describeConfigProblems(problems)).toBe(
      [
        'Sésame cannot start: 2 settings are wrong.',
        '  PORT must be a number between 1 and 65535 (it is "99999").',
        '  LOG_LEVEL must be one of fatal, error, warn, info, debug, trace or silent (it is "loud").',
        'Change it in the environment, or unset it to use the default (README.md, "Configuration").',
      ].join('\n'),
    );
  });

  it('checks without writing anything: no data folder, no generated secret', () => {
    const dataDir = path.join(scratch, 'never-created');
    expect(checkSettings({ DATA_DIR: dataDir }).problems).toEqual([]);
    expect(existsSync(dataDir)).toBe(false);
    // Loading does create the folder and keeps the generated secret there.
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8')).toBe(first.jwtSecret);
    expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(first.jwtSecret);
  });

  it('accepts well-formed values', () => {
    expect(
      loadConfig({
        ...base,
        PORT: '8080',
        HOST: 'localhost',
        PUBLIC_URL: 'https://sesame.example.com//',
        DATABASE_URL: 'postgresql://sesame@db:5432/sesame',
        SMTP_URL: 'smtps://u:p@mail.example.com:465',
        TRUST_PROXY: '10.0.0.5, 10.1.0.0/16',
        REPEAT_SCAN_WINDOW_SECONDS: '0',
      }),
    ).toMatchObject({
      port: 8080,
      host: 'localhost',
      publicUrl: 'https://sesame.example.com',
      databaseUrl: 'postgresql://sesame@db:5432/sesame',
      trustProxy: ['10.0.0.5', '10.1.0.0/16'],
      repeatScanWindowMs: 0,
    });
  });

  it('reads STORAGE_URL as a bucket, its prefix, endpoint, region and path-style addressing (issue 32)', () => {
    expect(
      parseStorageUrl(
        's3://sesame-files/tenant-a/files/?endpoint=http://127.0.0.1:9000&region=eu-west-3&path_style=true',
      ),
    ).toEqual({
      kind: 's3',
      bucket: 'sesame-files',
      prefix: 'tenant-a/files',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-3',
      pathStyle: true,
    });
    // AWS itself: the bucket alone, the default region, virtual-hosted addressing.
    expect(parseStorageUrl('s3://sesame-files')).toEqual({
      kind: 's3',
      bucket: 'sesame-files',
      prefix: '',
      endpoint: undefined,
      region: 'us-east-1',
      pathStyle: false,
    });
    expect(
      loadConfig({ ...base, STORAGE_URL: 's3://sesame-files?region=eu-west-3' }).storage,
    ).toMatchObject({ bucket: 'sesame-files', region: 'eu-west-3' });
    expect(loadConfig(base).storage).toBeUndefined();
  });

  it('refuses a STORAGE_URL with credentials, an unknown parameter or a bad endpoint, in one sentence', () => {
    expect(parseStorageUrl('s3://KEY:SECRET@sesame-files')).toBe(
      'must not carry credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead',
    );
    expect(parseStorageUrl('s3://sesame-files?endpoint=http://h:9000&acl=public')).toBe(
      'has an unknown parameter "acl" (endpoint, region and path_style are known)',
    );
    expect(parseStorageUrl('s3://sesame-files?endpoint=ftp://h')).toBe(
      'has an endpoint that is not an http:// or https:// address',
    );
    expect(parseStorageUrl('s3://sesame-files?path_style=yes')).toBe(
      'has a path_style that is neither true nor false',
    );
    expect(parseStorageUrl('https://sesame-files')).toMatch(/^must be an S3 address/);
    expect(parseStorageUrl('s3://sesame-files/%E0%A4%A')).toBe(
      'has a path that is not valid percent-encoding',
    );
    // At start: the variable's name, the sentence, and never the secret it carried.
    const problems = problemsOf({ STORAGE_URL: 's3://KEY:SECRET@sesame-files' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('STORAGE_URL');
    expect(problems[0]).toContain('must not carry credentials');
    expect(problems[0]).not.toContain('SECRET@');
  });

  it('lists every setting it reads in the README configuration table', () => {
    const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## Configuration'));
    for (const name of SETTING_NAMES) expect(table, name).toContain(`\`${name}\``);
  });
});
