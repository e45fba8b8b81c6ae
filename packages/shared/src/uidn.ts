/**
 * Visitor and QR-user codes (ARCHITECTURE §6): random, at least 60 bits,
 * Crockford base32 in groups of four, read case-insensitively with or without dashes.
 */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const UIDN_LENGTH = 12; // 12 × 5 bits = 60 bits

/** Normalises what a person typed: upper case, no dashes or spaces, I/L→1, O→0. */
export function normalizeUidn(input: string): string {
  return input.trim().toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
}

export function isUidnShaped(input: string): boolean {
  const normalized = normalizeUidn(input);
  return (
    normalized.length === UIDN_LENGTH &&
    [...normalized].every((ch) => CROCKFORD_ALPHABET.includes(ch))
  );
}

/** 'ABCD1234WXYZ' → 'ABCD-1234-WXYZ'. */
export function formatUidn(uidn: string): string {
  return normalizeUidn(uidn).replace(/(.{4})(?=.)/g, '$1-');
}

/** Builds a uidn from random bytes (the caller supplies them: node:crypto or Web Crypto). */
export function uidnFromBytes(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < UIDN_LENGTH; i++) {
    out += CROCKFORD_ALPHABET[bytes[i % bytes.length]! & 31];
  }
  return formatUidn(out);
}
