/**
 * Checks on raw input that no schema can make: PostgreSQL refuses a NUL byte in
 * text, so one anywhere in a request (path, query, JSON, multipart) is a 400
 * before it reaches a query, never a 500 after.
 */
const NUL = '\u0000';

/** Whether a URL holds a NUL, raw or percent-encoded (its path and query are decoded later). */
export function urlHasNul(url: string): boolean {
  return url.includes(NUL) || /%00/i.test(url);
}

/** Whether any string (key or value) inside a parsed body holds a NUL. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes(NUL);
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  if (Buffer.isBuffer(value)) return false;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  return Object.entries(value).some(
    ([key, item]) => key.includes(NUL) || containsNul(item, depth + 1),
  );
}
