/**
 * The language a request is answered in (issue 18): the web sends the interface's
 * language with every call as `Accept-Language`; the server takes the first tag it
 * speaks (by the header's q-values), else French, the spec's language. Every
 * message the server writes for that request — errors, toasts, CSV headers — is
 * said in it (`say`), from the catalogues in packages/shared/src/messages.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  DEFAULT_LANGUAGE,
  FRENCH_MESSAGES,
  isLanguage,
  issueSay,
  sayIn,
  type Language,
  type Say,
} from '@sesame/shared';

declare module 'fastify' {
  interface FastifyRequest {
    /** The language this request is answered in. */
    lang: Language;
  }
}

/** The header's most wanted language Sésame speaks ('en-GB;q=0.8' reads as 'en'). */
export function requestLanguage(header: string | string[] | undefined): Language {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  const wanted = value
    .split(',')
    .map((part, order) => {
      const [tag = '', ...options] = part.trim().split(';');
      const q = options.map((o) => o.trim()).find((o) => o.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { primary: tag.trim().toLowerCase().split('-')[0], weight, order };
    })
    .filter((w) => Number.isFinite(w.weight) && w.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.order - b.order);
  return wanted.map((w) => w.primary).find(isLanguage) ?? DEFAULT_LANGUAGE;
}

/** Reads each request's language once, before anything (the rate limit included) answers it. */
export function readRequestLanguage(app: FastifyInstance): void {
  app.decorateRequest('lang', DEFAULT_LANGUAGE);
  app.addHook('onRequest', async (request) => {
    request.lang = requestLanguage(request.headers['accept-language']);
  });
}

/** A message in the request's language. */
export const say = (request: FastifyRequest, message: Say): string => sayIn(request.lang, message);

/**
 * A zod issue's message, by the catalogue key its check carries (`keyed`, `said`, and
 * every zod default through `installProductMessages`). An issue without one keeps its
 * own text for a French reader and is the generic sentence for any other.
 */
export function issueMessage(issue: { message?: string }): Say {
  const key = issueSay(issue);
  if (key) return key;
  return (m) => (m === FRENCH_MESSAGES && issue.message ? issue.message : m.api.badRequest);
}

/** `{ field: first message }` of a failed parse (the `errors` map of a 400). */
export function issueMessages(
  issues: readonly { path: readonly PropertyKey[]; message?: string }[],
  extra: Record<string, Say> = {},
): Record<string, Say> {
  const errors: Record<string, Say> = { ...extra };
  for (const issue of issues) {
    errors[issue.path.map(String).join('.') || 'body'] ??= issueMessage(issue);
  }
  return errors;
}
