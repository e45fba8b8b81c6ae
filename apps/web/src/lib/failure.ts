/**
 * A failed call as a staff screen reports it (spec §8): the screen's sentence for
 * the status, and the server's own words when they add to it.
 */
import { allCatalogues } from '@sesame/shared';
import { ApiError } from './api-client';
import type { Translate } from './schema-errors';

/** The server's generic sentences, in every language it answers in. */
const GENERIC = new Set<string>(
  allCatalogues().flatMap(([, words]) =>
    Object.values(words.api).filter((text): text is string => typeof text === 'string'),
  ),
);

/** The server's message when it says more than the status's generic sentence. */
export function specificMessage(error: unknown): string | undefined {
  const said = error instanceof ApiError ? error.serverMessage : undefined;
  return said && !GENERIC.has(said) ? said : undefined;
}

/** `${prefix}.${status}` for the statuses the spec words, else `${prefix}.other` with the code. */
export function statusSentence(
  t: Translate,
  prefix: string,
  statuses: readonly number[],
  status: number,
): string {
  return statuses.includes(status) ? t(`${prefix}.${status}`) : t(`${prefix}.other`, { status });
}
