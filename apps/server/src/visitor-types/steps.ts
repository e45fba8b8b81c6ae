/**
 * What a visitor type asks (issue 31), read the same way by the three ways in — the public
 * form, the kiosk and an invitation's link — so that the server, not the screen, enforces a
 * type's steps: the type of a visit (the one named, else the site's first), and the fields it
 * requires that were left blank.
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { VisitorTypeField } from '@sesame/shared';
import type { Db } from '../db/client';
import { visitorTypes } from '../db/schema';
import { badRequest } from '../errors';

export type VisitorTypeRow = typeof visitorTypes.$inferSelect;

/**
 * The type of a visit at `siteId`: the active type `typeId` of that site (another site's,
 * an archived or unknown one: 400 `visitorType.typeUnknown` on `visitor_type_id`), or, when
 * none is named, the site's first active type (position order). Null only for a site with
 * no active type left, whose visits then ask what the spec's form asks.
 */
export async function visitorTypeOf(
  db: Db,
  siteId: string,
  typeId: string | null | undefined,
): Promise<VisitorTypeRow | null> {
  const active = and(eq(visitorTypes.siteId, siteId), isNull(visitorTypes.archivedAt));
  if (typeId) {
    const [row] = await db
      .select()
      .from(visitorTypes)
      .where(and(active, eq(visitorTypes.id, typeId)))
      .limit(1);
    if (!row) {
      throw badRequest((m) => m.visitorType.typeUnknown, {
        visitor_type_id: (m) => m.visitorType.typeUnknown,
      });
    }
    return row;
  }
  const [first] = await db
    .select()
    .from(visitorTypes)
    .where(active)
    .orderBy(asc(visitorTypes.position), asc(visitorTypes.createdAt))
    .limit(1);
  return first ?? null;
}

/** What a way in has of each field a type may require: given (true) or left blank (false). */
export type GivenFields = Record<VisitorTypeField, boolean>;

/** The wire name of each field, where a way in reports the issue. */
const WIRE_FIELD: Record<VisitorTypeField, string> = {
  organisation: 'organisation_name',
  phone: 'contact',
  id_number: 'id_number',
  id_document: 'request_image',
  photo: 'photo',
};

/**
 * Refuses (400, on the first field in the type's order) a visit whose type requires a
 * field it left blank. `wire` renames a field where a way in calls it otherwise
 * (the invitation's `organisation`, the kiosk's `contact`).
 */
export function requireTypeFields(
  type: Pick<VisitorTypeRow, 'requiredFields'> | null,
  given: GivenFields,
  wire: Partial<Record<VisitorTypeField, string>> = {},
): void {
  for (const field of type?.requiredFields ?? []) {
    // jsonb column: written only from the visitor type schema's fields.
    const key = field as VisitorTypeField;
    if (key in given && !given[key]) {
      const name = wire[key] ?? WIRE_FIELD[key];
      throw badRequest((m) => m.visitorType.fieldRequired(key), {
        [name]: (m) => m.visitorType.fieldRequired(key),
      });
    }
  }
}
