/**
 * 'Mon compte' (issue 17): the seeded admin signs in with the printed password
 * (through the login screen's 'Changer le mot de passe'), opens Mon compte from the
 * navbar's account menu too, changes the password, signs out; the old password is
 * refused and the new one signs in. Then the admin saves their own edit page, which
 * no longer demands Titre and Téléphone, and sets a host's new password there.
 */
import { describe, expect, it } from 'vitest';
import { field, screenshot } from './support/browser';
import { apiToken } from './support/server';
import { useSesame } from './support/sesame';

const NEW_PASSWORD = 'Baobab-Pirogue-Lagune-27';
const HOST = {
  name: 'Koné',
  firstname: 'Awa',
  email: 'awa.kone@demo.test',
  password: 'Mangue-Hibiscus-Quai-48',
  title: 'Hôte',
  role: 'ROLE_USER',
};
const HOST_NEW_PASSWORD = 'Tambour-Savane-Pirogue-61';

describe('Mon compte in Chromium', () => {
  const sesame = useSesame({ staff: [HOST] });

  /** A user's id, looked up through the API as the admin (set-up, not the journey). */
  async function idOf(email: string): Promise<string> {
    const { server } = sesame;
    const token = await apiToken(server, server.adminEmail, NEW_PASSWORD);
    const res = await fetch(`${server.url}/api/user/list?q=${encodeURIComponent(email)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const found = (await res.json()) as { data: { id: string; email: string }[] };
    const user = found.data.find((row) => row.email === email);
    if (!user) throw new Error(`no user ${email}`);
    return user.id;
  }

  it('the seeded admin changes the printed password on Mon compte, signs out and signs in with the new one', async () => {
    const { server } = sesame;
    const page = await sesame.page();
    // The login screen's 'Changer le mot de passe' leads there, once signed in.
    await page.goto('/sign-in');
    await page.getByRole('link', { name: 'Changer le mot de passe' }).click();
    await page.getByLabel('Adresse e-mail').fill(server.adminEmail);
    await page.getByRole('button', { name: 'Continuer' }).click();
    await page.getByLabel('Mot de passe').fill(server.adminPassword);
    await page.getByRole('button', { name: 'Soumettre' }).click();
    await page.waitForURL(/\/demo\/mon-compte$/);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Mon compte', level: 1 }).isVisible())
      .toBe(true);

    // And so does the navbar's account menu, from any page.
    await page.goto('/demo');
    await page.getByTestId('user-menu').click();
    const item = page.getByRole('menuitem', { name: 'Mon compte' });
    await expect.poll(() => item.isVisible()).toBe(true);
    await screenshot(page, 'account-user-menu');
    await item.click();
    await page.waitForURL(/\/demo\/mon-compte$/);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Mon compte', level: 1 }).isVisible())
      .toBe(true);
    await expect.poll(() => page.getByText(server.adminEmail).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Administrateur').isVisible()).toBe(true);

    // A mismatch is caught on the page, before anything is sent.
    await field(page, 'Mot de passe actuel').fill(server.adminPassword);
    await field(page, 'Nouveau mot de passe').fill(NEW_PASSWORD);
    await field(page, 'Confirmer le mot de passe').fill(`${NEW_PASSWORD}!`);
    const submit = page.getByRole('button', { name: 'Changer le mot de passe' });
    await submit.click();
    await expect
      .poll(() =>
        page.getByText('Les deux mots de passe ne correspondent pas.').first().isVisible(),
      )
      .toBe(true);

    // A wrong current password: the server's answer, on its field.
    await field(page, 'Mot de passe actuel').fill('Pas-le-bon-mot-de-passe');
    await field(page, 'Confirmer le mot de passe').fill(NEW_PASSWORD);
    await submit.click();
    await expect
      .poll(() => page.getByText('Le mot de passe actuel est incorrect.').first().isVisible())
      .toBe(true);

    await field(page, 'Mot de passe actuel').fill(server.adminPassword);
    await submit.click();
    const done = page.getByTestId('account-feedback');
    await expect.poll(() => done.textContent()).toContain('Mot de passe modifié.');
    // The form is emptied for the next time.
    expect(await field(page, 'Nouveau mot de passe').inputValue()).toBe('');
    // From the top, so the sticky navbar sits where a person sees it.
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'account-password-changed');

    await page.getByRole('button', { name: 'Déconnexion' }).click();
    await page.waitForURL(/\/sign-in$/);

    // The printed password no longer opens the account.
    await page.getByLabel('Adresse e-mail').fill(server.adminEmail);
    await page.getByRole('button', { name: 'Continuer' }).click();
    await page.getByLabel('Mot de passe').fill(server.adminPassword);
    await page.getByRole('button', { name: 'Soumettre' }).click();
    await expect.poll(() => page.getByText('Identifiants incorrects.').isVisible()).toBe(true);

    // The new one does (back to the company, or to the page left at sign-out).
    await page.getByLabel('Mot de passe').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Soumettre' }).click();
    await page.waitForURL(/\/demo(\/mon-compte)?$/);
    await expect
      .poll(() => page.getByRole('button', { name: 'Déconnexion' }).isVisible())
      .toBe(true);

    await page.context().close();
  });

  it("the admin saves their own edit page without Titre and Téléphone, and sets a host's new password there", async () => {
    const { server } = sesame;
    const page = await sesame.page();
    await page.goto('/sign-in');
    await page.getByLabel('Adresse e-mail').fill(server.adminEmail);
    await page.getByRole('button', { name: 'Continuer' }).click();
    // The password the journey above chose (the tests of a file run in order).
    await page.getByLabel('Mot de passe').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Soumettre' }).click();
    await page.waitForURL(/\/demo$/);

    // The admin's own edit page: the seeded account has no title nor phone, and need not.
    // (Spec §2: the user list's Edit link is for super admin and ROLE_SESAME; an admin opens it by its address.)
    await page.goto(`/demo/edit-user/${await idOf(server.adminEmail)}`);
    await expect.poll(() => field(page, 'Titre').inputValue()).toBe('');
    expect(await field(page, 'Titre').getAttribute('required')).toBeNull();
    expect(await field(page, 'Téléphone').getAttribute('required')).toBeNull();
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await expect
      .poll(() => page.getByText('Utilisateur mis à jour avec succès.').first().isVisible())
      .toBe(true);

    // Whoever may edit a user sets a new password there.
    await page.goto(`/demo/edit-user/${await idOf(HOST.email)}`);
    await expect.poll(() => field(page, 'Email').inputValue()).toBe(HOST.email);
    await field(page, 'Mot de passe').fill(HOST_NEW_PASSWORD);
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await expect
      .poll(() => page.getByText('Utilisateur mis à jour avec succès.').first().isVisible())
      .toBe(true);
    await expect(apiToken(server, HOST.email, HOST.password)).rejects.toThrow(/401/);
    expect((await apiToken(server, HOST.email, HOST_NEW_PASSWORD)).length).toBeGreaterThan(10);
    await page.context().close();
  });
});
