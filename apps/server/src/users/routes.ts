import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  USER_LIST_RULES,
  USER_MESSAGES,
  activeRole,
  listQuerySchema,
  mayChooseCompany,
  paginatedSchema,
  userCreateSchema,
  userSchema,
  userUpdateSchema,
  type ListQuery,
} from '@sesame/shared';
import {
  companyForNewRecord,
  companyItself,
  companyScope,
  loadAuthorized,
  signedIn,
} from '../auth/authorize';
import { audit } from '../audit/service';
import { assertPasswordAcceptable } from '../auth/password-policy';
import { hashPassword } from '../auth/passwords';
import type { Principal } from '../auth/principal';
import { findCompany } from '../companies/service';
import type { Db } from '../db/client';
import { listMeta } from '../db/pagination';
import { users } from '../db/schema';
import { badRequest, conflict, isUniqueViolation } from '../errors';
import { assertMayAssign, assertMayEdit, assertRoleChange } from './policy';
import { presentUser } from './presenter';
import {
  emailTaken,
  findUser,
  isActiveAdmin,
  listUsers,
  otherActiveAdmins,
  revokeSessions,
  type UserListFilter,
} from './service';

const idParams = z.object({ id: z.uuid() });
const messageSchema = z.object({ message: z.string() });
const userEnvelope = z.object({ message: z.string(), data: userSchema });

/** The company a chooser asked for must exist; 400 on the field otherwise. */
async function companyOrBadRequest(db: Db, companyId: string) {
  const company = await findCompany(db, companyId);
  if (!company) {
    throw badRequest(USER_MESSAGES.companyInvalid, { company_id: USER_MESSAGES.companyInvalid });
  }
  return company;
}

/** Spec §6 user list: a supervisor sees neither admins nor themself (done here, not on screen). */
function listFilter(who: Principal, companyId: string | undefined): UserListFilter {
  return {
    companyId,
    hideAdminsAndUserId: USER_LIST_RULES.hidesAdminsAndSelf.includes(who.role)
      ? who.userId
      : undefined,
  };
}

function duplicateEmail(error: unknown): never {
  if (isUniqueViolation(error, 'users_email_key')) throw conflict(USER_MESSAGES.emailTaken);
  throw error;
}

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/user/create',
    {
      config: { action: 'users.create' },
      schema: {
        tags: ['users'],
        summary:
          'Create a staff user. The role must be assignable by the caller (spec §6); company_id is heard only from the roles that may choose it, the others create in their own.',
        body: userCreateSchema,
        response: { 201: userEnvelope },
      },
    },
    async (request, reply) => {
      const who = signedIn(request);
      const body = request.body;
      assertMayAssign(who, body.role);
      const companyId = companyForNewRecord(who, 'users.create', body.company_id);
      if (companyId !== who.companyId) await companyOrBadRequest(app.db, companyId);
      if (await emailTaken(app.db, body.email)) throw conflict(USER_MESSAGES.emailTaken);
      assertPasswordAcceptable(body.password, [body.email, body.name, body.firstname]);

      const passwordHash = await hashPassword(body.password);
      const created = await app.db.transaction(async (tx) => {
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
          })
          .returning({ id: users.id })
          .catch(duplicateEmail);
        if (inserted) {
          await audit(tx, {
            companyId,
            actorUserId: who.userId,
            action: 'user.created',
            subjectType: 'user',
            subjectId: inserted.id,
            detail: { role: body.role },
          });
        }
        return inserted;
      });
      const row = created && (await findUser(app.db, created.id));
      if (!row) throw new Error('the user just created could not be read back');
      request.log.info({ userId: row.id, role: body.role }, 'user created');
      return reply.code(201).send({ message: USER_MESSAGES.created, data: presentUser(row) });
    },
  );

  const list = async (who: Principal, query: ListQuery, companyId: string | undefined) => {
    const { rows, total } = await listUsers(app.db, query, listFilter(who, companyId));
    return { data: rows.map(presentUser), meta: listMeta(query, total) };
  };

  app.get(
    '/user/list',
    {
      config: { action: 'users.list' },
      schema: {
        tags: ['users'],
        summary:
          'Staff users, paged (?page=&per_page=&q=). A supervisor does not see admins nor themself (spec §6).',
        querystring: listQuerySchema,
        response: { 200: paginatedSchema(userSchema) },
      },
    },
    async (request) => {
      const who = signedIn(request);
      return list(who, request.query, companyScope(who, 'users.list'));
    },
  );

  app.get(
    '/user/list/:company',
    {
      config: { action: 'employees.list' },
      schema: {
        tags: ['users'],
        summary:
          "Staff of one company (by slug or id): the user list of non-admins and the employee list '/company/{slug}/'. Another company answers 404 unless the role reaches every company.",
        params: z.object({ company: z.string().min(1).max(100) }),
        querystring: listQuerySchema,
        response: { 200: paginatedSchema(userSchema) },
      },
    },
    async (request) => {
      const { who, record: company } = await loadAuthorized(
        request,
        findCompany,
        'employees.list',
        request.params.company,
        companyItself,
      );
      return list(who, request.query, company.id);
    },
  );

  app.get(
    '/user/:id',
    {
      config: { action: 'users.update' },
      schema: {
        tags: ['users'],
        summary: 'One staff user, for the EditUser screen.',
        params: idParams,
        response: { 200: z.object({ data: userSchema }) },
      },
    },
    async (request) => {
      const { who, record: target } = await loadAuthorized(
        request,
        findUser,
        'users.update',
        request.params.id,
      );
      assertMayEdit(who, target);
      return { data: presentUser(target) };
    },
  );

  app.put(
    '/user/:id',
    {
      config: { action: 'users.update' },
      schema: {
        tags: ['users'],
        summary:
          'Update a staff user (EditUser). A blank password keeps the current one. A role change follows spec §6 for both the old and the new role; nobody raises their own role; the last admin stays an admin.',
        params: idParams,
        body: userUpdateSchema,
        response: { 200: userEnvelope },
      },
    },
    async (request) => {
      const body = request.body;
      if (body.password) {
        assertPasswordAcceptable(body.password, [body.email, body.name, body.firstname]);
      }
      const passwordHash = body.password ? await hashPassword(body.password) : undefined;
      const result = await app.db.transaction(async (tx) => {
        const { who, record: target } = await loadAuthorized(
          request,
          (_db, id: string) => findUser(tx, id),
          'users.update',
          request.params.id,
        );
        assertMayEdit(who, target);
        const roleChanges = assertRoleChange(who, target, body.role);
        const companyId =
          mayChooseCompany(who.role, 'users.create') && body.company_id !== target.companyId
            ? (await companyOrBadRequest(tx, body.company_id)).id
            : target.companyId;
        const roles = roleChanges ? [body.role] : target.roles;
        const staysAdmin = isActiveAdmin({ roles, status: body.status });
        if (
          isActiveAdmin(target) &&
          !staysAdmin &&
          (await otherActiveAdmins(tx, target.id)) === 0
        ) {
          throw conflict(USER_MESSAGES.lastAdmin);
        }
        if (await emailTaken(tx, body.email, target.id)) throw conflict(USER_MESSAGES.emailTaken);
        await tx
          .update(users)
          .set({
            companyId,
            name: body.name,
            firstname: body.firstname,
            email: body.email,
            title: body.title,
            contact: body.contact,
            roles,
            status: body.status,
            ...(body.department_id !== undefined ? { departmentId: body.department_id } : {}),
            ...(passwordHash ? { passwordHash } : {}),
          })
          .where(eq(users.id, target.id))
          .catch(duplicateEmail);
        // A new password signs the account out everywhere else.
        if (passwordHash) await revokeSessions(tx, target.id, who.sessionId);
        // One entry per change, named by what matters most in it.
        const disabled = target.status && !body.status;
        await audit(tx, {
          companyId: target.companyId,
          actorUserId: who.userId,
          action: roleChanges
            ? 'user.role_changed'
            : disabled
              ? 'user.disabled'
              : passwordHash
                ? 'user.password_reset'
                : 'user.updated',
          subjectType: 'user',
          subjectId: target.id,
          detail: {
            fromRole: activeRole(target.roles),
            toRole: activeRole(roles),
            disabled,
            passwordReset: Boolean(passwordHash),
            ...(companyId !== target.companyId ? { movedTo: companyId } : {}),
          },
        });
        const row = await findUser(tx, target.id);
        if (!row) throw new Error('the user just updated could not be read back');
        return { who, row };
      });
      request.log.info(
        { userId: result.row.id, by: result.who.userId, role: activeRole(result.row.roles) },
        'user updated',
      );
      return { message: USER_MESSAGES.updated, data: presentUser(result.row) };
    },
  );

  app.delete(
    '/user/:id',
    {
      config: { action: 'users.delete' },
      schema: {
        tags: ['users'],
        summary:
          'Delete a staff user. Their sessions end with them; the last admin cannot be deleted.',
        params: idParams,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await app.db.transaction(async (tx) => {
        const { who, record: target } = await loadAuthorized(
          request,
          (_db, id: string) => findUser(tx, id),
          'users.delete',
          request.params.id,
        );
        if (isActiveAdmin(target) && (await otherActiveAdmins(tx, target.id)) === 0) {
          throw conflict(USER_MESSAGES.lastAdmin);
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
      request.log.info({ userId: request.params.id }, 'user deleted');
      return { message: USER_MESSAGES.deleted };
    },
  );
};
