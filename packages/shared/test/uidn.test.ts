import { describe, expect, it } from 'vitest';
import {
  formatUidn,
  isUidnShaped,
  normalizeUidn,
  slugify,
  isReservedSlug,
  uidnFromBytes,
} from '../src';

describe('uidn', () => {
  it('reads a code with or without dashes, in any case', () => {
    expect(normalizeUidn('7kq2-m9xd-4tra')).toBe('7KQ2M9XD4TRA');
    expect(normalizeUidn(' 7KQ2M9XD4TRA ')).toBe('7KQ2M9XD4TRA');
    expect(isUidnShaped('7kq2m9xd4tra')).toBe(true);
    expect(isUidnShaped('hello')).toBe(false);
  });

  it('prints codes in groups of four', () => {
    expect(formatUidn('7kq2m9xd4tra')).toBe('7KQ2-M9XD-4TRA');
    const code = uidnFromBytes(new Uint8Array(12).fill(255));
    expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  });
});

describe('slugs', () => {
  it('derives a slug from a company name', () => {
    expect(slugify('Société Générale — Côte d’Ivoire')).toBe('societe-generale-cote-d-ivoire');
  });
  it('refuses names of top-level routes', () => {
    expect(isReservedSlug('sign-in')).toBe(true);
    expect(isReservedSlug('success-anything')).toBe(true);
    expect(isReservedSlug('acme')).toBe(false);
  });
});
