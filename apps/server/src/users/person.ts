/**
 * Issue 34: each API key acts through a hidden service account of its company (a `users` row,
 * `provisioned_by` 'api_key'). Such an account is a caller, not a person: it never shows where
 * a person shows (the user list and user routes, the host pickers, SCIM, mail and chat
 * recipients) and never signs in. Every such query adds `isPerson` to its conditions.
 */
import { sql, type SQL } from 'drizzle-orm';
import { users } from '../db/schema';

/** `users.provisioned_by` of an API key's service account. */
export const API_KEY_ACCOUNT = 'api_key';

/** The condition that a row of `users` is a person's account. */
export const isPerson: SQL = sql`(${users.provisionedBy} is distinct from ${sql.raw(`'${API_KEY_ACCOUNT}'`)})`;

/** Whether a row read already is a person's account (for code that holds the row). */
export function isPersonRow(row: { provisionedBy: string | null }): boolean {
  return row.provisionedBy !== API_KEY_ACCOUNT;
}
