import { describe, expect, it } from 'vitest';
import { readScanned } from '../src/features/checkins/lib/scanned';

const ORIGIN = 'https://sesame.example';

describe('readScanned: only this application’s own links are followed', () => {
  it('follows a link of the same origin, path and query kept', () => {
    expect(readScanned(`${ORIGIN}/scan/ABC-123?x=1`, ORIGIN)).toEqual({
      kind: 'link',
      path: '/scan/ABC-123?x=1',
    });
  });

  it('refuses another origin, even one that looks alike', () => {
    for (const url of [
      'https://evil.example/scan/ABC',
      'https://sesame.example.evil.example/scan/ABC',
      'http://sesame.example/scan/ABC',
      'https://sesame.example:8443/scan/ABC',
    ]) {
      expect(readScanned(url, ORIGIN)).toEqual({ kind: 'foreign-link', url });
    }
  });

  it('refuses what is not http(s), even on the same host', () => {
    expect(readScanned('javascript:alert(1)', ORIGIN).kind).toBe('invalid');
    expect(readScanned('ftp://sesame.example/scan/ABC', ORIGIN).kind).toBe('invalid');
    expect(readScanned('ABC-123', ORIGIN)).toEqual({ kind: 'invalid', value: 'ABC-123' });
  });

  it('reads an e-mail (the kiosk presence), trimmed and in lower case', () => {
    expect(readScanned('  Awa.Kone@Example.COM \n', ORIGIN)).toEqual({
      kind: 'email',
      email: 'awa.kone@example.com',
    });
  });
});
