/**
 * What the host loop's mails are rendered from (issue 15): the visitor, their
 * request and company (logo, address, zone), and the staff member a host mail goes to.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  companies,
  files,
  sites,
  users,
  visitRequests,
  visitorChecks,
  visitors,
} from '../db/schema';
import { mainSiteZone } from '../sites/service';
import { asLanguage, type Language } from './layout';
import type { LoopMailSource } from './loop-templates';
import type { MailSite } from './zone';

export interface LoopSource extends LoopMailSource {
  companyId: string;
  /** The zone of the visitor's site (issue 28): the meeting's day and time are read in it. */
  timeZone: string;
  site: MailSite;
  visitorLanguage: Language;
  visitorEventId: string | null;
  requestState: { confirmed: boolean | null; hostUserId: string | null };
  /** The company's own address: the invitation's organizer when the site names no front desk. */
  companyEmail: string | null;
}

export function companyAddress(c: {
  address: string | null;
  city: string | null;
  zipcode: string | null;
}): string | null {
  const line = [c.address, [c.zipcode, c.city].filter(Boolean).join(' ')]
    .filter((part) => part && part.trim())
    .join(', ');
  return line || null;
}

export const logoUrl = (publicUrl: string, storedName: string | null) =>
  storedName ? `${publicUrl}/api/public/logo/${storedName}` : null;

/** The company's active sites, as a column: a company of several names each mail's site and zone. */
const activeSites = sql<number>`(select count(*)::int from sites a where a.company_id = ${companies.id} and a.archived_at is null)`;

/** The visitor with their latest request, company and site; null when the visitor is gone. */
export async function findLoopSource(
  db: Db,
  visitorId: string,
  publicUrl: string,
): Promise<LoopSource | null> {
  const [row] = await db
    .select({
      visitor: visitors,
      request: visitRequests,
      company: {
        id: companies.id,
        name: companies.name,
        slug: companies.slug,
        email: companies.email,
        address: companies.address,
        city: companies.city,
        zipcode: companies.zipcode,
        country: companies.country,
      },
      site: {
        name: sites.name,
        timezone: sites.timezone,
        address: sites.address,
        city: sites.city,
        zipcode: sites.zipcode,
        frontDeskEmail: sites.frontDeskEmail,
      },
      activeSites,
      mainZone: mainSiteZone(companies.id),
      logo: files.storedName,
    })
    .from(visitors)
    .innerJoin(companies, eq(companies.id, visitors.companyId))
    .innerJoin(sites, eq(sites.id, visitors.siteId))
    .leftJoin(files, eq(files.id, companies.logoFileId))
    .leftJoin(visitRequests, eq(visitRequests.visitorId, visitors.id))
    .where(eq(visitors.id, visitorId))
    .orderBy(desc(visitRequests.createdAt))
    .limit(1);
  if (!row) return null;
  const { visitor, request, company, site } = row;
  return {
    companyId: company.id,
    companyEmail: company.email,
    timeZone: site.timezone,
    site: {
      name: site.name,
      timeZone: site.timezone,
      address: companyAddress(site),
      frontDeskEmail: site.frontDeskEmail?.trim() || null,
      named: Number(row.activeSites) > 1 || site.timezone !== row.mainZone,
    },
    visitorLanguage: asLanguage(visitor.language),
    visitorEventId: visitor.eventId,
    requestState: {
      confirmed: request?.confirmed ?? null,
      hostUserId: request?.hostUserId ?? null,
    },
    company: {
      name: company.name,
      slug: company.slug,
      logoUrl: logoUrl(publicUrl, row.logo),
      address: companyAddress(company),
      country: company.country,
    },
    visitor: {
      firstname: visitor.firstname,
      lastname: visitor.lastname,
      organisationName: visitor.organisationName,
      requestDate: visitor.requestDate,
      requestTime: visitor.requestTime,
      uidn: visitor.uidn,
    },
    request: {
      id: request?.id ?? '',
      host: request?.host ?? null,
      reason: request?.reason ?? null,
      declineReason: request?.declineReason ?? null,
    },
  };
}

/** A staff member a host mail goes to: still active, in the mail's company. */
export async function findStaffReader(db: Db, userId: string, companyId: string) {
  const [user] = await db
    .select({
      id: users.id,
      firstname: users.firstname,
      language: users.language,
      status: users.status,
      companyId: users.companyId,
      arrivalMail: users.arrivalMail,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user || !user.status || user.companyId !== companyId) return null;
  return { ...user, lang: asLanguage(user.language) };
}

export async function findCheckIn(db: Db, checkId: string) {
  const [check] = await db
    .select({ checkInAt: visitorChecks.checkInAt })
    .from(visitorChecks)
    .where(eq(visitorChecks.id, checkId))
    .limit(1);
  return check ?? null;
}
