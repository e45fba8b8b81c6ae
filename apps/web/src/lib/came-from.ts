/**
 * The page a person's page was opened from (issue 27): after 'Effacer la personne' the
 * admin goes back to the list they were working in, not to the public home page. A link to
 * a person's page carries the page it sits on in its navigation state (`cameFromHere`);
 * the browser keeps that state with the history entry, so a reload keeps it too. Opened
 * another way (a typed address, a link in a mail, a scan), the page has none and the
 * caller's list of that kind of person is the way back.
 */
import { safeReturnPath } from './return-path';

export interface CameFrom {
  from: string;
}

/** The state a link to a person's page carries: the address of the page it is on. */
export function cameFromHere(location: { pathname: string; search: string }): CameFrom {
  return { from: `${location.pathname}${location.search}` };
}

/** The page recorded in a navigation state, or null: only a path of this application. */
export function cameFrom(state: unknown, origin?: string): string | null {
  const from =
    typeof state === 'object' && state !== null ? (state as Partial<CameFrom>).from : null;
  return safeReturnPath(from, origin);
}

/**
 * The same record under another address (a card re-issued, its replacement opened): the
 * page it was opened from carries over, so the way back stays the list, not the old card.
 */
export function keepCameFrom(state: unknown, origin?: string): Partial<CameFrom> {
  const from = cameFrom(state, origin);
  return from ? { from } : {};
}

/** Where to return: the page recorded in the state, else `fallback`. */
export function returnPath(state: unknown, fallback: string, origin?: string): string {
  return cameFrom(state, origin) ?? fallback;
}
