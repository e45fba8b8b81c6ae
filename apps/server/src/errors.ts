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

/** PostgreSQL unique_violation, whichever driver raised it. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  // Drivers' errors are plain objects (code, constraint, cause), each checked below.
  const e = error as { code?: string; constraint?: string; cause?: unknown } | null;
  if (!e) return false;
  if (e.code === '23505') return constraint ? e.constraint === constraint : true;
  return e.cause ? isUniqueViolation(e.cause, constraint) : false;
}
