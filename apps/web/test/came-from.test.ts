/**
 * Issue 27: after 'Effacer la personne' the admin returns to the page the person's page was
 * opened from (its navigation state), else to the list of that kind of person; never to
 * another site, whatever a state holds.
 */
import { describe, expect, it } from 'vitest';
import { cameFrom, cameFromHere, keepCameFrom, returnPath } from '../src/lib/came-from';

const ORIGIN = 'https://sesame.example';

describe('the page a person was opened from', () => {
  it('is the address of the list, its page and its search kept', () => {
    const state = cameFromHere({ pathname: '/demo/list-qrcode', search: '?page=2&q=kone' });
    expect(state).toEqual({ from: '/demo/list-qrcode?page=2&q=kone' });
    expect(returnPath(state, '/demo/qr-code-list', ORIGIN)).toBe('/demo/list-qrcode?page=2&q=kone');
  });

  it('falls back to the list of that kind of person when the page was opened otherwise', () => {
    for (const state of [null, undefined, {}, { qrUser: { id: 'x' } }, 'text', { from: 42 }]) {
      expect(returnPath(state, '/demo/list-qrcode', ORIGIN)).toBe('/demo/list-qrcode');
    }
  });

  it('never leads out of the application, nor to the sign-in page', () => {
    for (const from of [
      'https://evil.example/demo',
      '//evil.example/demo',
      '/\\evil.example',
      'javascript:alert(1)',
      '/\t/evil.example',
      '/sign-in',
      '/',
    ]) {
      expect(cameFrom({ from }, ORIGIN), from).toBeNull();
      expect(returnPath({ from }, '/demo/qr-code-list', ORIGIN), from).toBe('/demo/qr-code-list');
    }
  });

  it('carries over to the same person under another address (a re-issued card)', () => {
    expect(keepCameFrom({ from: '/demo/qr-code-list?page=3', qrUser: {} }, ORIGIN)).toEqual({
      from: '/demo/qr-code-list?page=3',
    });
    expect(keepCameFrom({ qrUser: {} }, ORIGIN)).toEqual({});
  });
});
