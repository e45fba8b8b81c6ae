/**
 * Issue 35: the dashboard tests' data, written row by row as the product writes it (a
 * visitor, their request, their checks), at local times given by hand, so that each test
 * says in its own words what every row must count for.
 */
import type { Db } from '../../src/db/client';
import { newUidn } from '../../src/db/ids';
import { visitRequests, visitorChecks, visitorTypes, visitors } from '../../src/db/schema';

// ---------------------------------------------------------------------------------------
// Local times, written by hand (no zone library): Paris is UTC+1 until Sunday 2030-03-31
// 02:00 local (01:00 UTC), then UTC+2; Tokyo is always UTC+9. Only for March–September 2030.

export const minutes = (n: number) => n * 60_000;
export function paris(local: string): Date {
  if (!/^2030-0[3-9]-\d\d \d\d:\d\d$/.test(local)) throw new Error(`paris(): ${local}`);
  const offsetHours = local < '2030-03-31 02:00' ? 1 : 2;
  return new Date(Date.parse(`${local.replace(' ', 'T')}:00Z`) - minutes(offsetHours * 60));
}
export function tokyo(local: string): Date {
  return new Date(Date.parse(`${local.replace(' ', 'T')}:00Z`) - minutes(9 * 60));
}
export const utc = (iso: string) => new Date(`${iso}Z`);
export const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
export const ddmmyyyy = (day: string) => day.split('-').reverse().join('/');

export type Zone = (local: string) => Date;

/** Where the rows go, and who answers a request when its host has no account (the desk). */
export const dashboardRows: { db: Db | null; deskUserId: string | null } = {
  db: null,
  deskUserId: null,
};
const db = (): Db => {
  if (!dashboardRows.db) throw new Error('dashboardRows.db is not set');
  return dashboardRows.db;
};

// ---------------------------------------------------------------------------------------
// Rows written as the product writes them (visitor, request, check), one helper each.

export interface Place {
  companyId: string;
  siteId: string;
  zone: Zone;
}

export interface VisitorSpec {
  /** The meeting's day (or the event's, the invitation's first), local YYYY-MM-DD. */
  day: string;
  typeId?: string | null;
  /** The free text type of a visitor without a site type. */
  typeText?: string | null;
  eventId?: string;
  /** The day's instants, when the zone helper cannot say them (October). */
  bounds?: { start: Date; end: Date };
}

export async function visitor(place: Place, spec: VisitorSpec) {
  const bounds = spec.bounds ?? {
    start: place.zone(`${spec.day} 00:00`),
    end: place.zone(`${nextDay(spec.day)} 00:00`),
  };
  const [row] = await db()
    .insert(visitors)
    .values({
      companyId: place.companyId,
      siteId: place.siteId,
      eventId: spec.eventId ?? null,
      uidn: newUidn(),
      firstname: 'Awa',
      lastname: 'Koné',
      email: `v-${Math.random().toString(16).slice(2)}@example.com`,
      contact: '0701020304',
      idNumber: 'CI-1',
      organisationName: 'Acme',
      visitorType: spec.typeText ?? null,
      visitorTypeId: spec.typeId ?? null,
      requestDate: ddmmyyyy(spec.day),
      requestTime: '10:00',
      dayStartsAt: bounds.start,
      dayEndsAt: bounds.end,
    })
    .returning();
  return row!;
}

export interface RequestSpec {
  hostUserId?: string | null;
  /** The host's name typed on the form (kept even when a staff member is named). */
  host?: string | null;
  createdAt: Date;
  /** Minutes from the request to its answer; undefined: not answered. */
  answeredAfter?: number;
  /** true: confirmed; false: declined; null: waiting. */
  confirmed?: boolean | null;
  /** Who answered: the host named, else the front desk; null: nobody (confirmed at once). */
  decidedBy?: string | null;
  invitationId?: string;
  kioskId?: string;
  reason?: string;
}

export async function request(place: Place, visitorId: string, spec: RequestSpec) {
  const confirmed = spec.confirmed === undefined ? true : spec.confirmed;
  await db()
    .insert(visitRequests)
    .values({
      companyId: place.companyId,
      visitorId,
      hostUserId: spec.hostUserId ?? null,
      host: spec.host ?? null,
      reason: spec.reason ?? 'Réunion',
      status: confirmed === true ? 1 : confirmed === false ? 2 : 0,
      confirmed,
      decidedBy:
        spec.answeredAfter === undefined
          ? null
          : spec.decidedBy !== undefined
            ? spec.decidedBy
            : (spec.hostUserId ?? dashboardRows.deskUserId),
      kioskId: spec.kioskId ?? null,
      decidedAt:
        spec.answeredAfter === undefined
          ? null
          : new Date(spec.createdAt.getTime() + minutes(spec.answeredAfter)),
      invitationId: spec.invitationId ?? null,
      createdAt: spec.createdAt,
    });
}

export interface CheckSpec {
  out?: Date | null;
  outMethod?: 'scan' | 'automatic';
  /** The arrival was undone (issue 14): it counts for nothing. */
  undoneAt?: Date;
  /** A departure undone, then the person left again at `out`. */
  undoneOut?: Date;
}

export async function check(place: Place, visitorId: string, checkIn: Date, spec: CheckSpec = {}) {
  await db()
    .insert(visitorChecks)
    .values({
      companyId: place.companyId,
      siteId: place.siteId,
      visitorId,
      checkInAt: checkIn,
      checkInMethod: 'scan',
      checkOutAt: spec.out ?? null,
      checkOutMethod: spec.out ? (spec.outMethod ?? 'scan') : null,
      undoneAt: spec.undoneAt ?? null,
      undoReason: spec.undoneAt ? 'Erreur de scan' : null,
      undoneOutAt: spec.undoneOut ?? null,
      undoneOutMethod: spec.undoneOut ? 'scan' : null,
      outUndoneAt: spec.undoneOut ? new Date(spec.undoneOut.getTime() + minutes(1)) : null,
      outUndoReason: spec.undoneOut ? 'Sorti par erreur' : null,
    });
}

/** A meeting: its visitor, their request, and each of their visits (arrival, departure). */
export async function meeting(
  place: Place,
  spec: VisitorSpec & RequestSpec & { checks?: [string, string | null, CheckSpec?][] },
) {
  const v = await visitor(place, spec);
  await request(place, v.id, spec);
  for (const [arrival, departure, extra] of spec.checks ?? []) {
    await check(place, v.id, place.zone(arrival), {
      ...(departure ? { out: place.zone(departure) } : {}),
      ...extra,
    });
  }
  return v;
}

export async function visitorType(place: Place, nameFr: string, nameEn: string) {
  const [row] = await db()
    .insert(visitorTypes)
    .values({
      companyId: place.companyId,
      siteId: place.siteId,
      nameFr,
      nameEn,
      color: '#112233',
    })
    .returning();
  return row!.id;
}
