/**
 * "Expected today" as shown (issue 30): each row a card, except the rows of one invitation of
 * several visitors, which the server sends one after the other and the screen shows as a group.
 */
import type { ExpectedRow } from '@sesame/shared';

export type ExpectedItem = { row: ExpectedRow } | { group: ExpectedRow[] };

/** Consecutive rows of one invitation of two visitors or more make a group; any other row stands alone. */
export function expectedItems(rows: readonly ExpectedRow[]): ExpectedItem[] {
  const items: ExpectedItem[] = [];
  for (const row of rows) {
    const invitation = row.invitation;
    const last = items[items.length - 1];
    if (!invitation || invitation.group_size < 2) {
      items.push({ row });
    } else if (last && 'group' in last && last.group[0]?.invitation?.id === invitation.id) {
      last.group.push(row);
    } else {
      items.push({ group: [row] });
    }
  }
  return items;
}
