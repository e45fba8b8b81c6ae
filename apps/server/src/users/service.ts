import { and, desc, eq, inArray, ne, not, sql, type SQL } from 'drizzle-orm';
import {
  activeRole,
  mayChooseCompany,
  type ListQuery,
  type UserCreate,
  type UserUpdate,
} from '@sesame/shared';
import { audit } from '../audit/service';
import { companyForNewRecord } from '../auth/authorize';
import { assertPasswordAcceptable } from '../auth/password-policy';
import { hashPassword } from '../auth/passwords';
import type { Principal } from '../auth/principal';
import { activeRoleOf } from '../auth/session-rule';
import { findCompany } from '../companies/service';
import type { Database, Db } from '../db/client';
import { countRows, likeAny, offsetOf } from '../db/pagination';
import { companies, sessions, sites, users } from '../db/schema';
import { badRequest, conflict, forbidden, isUniqueViolation } from '../errors';
import { isPerson } from './person';
import { assertMayAssign, assertMayEdit, assertRoleChange } from './policy';

export type UserRow = typeof users.$inferSelect & { companySlug: string; companyName: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The active role (spec §6: the first known role of the list) is ROLE_ADMIN. */
const activeRoleIsAdmin = sql`${activeRoleOf(users.roles)} = 'ROLE_ADMIN'`;

function selectUsers(db: Db) {
  return db
    .select({ user: users, companySlug: companies.slug, companyName: companies.name })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId));
}

function toRow(r: { user: typeof users.$inferSelect; companySlug: string; companyName: string }) {
  return { ...r.user, companySlug: r.companySlug, companyName: r.companyName };
}

/** A person's account (never an API key's, issue 34: its user routes answer 404). */
export async function findUser(db: Db, id: string): Promise<UserRow | null> {
  if (!UUID.test(id)) return null;
  const rows = await selectUsers(db)
    .where(and(eq(users.id, id), isPerson))
    .limit(1);
  return rows[0] ? toRow(rows[0]) : null;
}

export interface UserListFilter {
  /** undefined: every company. */
  companyId?: string;
  /** A supervisor's view: no user holding ROLE_ADMIN, and not the viewer. */
  hideAdminsAndUserId?: string;
}

export async function listUsers(
  db: Db,
  query: ListQuery,
  filter: UserListFilter,
): Promise<{ rows: UserRow[]; total: number }> {
  // People only: an API key's service account (issue 34) is in no list.
  const conditions: SQL[] = [isPerson];
  if (filter.companyId) conditions.push(eq(users.companyId, filter.companyId));
  if (filter.hideAdminsAndUserId) {
    conditions.push(ne(users.id, filter.hideAdminsAndUserId));
    conditions.push(not(sql`'ROLE_ADMIN' = any(${users.roles})`));
  }
  if (query.q) {
    conditions.push(likeAny(query.q, [users.name, users.firstname, users.email]));
  }
  const where = and(...conditions);
  const [rows, total] = await Promise.all([
    selectUsers(db)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(query.per_page)
      .offset(offsetOf(query)),
    countRows(db, users, where),
  ]);
  return { rows: rows.map(toRow), total };
}

/** Is a user with this e-mail already there (e-mails are unique case-insensitively)? */
export async function emailTaken(db: Db, email: string, exceptUserId?: string): Promise<boolean> {
  const conditions: SQL[] = [eq(sql`lower(${users.email})`, email.toLowerCase())];
  if (exceptUserId) conditions.push(ne(users.id, exceptUserId));
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(...conditions))
    .limit(1);
  return rows.length > 0;
}

/**
 * An enabled account whose active role is ROLE_ADMIN. The active role is read by
 * `activeRole` (packages/shared) here and by `activeRoleOf` (auth/session-rule.ts) in
 * SQL, the one rule loadPrincipal and the code check read too; test/active-role.test.ts
 * holds the two equal.
 */
export function isActiveAdmin(user: { roles: string[]; status: boolean }): boolean {
  return user.status && activeRole(user.roles) === 'ROLE_ADMIN';
}

/**
 * How many enabled admins other than `userId` there are. The admin rows are locked
 * for the rest of the transaction, so two admins demoting each other at the same
 * moment cannot both succeed.
 */
export async function otherActiveAdmins(tx: Db, userId: string): Promise<number> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(activeRoleIsAdmin, eq(users.status, true)))
    .for('update');
  return rows.filter((r) => r.id !== userId).length;
}

/** Ends every session of a user but `keepSessionId` (a new password, a disabled account). */
export async function revokeSessions(db: Db, userId: string, keepSessionId?: string) {
  const conditions: SQL[] = [eq(sessions.userId, userId)];
  if (keepSessionId) conditions.push(ne(sessions.id, keepSessionId));
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(...conditions, sql`${sessions.revokedAt} is null`));
}

/** The company a chooser asked for must exist; 400 on the field otherwise. */
async function companyOrBadRequest(db: Db, companyId: string) {
  const company = await findCompany(db, companyId);
  if (!company) {
    throw badRequest((m) => m.user.companyInvalid, { company_id: (m) => m.user.companyInvalid });
  }
  return company;
}

function duplicateEmail(error: unknown): never {
  if (isUniqueViolation(error, 'users_email_key')) throw conflict((m) => m.user.emailTaken);
  throw error;
}

/** The sites a user is written with (issue 28). */
interface UserSites {
  homeSiteId: string | null;
  siteIds: string[];
}

const sameSites = (a: string[], b: string[]) =>
  a.length === b.length && a.every((id) => b.includes(id));

/**
 * A user's home site and site limits as written (issue 28): `home_site_id` and `site_ids`
 * left out keep the stored ones (on creation: no limits, and the one site they are limited
 * to as their home); a user moved to another company starts again with none. Each site
 * named must be a site of the user's company, active unless the user already had it (a
 * site archived since stays until someone removes it): 400 otherwise; the home site is one
 * of the limits when there are some (400). A caller limited to some sites of that company
 * gives no more than theirs: limits within their own, never none (403 `site.notYours`).
 */
async function userSites(
  db: Db,
  who: Principal,
  companyId: string,
  body: { home_site_id?: string | null; site_ids?: string[] },
  current: (UserSites & { companyId: string }) | null,
): Promise<UserSites> {
  const kept: UserSites =
    current && current.companyId === companyId ? current : { homeSiteId: null, siteIds: [] };
  const limitedCaller = who.siteIds.length > 0 && who.companyId === companyId;
  const siteIds =
    body.site_ids !== undefined
      ? [...new Set(body.site_ids)]
      : current === null && limitedCaller
        ? who.siteIds
        : kept.siteIds;
  const homeSiteId =
    body.home_site_id !== undefined
      ? body.home_site_id
      : current === null
        ? siteIds.length === 1
          ? siteIds[0]!
          : null
        : kept.homeSiteId;

  const named = [...(body.site_ids ?? []), ...(body.home_site_id ? [body.home_site_id] : [])];
  if (named.length > 0) {
    const found = await db
      .select({ id: sites.id, archivedAt: sites.archivedAt })
      .from(sites)
      .where(and(eq(sites.companyId, companyId), inArray(sites.id, named)));
    const had = new Set([...kept.siteIds, ...(kept.homeSiteId ? [kept.homeSiteId] : [])]);
    const usable = (id: string) =>
      found.some((site) => site.id === id && (site.archivedAt === null || had.has(id)));
    if (!(body.site_ids ?? []).every(usable)) {
      throw badRequest((m) => m.user.siteInvalid, { site_ids: (m) => m.user.siteInvalid });
    }
    if (body.home_site_id && !usable(body.home_site_id)) {
      throw badRequest((m) => m.user.siteInvalid, { home_site_id: (m) => m.user.siteInvalid });
    }
  }
  if (homeSiteId && siteIds.length > 0 && !siteIds.includes(homeSiteId)) {
    throw badRequest((m) => m.user.homeSiteOutside, {
      home_site_id: (m) => m.user.homeSiteOutside,
    });
  }
  if (limitedCaller) {
    const limitsChanged = current === null || !sameSites(siteIds, kept.siteIds);
    if (
      limitsChanged &&
      (siteIds.length === 0 || siteIds.some((id) => !who.siteIds.includes(id)))
    ) {
      throw forbidden((m) => m.site.notYours);
    }
    if (homeSiteId && homeSiteId !== kept.homeSiteId && !who.siteIds.includes(homeSiteId)) {
      throw forbidden((m) => m.site.notYours);
    }
  }
  return { homeSiteId, siteIds };
}

/** A user just written, read back as the API presents it. */
async function readBack(db: Db, id: string): Promise<UserRow> {
  const row = await findUser(db, id);
  if (!row) throw new Error('the user just written could not be read back');
  return row;
}

/**
 * 'Créer un utilisateur' (spec §5, §6): the role must be one the caller may give, the
 * company theirs unless they may choose it, the e-mail free, the password acceptable.
 * Audited with the role given.
 */
export async function createUser(db: Database, who: Principal, body: UserCreate): Promise<UserRow> {
  assertMayAssign(who, body.role);
  const companyId = companyForNewRecord(who, 'users.create', body.company_id);
  if (companyId !== who.companyId) await companyOrBadRequest(db, companyId);
  if (await emailTaken(db, body.email)) throw conflict((m) => m.user.emailTaken);
  assertPasswordAcceptable(body.password, [body.email, body.name, body.firstname]);
  const passwordHash = await hashPassword(body.password);
  return db.transaction(async (tx) => {
    const placed = await userSites(tx, who, companyId, body, null);
    const [inserted] = await tx
      .insert(users)
      .values({
        companyId,
        name: body.name,
        firstname: body.firstname,
        email: body.email,
        passwordHash,
        title: body.title,
        contact: body.contact,
        roles: [body.role],
        status: body.status,
        departmentId: body.department_id ?? null,
        homeSiteId: placed.homeSiteId,
        siteIds: placed.siteIds,
      })
      .returning({ id: users.id })
      .catch(duplicateEmail);
    if (!inserted) throw new Error('the user insert returned no row');
    await audit(tx, {
      companyId,
      actorUserId: who.userId,
      action: 'user.created',
      subjectType: 'user',
      subjectId: inserted.id,
      detail: {
        role: body.role,
        ...(placed.siteIds.length > 0 ? { site_ids: placed.siteIds } : {}),
      },
    });
    return readBack(tx, inserted.id);
  });
}

/** The names of the fields an update changes (the audit's `fields`: names only, no values). */
function changedFields(
  target: UserRow,
  body: UserUpdate,
  after: {
    companyId: string;
    roles: string[];
    password: boolean;
    sitesChanged: boolean;
    homeSiteId: string | null;
  },
): string[] {
  const changes: [string, boolean][] = [
    ['name', body.name !== target.name],
    ['firstname', body.firstname !== target.firstname],
    ['email', body.email !== target.email],
    ['title', (body.title ?? null) !== target.title],
    ['contact', (body.contact ?? null) !== target.contact],
    ['role', !sameSites(after.roles, target.roles)],
    ['status', body.status !== target.status],
    [
      'department_id',
      body.department_id !== undefined && body.department_id !== target.departmentId,
    ],
    ['company_id', after.companyId !== target.companyId],
    ['password', after.password],
    ['home_site_id', after.homeSiteId !== target.homeSiteId],
    ['site_ids', after.sitesChanged],
  ];
  return changes.filter(([, changed]) => changed).map(([field]) => field);
}

/** Which audit action names a user update: what matters most in it. */
function updateAction(change: { role: boolean; disabled: boolean; password: boolean }) {
  if (change.role) return 'user.role_changed' as const;
  if (change.disabled) return 'user.disabled' as const;
  if (change.password) return 'user.password_reset' as const;
  return 'user.updated' as const;
}

/**
 * 'Modifier l'utilisateur' (spec §6), on a target the caller may reach:
 *   - only someone who could have created the target edits them (assertMayEdit);
 *   - a role change needs the right to give both the old role and the new one;
 *   - the last enabled admin is never disabled nor demoted (409);
 *   - a new password (optional; blank keeps the current one) passes the policy and
 *     ends every other session of the account; disabling the account ends them all,
 *     so re-enabling it later brings no old token back. A role change needs no
 *     revocation: every request reads the role afresh (auth/principal.ts).
 * One audit entry, named by the change that matters most, with what changed (two for a
 * move to another company: one in each company's log).
 */
export async function updateUser(
  db: Database,
  who: Principal,
  target: UserRow,
  body: UserUpdate,
): Promise<UserRow> {
  assertMayEdit(who, target);
  const roleChanges = assertRoleChange(who, target, body.role);
  if (body.password) {
    assertPasswordAcceptable(body.password, [body.email, body.name, body.firstname]);
  }
  const passwordHash = body.password ? await hashPassword(body.password) : undefined;
  return db.transaction(async (tx) => {
    const companyId =
      mayChooseCompany(who.role, 'users.create') && body.company_id !== target.companyId
        ? (await companyOrBadRequest(tx, body.company_id)).id
        : target.companyId;
    const roles = roleChanges ? [body.role] : target.roles;
    const staysAdmin = isActiveAdmin({ roles, status: body.status });
    if (isActiveAdmin(target) && !staysAdmin && (await otherActiveAdmins(tx, target.id)) === 0) {
      throw conflict((m) => m.user.lastAdmin);
    }
    if (await emailTaken(tx, body.email, target.id)) throw conflict((m) => m.user.emailTaken);
    const placed = await userSites(tx, who, companyId, body, target);
    await tx
      .update(users)
      .set({
        companyId,
        name: body.name,
        firstname: body.firstname,
        email: body.email,
        title: body.title ?? null,
        contact: body.contact ?? null,
        roles,
        status: body.status,
        ...(body.department_id !== undefined ? { departmentId: body.department_id } : {}),
        ...(passwordHash ? { passwordHash } : {}),
        homeSiteId: placed.homeSiteId,
        siteIds: placed.siteIds,
      })
      .where(eq(users.id, target.id))
      .catch(duplicateEmail);
    const disabled = target.status && !body.status;
    const sitesChanged = !sameSites(placed.siteIds, target.siteIds);
    const fields = changedFields(target, body, {
      companyId,
      roles,
      password: Boolean(passwordHash),
      sitesChanged,
      homeSiteId: placed.homeSiteId,
    });
    if (disabled) await revokeSessions(tx, target.id);
    else if (passwordHash) await revokeSessions(tx, target.id, who.sessionId);
    const entry = {
      actorUserId: who.userId,
      action: updateAction({ role: roleChanges, disabled, password: Boolean(passwordHash) }),
      subjectType: 'user',
      subjectId: target.id,
      detail: {
        fromRole: activeRole(target.roles),
        toRole: activeRole(roles),
        disabled,
        passwordReset: Boolean(passwordHash),
        fields,
        ...(sitesChanged ? { site_ids: placed.siteIds } : {}),
        ...(placed.homeSiteId !== target.homeSiteId ? { home_site_id: placed.homeSiteId } : {}),
      },
    } as const;
    if (companyId === target.companyId) {
      await audit(tx, { ...entry, companyId });
    } else {
      // A user moved between companies (only a platform role can): both companies' logs say so.
      await audit(tx, {
        ...entry,
        companyId: target.companyId,
        detail: { ...entry.detail, movedTo: companyId },
      });
      await audit(tx, {
        ...entry,
        companyId,
        detail: { ...entry.detail, movedFrom: target.companyId },
      });
    }
    return readBack(tx, target.id);
  });
}

/** Deletes a staff user (their sessions go with them); never the last enabled admin. */
export async function deleteUser(db: Database, who: Principal, target: UserRow): Promise<void> {
  await db.transaction(async (tx) => {
    if (isActiveAdmin(target) && (await otherActiveAdmins(tx, target.id)) === 0) {
      throw conflict((m) => m.user.lastAdmin);
    }
    await tx.delete(users).where(eq(users.id, target.id));
    await audit(tx, {
      companyId: target.companyId,
      actorUserId: who.userId,
      action: 'user.deleted',
      subjectType: 'user',
      subjectId: target.id,
    });
  });
}
