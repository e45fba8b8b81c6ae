import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenService } from '../src/auth/tokens';
import { newId } from '../src/db/ids';

const SECRET = 'a-test-secret-of-enough-length-0123456789';

describe('TokenService', () => {
  afterEach(() => vi.useRealTimers());

  it('accepts its own token and refuses one signed with another secret', async () => {
    const tokens = new TokenService(SECRET);
    const claims = { sub: newId(), sid: newId() };
    const token = await tokens.sign(claims, new Date(Date.now() + 60_000));
    expect(await tokens.verify(token)).toEqual(claims);
    const other = await new TokenService(`${SECRET}-other`).sign(
      claims,
      new Date(Date.now() + 60_000),
    );
    expect(await tokens.verify(other)).toBeNull();
  });

  it('refuses a token once it has expired, even after verifying it before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-23T08:00:00Z'));
    const tokens = new TokenService(SECRET);
    const claims = { sub: newId(), sid: newId() };
    const token = await tokens.sign(claims, new Date('2026-11-23T09:00:00Z'));
    expect(await tokens.verify(token)).toEqual(claims); // now remembered as verified
    vi.setSystemTime(new Date('2026-11-23T08:59:59Z'));
    expect(await tokens.verify(token)).toEqual(claims);
    vi.setSystemTime(new Date('2026-11-23T09:00:01Z'));
    expect(await tokens.verify(token)).toBeNull();
  });

  it('refuses a token whose signature was altered after a good one was remembered', async () => {
    const tokens = new TokenService(SECRET);
    const token = await tokens.sign({ sub: newId(), sid: newId() }, new Date(Date.now() + 60_000));
    expect(await tokens.verify(token)).not.toBeNull();
    const [header, payload] = token.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ sub: newId(), sid: newId(), exp: Math.floor(Date.now() / 1000) + 60 }),
    ).toString('base64url');
    expect(await tokens.verify(`${header}.${forgedPayload}.${token.split('.')[2]}`)).toBeNull();
    expect(await tokens.verify(`${header}.${payload}.AAAA`)).toBeNull();
  });
});

describe('newId', () => {
  it('is a UUID v7 whose first 48 bits are the time in milliseconds', () => {
    const at = Date.UTC(2026, 10, 23, 12, 0, 0, 123);
    const id = newId(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });

  it('sorts by creation time and never repeats', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => newId(1_700_000_000_000 + i));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
