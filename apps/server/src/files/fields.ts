/**
 * The text fields of a multipart form, through a shared zod schema: the one
 * reading every upload route uses (companies, QR cards and member cards).
 */
import type { z } from 'zod';
import type { Say } from '@sesame/shared';
import { badRequest } from '../errors';
import { issueMessages } from '../language';

/**
 * 400 with the first message and an `errors` map by field, like the JSON routes.
 * `extra` errors (a missing file) come first, in the form's order.
 */
export function parseFields<T extends z.ZodType>(
  schema: T,
  fields: Record<string, string>,
  extra: Record<string, Say> = {},
): z.output<T> {
  const result = schema.safeParse(fields);
  const errors = issueMessages(result.success ? [] : result.error.issues, extra);
  const first = Object.values(errors)[0];
  if (first !== undefined) throw badRequest(first, errors);
  if (!result.success) throw badRequest((m) => m.api.badRequest);
  return result.data;
}
