/**
 * Issue 17: an event's slug is its public link; a long name is cut at a word
 * boundary, never mid-word.
 */
import { describe, expect, it } from 'vitest';
import { SLUG_MAX, slugify } from '../src';

describe('slugify', () => {
  it('keeps a short name whole, accents and punctuation folded', () => {
    expect(slugify('Forum Numérique 2030 !')).toBe('forum-numerique-2030');
    expect(slugify('  --Été--  ')).toBe('ete');
  });

  it('cuts a long name at the last word boundary within the limit', () => {
    const name =
      'Conférence internationale sur la transformation numérique des administrations publiques';
    const slug = slugify(name);
    expect(slug).toBe('conference-internationale-sur-la-transformation-numerique');
    expect(slug.length).toBeLessThanOrEqual(SLUG_MAX);
    // Every word of the slug is a whole word of the name.
    const words = name
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .split(' ');
    for (const word of slug.split('-')) expect(words).toContain(word);
  });

  it('keeps a word that ends exactly at the limit', () => {
    // 59 letters + 1 = 60 characters, then another word.
    const first = `${'a'.repeat(29)} ${'b'.repeat(30)}`;
    expect(slugify(`${first} suite`)).toBe(`${'a'.repeat(29)}-${'b'.repeat(30)}`);
    expect(slugify(`${first} suite`)).toHaveLength(SLUG_MAX);
  });

  it('drops a word the limit would cut, even by one letter', () => {
    const name = `${'a'.repeat(29)} ${'b'.repeat(31)}`;
    expect(slugify(name)).toBe('a'.repeat(29));
  });

  it('cuts a single word longer than the limit inside it (nothing else fits)', () => {
    expect(slugify('x'.repeat(80))).toBe('x'.repeat(SLUG_MAX));
    expect(slugify(`${'x'.repeat(80)} fin`)).toBe('x'.repeat(SLUG_MAX));
  });

  it('never ends with a dash', () => {
    for (let n = 50; n < 70; n++) {
      const slug = slugify(`${'m'.repeat(n)} ${'z'.repeat(10)} ${'y'.repeat(5)}`);
      expect(slug.endsWith('-')).toBe(false);
      expect(slug.length).toBeLessThanOrEqual(SLUG_MAX);
    }
  });
});
