/**
 * Issue 15: Annuler on the waiting screen declines the request, recorded as made by
 * the staff member, and the visitor is told by mail (with the reason when given); a
 * request already decided is never overwritten.
 */
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { REQUEST_MESSAGES } from '@sesame/shared';
import { mailOutbox, visitRequests } from '../src/db/schema';
import { VISITOR_DECLINED_MAIL } from '../src/mail/outbox';
import { as, tokenFor, useTestApp } from './helpers/app';
import { buildRequest, buildTenant, buildVisitor } from './helpers/factories';
import { testDatabaseKind } from './helpers/db';

describe(`PUT /api/requests/decline/{id} (${testDatabaseKind})`, () => {
  const ctx = useTestApp();

  it('the ladder, the decision recorded once, and the visitor’s decline mail', async () => {
    const acme = await buildTenant(ctx.db);
    const globex = await buildTenant(ctx.db);
    const visitor = await buildVisitor(ctx.db, { company: acme.company });
    const pending = await buildRequest(ctx.db, { company: acme.company, visitor });
    const url = `/api/requests/decline/${pending.id}`;
    const call = async (email: string | null, payload: object = {}) =>
      as(ctx.app, email ? await tokenFor(ctx.app, email) : null)({ method: 'PUT', url, payload });

    expect((await call(null)).statusCode).toBe(401);
    expect((await call(acme.staff.ROLE_SUPERVISOR.email)).statusCode).toBe(403);
    const long = await call(acme.staff.ROLE_EMPLOYEE.email, { reason: 'x'.repeat(1001) });
    expect(long.statusCode).toBe(400);
    expect((await call(globex.staff.ROLE_EMPLOYEE.email)).statusCode).toBe(404);

    const declined = await call(acme.staff.ROLE_EMPLOYEE.email, { reason: 'Hôte en congé' });
    expect(declined.statusCode).toBe(200);
    expect(declined.json().message).toBe(REQUEST_MESSAGES.declinedByStaff);
    const [row] = await ctx.db.select().from(visitRequests).where(eq(visitRequests.id, pending.id));
    expect(row).toMatchObject({
      confirmed: false,
      status: 2,
      declineReason: 'Hôte en congé',
      decidedBy: acme.staff.ROLE_EMPLOYEE.id,
    });
    // The request list says 'Annulé' (staff cancelled it), with the reason (issue 27).
    const list = await as(
      ctx.app,
      await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email),
    )({ method: 'GET', url: `/api/requests/list/${acme.company.slug}?per_page=100` });
    const states = Object.fromEntries(
      (
        list.json() as { data: { id: string; state: string; decline_reason: string | null }[] }
      ).data.map((r) => [r.id, r]),
    );
    expect(states[pending.id]).toMatchObject({
      state: 'cancelled',
      decline_reason: 'Hôte en congé',
    });
    const mails = await ctx.db
      .select()
      .from(mailOutbox)
      .where(
        and(eq(mailOutbox.kind, VISITOR_DECLINED_MAIL), eq(mailOutbox.toAddress, visitor.email)),
      );
    expect(mails).toHaveLength(1);

    // Decided: neither a second Annuler nor a late Valider changes it.
    const again = await call(acme.staff.ROLE_ADMIN.email);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(REQUEST_MESSAGES.alreadyDeclined);
    const confirm = await as(
      ctx.app,
      await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email),
    )({
      method: 'PUT',
      url: `/api/requests/update/${pending.id}`,
      payload: { status: 1, confirmed: 1 },
    });
    expect(confirm.statusCode).toBe(409);
    expect(
      await ctx.db
        .select()
        .from(mailOutbox)
        .where(
          and(eq(mailOutbox.kind, VISITOR_DECLINED_MAIL), eq(mailOutbox.toAddress, visitor.email)),
        ),
    ).toHaveLength(1);
  });

  it('a confirmed request is not declined afterwards', async () => {
    const acme = await buildTenant(ctx.db);
    const visitor = await buildVisitor(ctx.db, { company: acme.company });
    const confirmed = await buildRequest(ctx.db, {
      company: acme.company,
      visitor,
      status: 1,
      confirmed: true,
    });
    const res = await as(
      ctx.app,
      await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email),
    )({
      method: 'PUT',
      url: `/api/requests/decline/${confirmed.id}`,
      payload: {},
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(REQUEST_MESSAGES.alreadyConfirmed);
  });
});
