/**
 * The foundation journey: open `/`, sign in as the seeded admin, land on the
 * default company, open the Menu with every admin tile, log out.
 */
import { describe, expect, it } from 'vitest';
import { MENU_TILES, menuTilesFor } from '@sesame/shared';
import { PHONE, screenshot } from './support/browser';
import { useSesame } from './support/sesame';

describe('foundation journey in Chromium', () => {
  const sesame = useSesame();

  it('signs the admin in, shows every admin tile, and logs out', async () => {
    const { server } = sesame;
    const page = await sesame.page();
    await page.goto('/');
    // Issue 33: the e-mail first ('Continuer'), then the password ('Soumettre').
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect.poll(() => page.getByText("L'adresse email est requise.").count()).toBe(1);

    await page.getByLabel('Adresse e-mail').fill(server.adminEmail);
    await page.getByRole('button', { name: 'Continuer' }).click();
    await page.getByRole('button', { name: 'Soumettre' }).click();
    await expect.poll(() => page.getByText('Le mot de passe est requis.').count()).toBe(1);

    await page.getByLabel('Mot de passe').fill('wrong-password');
    await page.getByRole('button', { name: 'Soumettre' }).click();
    await page.getByRole('alert').filter({ hasText: 'Identifiants incorrects.' }).waitFor();

    await page.getByLabel('Mot de passe').fill(server.adminPassword);
    await page.getByRole('button', { name: 'Soumettre' }).click();
    await page.getByText('Connexion réussie.').first().waitFor();
    await page.waitForURL(`${server.url}/demo`);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token?.length).toBeGreaterThan(10);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'token')?.value).toBe(encodeURIComponent(token!));

    await page.getByRole('link', { name: 'Menu' }).click();
    await page.waitForURL(`${server.url}/demo/menu`);
    await page.getByRole('heading', { name: 'Menu de navigation' }).waitFor();
    const tiles = await page
      .locator('[data-tile]')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-tile')));
    expect(tiles).toEqual(menuTilesFor('ROLE_ADMIN').map((t) => t.id));
    // Every tile but a host's own account tiles (issue 27), which the admin reaches from the
    // account menu.
    expect(tiles).toHaveLength(MENU_TILES.filter((t) => t.roles.join() !== 'ROLE_USER').length);
    await screenshot(page, 'foundation-menu');

    await page.getByRole('button', { name: 'Déconnexion' }).click();
    await page.getByText('Déconnecté').first().waitFor();
    await page.waitForURL(`${server.url}/sign-in`);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    // The old token is revoked on the server, not only forgotten by the browser.
    const res = await fetch(`${server.url}/api/user/info`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(401);
    await page.context().close();
  });

  it('sends a visitor without a valid token to the login screen, and the Menu to the request page', async () => {
    const { server } = sesame;
    const page = await sesame.page(PHONE);
    await page.goto('/demo/list-users');
    await page.waitForURL(`${server.url}/sign-in`);
    await page.evaluate(() => localStorage.setItem('token', 'short'));
    await page.goto('/demo/display-logs');
    await page.waitForURL(`${server.url}/sign-in`);
    await page.goto('/demo/menu');
    await page.waitForURL(/\/demo\/(request-meeting|meeting)$/);
    await page.goto('/demo');
    await page.getByRole('link', { name: 'Demander un rendez-vous' }).waitFor();
    expect(await page.getByRole('link', { name: 'Menu' }).count()).toBe(0);
    await page.context().close();
  });
});
