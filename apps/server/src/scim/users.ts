/**
 * SCIM Users (RFC 7643 §4.1) over Sésame's staff accounts of the token's company. The
 * platform's staff (ROLE_ADMIN, ROLE_SESAME) are never seen nor touched: a 404, as another
 * company's account. `userName` is the account's e-mail, `name` its first and last names,
 * `active` its status, `phoneNumbers` its phone (E.164), `groups` the SCIM groups it is a
 * member of (read-only: a group's members change at the Group).
 *
 * An account the directory creates has no password (NO_PASSWORD), `provisioned_by` 'scim',
 * no site limits and so no home site (as 'Créer un utilisateur' without sites), and the role
 * its groups map to — none yet, so the company's default role. Deactivated (`active`
 * false) it is disabled and every session of it revoked in the same transaction, so the
 * next request of any of them is a 401 and its live streams end (migration 0023). Deleted,
 * its row goes as 'Supprimer' removes it (its sessions with it; every record naming it is
 * set null or goes with it). Each change is one audit entry without an actor, naming the
 * token.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { EMAIL_PATTERN, TEXT_MAX, breaksTheLine } from '@sesame/shared';
import { toE164 } from '@sesame/shared/phone';
import { audit } from '../audit/service';
import { NO_PASSWORD } from '../auth/passwords';
import type { Database, Db } from '../db/client';
import { scimGroupMembers, scimGroups, users } from '../db/schema';
import { isUniqueViolation } from '../errors';
import { isPerson } from '../users/person';
import { emailTaken, revokeSessions } from '../users/service';
import {
  invalidPath,
  invalidSyntax,
  invalidValue,
  mutability,
  scimBadRequest,
  scimNotFound,
  uniqueness,
} from './errors';
import { field, isObject, optionalText, text } from './attributes';
import { matchesElement, textEquals, textEqualsIgnoringCase, type AttributeSql } from './filter';
import { readBoolean, type PatchStep } from './patch';
import { presentUser, type ScimResource, type ScimUserRow } from './presenter';
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
import { notPlatformStaff, roleMappingOf, roleOfGroups } from './roles';

export { UUID, type ScimCaller } from './resources';

const columns = {
  id: users.id,
  email: users.email,
  firstname: users.firstname,
  name: users.name,
  title: users.title,
  contact: users.contact,
  status: users.status,
  externalId: users.externalId,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};

/** A person's account of the company: never the platform's staff, nor an API key's (issue 34). */
const ofCompany = (companyId: string) =>
  and(eq(users.companyId, companyId), notPlatformStaff, isPerson)!;

/** The caller's accounts (never the platform's staff). */
const usersOf = (caller: ScimCaller) => ({
  table: users,
  select: (db: Db) => db.select(columns).from(users).$dynamic(),
  scope: ofCompany(caller.companyId),
});

/** An account of the caller's company (never the platform's staff), or null. */
export async function findScimUser(
  db: Db,
  caller: ScimCaller,
  id: string,
): Promise<ScimUserRow | null> {
  return findScimRow(db, usersOf(caller), id);
}

async function present(db: Db, caller: ScimCaller, rows: ScimUserRow[]): Promise<ScimResource[]> {
  const ids = rows.map((r) => r.id);
  const memberships = ids.length
    ? await db
        .select({
          userId: scimGroupMembers.userId,
          id: scimGroups.id,
          displayName: scimGroups.displayName,
        })
        .from(scimGroupMembers)
        .innerJoin(scimGroups, eq(scimGroups.id, scimGroupMembers.groupId))
        .where(inArray(scimGroupMembers.userId, ids))
        .orderBy(asc(scimGroups.displayName))
    : [];
  return withTheirEntries(rows, memberships, (m) => m.userId).map(([row, groups]) =>
    presentUser(caller.base, row, groups),
  );
}

export async function presentScimUser(db: Db, caller: ScimCaller, row: ScimUserRow) {
  const [resource] = await present(db, caller, [row]);
  return resource!;
}

const displayNameSql = sql`${users.firstname} || ' ' || ${users.name}`;

/** What a filter on Users may search. */
const USER_ATTRIBUTES: Record<string, AttributeSql> = {
  id: idEquals((id) => eq(users.id, id)),
  username: textEqualsIgnoringCase(users.email),
  emails: textEqualsIgnoringCase(users.email),
  'emails.value': textEqualsIgnoringCase(users.email),
  externalid: textEquals(users.externalId),
  displayname: textEqualsIgnoringCase(displayNameSql),
  'name.givenname': textEqualsIgnoringCase(users.firstname),
  'name.familyname': textEqualsIgnoringCase(users.name),
  active: (op, value) =>
    op === 'eq' && typeof value === 'boolean' ? eq(users.status, value) : undefined,
};

export async function listScimUsers(
  db: Db,
  caller: ScimCaller,
  query: ScimListQuery,
): Promise<{ resources: ScimResource[]; total: number }> {
  const { rows, total } = await listScimRows(db, usersOf(caller), USER_ATTRIBUTES, query);
  return { resources: await present(db, caller, rows), total };
}

/** An account as the directory writes it: every field SCIM may change. */
export interface UserDraft {
  userName: string;
  givenName: string;
  familyName: string;
  externalId: string | null;
  active: boolean;
  title: string | null;
  /** As written (checked and read into E.164 by `checked`), or null. */
  phone: string | null;
}

const draftOf = (row: ScimUserRow): UserDraft => ({
  userName: row.email,
  givenName: row.firstname,
  familyName: row.name,
  externalId: row.externalId,
  active: row.status,
  title: row.title,
  phone: row.contact,
});

/** The work phone of a `phoneNumbers` list (else its primary, else its first), or null. */
function phoneOf(list: unknown): string | null {
  if (list === undefined || list === null) return null;
  if (!Array.isArray(list)) throw invalidValue('phoneNumbers');
  const entries = list.filter(isObject);
  const chosen =
    entries.find((e) => field(e, 'type') === 'work') ??
    entries.find((e) => field(e, 'primary') === true) ??
    entries[0];
  return chosen ? optionalText(field(chosen, 'value'), 'phoneNumbers') : null;
}

/** The names when the directory sends none: its displayName, else the e-mail's local part. */
function namesFrom(displayName: unknown): { givenName: string; familyName: string } {
  if (typeof displayName !== 'string' || displayName.trim() === '') {
    return { givenName: '', familyName: '' };
  }
  const [first = '', ...rest] = displayName.trim().split(' ');
  return { givenName: first, familyName: rest.join(' ') };
}

/** A User resource of a POST or a PUT, as a draft (PUT keeps `active` when it is left out). */
export function readUserResource(body: unknown, current?: ScimUserRow): UserDraft {
  if (!isObject(body)) throw invalidSyntax();
  const userName = field(body, 'userName');
  if (typeof userName !== 'string') {
    throw scimBadRequest('invalidValue', (m) => m.scim.userNameRequired);
  }
  const name = field(body, 'name');
  if (name !== undefined && name !== null && !isObject(name)) throw invalidValue('name');
  const fallback = namesFrom(field(body, 'displayName'));
  const active = field(body, 'active');
  return {
    userName,
    givenName:
      optionalText(name ? field(name, 'givenName') : undefined, 'name.givenName') ??
      fallback.givenName,
    familyName:
      optionalText(name ? field(name, 'familyName') : undefined, 'name.familyName') ??
      fallback.familyName,
    externalId: optionalText(field(body, 'externalId'), 'externalId'),
    active: active === undefined ? (current?.status ?? true) : readBoolean(active, 'active'),
    title: optionalText(field(body, 'title'), 'title'),
    phone: phoneOf(field(body, 'phoneNumbers')),
  };
}

/**
 * Attributes of the core User schema Sésame keeps nothing of (a directory maps them by
 * default: Entra ID's `addresses`, `preferredLanguage`…): accepted and left aside.
 */
const NOT_KEPT = new Set([
  'displayname',
  'nickname',
  'profileurl',
  'usertype',
  'preferredlanguage',
  'locale',
  'timezone',
  'password',
  'addresses',
  'ims',
  'photos',
  'entitlements',
  'roles',
  'x509certificates',
  'schemas',
]);
const NAME_NOT_KEPT = new Set(['formatted', 'middlename', 'honorificprefix', 'honorificsuffix']);

/** The work entry Sésame presents of `emails` or `phoneNumbers`, for a path's filter. */
const workEntry = (value: string | null) => ({ value, type: 'work', primary: true });

/** Applies PATCH operations to a draft (RFC 7644 §3.5.2); the draft is then written as a PUT. */
export function patchUser(row: ScimUserRow, steps: PatchStep[]): UserDraft {
  const draft = draftOf(row);
  for (const { op, path, value } of steps) {
    const remove = op === 'remove';
    const { attribute, sub, filter, raw } = path;
    if (attribute.startsWith('urn:') || NOT_KEPT.has(attribute)) continue;
    switch (attribute) {
      case 'active':
        if (remove || sub || filter) throw invalidValue(raw);
        draft.active = readBoolean(value, raw);
        break;
      case 'username':
        if (remove || sub || filter) throw invalidValue(raw);
        draft.userName = text(value, raw);
        break;
      case 'externalid':
        if (sub || filter) throw invalidPath(raw);
        draft.externalId = remove ? null : optionalText(value, raw);
        break;
      case 'title':
        if (sub || filter) throw invalidPath(raw);
        draft.title = remove ? null : optionalText(value, raw);
        break;
      case 'name': {
        if (filter) throw invalidPath(raw);
        const parts: Record<string, unknown> = sub
          ? { [sub]: remove ? '' : value }
          : remove
            ? { givenname: '', familyname: '' }
            : isObject(value)
              ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k.toLowerCase(), v]))
              : {};
        if (!sub && !remove && !isObject(value)) throw invalidValue(raw);
        for (const [key, part] of Object.entries(parts)) {
          if (key === 'givenname') draft.givenName = optionalText(part, raw) ?? '';
          else if (key === 'familyname') draft.familyName = optionalText(part, raw) ?? '';
          else if (!NAME_NOT_KEPT.has(key)) throw invalidPath(raw);
        }
        break;
      }
      case 'emails': {
        // One e-mail, the userName: a remove leaves it; another type than the work one is not kept.
        if (remove) break;
        if (filter && !matchesElement(filter, workEntry(draft.userName))) break;
        if (sub === 'value') draft.userName = text(value, raw);
        else if (!sub && (Array.isArray(value) || isObject(value))) {
          const entries = (Array.isArray(value) ? value : [value]).filter(isObject);
          const chosen =
            entries.find((e) => field(e, 'primary') === true) ??
            entries.find((e) => field(e, 'type') === 'work') ??
            entries[0];
          const email = chosen ? field(chosen, 'value') : undefined;
          if (email !== undefined) draft.userName = text(email, raw);
        } else if (sub !== 'type' && sub !== 'primary') throw invalidPath(raw);
        break;
      }
      case 'phonenumbers': {
        // The directory's other numbers (a mobile): Sésame keeps the work one only.
        if (filter && !matchesElement(filter, workEntry(draft.phone))) break;
        if (remove) {
          if (!sub || sub === 'value') draft.phone = null;
          break;
        }
        if (sub === 'value') draft.phone = optionalText(value, raw);
        else if (!sub && (Array.isArray(value) || isObject(value))) {
          draft.phone = phoneOf(Array.isArray(value) ? value : [value]);
        } else if (sub !== 'type' && sub !== 'primary') throw invalidPath(raw);
        break;
      }
      case 'groups':
        throw mutability(raw);
      default:
        refusePatch(path, value, row.id);
    }
  }
  return draft;
}

/** What is written of a draft: checked, trimmed, the phone in E.164; 400 invalidValue else. */
function checked(draft: UserDraft) {
  const line = (value: string, max: number, attribute: string) => {
    const trimmed = value.trim();
    if (trimmed.length > max || breaksTheLine(trimmed)) throw invalidValue(attribute);
    return trimmed;
  };
  const email = line(draft.userName, TEXT_MAX.email, 'userName');
  if (!EMAIL_PATTERN.test(email)) {
    throw scimBadRequest('invalidValue', (m) => m.scim.userNameRequired);
  }
  let firstname = line(draft.givenName, TEXT_MAX.name, 'name.givenName');
  let name = line(draft.familyName, TEXT_MAX.name, 'name.familyName');
  if (!firstname && !name) {
    // As a first sign-in by the provider names an account without names: its e-mail's local part.
    name = email.slice(0, email.indexOf('@')).slice(0, TEXT_MAX.name);
    firstname = '';
  }
  const title = draft.title === null ? null : line(draft.title, TEXT_MAX.line, 'title') || null;
  const externalId =
    draft.externalId === null ? null : line(draft.externalId, TEXT_MAX.line, 'externalId') || null;
  let contact: string | null = null;
  if (draft.phone !== null && draft.phone.trim() !== '') {
    contact = draft.phone.length <= TEXT_MAX.phone ? toE164(draft.phone) : null;
    if (!contact) throw invalidValue('phoneNumbers');
  }
  return { email, firstname, name, title, externalId, contact, status: draft.active };
}

function duplicateEmail(error: unknown): never {
  if (isUniqueViolation(error, 'users_email_key')) throw uniqueness((m) => m.user.emailTaken);
  throw error;
}

/** POST /Users: 409 uniqueness when any account (of any company) has the e-mail. */
export async function createScimUser(
  db: Database,
  caller: ScimCaller,
  draft: UserDraft,
): Promise<ScimResource> {
  const values = checked(draft);
  if (await emailTaken(db, values.email)) throw uniqueness((m) => m.user.emailTaken);
  return db.transaction(async (tx) => {
    const role = roleOfGroups(await roleMappingOf(tx, caller.companyId), []);
    const [row] = await tx
      .insert(users)
      .values({
        companyId: caller.companyId,
        ...values,
        passwordHash: NO_PASSWORD,
        roles: [role],
        provisionedBy: 'scim',
        homeSiteId: null,
        siteIds: [],
      })
      .returning(columns)
      .catch(duplicateEmail);
    if (!row) throw new Error('the user insert returned no row');
    await audit(tx, {
      companyId: caller.companyId,
      actorUserId: null,
      action: 'scim.user_created',
      subjectType: 'user',
      subjectId: row.id,
      detail: { tokenId: caller.tokenId, role, active: values.status },
    });
    return presentScimUser(tx, caller, row);
  });
}

/**
 * PUT and PATCH /Users/{id}: the draft (made from the account as it is once its row is
 * locked, so two PATCHes at once cannot lose one another's) written over the account; 404
 * when it is not one of the company's. Nothing changed, nothing is written (a directory
 * sends the same values again and again). Deactivated: disabled and every session revoked
 * at once ('scim.user_deactivated'); any other change 'scim.user_updated', with the names
 * of the fields changed.
 */
export async function writeScimUser(
  db: Database,
  caller: ScimCaller,
  id: string,
  draftOf: (current: ScimUserRow) => UserDraft,
): Promise<ScimResource> {
  if (!UUID.test(id)) throw scimNotFound();
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select(columns)
      .from(users)
      .where(and(eq(users.id, id), ofCompany(caller.companyId)))
      .for('update');
    if (!current) throw scimNotFound();
    const values = checked(draftOf(current));
    const changes: [string, boolean][] = [
      ['email', values.email !== current.email],
      ['firstname', values.firstname !== current.firstname],
      ['name', values.name !== current.name],
      ['title', values.title !== current.title],
      ['contact', values.contact !== current.contact],
      ['external_id', values.externalId !== current.externalId],
      ['status', values.status !== current.status],
    ];
    const fields = changes.filter(([, changed]) => changed).map(([name]) => name);
    if (fields.length === 0) return presentScimUser(tx, caller, current);
    if (
      values.email.toLowerCase() !== current.email.toLowerCase() &&
      (await emailTaken(tx, values.email, current.id))
    ) {
      throw uniqueness((m) => m.user.emailTaken);
    }
    const [row] = await tx
      .update(users)
      .set(values)
      .where(eq(users.id, current.id))
      .returning(columns)
      .catch(duplicateEmail);
    if (!row) throw new Error('the user update returned no row');
    const deactivated = current.status && !values.status;
    if (deactivated) await revokeSessions(tx, current.id);
    await audit(tx, {
      companyId: caller.companyId,
      actorUserId: null,
      action: deactivated ? 'scim.user_deactivated' : 'scim.user_updated',
      subjectType: 'user',
      subjectId: current.id,
      detail: { tokenId: caller.tokenId, fields },
    });
    return presentScimUser(tx, caller, row);
  });
}

/**
 * DELETE /Users/{id}: the account goes as 'Supprimer' removes it (users/service.ts
 * deleteUser: the row, its sessions and memberships with it; what names it elsewhere is set
 * null or goes too), audited 'scim.user_deleted' without an actor. Never the platform's
 * staff, so never the last platform admin.
 */
export async function deleteScimUser(
  db: Database,
  caller: ScimCaller,
  current: ScimUserRow,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(users).where(and(eq(users.id, current.id), ofCompany(caller.companyId)));
    await audit(tx, {
      companyId: caller.companyId,
      actorUserId: null,
      action: 'scim.user_deleted',
      subjectType: 'user',
      subjectId: current.id,
      detail: { tokenId: caller.tokenId },
    });
  });
}
