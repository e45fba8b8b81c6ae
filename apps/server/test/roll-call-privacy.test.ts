/**
 * A roll call's record keeps a copy of the names it counted: privacy by default
 * (issue 16) applies to it too. It goes with the identity period after it ended,
 * and an erasure removes the person from every roll call.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rollCallPeople, rollCalls, visitorChecks } from '../src/db/schema';
import { erasePerson, findPerson } from '../src/privacy/rights';
import { purgeDue } from '../src/privacy/retention';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildTenant, buildVisitor } from './helpers/factories';

describe(`roll-call records and privacy (${testDatabaseKind})`, () => {
  const ctx = useTestApp();

  async function endedRollCallWith(firstname: string) {
    const { company, staff } = await buildTenant(ctx.db);
    const visitor = await buildVisitor(ctx.db, { company, firstname });
    await ctx.db.insert(visitorChecks).values({
      companyId: company.id,
      siteId: visitor.siteId,
      visitorId: visitor.id,
      checkInMethod: 'scan',
    });
    const desk = as(ctx.app, await tokenFor(ctx.app, staff.ROLE_EMPLOYEE.email));
    const started = await desk({ method: 'POST', url: '/api/roll-calls', payload: {} });
    expect(started.statusCode, started.body).toBe(201);
    const id = started.json<{ data: { id: string } }>().data.id;
    expect((await desk({ method: 'POST', url: `/api/roll-calls/${id}/end` })).statusCode).toBe(200);
    return { id, visitor };
  }

  it('an ended roll call goes after the identity period; a recent one stays', async () => {
    const old = await endedRollCallWith('Ancienne');
    const recent = await endedRollCallWith('Récente');
    await ctx.db
      .update(rollCalls)
      .set({
        endedAt: sql`now() - interval '400 days'`,
        startedAt: sql`now() - interval '400 days'`,
      })
      .where(eq(rollCalls.id, old.id));

    const counts = await purgeDue(ctx.db, ctx.app.storage);
    expect(counts.rollCalls).toBeGreaterThanOrEqual(1);
    expect(await ctx.db.select().from(rollCalls).where(eq(rollCalls.id, old.id))).toEqual([]);
    expect(
      await ctx.db.select().from(rollCallPeople).where(eq(rollCallPeople.rollCallId, old.id)),
    ).toEqual([]);
    expect(await ctx.db.select().from(rollCalls).where(eq(rollCalls.id, recent.id))).toHaveLength(
      1,
    );
  });

  it('erasing a person removes them from every roll call', async () => {
    const { id, visitor } = await endedRollCallWith('Effacée');
    const person = await findPerson(ctx.db, 'visitor', visitor.id);
    expect(person).not.toBeNull();
    await ctx.db.transaction((tx) => erasePerson(tx, person!));
    const left = await ctx.db
      .select()
      .from(rollCallPeople)
      .where(eq(rollCallPeople.rollCallId, id));
    expect(left).toEqual([]);
    expect(await ctx.db.select().from(rollCalls).where(eq(rollCalls.id, id))).toHaveLength(1);
  });
});
