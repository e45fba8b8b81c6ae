/** Issue 30: "expected today" shows an invitation's visitors together, as one group. */
import { describe, expect, it } from 'vitest';
import type { ExpectedRow } from '@sesame/shared';
import { expectedItems } from '../src/features/on-site/lib/expected-groups';

const row = (
  lastname: string,
  invitation: { id: string; group_size: number } | null = null,
): ExpectedRow => ({
  person_id: lastname,
  kind: 'visitor',
  firstname: 'A',
  lastname,
  organisation: null,
  company: { id: 'c', name: 'C', slug: 'c' },
  site: { id: 's', name: 'S', timezone: 'UTC' },
  host: 'Awa Koné',
  event: null,
  time: '09:00',
  invitation: invitation && {
    ...invitation,
    invited_by: 'Awa Koné',
    details_completed: false,
    here_at: null,
  },
});

const shape = (rows: ExpectedRow[]) =>
  expectedItems(rows).map((item) =>
    'group' in item ? item.group.map((r) => r.lastname) : item.row.lastname,
  );

describe('expectedItems', () => {
  it('groups the consecutive rows of one invitation of several; others stand alone', () => {
    const group = { id: 'g', group_size: 3 };
    expect(
      shape([
        row('Bamba'),
        row('Adjoua', group),
        row('Coulibaly', group),
        row('Zadi', group),
        row('Seul', { id: 'one', group_size: 1 }),
        row('Autre', { id: 'h', group_size: 2 }),
      ]),
    ).toEqual(['Bamba', ['Adjoua', 'Coulibaly', 'Zadi'], 'Seul', ['Autre']]);
  });

  it('starts a new group for another invitation right after', () => {
    const a = { id: 'a', group_size: 2 };
    const b = { id: 'b', group_size: 2 };
    expect(shape([row('A1', a), row('A2', a), row('B1', b), row('B2', b)])).toEqual([
      ['A1', 'A2'],
      ['B1', 'B2'],
    ]);
  });
});
