/**
 * The pure half of the form layer: a failed parse of a shared schema → the
 * message under each field, in the screen's language. No React, no DOM, so the
 * web's unit tests run it as it is (apps/web/test).
 */
import { issueParams, issueSay, type Catalogue } from '@sesame/shared';

/** What the form layer reads of a zod issue. */
export interface FormIssue {
  path: readonly PropertyKey[];
  message: string;
  params?: unknown;
}

/** A translation function (lib/translator's `t`, or any stand-in in tests). */
export type Translate = (key: string | string[], options?: Record<string, unknown>) => string;

/** Where a screen keeps its messages: `${errors}.${key}` and the labels `${fields}.${field}`. */
export interface MessageKeys {
  errors?: string;
  fields?: string;
}

/**
 * An issue in the screen's language: the locale key the shared schema gave it,
 * with the named field's label and the numbers it quotes; an issue without a
 * screen key reads as the server would say it in the screen's language (`words`, that
 * language's shared catalogue; none for French, which the issue's message already is).
 */
export function issueText(
  t: Translate,
  keys: MessageKeys = {},
  words?: Catalogue,
): (issue: FormIssue) => string {
  const { errors = 'form.errors', fields = 'fields' } = keys;
  return (issue) => {
    const said = issueSay(issue);
    // In French (no `words`), the issue's own message: the shared schema wrote it in French.
    const own = said && words ? said(words) : issue.message;
    const params = issueParams(issue);
    if (!params) return own;
    // The screen's wording first, then the app's (a text too long reads the same everywhere).
    return t([`${errors}.${params.key}`, `common:validation.${params.key}`], {
      ...params,
      label: params.field ? t(`${fields}.${params.field}`) : '',
      defaultValue: own,
    });
  };
}

export interface FieldErrors {
  /** Each field's first message. */
  errors: Record<string, string>;
  /** The field a person fixes first: the schema's first issue (the spec's order). */
  first: string | undefined;
}

/**
 * Each field's first issue, in the schema's order. `fieldOf` moves an issue to
 * the field that shows it (a time checked as `request_time` shown by the hour).
 */
export function fieldErrors(
  issues: readonly FormIssue[],
  text: (issue: FormIssue) => string,
  fieldOf: Readonly<Record<string, string>> = {},
): FieldErrors {
  const errors: Record<string, string> = {};
  let first: string | undefined;
  for (const issue of issues) {
    const path = String(issue.path[0] ?? 'body');
    const field = fieldOf[path] ?? path;
    first ??= field;
    errors[field] ??= text(issue);
  }
  return { errors, first };
}

/** Schema errors, then the screen's own checks on the fields the schema let through. */
export function mergeFieldErrors(
  schema: FieldErrors,
  extra: Readonly<Record<string, string | undefined>>,
): FieldErrors {
  const errors = { ...schema.errors };
  let first = schema.first;
  for (const [field, message] of Object.entries(extra)) {
    if (!message || errors[field]) continue;
    errors[field] = message;
    first ??= field;
  }
  return { errors, first };
}
