/**
 * The active role has one meaning (spec §6: the first known role of the list, else
 * ROLE_USER): `activeRole` in packages/shared, read by the web and the server, and
 * `activeRoleOf` in SQL (auth/session-rule.ts), read by loadPrincipal, the code
 * check's statement and the last-admin rule. These hold the two equal.
 */
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activeRole } from '@sesame/shared';
import { loadPrincipal } from '../src/auth/principal';
import { activeRoleOf } from '../src/auth/session-rule';
import { sessions, users } from '../src/db/schema';
import { isActiveAdmin, otherActiveAdmins } from '../src/users/service';
import { useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildCompany, buildUser } from './helpers/factories';

const LISTS: string[][] = [
  ['ROLE_ADMIN'],
  ['ROLE_EMPLOYEE', 'ROLE_ADMIN'],
  ['ROLE_UNKNOWN', 'ROLE_ADMIN', 'ROLE_EMPLOYEE'],
  ['ROLE_UNKNOWN', 'ROLE_SUPERVISOR'],
  ['ROLE_UNKNOWN'],
  [],
  ['ROLE_SUPER_ADMIN', 'ROLE_USER'],
];

describe(`the active role (${testDatabaseKind})`, () => {
  const ctx = useTestApp();

  it('reads the same role in SQL as in TypeScript, for every list', async () => {
    const company = await buildCompany(ctx.db);
    const built = await Promise.all(LISTS.map((roles) => buildUser(ctx.db, { company, roles })));
    const rows = await ctx.db
      .select({ id: users.id, roles: users.roles, role: activeRoleOf(users.roles) })
      .from(users)
      .where(
        inArray(
          users.id,
          built.map((u) => u.id),
        ),
      );
    expect(rows).toHaveLength(LISTS.length);
    for (const row of rows) expect(row.role).toBe(activeRole(row.roles));
  });

  it('is what loadPrincipal gives a live session', async () => {
    const company = await buildCompany(ctx.db);
    const user = await buildUser(ctx.db, {
      company,
      roles: ['ROLE_UNKNOWN', 'ROLE_MANAGER', 'ROLE_ADMIN'],
    });
    const [session] = await ctx.db
      .insert(sessions)
      .values({ userId: user.id, expiresAt: new Date(Date.now() + 3_600_000) })
      .returning();
    const principal = await loadPrincipal(ctx.db, session!.id, user.id);
    expect(principal?.role).toBe('ROLE_MANAGER');
    await ctx.db.update(users).set({ status: false }).where(eq(users.id, user.id));
    expect(await loadPrincipal(ctx.db, session!.id, user.id)).toBeNull();
  });

  it('makes an admin of the last-admin rule in SQL and in TypeScript alike', async () => {
    const company = await buildCompany(ctx.db);
    const admin = await buildUser(ctx.db, { company, roles: ['ROLE_UNKNOWN', 'ROLE_ADMIN'] });
    const notAdmin = await buildUser(ctx.db, { company, roles: ['ROLE_EMPLOYEE', 'ROLE_ADMIN'] });
    expect(isActiveAdmin(admin)).toBe(true);
    expect(isActiveAdmin(notAdmin)).toBe(false);
    const counted = await ctx.db.transaction(async (tx) => {
      const others = await otherActiveAdmins(tx, notAdmin.id);
      const withoutAdmin = await otherActiveAdmins(tx, admin.id);
      return others - withoutAdmin;
    });
    // Leaving `admin` out removes one admin from the count; leaving `notAdmin` out removes none.
    expect(counted).toBe(1);
  });
});
