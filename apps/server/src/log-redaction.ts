/**
 * No personal data in logs. A log line may say which record and which route,
 * never who: a request is named by its route's pattern (`/api/get-qr-data/:uidn`),
 * never its path or query string — a path carries visitor codes (door credentials),
 * file ids and request ids, a query a search or a signed link (issue 26 §7); personal
 * fields are censored wherever they appear, and a failed query's error keeps the
 * database's reason but not the values it was given (a failed insert once logged a
 * visitor's code, name, e-mail, phone and identity number).
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

/**
 * What a log line says for a request no route took (a 404, a screen of the web app such
 * as `/scan/{code}`): a fixed word, since its path is whatever the caller typed.
 */
export const NO_ROUTE = '[no route]';

/** The pattern of the route that took the request, `/api/files/:id`; never the path itself. */
export function routePattern(request: { routeOptions?: { url?: string } }): string {
  return request.routeOptions?.url ?? NO_ROUTE;
}

/**
 * A path in an error's message (an `open '/data/files/…'`, a URL a framework error
 * quotes): cut to `[path]`. Only a slash that starts a word counts, so `text/csv` stays.
 */
const PATH_IN_TEXT = /(^|[\s'"`(=:,])\/[^\s'"`),]*/g;

function withoutPaths(text: string): string {
  return text.replace(PATH_IN_TEXT, '$1[path]');
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
  // Drivers add code and query to their Errors; each is checked before it is used.
  const e = error as Error & { code?: unknown; query?: unknown };
  // Drizzle's "Failed query: <sql>\nparams: <values>" keeps the SQL, never the values.
  const message = withoutPaths(firstLine(e.message));
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
  // `url` keeps the name log tools read, holding the route's pattern. A raw Node request
  // (no routeOptions) gets NO_ROUTE like a request no route took.
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: routePattern(request),
    remoteAddress: request.ip,
  }),
};

/** The server's logger options: the level, and the redaction above on every line. */
export function appLoggerOptions(level: string) {
  return { level, serializers: logSerializers, redact: logRedaction };
}
