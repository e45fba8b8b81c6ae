/**
 * Whether an error means "the database cannot be reached right now" (a dropped or
 * refused connection, a timeout, a server shutting down) rather than a fault of the
 * request or of the code: those answer 503 and the next request, once the database
 * is back, succeeds. Drizzle wraps the driver's error in `cause`.
 */
/** How long the request path may wait on PostgreSQL (README, Configuration). */
export interface DatabaseTimeouts {
  /** Opening a connection, or waiting for a free one in the pool. */
  connectMs: number;
  /** One statement, enforced by PostgreSQL (statement_timeout) and, 1 s later, by the client. */
  statementMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { connectMs: 2_000, statementMs: 3_000 };

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** SQLSTATEs: query_canceled (statement_timeout), shutdowns, and class 08 (connection exception). */
const SQLSTATES = new Set(['57014', '57P01', '57P02', '57P03', '53300']);

const MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /query read timeout/i,
  /connection timeout/i,
  /client has encountered a connection error/i,
  /not queryable/i,
  /cannot use a pool after calling end/i,
];

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  // Drivers' errors are plain objects with optional code, message and cause, each checked below.
  const e = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof e.code === 'string') {
    if (NETWORK_CODES.has(e.code) || SQLSTATES.has(e.code) || e.code.startsWith('08')) return true;
  }
  const message = e.message;
  if (typeof message === 'string' && MESSAGES.some((m) => m.test(message))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}
