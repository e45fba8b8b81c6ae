/**
 * No personal data in logs. A log line may say which record and which route,
 * never who: query strings (searches, signed links) are cut, personal fields are
 * censored wherever they appear, and a failed query's error keeps the database's
 * reason but not the values it was given (a failed insert once logged a visitor's
 * code, name, e-mail, phone and identity number).
 */
import type { FastifyRequest } from 'fastify';

/** Keys whose values name or reach a person; censored at any of the first levels of a line. */
const PERSONAL_KEYS = [
  'email',
  'to',
  'username',
  'password',
  'firstname',
  'lastname',
  'name',
  'contact',
  'phone',
  'phone_number',
  'id_number',
  'address',
  'uidn',
  'token',
  'authorization',
  'params',
];

export const logRedaction = {
  paths: PERSONAL_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
  censor: '[redacted]',
};

/** A URL without its query string: the path names the route, the query may name a person. */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : `${url.slice(0, query)}?[redacted]`;
}

/** The first line of a query error's message: drivers append the failed query's values after it. */
function firstLine(text: string): string {
  const cut = text.search(/[\r\n]/);
  return cut === -1 ? text : text.slice(0, cut);
}

interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  code?: string;
  stack: string;
  cause?: LoggedError;
}

/** An error as a log line may carry it: name, reason, code, and the stack below the message. */
export function redactError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: '[redacted]', stack: '' };
  const e = error as Error & { code?: unknown; query?: unknown };
  // Drizzle's "Failed query: <sql>\nparams: <values>" keeps the SQL, never the values.
  const message = firstLine(e.message);
  const frames = (e.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return {
    type: e.name,
    message,
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    stack: [`${e.name}: ${message}`, ...frames].join('\n'),
    ...(e.cause !== undefined && depth < 3 ? { cause: redactError(e.cause, depth + 1) } : {}),
  };
}

export const logSerializers = {
  err: redactError,
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: redactUrl(request.url),
    remoteAddress: request.ip,
  }),
};

/** The server's logger options: the level, and the redaction above on every line. */
export function appLoggerOptions(level: string) {
  return { level, serializers: logSerializers, redact: logRedaction };
}
