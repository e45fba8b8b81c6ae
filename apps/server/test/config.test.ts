import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

const base = { DATA_DIR: path.join(os.tmpdir(), 'sesame-config-test'), JWT_SECRET: 'x'.repeat(40) };

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig(base);
    expect(config).toMatchObject({
      port: 3000,
      publicUrl: 'http://localhost:3000',
      defaultCompanySlug: 'demo',
      timezone: 'Africa/Abidjan',
    });
  });

  it.each([
    [{ PORT: 'abc' }, /^Configuration error: PORT /],
    [
      { DATABASE_URL: 'mysql://x' },
      /^Configuration error: DATABASE_URL must start with postgres:\/\//,
    ],
    [
      { APP_TIMEZONE: 'Mars/Olympus' },
      /^Configuration error: APP_TIMEZONE must be an IANA time zone/,
    ],
    [{ JWT_SECRET: 'short' }, /^Configuration error: JWT_SECRET must be at least 32 characters/],
    [{ PUBLIC_URL: 'not a url' }, /^Configuration error: PUBLIC_URL /],
    [{ SMTP_URL: 'http://mail' }, /^Configuration error: SMTP_URL /],
  ])('stops with one clear line for %j', (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ...env })).toThrow(message);
  });
});
