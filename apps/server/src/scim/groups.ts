/**
 * SCIM Groups (RFC 7643 §4.2): the groups a company's directory pushes (`scim_groups`, a
 * display name unique in the company without regard to case), whose members are accounts of
 * that company (never the platform's staff). A group's display name is what
 * `company_sso.role_mappings` names, so every change of members, of the name, or the
 * group's deletion gives each account concerned the role its groups now map to
 * (roles.ts), in the same transaction. Each change is one audit entry without an actor,
 * naming the token; the members' ids are counted, never listed.
 */
import { and, asc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { SSO_LIMITS, breaksTheLine, TEXT_MAX } from '@sesame/shared';
import { audit } from '../audit/service';
import type { Database, Db } from '../db/client';
import { scimGroupMembers, scimGroups, users } from '../db/schema';
import { isUniqueViolation } from '../errors';
import { isPerson } from '../users/person';
import { invalidPath, invalidSyntax, invalidValue, scimBadRequest, uniqueness } from './errors';
import { field, isObject, optionalText } from './attributes';
import { matchesElement, textEquals, textEqualsIgnoringCase, type AttributeSql } from './filter';
import type { PatchStep } from './patch';
import { presentGroup, type ScimGroupRow, type ScimResource } from './presenter';
import {
  UUID,
  findScimRow,
  idEquals,
  listScimRows,
  refusePatch,
  type ScimCaller,
  type ScimListQuery,
  withTheirEntries,
} from './resources';
import { applyMappedRoles, notPlatformStaff } from './roles';

/** The most members one group holds (a request's body is 1 MB at most anyway). */
const MEMBERS_MAX = 10_000;

const columns = {
  id: scimGroups.id,
  displayName: scimGroups.displayName,
  externalId: scimGroups.externalId,
  createdAt: scimGroups.createdAt,
  updatedAt: scimGroups.updatedAt,
};

/** The groups of the caller's company. */
const groupsOf = (caller: ScimCaller) => ({
  table: scimGroups,
  select: (db: Db) => db.select(columns).from(scimGroups).$dynamic(),
  scope: eq(scimGroups.companyId, caller.companyId),
});

export async function findScimGroup(
  db: Db,
  caller: ScimCaller,
  id: string,
): Promise<ScimGroupRow | null> {
  return findScimRow(db, groupsOf(caller), id);
}

async function membersOf(db: Db, groupIds: string[]) {
  if (groupIds.length === 0) return [];
  return db
    .select({
      groupId: scimGroupMembers.groupId,
      id: users.id,
      firstname: users.firstname,
      name: users.name,
    })
    .from(scimGroupMembers)
    .innerJoin(users, eq(users.id, scimGroupMembers.userId))
    .where(inArray(scimGroupMembers.groupId, groupIds))
    .orderBy(asc(users.name), asc(users.firstname), asc(users.id));
}

async function present(
  db: Db,
  caller: ScimCaller,
  rows: ScimGroupRow[],
  withMembers: boolean,
): Promise<ScimResource[]> {
  const members = withMembers
    ? await membersOf(
        db,
        rows.map((r) => r.id),
      )
    : [];
  return withTheirEntries(rows, members, (m) => m.groupId).map(([row, itsMembers]) =>
    presentGroup(caller.base, row, itsMembers),
  );
}

export async function presentScimGroup(
  db: Db,
  caller: ScimCaller,
  row: ScimGroupRow,
  withMembers = true,
) {
  const [resource] = await present(db, caller, [row], withMembers);
  return resource!;
}

const GROUP_ATTRIBUTES: Record<string, AttributeSql> = {
  id: idEquals((id) => eq(scimGroups.id, id)),
  displayname: textEqualsIgnoringCase(scimGroups.displayName),
  externalid: textEquals(scimGroups.externalId),
  'members.value': idEquals(
    (id) =>
      sql`exists (select 1 from ${scimGroupMembers} where ${scimGroupMembers.groupId} = ${scimGroups.id} and ${scimGroupMembers.userId} = ${id})`,
  ),
};

export async function listScimGroups(
  db: Db,
  caller: ScimCaller,
  query: ScimListQuery & { withMembers: boolean },
): Promise<{ resources: ScimResource[]; total: number }> {
  const { rows, total } = await listScimRows(db, groupsOf(caller), GROUP_ATTRIBUTES, query);
  return { resources: await present(db, caller, rows, query.withMembers), total };
}

/** A group as the directory writes it. */
export interface GroupDraft {
  displayName: string;
  externalId: string | null;
  members: Set<string>;
}

/** The ids of a `members` value: `[{ value: id }, …]` (one object alone is taken as a list). */
function memberIds(value: unknown, attribute: string): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((member) => {
    const id = isObject(member) ? field(member, 'value') : undefined;
    if (typeof id !== 'string') throw invalidValue(attribute);
    return id.toLowerCase();
  });
}

/** A Group resource of a POST or a PUT. */
export function readGroupResource(body: unknown): GroupDraft {
  if (!isObject(body)) throw invalidSyntax();
  const displayName = field(body, 'displayName');
  if (typeof displayName !== 'string') {
    throw scimBadRequest('invalidValue', (m) => m.scim.groupNameRequired);
  }
  return {
    displayName,
    externalId: optionalText(field(body, 'externalId'), 'externalId'),
    members: new Set(memberIds(field(body, 'members'), 'members')),
  };
}

/** Applies PATCH operations to a group's draft (members added, removed, replaced; renamed). */
export function patchGroup(row: ScimGroupRow, members: string[], steps: PatchStep[]): GroupDraft {
  const draft: GroupDraft = {
    displayName: row.displayName,
    externalId: row.externalId,
    members: new Set(members),
  };
  for (const { op, path, value } of steps) {
    const { attribute, sub, filter, raw } = path;
    if (attribute.startsWith('urn:') || attribute === 'schemas') continue;
    switch (attribute) {
      case 'displayname':
        if (op === 'remove' || sub || filter) throw invalidValue(raw);
        draft.displayName = optionalText(value, raw) ?? '';
        break;
      case 'externalid':
        if (sub || filter) throw invalidPath(raw);
        draft.externalId = op === 'remove' ? null : optionalText(value, raw);
        break;
      case 'members': {
        if (sub) throw invalidPath(raw);
        if (op === 'remove') {
          // `members[value eq "…"]` (Okta), `members` with the ones to remove (Entra ID), or all.
          const named = value === undefined ? undefined : new Set(memberIds(value, raw));
          for (const id of [...draft.members]) {
            const chosen = filter
              ? matchesElement(filter, { value: id })
              : (named?.has(id) ?? true);
            if (chosen) draft.members.delete(id);
          }
        } else if (filter) {
          throw invalidPath(raw);
        } else {
          const ids = memberIds(value, raw);
          if (op === 'replace') draft.members.clear();
          for (const id of ids) draft.members.add(id);
        }
        break;
      }
      default:
        refusePatch(path, value, row.id);
    }
  }
  return draft;
}

/** The draft checked: a name of one line, at most SSO_LIMITS.groupMax characters. */
function checked(draft: GroupDraft) {
  const displayName = draft.displayName.trim();
  if (displayName === '') throw scimBadRequest('invalidValue', (m) => m.scim.groupNameRequired);
  if (displayName.length > SSO_LIMITS.groupMax || breaksTheLine(displayName)) {
    throw invalidValue('displayName');
  }
  const externalId = draft.externalId?.trim() || null;
  if (externalId && (externalId.length > TEXT_MAX.line || breaksTheLine(externalId))) {
    throw invalidValue('externalId');
  }
  if (draft.members.size > MEMBERS_MAX) throw invalidValue('members');
  return { displayName, externalId, members: [...draft.members] };
}

/** Every id must be an account of the company (not the platform's staff): 400 otherwise. */
async function assertMembers(tx: Db, caller: ScimCaller, ids: string[]) {
  const wrong = ids.find((id) => !UUID.test(id));
  if (wrong !== undefined) {
    throw scimBadRequest('invalidValue', (m) => m.scim.memberUnknown(wrong.slice(0, 100)));
  }
  if (ids.length === 0) return;
  const found = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        inArray(users.id, ids),
        eq(users.companyId, caller.companyId),
        notPlatformStaff,
        isPerson,
      ),
    );
  const known = new Set(found.map((u) => u.id));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown !== undefined) {
    throw scimBadRequest('invalidValue', (m) => m.scim.memberUnknown(unknown));
  }
}

async function nameTaken(tx: Db, caller: ScimCaller, displayName: string, exceptId?: string) {
  const conditions: SQL[] = [
    eq(scimGroups.companyId, caller.companyId),
    eq(sql`lower(${scimGroups.displayName})`, displayName.toLowerCase()),
  ];
  if (exceptId) conditions.push(ne(scimGroups.id, exceptId));
  const rows = await tx
    .select({ id: scimGroups.id })
    .from(scimGroups)
    .where(and(...conditions))
    .limit(1);
  return rows.length > 0;
}

function duplicateName(error: unknown): never {
  if (isUniqueViolation(error, 'scim_groups_name_key')) {
    throw uniqueness((m) => m.scim.groupNameTaken);
  }
  throw error;
}

export async function currentMembers(db: Db, groupId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: scimGroupMembers.userId })
    .from(scimGroupMembers)
    .where(eq(scimGroupMembers.groupId, groupId));
  return rows.map((r) => r.userId);
}

/** POST /Groups: 409 uniqueness when the company has a group of that name. */
export async function createScimGroup(
  db: Database,
  caller: ScimCaller,
  draft: GroupDraft,
): Promise<ScimResource> {
  const values = checked(draft);
  return db.transaction(async (tx) => {
    await assertMembers(tx, caller, values.members);
    if (await nameTaken(tx, caller, values.displayName)) {
      throw uniqueness((m) => m.scim.groupNameTaken);
    }
    const [row] = await tx
      .insert(scimGroups)
      .values({
        companyId: caller.companyId,
        displayName: values.displayName,
        externalId: values.externalId,
      })
      .returning(columns)
      .catch(duplicateName);
    if (!row) throw new Error('the group insert returned no row');
    if (values.members.length > 0) {
      await tx
        .insert(scimGroupMembers)
        .values(values.members.map((userId) => ({ groupId: row.id, userId })));
    }
    await audit(tx, {
      companyId: caller.companyId,
      actorUserId: null,
      action: 'scim.group_created',
      detail: { tokenId: caller.tokenId, groupId: row.id, members: values.members.length },
    });
    await applyMappedRoles(tx, caller.companyId, values.members, { tokenId: caller.tokenId });
    return presentScimGroup(tx, caller, row);
  });
}

/**
 * PUT and PATCH /Groups/{id}: the draft (made from the members as they are once the group
 * is locked) written over the group, its members replaced by the draft's. The members whose groups changed — added, removed, or all of them when the name
 * changed — are given the role their groups now map to.
 */
export async function writeScimGroup(
  db: Database,
  caller: ScimCaller,
  current: ScimGroupRow,
  draftOf: (members: string[]) => GroupDraft,
  withMembers = true,
): Promise<ScimResource> {
  return db.transaction(async (tx) => {
    // One writer of a group at a time: two PATCHes of its members cannot lose one another's.
    await tx
      .select({ id: scimGroups.id })
      .from(scimGroups)
      .where(eq(scimGroups.id, current.id))
      .for('update');
    const before = await currentMembers(tx, current.id);
    const values = checked(draftOf(before));
    const after = new Set(values.members);
    const added = values.members.filter((id) => !before.includes(id));
    const removed = before.filter((id) => !after.has(id));
    await assertMembers(tx, caller, added);
    const renamed = values.displayName !== current.displayName;
    if (renamed && (await nameTaken(tx, caller, values.displayName, current.id))) {
      throw uniqueness((m) => m.scim.groupNameTaken);
    }
    const fields = [
      ...(renamed ? ['display_name'] : []),
      ...(values.externalId !== current.externalId ? ['external_id'] : []),
      ...(added.length + removed.length > 0 ? ['members'] : []),
    ];
    if (fields.length === 0) return presentScimGroup(tx, caller, current, withMembers);
    const [row] = await tx
      .update(scimGroups)
      .set({
        displayName: values.displayName,
        externalId: values.externalId,
        updatedAt: new Date(),
      })
      .where(eq(scimGroups.id, current.id))
      .returning(columns)
      .catch(duplicateName);
    if (!row) throw new Error('the group update returned no row');
    if (removed.length > 0) {
      await tx
        .delete(scimGroupMembers)
        .where(
          and(eq(scimGroupMembers.groupId, current.id), inArray(scimGroupMembers.userId, removed)),
        );
    }
    if (added.length > 0) {
      await tx
        .insert(scimGroupMembers)
        .values(added.map((userId) => ({ groupId: current.id, userId })))
        .onConflictDoNothing();
    }
    await audit(tx, {
      companyId: caller.companyId,
      actorUserId: null,
      action: 'scim.group_updated',
      detail: {
        tokenId: caller.tokenId,
        groupId: current.id,
        fields,
        added: added.length,
        removed: removed.length,
      },
    });
    const concerned = renamed ? [...new Set([...before, ...added])] : [...added, ...removed];
    await applyMappedRoles(tx, caller.companyId, concerned, { tokenId: caller.tokenId });
    return presentScimGroup(tx, caller, row, withMembers);
  });
}

/** DELETE /Groups/{id}: its members lose what it gave them. */
export async function deleteScimGroup(
  db: Database,
  caller: ScimCaller,
  current: ScimGroupRow,
): Promise<void> {
  await db.transaction(async (tx) => {
    const members = await currentMembers(tx, current.id);
    await tx.delete(scimGroups).where(eq(scimGroups.id, current.id));
    await audit(tx, {
      companyId: caller.companyId,
      actorUserId: null,
      action: 'scim.group_deleted',
      detail: { tokenId: caller.tokenId, groupId: current.id, members: members.length },
    });
    await applyMappedRoles(tx, caller.companyId, members, { tokenId: caller.tokenId });
  });
}
