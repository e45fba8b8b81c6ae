import { API_MESSAGES } from '@sesame/shared';

/** A failure with an HTTP status and a message a person can read. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly errors?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (
  message: string = API_MESSAGES.badRequest,
  errors?: Record<string, string>,
) => new HttpError(400, message, errors);
export const unauthenticated = (message: string = API_MESSAGES.unauthenticated) =>
  new HttpError(401, message);
export const forbidden = (message: string = API_MESSAGES.forbidden) => new HttpError(403, message);
export const notFound = (message: string = API_MESSAGES.notFound) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const payloadTooLarge = (message: string = API_MESSAGES.fileTooLarge) =>
  new HttpError(413, message);
export const unsupportedMediaType = (message: string = API_MESSAGES.fileTypeRefused) =>
  new HttpError(415, message);

/** PostgreSQL unique_violation, whichever driver raised it. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string; cause?: unknown } | null;
  if (!e) return false;
  if (e.code === '23505') return constraint ? e.constraint === constraint : true;
  return e.cause ? isUniqueViolation(e.cause, constraint) : false;
}
