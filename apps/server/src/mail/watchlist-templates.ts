/**
 * The watchlist's alert (issue 31, kind 'watchlist_alert', payload `{ holdId }`): a site's
 * security contact hears that a visit is held for review — where, by what way in, on what
 * it matched (an exact e-mail, phone or ID number, or the name with its similarity), who
 * the visitor is — and where to decide. Never the entry's reason: a mail travels further
 * than the reviewers' screen. The company has no language of its own: a contact who is a
 * staff member of the company reads it in their mail language, anyone else in French.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { companies, files, sites, users, visitors, watchlistHolds } from '../db/schema';
import { isPerson } from '../users/person';
import {
  asLanguage,
  buttonHtml,
  COLON,
  detailsHtml,
  detailsText,
  frame,
  paragraphs,
  type Language,
  type Row,
} from './layout';
import { companyAddress, logoUrl } from './sources';
import type { RenderedMail } from './templates';

export interface WatchlistAlertPayload {
  holdId: string;
}

const TEXT = {
  fr: {
    subject: (site: string) => `Visite à contrôler – ${site}`,
    intro: (site: string) =>
      `Une visite prévue sur le site ${site} correspond à une personne de la liste de surveillance. Elle est retenue : personne ne l'a laissée entrer, et le visiteur n'a pas été prévenu.`,
    ask: 'Un responsable doit décider : autoriser cette visite une fois, ou la refuser, avec un motif.',
    site: 'Site',
    visitor: 'Visiteur',
    organisation: 'Organisation',
    source: 'Détectée',
    matched: 'Correspondance',
    sources: {
      request: 'à la demande de visite',
      invitation: "à l'invitation",
      kiosk: 'à la borne',
      scan: 'au scan du code',
    },
    matches: {
      email: 'adresse e-mail identique',
      phone: 'téléphone identique',
      id_number: 'numéro de pièce identique',
      name: (percent: number) => `nom ressemblant (${percent} %)`,
    },
    button: 'Voir les contrôles',
    percent: (value: number) => Math.round(value * 100),
  },
  en: {
    subject: (site: string) => `Visit to check – ${site}`,
    intro: (site: string) =>
      `A visit expected at ${site} matches a person on the watchlist. It is held: nobody let it in, and the visitor has not been told.`,
    ask: 'A manager must decide: allow this visit once, or refuse it, with a reason.',
    site: 'Site',
    visitor: 'Visitor',
    organisation: 'Organisation',
    source: 'Caught',
    matched: 'Match',
    sources: {
      request: 'on the visit request',
      invitation: 'on the invitation',
      kiosk: 'at the kiosk',
      scan: 'when the code was scanned',
    },
    matches: {
      email: 'same e-mail address',
      phone: 'same phone',
      id_number: 'same ID number',
      name: (percent: number) => `similar name (${percent}%)`,
    },
    button: 'See the checks',
    percent: (value: number) => Math.round(value * 100),
  },
} as const;

type SourceKey = keyof (typeof TEXT)['fr']['sources'];
type MatchKey = keyof (typeof TEXT)['fr']['matches'];

/** The language a contact reads: theirs when they are a staff member of the company, else French. */
async function contactLanguage(db: Db, companyId: string, address: string): Promise<Language> {
  const [user] = await db
    .select({ language: users.language })
    .from(users)
    .where(
      and(
        eq(users.companyId, companyId),
        sql`lower(${users.email}) = ${address.toLowerCase()}`,
        isPerson,
      ),
    )
    .limit(1);
  return asLanguage(user?.language);
}

/** The alert of one hold, or null when the hold is gone (its visitor erased). */
export async function renderWatchlistAlertMail(
  db: Db,
  payload: WatchlistAlertPayload,
  companyId: string,
  toAddress: string,
  publicUrl: string,
): Promise<RenderedMail | null> {
  if (!payload.holdId) return null;
  const [found] = await db
    .select({
      hold: watchlistHolds,
      siteName: sites.name,
      company: companies,
      logo: files.storedName,
      firstname: visitors.firstname,
      lastname: visitors.lastname,
      organisation: visitors.organisationName,
    })
    .from(watchlistHolds)
    .innerJoin(sites, eq(sites.id, watchlistHolds.siteId))
    .innerJoin(companies, eq(companies.id, watchlistHolds.companyId))
    .leftJoin(files, eq(files.id, companies.logoFileId))
    .leftJoin(visitors, eq(visitors.id, watchlistHolds.visitorId))
    .where(eq(watchlistHolds.id, payload.holdId))
    .limit(1);
  if (!found || found.hold.companyId !== companyId || !found.hold.visitorId) return null;
  const { hold, company } = found;
  const lang = await contactLanguage(db, companyId, toAddress);
  const t = TEXT[lang];
  // text columns: the hold's matched_on and source are written only from their enums.
  const matchedOn = hold.matchedOn as MatchKey;
  const matched =
    matchedOn === 'name'
      ? t.matches.name(t.percent(Number(hold.similarity ?? 0)))
      : (t.matches[matchedOn] ?? matchedOn);
  const rows: Row[] = [
    [t.site, found.siteName],
    [t.visitor, `${found.firstname ?? ''} ${found.lastname ?? ''}`.trim()],
    [t.organisation, found.organisation],
    // text column: the hold's source is written only from HOLD_SOURCES.
    [t.source, t.sources[hold.source as SourceKey] ?? hold.source],
    [t.matched, matched],
  ];
  const link = `${publicUrl}/${company.slug}/watchlist-reviews`;
  return frame({
    lang,
    subject: t.subject(found.siteName),
    company: {
      name: company.name,
      logoUrl: logoUrl(publicUrl, found.logo),
      address: companyAddress(company),
      country: company.country,
    },
    html:
      paragraphs([t.intro(found.siteName)]) +
      detailsHtml(rows) +
      paragraphs([t.ask]) +
      `<p style="margin:0 0 12px">${buttonHtml(t.button, link)}</p>`,
    text: [
      t.intro(found.siteName),
      '',
      ...detailsText(rows, lang),
      '',
      t.ask,
      '',
      `${t.button}${COLON[lang]}${link}`,
    ],
  });
}
