import type { z } from 'zod';
import { badRequest } from '../errors';

/**
 * Multipart text fields through a shared zod schema: 400 with the first issue's
 * message and an `errors` map by field, like the JSON routes. `extra` errors (a
 * missing file) come first, in the form's order.
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
      const field = issue.path.join('.') || 'body';
      errors[field] ??= issue.message;
    }
  }
  const first = Object.values(errors)[0];
  if (first !== undefined) throw badRequest(first, errors);
  return (result as { data: z.output<T> }).data;
}
