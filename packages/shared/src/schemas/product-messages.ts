/**
 * The product's words in the schemas: a check's message with its key (`keyed`, `said`,
 * `sayIssue`), and zod's own issues (too long, required, a bad format…) in the same words,
 * so that no schema answers in zod's English; common.ts installs those, and every schema
 * is built on its helpers, so whoever parses with one has them. Apart from issues.ts,
 * which the web app's entry reads without zod or the French catalogue.
 */
import { config, type $ZodRawIssue } from 'zod/v4/core';
import type { Say } from '../messages/catalogue';
import { fr } from '../messages/fr';
import { withSay, type IssueParams } from './issues';

/**
 * A check's message and its key: the issue's `message` is the French text; its
 * `params` carry `{ key, field, … }` for the screens to translate (never the French
 * text as a lookup key), and the catalogue key the server says in the request's
 * language. zod copies `params` only from custom issues, so the error map stamps
 * them on the raw issue, which zod then finalises.
 * Use as a check's options: `.min(1, keyed(…))`, `z.uuid(keyed(…))`, `.refine(f, keyed(…))`.
 */
export const keyed = (say: Say, params: IssueParams) => {
  const stamped = withSay({ ...params }, say);
  return {
    error: (issue: object) => {
      Object.assign(issue, { params: stamped });
      return say(fr);
    },
  };
};

/** A check's message with no locale key for the screens (they show the server's words). */
export const said = (say: Say) => ({
  error: (issue: object) => {
    Object.assign(issue, { params: withSay({}, say) });
    return say(fr);
  },
});

/** A custom issue's message and params (`ctx.addIssue({ code, path, ...sayIssue(…) })`). */
export const sayIssue = (say: Say, params: IssueParams) => ({
  message: say(fr),
  params: withSay({ ...params }, say),
});

/** The product's message for a text longer than its field allows. */
export const tooLongMessage = (max: number) => fr.validation.tooLong(max);

/** No schema answers in zod's English: each default issue gets the product's own words. */
function productSay(issue: $ZodRawIssue): Say {
  switch (issue.code) {
    case 'too_big': {
      const max = String(issue.maximum);
      return issue.origin === 'string'
        ? (m) => m.validation.tooLong(Number(max))
        : (m) => m.validation.tooBig(max);
    }
    case 'too_small': {
      const min = String(issue.minimum);
      if (issue.origin !== 'string') return (m) => m.validation.tooSmall(min);
      return Number(min) <= 1 ? (m) => m.validation.required : (m) => m.validation.tooShort(min);
    }
    case 'invalid_format':
      if (issue.format === 'uuid' || issue.format === 'guid') return (m) => m.validation.idInvalid;
      if (issue.format === 'email') return (m) => m.validation.emailInvalid;
      if (issue.format === 'datetime' || issue.format === 'date')
        return (m) => m.validation.dateInvalid;
      return (m) => m.validation.formatInvalid;
    case 'invalid_type':
      return issue.input === undefined ? (m) => m.validation.required : (m) => m.api.badRequest;
    case 'invalid_value':
      return (m) => m.validation.valueRefused;
    default:
      return (m) => m.api.badRequest;
  }
}

function productMessage(issue: $ZodRawIssue): string {
  const say = productSay(issue);
  // A custom issue may bring params of its own: the key goes beside them.
  const params = (issue as { params?: object }).params;
  Object.assign(issue, { params: withSay(params ? { ...params } : {}, say) });
  return say(fr);
}

/**
 * Installs the product's messages as zod's defaults; a schema's own message still wins
 * over these. common.ts calls it when it loads; calling it again changes nothing.
 */
export function installProductMessages(): void {
  config({ customError: productMessage });
}
