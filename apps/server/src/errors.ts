import { FRENCH_MESSAGES, type Say } from '@sesame/shared';

/**
 * A failure with an HTTP status and a message a person can read. The message is
 * a catalogue key (`(m) => m.visitor.emailInvalid`), said by the error handler in
 * the request's language; the Error's own text is the French one, for the logs.
 */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly say: Say,
    public readonly errors?: Record<string, Say>,
  ) {
    super(say(FRENCH_MESSAGES));
  }
}

export const badRequest = (say: Say = (m) => m.api.badRequest, errors?: Record<string, Say>) =>
  new HttpError(400, say, errors);
export const unauthenticated = (say: Say = (m) => m.api.unauthenticated) => new HttpError(401, say);
export const forbidden = (say: Say = (m) => m.api.forbidden) => new HttpError(403, say);
export const notFound = (say: Say = (m) => m.api.notFound) => new HttpError(404, say);
export const conflict = (say: Say) => new HttpError(409, say);
/** Well-formed, but refused as a whole (an Idempotency-Key already used for another request). */
export const unprocessable = (say: Say) => new HttpError(422, say);
export const payloadTooLarge = (say: Say = (m) => m.api.fileTooLarge) => new HttpError(413, say);
export const unsupportedMediaType = (say: Say = (m) => m.api.fileTypeRefused) =>
  new HttpError(415, say);

/** A property of a thrown value, whatever was thrown (catch gives unknown). */
function property(error: unknown, name: 'code' | 'constraint' | 'cause'): unknown {
  return typeof error === 'object' && error !== null && name in error
    ? (error as Record<typeof name, unknown>)[name] // checked just above: `name` is in it
    : undefined;
}

/**
 * The code a failure carries — PostgreSQL's SQLSTATE ('23505'), Node's system error
 * ('ENOENT'), a library's — on the error itself or, where a library wrapped it (drizzle
 * wraps the driver's error), on its cause.
 */
export function errorCode(error: unknown): string | undefined {
  const code = property(error, 'code');
  if (typeof code === 'string') return code;
  const cause = property(error, 'cause');
  return cause === undefined ? undefined : errorCode(cause);
}

/** PostgreSQL unique_violation, whichever driver raised it. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (property(error, 'code') === '23505')
    return constraint ? property(error, 'constraint') === constraint : true;
  const cause = property(error, 'cause');
  return cause === undefined ? false : isUniqueViolation(cause, constraint);
}
