/**
 * What the invited visitor's page (arrival.ts) and an invitation's mails (mail/sources.ts)
 * both read: an invited visitor's request with its visitor, invitation, site, company (and
 * logo) and host, the host's name, and the invitation's days. Kept here, with no import of
 * the mail or the chat outboxes, so the mails can read it without a cycle through arrival.ts.
 */
import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { SelectResult } from 'drizzle-orm/query-builders/select.types';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import {
  companies,
  files,
  invitationDays,
  invitations,
  sites,
  users,
  visitRequests,
  visitorTypes,
  visitors,
} from '../db/schema';

/** How `readInvitationRequest` joins each table: the inner ones always hold a row, the left ones may not. */
type JoinedTables = Record<
  (
    typeof visitRequests | typeof visitors | typeof invitations | typeof sites | typeof companies
  )['_']['name'],
  'not-null'
> &
  Record<(typeof files | typeof users | typeof visitorTypes)['_']['name'], 'nullable'>;

/** What `readInvitationRequest` answers: the caller's `fields`, and the host's name. */
export type InvitationRequestRow<Fields extends SelectedFields> = SelectResult<
  Fields,
  'partial',
  JoinedTables
> & {
  /** The host's name: their account's, else the name written on the request; null without either. */
  hostName: string | null;
};

/**
 * One invited visitor's request, as `fields` of it and its host's name: joined to its
 * visitor, its invitation, the invitation's site and company, the company's logo, the
 * invitation's host account and the visitor's type (the last three left: a company may
 * have no logo, a host no account, a visitor no type). The caller's `conditions` (all of
 * them) pick the request; null when none matches.
 */
export async function readInvitationRequest<Fields extends SelectedFields>(
  db: Db,
  fields: Fields,
  conditions: [SQL, ...SQL[]],
): Promise<InvitationRequestRow<Fields> | null> {
  const selection: SelectedFields = fields;
  const [row] = await db
    .select({
      ...selection,
      hostFirstname: users.firstname,
      hostLastname: users.name,
      requestHost: visitRequests.host,
    })
    .from(visitRequests)
    .innerJoin(visitors, eq(visitors.id, visitRequests.visitorId))
    .innerJoin(invitations, eq(invitations.id, visitRequests.invitationId))
    .innerJoin(sites, eq(sites.id, invitations.siteId))
    .innerJoin(companies, eq(companies.id, invitations.companyId))
    .leftJoin(files, eq(files.id, companies.logoFileId))
    .leftJoin(users, eq(users.id, invitations.hostUserId))
    .leftJoin(visitorTypes, eq(visitorTypes.id, visitors.visitorTypeId))
    .where(and(...conditions))
    .limit(1);
  if (!row) return null;
  const { hostFirstname, hostLastname, requestHost, ...picked } = row;
  const hostName =
    [hostFirstname, hostLastname]
      .filter((part) => part && part.trim())
      .join(' ')
      .trim() ||
    requestHost?.trim() ||
    null;
  // Drizzle cannot type a join chain over a generic `Fields` (its join types wait for the
  // fields to be known), so the row is typed here by the same rule it applies: `fields`,
  // nullable where their table is left joined (JoinedTables, beside the joins above).
  return { ...(picked as SelectResult<Fields, 'partial', JoinedTables>), hostName };
}

export interface VisitDay {
  /** YYYY-MM-DD in the site's zone. */
  day: string;
  startsAt: Date;
  endsAt: Date;
  cancelled: boolean;
}

/** Every day of the invitation, cancelled or not, in order. */
export async function visitDays(db: Db, invitationId: string): Promise<VisitDay[]> {
  const rows = await db
    .select({
      day: invitationDays.day,
      startsAt: invitationDays.startsAt,
      endsAt: invitationDays.endsAt,
      cancelledAt: invitationDays.cancelledAt,
    })
    .from(invitationDays)
    .where(eq(invitationDays.invitationId, invitationId))
    .orderBy(asc(invitationDays.day));
  return rows.map((row) => ({
    day: row.day,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    cancelled: row.cancelledAt !== null,
  }));
}
