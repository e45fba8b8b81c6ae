/**
 * Issue 27: a download is saved under the name the server gives, its UTF-8 spelling first
 * (RFC 6266), so a person's export carries their name as written; never a path.
 */
import { describe, expect, it } from 'vitest';
import { dispositionFileName } from '../src/lib/disposition';

describe('dispositionFileName', () => {
  it('prefers filename* (RFC 5987) to filename, as browsers do', () => {
    expect(
      dispositionFileName(
        'attachment; filename="sesame-donnees-awa-kone-2026-11-27.zip"; filename*=UTF-8\'\'sesame-donnees-awa-kon%C3%A9-2026-11-27.zip',
      ),
    ).toBe('sesame-donnees-awa-koné-2026-11-27.zip');
  });

  it('reads a plain filename, quoted or not', () => {
    expect(dispositionFileName('attachment; filename="liste-check-in-2026-11-27.csv"')).toBe(
      'liste-check-in-2026-11-27.csv',
    );
    expect(dispositionFileName('inline; filename=photo.png')).toBe('photo.png');
  });

  it('falls back to the plain name when the extended one is malformed', () => {
    expect(
      dispositionFileName('attachment; filename="export.zip"; filename*=UTF-8\'\'%E0%A4%A'),
    ).toBe('export.zip');
  });

  it('keeps a name, never a path, and has none to give without a header', () => {
    expect(dispositionFileName("attachment; filename*=UTF-8''..%2F..%2Fetc%2Fpasswd")).toBe(
      'passwd',
    );
    expect(dispositionFileName('attachment; filename="..\\\\"')).toBeNull();
    expect(dispositionFileName('attachment')).toBeNull();
    expect(dispositionFileName(null)).toBeNull();
  });
});
