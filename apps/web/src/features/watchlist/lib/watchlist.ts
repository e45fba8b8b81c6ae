/**
 * The watchlist screens' plain logic (issue 31): an entry as the form's values and back, and
 * how a held visit's match is said. No React, no DOM: `apps/web/test/watchlist.test.ts`.
 */
import type { HoldMatch, WatchlistEntry } from '@sesame/shared';

export interface EntryValues {
  firstname: string;
  lastname: string;
  email: string;
  phone: string;
  id_number: string;
  reason: string;
  /** DD/MM/YYYY or blank. */
  until: string;
}

export function entryValues(entry: WatchlistEntry | undefined): EntryValues {
  return {
    firstname: entry?.firstname ?? '',
    lastname: entry?.lastname ?? '',
    email: entry?.email ?? '',
    phone: entry?.phone ?? '',
    id_number: entry?.id_number ?? '',
    reason: entry?.reason ?? '',
    until: entry?.until ?? '',
  };
}

/** A name match's similarity as a whole percentage (0.874 → 87); null when there is none. */
export function similarityPercent(similarity: number | null): number | null {
  if (similarity === null || Number.isNaN(similarity)) return null;
  return Math.floor(Math.min(1, Math.max(0, similarity)) * 100);
}

/** What matched, as a locale key and its values ('matched.name' with { percent: 87 }). */
export function matchLabel(
  matched: HoldMatch,
  similarity: number | null,
): { key: string; values?: Record<string, unknown> } {
  const percent = matched === 'name' ? similarityPercent(similarity) : null;
  if (matched === 'name' && percent !== null) return { key: 'matched.nameAt', values: { percent } };
  return { key: `matched.${matched}` };
}

/** The full name of an entry (or the identifier it was added by, when it has no name). */
export function entryName(entry: Pick<WatchlistEntry, 'firstname' | 'lastname'>): string {
  return `${entry.firstname} ${entry.lastname}`.trim();
}
