/**
 * A person's export is named after them and the day (issue 27): ten exports in a Downloads
 * folder were ten 'donnees-personnelles.zip'. `sesame-donnees-awa-kone-2026-11-27.zip`, the
 * day in the person's company's time zone.
 *
 * The name comes from what a visitor typed, so the header is built to be safe whatever it
 * holds: `filename` is ASCII only (accents folded, every other character a dash: no quote,
 * slash, backslash nor control character can reach it), and `filename*` (RFC 5987, which
 * browsers prefer) carries the name as written, its letters and digits only, percent-encoded.
 */
import { eq } from 'drizzle-orm';
import { catalogue, slugify, type Language } from '@sesame/shared';
import type { Db } from '../db/client';
import { mainSiteZone } from '../sites/service';
import { companies } from '../db/schema';
import { firstRow } from '../db/rows';
import { dayOf } from '../time-zones';
import type { Person } from './rights';

/** A name's part of a file name: enough to recognise a person, never a path's length. */
const NAME_MAX = 60;

/** 'Awa Koné' → 'awa-koné': letters (any script, accents kept) and digits, runs of anything else a dash. */
function unicodeNamePart(name: string): string {
  const letters = name
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');
  // Cut on code points, not UTF-16 units, so no letter is split in half.
  return Array.from(letters).slice(0, NAME_MAX).join('').replace(/-$/, '');
}

/** RFC 5987's value-chars: what encodeURIComponent leaves, less ' ( ) *. */
function rfc5987(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The two spellings of the file's name: ASCII for `filename`, as written for `filename*`. */
export function exportFileNames(
  prefix: string,
  personName: string,
  day: string,
): { ascii: string; unicode: string } {
  const join = (name: string) => [prefix, name, day].filter(Boolean).join('-') + '.zip';
  return {
    ascii: join(slugify(personName).slice(0, NAME_MAX).replace(/-$/, '')),
    unicode: join(unicodeNamePart(personName)),
  };
}

/** The export's Content-Disposition: the person's name and today, in the company's zone. */
export async function exportDisposition(
  db: Db,
  person: Person,
  lang: Language,
  now = new Date(),
): Promise<string> {
  const company = firstRow(
    await db
      .select({ timezone: mainSiteZone(companies.id) })
      .from(companies)
      .where(eq(companies.id, person.companyId)),
    "the person's company",
  );
  const { ascii, unicode } = exportFileNames(
    catalogue(lang).privacy.exportFileName,
    person.name,
    dayOf(now, company.timezone),
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${rfc5987(unicode)}`;
}
