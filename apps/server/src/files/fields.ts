/**
 * The text fields of a multipart form, through a shared zod schema: the one
 * reading every upload route uses (companies, QR cards and member cards).
 */
import type { z } from 'zod';
import { API_MESSAGES } from '@sesame/shared';
import { badRequest } from '../errors';

/**
 * 400 with the first message and an `errors` map by field, like the JSON routes.
 * `extra` errors (a missing file) come first, in the form's order.
 */
export function parseFields<T extends z.ZodType>(
  schema: T,
  fields: Record<string, string>,
  extra: Record<string, string> = {},
): z.output<T> {
  const result = schema.safeParse(fields);
  const errors: Record<string, string> = { ...extra };
  if (!result.success) {
    for (const issue of result.error.issues) {
      errors[issue.path.join('.') || 'body'] ??= issue.message;
    }
  }
  const first = Object.values(errors)[0];
  if (first !== undefined) throw badRequest(first, errors);
  if (!result.success) throw badRequest(API_MESSAGES.badRequest);
  return result.data;
}
