/**
 * The visitor card: a visitor with their request, event and company, as the
 * waiting screen, the meeting QR card and the e-mail show it.
 */
import { desc, eq } from 'drizzle-orm';
import { formatUidn, normalizeUidn, type VisitorCard } from '@sesame/shared';
import type { Db } from '../db/client';
import { companies, events, files, sites, visitRequests, visitors } from '../db/schema';
import type { FileUrls } from '../files/urls';
import { qrDataUrl, qrTargets } from '../qr/qr';

export interface CardSource {
  visitor: typeof visitors.$inferSelect;
  request: typeof visitRequests.$inferSelect | null;
  event: typeof events.$inferSelect | null;
  company: {
    id: string;
    name: string;
    slug: string;
    logoStoredName: string | null;
  } & Place;
  /** The site of the visit (issue 28): where the visitor goes. */
  site: { id: string; name: string; timezone: string } & Omit<Place, 'state'>;
}

/** Where a meeting or an event takes place. */
interface Place {
  address: string | null;
  city: string | null;
  state: string | null;
  zipcode: string | null;
  country: string | null;
}

export type CardKey = { visitorId: string } | { requestId: string } | { uidn: string };

/** One query: the visitor, their latest request, their event and company. */
export async function findCardSource(db: Db, key: CardKey): Promise<CardSource | null> {
  const where =
    'visitorId' in key
      ? eq(visitors.id, key.visitorId)
      : 'requestId' in key
        ? eq(visitRequests.id, key.requestId)
        : eq(visitors.uidn, formatUidn(normalizeUidn(key.uidn)));
  const [row] = await db
    .select({
      visitor: visitors,
      request: visitRequests,
      event: events,
      company: {
        id: companies.id,
        name: companies.name,
        slug: companies.slug,
        logoStoredName: files.storedName,
        address: companies.address,
        city: companies.city,
        state: companies.state,
        zipcode: companies.zipcode,
        country: companies.country,
      },
      site: {
        id: sites.id,
        name: sites.name,
        timezone: sites.timezone,
        address: sites.address,
        city: sites.city,
        zipcode: sites.zipcode,
        country: sites.country,
      },
    })
    .from(visitors)
    .innerJoin(companies, eq(companies.id, visitors.companyId))
    .innerJoin(sites, eq(sites.id, visitors.siteId))
    .leftJoin(files, eq(files.id, companies.logoFileId))
    .leftJoin(visitRequests, eq(visitRequests.visitorId, visitors.id))
    .leftJoin(events, eq(events.id, visitors.eventId))
    .where(where)
    .orderBy(desc(visitRequests.createdAt))
    .limit(1);
  return row ?? null;
}

/** A visitor may be shown their code only once their request is confirmed. */
export function isConfirmed(source: CardSource): boolean {
  return source.request?.confirmed === true;
}

export function meetingCardUrl(publicUrl: string, companySlug: string, uidn: string): string {
  return `${publicUrl}/company/${companySlug}/meeting-request-qr/${formatUidn(uidn)}`;
}

export async function presentVisitorCard(
  source: CardSource,
  ctx: { publicUrl: string; fileUrls: FileUrls },
): Promise<VisitorCard> {
  const { visitor, request, event, company, site } = source;
  // The card says where to go: the event's address, else the site's (issue 28), else the
  // company's, as the code mail does. The visitor's own home address stays off it (the card
  // is shown on screens and sent by mail).
  const place: Place = event
    ? { ...event, address: event.addressName }
    : site.address
      ? { ...site, state: null }
      : company;
  return {
    uidn: formatUidn(visitor.uidn),
    qr_code: await qrDataUrl(qrTargets.visitor(ctx.publicUrl, visitor.uidn)),
    firstname: visitor.firstname,
    lastname: visitor.lastname,
    organisation_name: visitor.organisationName,
    address: place.address,
    city: place.city,
    state: place.state,
    country: place.country,
    zipcode: place.zipcode,
    date: event?.dateEvent ?? visitor.requestDate,
    time: event?.timeEvent ?? visitor.requestTime,
    title: event?.name ?? null,
    location: event?.location ?? company.name,
    host: request?.host ?? null,
    reason: request?.reason ?? null,
    event: event ? { id: event.id, name: event.name, slug: event.slug } : null,
    site: { id: site.id, name: site.name, timezone: site.timezone },
    company: {
      name: company.name,
      slug: company.slug,
      logo_url: ctx.fileUrls.logo(company.logoStoredName),
    },
  };
}
