/**
 * The evacuation roll call (issue 14): starting one freezes who is on site; staff mark
 * each person safe or missing from their phones; ending it keeps the record.
 */
import { z } from 'zod';
import { said, slugOrIdFilter, uuidSchema } from './common';
import { PERSON_KINDS } from './on-site';
import { siteFilter, siteRefSchema } from './site';

/** A person's mark: not yet (`unknown`), safe, or missing. */
export const ROLL_CALL_STATUSES = ['unknown', 'safe', 'missing'] as const;
export type RollCallStatus = (typeof ROLL_CALL_STATUSES)[number];

/**
 * `company`: a slug or id (roles that act on every company); the caller's own otherwise.
 * `site` (issue 28): the site evacuated; without it, the company's only active site, else
 * every site at once (for whoever is not limited to some sites).
 */
export const rollCallStartSchema = z.object({ company: slugOrIdFilter, site: siteFilter });
export type RollCallStart = z.infer<typeof rollCallStartSchema>;

/** `site`: the latest roll call covering that site (its own, or one of every site). */
export const rollCallLatestQuerySchema = z.object({ company: slugOrIdFilter, site: siteFilter });
export type RollCallLatestQuery = z.infer<typeof rollCallLatestQuerySchema>;

export const rollCallParamsSchema = z.object({ id: uuidSchema });

export const rollCallMarkParamsSchema = z.object({ id: uuidSchema, personId: uuidSchema });

export const rollCallMarkSchema = z.object({
  status: z.enum(
    ROLL_CALL_STATUSES,
    said((m) => m.rollCall.statusUnknown),
  ),
});
export type RollCallMark = z.infer<typeof rollCallMarkSchema>;

export const rollCallCountsSchema = z.object({
  total: z.number(),
  safe: z.number(),
  missing: z.number(),
  unknown: z.number(),
});
export type RollCallCounts = z.infer<typeof rollCallCountsSchema>;

const staffRef = z.object({ id: z.string(), name: z.string() }).nullable();

export const rollCallPersonSchema = z.object({
  /** The roll call's row for this person (what a mark names). */
  id: z.string(),
  person_id: z.string(),
  kind: z.enum(PERSON_KINDS),
  firstname: z.string(),
  lastname: z.string(),
  organisation: z.string().nullable(),
  check_in_time: z.string(),
  status: z.enum(ROLL_CALL_STATUSES),
  marked_by: staffRef,
  marked_at: z.string().nullable(),
  /** The site they were inside at (issue 28; null once retention removed that stay). */
  site: siteRefSchema.nullable(),
});
export type RollCallPerson = z.infer<typeof rollCallPersonSchema>;

export const rollCallSchema = z.object({
  id: z.string(),
  company: z.object({ id: z.string(), name: z.string(), slug: z.string() }),
  /** The site evacuated (issue 28); null: every site of the company. */
  site: siteRefSchema.nullable(),
  started_by: staffRef,
  started_at: z.string(),
  ended_by: staffRef,
  ended_at: z.string().nullable(),
  counts: rollCallCountsSchema,
  /** Everyone frozen at the start, by last name. */
  people: z.array(rollCallPersonSchema),
});
export type RollCall = z.infer<typeof rollCallSchema>;

export const rollCallAnswerSchema = z.object({ data: rollCallSchema });
export const rollCallLatestAnswerSchema = z.object({ data: rollCallSchema.nullable() });

export const rollCallMarkAnswerSchema = z.object({
  data: rollCallPersonSchema,
  counts: rollCallCountsSchema,
});
export type RollCallMarkAnswer = z.infer<typeof rollCallMarkAnswerSchema>;
