/**
 * Which retention period holds (issue 26). A company's period of each class is the one it
 * set, unless a shortening of it waits for its date: a lengthened period applies at once, a
 * shortened one only `RETENTION_SHORTENING_DELAY_DAYS` after it was asked for, so that a
 * change that would erase history can be seen and undone before it does. The audit log never
 * goes under the operator's floor (`AUDIT_MIN_DAYS`), whatever a company stored.
 *
 * The screens, the privacy notice and the route read periods through `periodsOf`; the purge
 * through `periodInForce`, the same rule in SQL.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  RETENTION_CLASSES,
  RETENTION_SHORTENING_DELAY_DAYS,
  type PendingRetention,
  type RetentionClass,
} from '@sesame/shared';
import type { companies } from '../db/schema';

type CompanyColumns = typeof companies.$inferSelect;

const DAY_MS = 86_400_000;

/** Each class's columns, in the row and in SQL. */
const COLUMNS = {
  documents_days: {
    days: 'retentionDocumentsDays',
    pendingDays: 'retentionDocumentsPendingDays',
    pendingAt: 'retentionDocumentsPendingAt',
    sql: 'documents',
  },
  identity_days: {
    days: 'retentionIdentityDays',
    pendingDays: 'retentionIdentityPendingDays',
    pendingAt: 'retentionIdentityPendingAt',
    sql: 'identity',
  },
  checks_days: {
    days: 'retentionChecksDays',
    pendingDays: 'retentionChecksPendingDays',
    pendingAt: 'retentionChecksPendingAt',
    sql: 'checks',
  },
  audit_days: {
    days: 'retentionAuditDays',
    pendingDays: 'retentionAuditPendingDays',
    pendingAt: 'retentionAuditPendingAt',
    sql: 'audit',
  },
  signatures_days: {
    days: 'retentionSignaturesDays',
    pendingDays: 'retentionSignaturesPendingDays',
    pendingAt: 'retentionSignaturesPendingAt',
    sql: 'signatures',
  },
} as const satisfies Record<
  RetentionClass,
  {
    days: keyof CompanyColumns;
    pendingDays: keyof CompanyColumns;
    pendingAt: keyof CompanyColumns;
    sql: string;
  }
>;

type PeriodColumns = Pick<
  CompanyColumns,
  (typeof COLUMNS)[RetentionClass]['days' | 'pendingDays' | 'pendingAt']
>;

/** A shortening that waits: its days and the instant it applies. */
export interface Pending {
  days: number;
  appliesAt: Date;
}

export interface Periods {
  /** The days each class is kept for today (the audit log's at least the floor). */
  inForce: Record<RetentionClass, number>;
  /** Each class's shortening still waiting for its date. */
  pending: Record<RetentionClass, Pending | null>;
}

/** One class's period today, before the floor, and its shortening still to come. */
function periodOf(row: PeriodColumns, kind: RetentionClass, now: Date) {
  const columns = COLUMNS[kind];
  const days = row[columns.days];
  const pendingDays = row[columns.pendingDays];
  const pendingAt = row[columns.pendingAt];
  if (pendingDays === null || pendingAt === null) return { days, pending: null };
  // Its date has come: the shortened period holds. Until then, the longer of the two.
  if (pendingAt.getTime() <= now.getTime()) return { days: pendingDays, pending: null };
  return {
    days: Math.max(days, pendingDays),
    pending: { days: pendingDays, appliesAt: pendingAt },
  };
}

/** A company's periods today and the shortenings to come. */
export function periodsOf(row: PeriodColumns, auditMinDays: number, now = new Date()): Periods {
  // Filled for every retention class by the loop below.
  const inForce = {} as Periods['inForce'];
  const pending = {} as Periods['pending'];
  for (const kind of RETENTION_CLASSES) {
    const period = periodOf(row, kind, now);
    inForce[kind] = kind === 'audit_days' ? Math.max(period.days, auditMinDays) : period.days;
    pending[kind] = period.pending;
  }
  return { inForce, pending };
}

/** The wire shape of the shortenings to come. */
export function pendingOnWire(
  pending: Periods['pending'],
): Record<RetentionClass, PendingRetention | null> {
  // Filled for every retention class by the loop below.
  const wire = {} as Record<RetentionClass, PendingRetention | null>;
  for (const kind of RETENTION_CLASSES) {
    const one = pending[kind];
    wire[kind] = one ? { days: one.days, applies_at: one.appliesAt.toISOString() } : null;
  }
  return wire;
}

/** What a save writes, and what it changed for the audit entry. */
export interface PlannedPeriods {
  /** The company's columns to set. */
  values: PeriodColumns;
  /** `documentsDays: '30→10'` (in force → asked), and `documentsAppliesAt` for a shortening. */
  detail: Record<string, string>;
  /** Whether a shortening waits for its date after this save. */
  shortened: boolean;
}

const DETAIL_NAMES: Record<RetentionClass, string> = {
  documents_days: 'documents',
  identity_days: 'identity',
  checks_days: 'checks',
  audit_days: 'audit',
  signatures_days: 'signatures',
};

/**
 * The periods a company asks for, planned against what holds now: a period as long as or
 * longer than today's applies at once (and cancels a shortening to come); a shorter one
 * waits `RETENTION_SHORTENING_DELAY_DAYS`, and a shortening asked for again keeps its date,
 * so saving the form again never pushes it back. A class left out of `wanted` is unchanged.
 */
export function planPeriods(
  row: PeriodColumns,
  wanted: Partial<Record<RetentionClass, number>>,
  now = new Date(),
): PlannedPeriods {
  // Filled below with the columns of the classes asked for, then returned as PeriodColumns.
  const values = {} as Record<string, number | Date | null>;
  const detail: Record<string, string> = {};
  let shortened = false;
  for (const kind of RETENTION_CLASSES) {
    const columns = COLUMNS[kind];
    const current = periodOf(row, kind, now);
    const asked = wanted[kind];
    // A class the save leaves out (a client older than it) keeps its period and its shortening.
    if (asked === undefined) continue;
    const name = DETAIL_NAMES[kind];
    detail[`${name}Days`] = `${current.days}→${asked}`;
    if (asked >= current.days) {
      values[columns.days] = asked;
      values[columns.pendingDays] = null;
      values[columns.pendingAt] = null;
      continue;
    }
    const appliesAt =
      current.pending?.days === asked
        ? current.pending.appliesAt
        : new Date(now.getTime() + RETENTION_SHORTENING_DELAY_DAYS * DAY_MS);
    values[columns.days] = current.days;
    values[columns.pendingDays] = asked;
    values[columns.pendingAt] = appliesAt;
    detail[`${name}AppliesAt`] = appliesAt.toISOString();
    shortened = true;
  }
  // Only the classes asked for, which the company's update sets; the others stay as they are.
  return { values: values as PeriodColumns, detail, shortened };
}

/**
 * A class's period today in SQL, on the companies row aliased `alias`: the same rule as
 * `periodsOf` (without the audit floor, which the audit purge adds), read by the purge.
 */
export function periodInForce(kind: RetentionClass, alias = 'c'): SQL {
  const name = COLUMNS[kind].sql;
  const days = `${alias}.retention_${name}_days`;
  const pendingDays = `${alias}.retention_${name}_pending_days`;
  const pendingAt = `${alias}.retention_${name}_pending_at`;
  return sql.raw(
    `(case when ${pendingAt} <= now() then ${pendingDays} ` +
      `else greatest(${days}, coalesce(${pendingDays}, ${days})) end)`,
  );
}
