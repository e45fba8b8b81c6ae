import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../params';
import {
  USER_LIST_RULES,
  activeRole,
  listQuerySchema,
  paginatedSchema,
  userCreateSchema,
  userSchema,
  userUpdateSchema,
  type ListQuery,
} from '@sesame/shared';
import { readPhones } from '@sesame/shared/phone';
import { companyScope, loadAuthorized, signedIn } from '../auth/authorize';
import type { Principal } from '../auth/principal';
import { loadCompany } from '../companies/load';
import { listMeta } from '../db/pagination';
import { assertMayEdit } from './policy';
import { presentUser } from './presenter';
import {
  createUser,
  deleteUser,
  findUser,
  listUsers,
  updateUser,
  type UserListFilter,
} from './service';
import { say } from '../language';

const messageSchema = z.object({ message: z.string() });
const userEnvelope = z.object({ message: z.string(), data: userSchema });
/** Issue 27: a staff member's phone is read and stored as a visitor's is (E.164). */
const userCreateBody = readPhones(userCreateSchema, 'contact');
const userUpdateBody = readPhones(userUpdateSchema, 'contact');

/** Spec §6 user list: a supervisor sees neither admins nor themself (done here, not on screen). */
function listFilter(who: Principal, companyId: string | undefined): UserListFilter {
  return {
    companyId,
    hideAdminsAndUserId: USER_LIST_RULES.hidesAdminsAndSelf.includes(who.role)
      ? who.userId
      : undefined,
  };
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
        body: userCreateBody,
        response: { 201: userEnvelope },
      },
    },
    async (request, reply) => {
      const who = signedIn(request);
      const row = await createUser(app.db, who, request.body);
      request.log.info({ userId: row.id, role: request.body.role }, 'user created');
      return reply
        .code(201)
        .send({ message: say(request, (m) => m.user.created), data: presentUser(row) });
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
      const { who, record: company } = await loadCompany(request, request.params.company);
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
      const { who, record: target } = await loadAuthorized(request, findUser, request.params.id);
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
        body: userUpdateBody,
        response: { 200: userEnvelope },
      },
    },
    async (request) => {
      const { who, record: target } = await loadAuthorized(request, findUser, request.params.id);
      const row = await updateUser(app.db, who, target, request.body);
      request.log.info(
        { userId: row.id, by: who.userId, role: activeRole(row.roles) },
        'user updated',
      );
      return { message: say(request, (m) => m.user.updated), data: presentUser(row) };
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
      const { who, record: target } = await loadAuthorized(request, findUser, request.params.id);
      await deleteUser(app.db, who, target);
      request.log.info({ userId: request.params.id }, 'user deleted');
      return { message: say(request, (m) => m.user.deleted) };
    },
  );
};
