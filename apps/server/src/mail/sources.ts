/**
 * What the host loop's mails are rendered from (issue 15): the visitor, their
 * request and company (logo, address, zone), and the staff member a host mail goes to.
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  companies,
  files,
  invitationDays,
  invitations,
  sites,
  users,
  visitRequests,
  visitorChecks,
  visitors,
} from '../db/schema';
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
  days: { day: string; startsAt: Date; endsAt: Date; cancelled: boolean }[];
}

export async function findInvitationSource(
  db: Db,
  ids: { visitorId: string; requestId: string; invitationId: string },
  publicUrl: string,
): Promise<InvitationSource | null> {
  const [row] = await db
    .select({
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
        id: sites.id,
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
      hostFirstname: users.firstname,
      hostLastname: users.name,
    })
    .from(visitRequests)
    .innerJoin(visitors, eq(visitors.id, visitRequests.visitorId))
    .innerJoin(invitations, eq(invitations.id, visitRequests.invitationId))
    .innerJoin(companies, eq(companies.id, invitations.companyId))
    .innerJoin(sites, eq(sites.id, invitations.siteId))
    .leftJoin(files, eq(files.id, companies.logoFileId))
    .leftJoin(users, eq(users.id, invitations.hostUserId))
    .where(
      and(
        eq(visitRequests.id, ids.requestId),
        eq(visitRequests.visitorId, ids.visitorId),
        eq(visitRequests.invitationId, ids.invitationId),
      ),
    )
    .limit(1);
  if (!row) return null;
  const days = await db
    .select({
      day: invitationDays.day,
      startsAt: invitationDays.startsAt,
      endsAt: invitationDays.endsAt,
      cancelledAt: invitationDays.cancelledAt,
    })
    .from(invitationDays)
    .where(eq(invitationDays.invitationId, ids.invitationId))
    .orderBy(asc(invitationDays.day));
  const { visitor, request, invitation, company, site } = row;
  const hostName =
    [row.hostFirstname, row.hostLastname]
      .filter((part) => part && part.trim())
      .join(' ')
      .trim() ||
    request.host?.trim() ||
    null;
  return {
    companyId: company.id,
    companyEmail: company.email,
    company: {
      name: company.name,
      slug: company.slug,
      logoUrl: logoUrl(publicUrl, row.logo),
      address: companyAddress(company),
      country: company.country,
    },
    site: {
      id: site.id,
      name: site.name,
      timeZone: site.timezone,
      address: companyAddress(site),
      frontDeskEmail: site.frontDeskEmail?.trim() || null,
      named: Number(row.activeSites) > 1 || site.timezone !== row.mainZone,
    },
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
      hostName,
      reason: invitation.reason,
      language: asLanguage(invitation.language),
      firstDate: invitation.firstDate,
      time: invitation.time,
      endTime: invitation.endTime,
      rrule: invitation.rrule,
      sequence: invitation.sequence,
      cancelledAt: invitation.cancelledAt,
    },
    days: days.map((d) => ({
      day: d.day,
      startsAt: d.startsAt,
      endsAt: d.endsAt,
      cancelled: d.cancelledAt !== null,
    })),
  };
}
