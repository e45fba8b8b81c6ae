/**
 * What the host loop's mails are rendered from (issue 15): the visitor, their
 * request and company (logo, address, zone), and the staff member a host mail goes to.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  companies,
  files,
  invitations,
  sites,
  users,
  visitRequests,
  visitorChecks,
  visitors,
} from '../db/schema';
import { readInvitationRequest, visitDays, type VisitDay } from '../invitations/request-read';
import { mainSiteZone } from '../sites/service';
import { isPerson } from '../users/person';
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

/** What a mail reads of the visit's company: its signature, its own address, its slug for links. */
const companyColumns = {
  id: companies.id,
  name: companies.name,
  slug: companies.slug,
  email: companies.email,
  address: companies.address,
  city: companies.city,
  zipcode: companies.zipcode,
  country: companies.country,
};

/** What a mail reads of the visit's site: its name, zone, address and front desk. */
const siteColumns = {
  name: sites.name,
  timezone: sites.timezone,
  address: sites.address,
  city: sites.city,
  zipcode: sites.zipcode,
  frontDeskEmail: sites.frontDeskEmail,
};

/**
 * What tells whether a mail names its site (issue 28, `mailSite`): how many active sites
 * the company has, and its main site's zone.
 */
const siteNaming = {
  activeSites: sql<number>`(select count(*)::int from sites a where a.company_id = ${companies.id} and a.archived_at is null)`,
  mainZone: mainSiteZone(companies.id),
};

type CompanyRow = Pick<typeof companies.$inferSelect, keyof typeof companyColumns>;
type SiteRow = Pick<typeof sites.$inferSelect, keyof typeof siteColumns>;

/** The company as a mail's frame shows it: name, logo, address and country. */
function mailCompany(
  company: CompanyRow,
  logo: string | null,
  publicUrl: string,
): LoopSource['company'] {
  return {
    name: company.name,
    slug: company.slug,
    logoUrl: logoUrl(publicUrl, logo),
    address: companyAddress(company),
    country: company.country,
  };
}

/** The site as a mail says it: named with its zone when the company has several (issue 28). */
function mailSite(
  site: SiteRow,
  naming: { activeSites: number; mainZone: string | null },
): MailSite {
  return {
    name: site.name,
    timeZone: site.timezone,
    address: companyAddress(site),
    frontDeskEmail: site.frontDeskEmail?.trim() || null,
    named: Number(naming.activeSites) > 1 || site.timezone !== naming.mainZone,
  };
}

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
      company: companyColumns,
      site: siteColumns,
      ...siteNaming,
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
    site: mailSite(site, row),
    visitorLanguage: asLanguage(visitor.language),
    visitorEventId: visitor.eventId,
    requestState: {
      confirmed: request?.confirmed ?? null,
      hostUserId: request?.hostUserId ?? null,
    },
    company: mailCompany(company, row.logo, publicUrl),
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

/** A staff member a host mail goes to: still active, in the mail's company, a person (issue 34). */
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
    .where(and(eq(users.id, userId), isPerson))
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

/**
 * What an invitation's mails are rendered from (issue 30), read when the mail is sent: the
 * invited visitor, their request, the invitation with its days (cancelled ones marked), its
 * site (address, zone), the company and the host. Null when one of them is gone, or the
 * request is no longer this invitation's.
 */
export interface InvitationSource {
  companyId: string;
  company: LoopSource['company'];
  /** The organizer's address when the site names no front desk. */
  companyEmail: string | null;
  site: MailSite & { id: string };
  visitor: {
    id: string;
    firstname: string;
    lastname: string;
    email: string;
    organisationName: string;
    uidn: string;
    language: Language;
    /** The end of the invitation's last day: the visitor's link runs until then. */
    dayEndsAt: Date | null;
  };
  request: { id: string; cancelledAt: Date | null; hereAt: Date | null; host: string | null };
  invitation: {
    id: string;
    hostUserId: string | null;
    /** The host's name as their account says it, else as the request wrote it. */
    hostName: string | null;
    reason: string | null;
    language: Language;
    firstDate: string;
    time: string;
    endTime: string;
    rrule: string | null;
    sequence: number;
    cancelledAt: Date | null;
  };
  /** Every day of the invitation (YYYY-MM-DD), in order. */
  days: VisitDay[];
}

export async function findInvitationSource(
  db: Db,
  ids: { visitorId: string; requestId: string; invitationId: string },
  publicUrl: string,
): Promise<InvitationSource | null> {
  const row = await readInvitationRequest(
    db,
    {
      visitor: {
        id: visitors.id,
        firstname: visitors.firstname,
        lastname: visitors.lastname,
        email: visitors.email,
        organisationName: visitors.organisationName,
        uidn: visitors.uidn,
        language: visitors.language,
        dayEndsAt: visitors.dayEndsAt,
        companyId: visitors.companyId,
      },
      request: {
        id: visitRequests.id,
        visitorId: visitRequests.visitorId,
        cancelledAt: visitRequests.cancelledAt,
        hereAt: visitRequests.hereAt,
        host: visitRequests.host,
      },
      invitation: invitations,
      company: companyColumns,
      site: { id: sites.id, ...siteColumns },
      ...siteNaming,
      logo: files.storedName,
    },
    [
      eq(visitRequests.id, ids.requestId),
      eq(visitRequests.visitorId, ids.visitorId),
      eq(visitRequests.invitationId, ids.invitationId),
    ],
  );
  if (!row) return null;
  const days = await visitDays(db, ids.invitationId);
  const { visitor, request, invitation, company, site } = row;
  return {
    companyId: company.id,
    companyEmail: company.email,
    company: mailCompany(company, row.logo, publicUrl),
    site: { id: site.id, ...mailSite(site, row) },
    visitor: {
      id: visitor.id,
      firstname: visitor.firstname,
      lastname: visitor.lastname,
      email: visitor.email,
      organisationName: visitor.organisationName,
      uidn: visitor.uidn,
      language: asLanguage(visitor.language),
      dayEndsAt: visitor.dayEndsAt,
    },
    request: {
      id: request.id,
      cancelledAt: request.cancelledAt,
      hereAt: request.hereAt,
      host: request.host,
    },
    invitation: {
      id: invitation.id,
      hostUserId: invitation.hostUserId,
      hostName: row.hostName,
      reason: invitation.reason,
      language: asLanguage(invitation.language),
      firstDate: invitation.firstDate,
      time: invitation.time,
      endTime: invitation.endTime,
      rrule: invitation.rrule,
      sequence: invitation.sequence,
      cancelledAt: invitation.cancelledAt,
    },
    days,
  };
}
