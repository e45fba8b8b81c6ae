/**
 * Every role reaches every page the matrix gives it (issue 27): the page guard follows what
 * the server serves a role on a page (STAFF_PAGE_ACTIONS), never the menu's tiles. For each
 * of the seven roles, every staff page is opened in the browser: it shows the permission
 * page exactly where the role lacks the page's actions. Then the journey that found the
 * regression: a supervisor's 'Modifier entreprise' lands on 'Liste des Compagnies'.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROLES, STAFF_PAGE_ACTIONS, menuTilesFor, opensStaffPage, type Role } from '@sesame/shared';
import { screenshot } from './support/browser';
import { createDemoStaff, type StaffMember } from './support/server';
import { useSesame } from './support/sesame';

const person = (role: Role): StaffMember => {
  const word = role.replace('ROLE_', '').toLowerCase().replace('_', '-');
  return {
    name: 'Guard',
    firstname: word,
    email: `guard.${word}@demo.test`,
    password: `Guard-${word}-Password-9`,
    title: 'Test',
    role,
  };
};

/** A page with a record in its address gets one; the guard decides before any record loads. */
const addressOf = (page: string) =>
  ({
    'edit-company': '/demo/edit-company/demo',
    'list-qrcode-events': '/demo/list-qrcode-events/no-such-event',
    'disable-user-qrcode': '/demo/disable-user-qrcode/00000000-0000-7000-8000-000000000000',
  })[page] ?? `/demo/${page}`;

/**
 * Opens `address` and tells whether it shows the permission page. The guard decides in the
 * same render that titles the page ('<page> — <company> — Sésame'), so a titled page has been
 * decided; the page's own data may still be loading.
 */
async function forbidden(page: Page, address: string): Promise<boolean> {
  await page.goto(address);
  await page.waitForFunction(
    () =>
      // A record the address names that does not exist is a page the guard let through.
      !!document.querySelector('[data-testid="forbidden"], [data-testid="not-found"]') ||
      / — .+ — Sésame$/.test(document.title),
    undefined,
    { timeout: 20_000 },
  );
  return (await page.getByTestId('forbidden').count()) > 0;
}

describe('the staff pages each role reaches (issue 27)', () => {
  const sesame = useSesame();

  beforeAll(async () => {
    for (const role of ROLES) {
      if (role !== 'ROLE_ADMIN') await createDemoStaff(sesame.server, person(role));
    }
  });

  // One test per role: 7 roles × every staff page and tile outgrew one test's time.
  it.each(ROLES)('%s opens exactly the pages whose actions it has, tiles or not', async (role) => {
    const wrong: string[] = [];
    const who = person(role);
    const page =
      role === 'ROLE_ADMIN'
        ? await sesame.signedIn(sesame.server.adminEmail, sesame.server.adminPassword)
        : await sesame.signedIn(who.email, who.password);
    for (const name of Object.keys(STAFF_PAGE_ACTIONS)) {
      const shut = await forbidden(page, addressOf(name));
      if (shut === opensStaffPage(role, name)) {
        wrong.push(`${role} on ${name}: ${shut ? 'permission page' : 'opened'}`);
      }
    }
    // Every tile of the role's menu leads to a page it may open.
    for (const tile of menuTilesFor(role)) {
      if (await forbidden(page, `/demo/${tile.path}`)) wrong.push(`${role}: tile ${tile.id}`);
    }
    await page.context().close();
    expect(wrong).toEqual([]);
  });

  it("a supervisor saves 'Modifier entreprise' and lands on their company in 'Liste des Compagnies'", async () => {
    const supervisor = person('ROLE_SUPERVISOR');
    const page = await sesame.signedIn(supervisor.email, supervisor.password);
    await page.goto('/demo/edit-company/demo');
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).first().click();
    await page.waitForURL(/\/demo\/company-list$/);
    await page.getByRole('row').filter({ hasText: 'Demo' }).first().waitFor();
    expect(await page.getByTestId('forbidden').count()).toBe(0);
    await screenshot(page, 'page-guard-supervisor-company-list');
  });

  it('a plain user (a host) sees the tiles of their account, the super admin the manager’s and more', async () => {
    const host = person('ROLE_USER');
    const page = await sesame.signedIn(host.email, host.password);
    await page.goto('/demo/menu');
    await page.getByRole('link', { name: 'Mon compte' }).waitFor();
    await page.getByRole('link', { name: 'Mes notifications' }).waitFor();
    await page.context().close();

    const top = person('ROLE_SUPER_ADMIN');
    const admin = await sesame.signedIn(top.email, top.password);
    await admin.goto('/demo/menu');
    for (const name of ['Sur place', "Journal d'audit", 'Scanner QR']) {
      await admin.getByRole('link', { name }).waitFor();
    }
    // The user list's Edit link, on every row the super admin may edit (not only their own):
    // the roles the manager assigns; never a manager's or an admin's row.
    await admin.goto('/demo/list-users');
    const row = (email: string) => admin.getByRole('row').filter({ hasText: email });
    await row(person('ROLE_EMPLOYEE').email)
      .getByRole('link', { name: /^Modifier/ })
      .waitFor();
    await row(person('ROLE_SUPERVISOR').email)
      .getByRole('link', { name: /^Modifier/ })
      .waitFor();
    expect(
      await row(person('ROLE_MANAGER').email)
        .getByRole('link', { name: /^Modifier/ })
        .count(),
    ).toBe(0);
    await screenshot(admin, 'page-guard-super-admin-menu');
  });
});
