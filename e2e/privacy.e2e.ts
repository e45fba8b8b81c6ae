/**
 * Privacy by default (issue 16): the platform admin shortens how long identity documents
 * are kept in the company's 'Confidentialité' section, looks at a visitor's identity
 * document in the request list, and finds both — the retention change and that view, with
 * who and when — in the audit log, filtered by action.
 * Issue 27: the request list draws no identity document; 'Voir la pièce' opens it, and that
 * opening is the one `document.viewed` entry. The audit screen names the actor (name, role,
 * company) and the subject, says what happened in a sentence (a retention change before →
 * after), and its search finds a visitor by name.
 * Issue 26 §9: what the Sésame platform's own staff (a ROLE_SESAME of another company) did to
 * the company shows in its log with a « Plateforme Sésame » badge, and the origin filter
 * shows that alone, to the company's own manager.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newContext, screenshot, signIn } from './support/browser';
import { apiToken, createDemoStaff, type RunningServer } from './support/server';
import { createOpenEvent } from './support/events';
import { useSesame } from './support/sesame';
import { ID_PNG, createConfirmedVisitor } from './support/visitors';

const STAFF_PASSWORD = 'Un-mot-de-passe-solide-42';

/** How many `document.viewed` entries the admin's audit log holds (read through the API). */
async function documentViews(server: RunningServer, token: string): Promise<number> {
  const res = await fetch(`${server.url}/api/audit?action=document.viewed&per_page=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 200) throw new Error(`/audit: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { meta: { total: number } }).meta.total;
}

/** Set-up through the API: a call as `token` that must succeed; answers its `data`. */
async function created(
  server: RunningServer,
  token: string,
  path: string,
  body: FormData | Record<string, unknown>,
): Promise<{ id: string }> {
  const json = !(body instanceof FormData);
  const res = await fetch(`${server.url}/api${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(json ? { 'content-type': 'application/json' } : {}),
    },
    body: json ? JSON.stringify(body) : body,
  });
  if (res.status !== 200 && res.status !== 201) {
    throw new Error(`${path}: ${res.status} ${await res.text()}`);
  }
  return ((await res.json()) as { data: { id: string } }).data;
}

/** Another company than the demo one, made by the platform admin. */
function companyForm(name: string): FormData {
  const body = new FormData();
  const fields = {
    name,
    id_number: 'RC-0002',
    address: 'Rue 2',
    city: 'Abidjan',
    state: 'Lagunes',
    country: 'CI',
    zipcode: '00225',
    company_field: 'Services',
    point_contact: 'Awa Koné',
    title: 'Directrice',
    email: 'contact@example.com',
    phone_number: '0701020304',
  };
  for (const [key, value] of Object.entries(fields)) body.set(key, value);
  body.set('logo', new Blob([ID_PNG], { type: 'image/png' }), 'logo.png');
  return body;
}

describe('privacy: retention, document views and the audit log in Chromium', () => {
  const sesame = useSesame();

  beforeAll(async () => {
    await createConfirmedVisitor(sesame.server, await apiToken(sesame.server), {
      firstname: 'Mariam',
      lastname: 'Ouattara',
      email: 'mariam.ouattara@example.com',
    });
  });

  it('an admin changes a retention period, views an identity document, and finds that view in the audit log', async () => {
    const context = await newContext(sesame.browser, sesame.server.url);
    const page: Page = await context.newPage();
    await signIn(page, sesame.server.adminEmail, sesame.server.adminPassword);

    // Confidentialité: identity documents kept 15 days instead of 30. A shortened period
    // waits 7 days (issue 26): the field says when it applies, visitors read 30 until then.
    await page.goto('/demo/edit-company/demo');
    const section = page.getByRole('region', { name: 'Confidentialité' });
    const documents = section.getByLabel(/^Pièces d'identité et photos/);
    await expect.poll(() => documents.inputValue()).toBe('30');
    await section
      .getByText("Au moins 365 jours : le minimum fixé par l'exploitant de Sésame.")
      .waitFor();
    await documents.fill('15');
    await section.getByRole('button', { name: 'Enregistrer' }).click();
    await page
      .getByText(
        "Les paramètres de confidentialité ont été enregistrés. Une durée raccourcie ne s'appliquera que dans 7 jours.",
      )
      .waitFor();
    await section
      .getByText(/^Raccourci à 15 jours : s'applique le \d{1,2} \S+ \d{4}\. D'ici là : 30 jours\.$/)
      .waitFor();
    await expect.poll(() => documents.inputValue()).toBe('15');
    await expect
      .poll(() => section.getByTestId('privacy-notice-preview').textContent())
      .toContain('supprimées 30 jours après la visite');

    // The request list draws no identity document: nothing is fetched, nothing is audited.
    const adminToken = await apiToken(sesame.server);
    const viewsBefore = await documentViews(sesame.server, adminToken);
    await page.goto('/demo/list-qrcode');
    const row = page.getByRole('row').filter({ hasText: 'mariam.ouattara@example.com' });
    const viewDocument = row.getByRole('button', { name: 'Voir la pièce de Mariam Ouattara' });
    await viewDocument.waitFor();
    expect(await page.locator('img[src^="/api/files/"]').count()).toBe(0);
    expect(await row.locator('img').count()).toBe(0);
    expect(await documentViews(sesame.server, adminToken)).toBe(viewsBefore);
    await screenshot(page, 'privacy-request-list-no-document');

    // 'Voir la pièce' opens it in a dialog: that opening is the one audited view.
    await viewDocument.click();
    const dialog = page.getByRole('dialog');
    const shown = dialog.getByRole('img', { name: "Pièce d'identité de Mariam Ouattara" });
    await shown.waitFor();
    await page.waitForFunction(
      (el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0,
      await shown.elementHandle(),
    );
    await expect.poll(() => documentViews(sesame.server, adminToken)).toBe(viewsBefore + 1);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await documentViews(sesame.server, adminToken)).toBe(viewsBefore + 1);

    // The audit log ('Journal d'audit', a tile of the admin's menu), filtered on document views:
    // who (name, role, company), about whom, and a sentence — no id, no JSON.
    await page.goto('/demo/audit');
    await page.getByRole('heading', { name: "Journal d'audit" }).waitFor();
    const action = page
      .getByRole('textbox', { name: 'Action', exact: true })
      .or(page.getByRole('combobox', { name: 'Action', exact: true }))
      .first();
    await action.click();
    await page.getByRole('option', { name: "Pièce d'identité consultée" }).click();
    const rows = page.getByTestId('audit-table').locator('tbody tr');
    await expect
      .poll(async () =>
        (await rows.allTextContents()).every((r) => r.includes("Pièce d'identité consultée")),
      )
      .toBe(true);
    expect(await rows.count()).toBe(viewsBefore + 1);
    const viewed = rows.first();
    await viewed.getByText('Sésame Admin', { exact: true }).waitFor();
    await viewed.getByText(/^Administrateur · /).waitFor();
    await viewed.getByText('Mariam Ouattara', { exact: true }).waitFor();
    expect(await viewed.getByTestId('audit-sentence').textContent()).toBe(
      "Sésame Admin a consulté la pièce d'identité de Mariam Ouattara.",
    );
    expect(await viewed.textContent()).not.toMatch(/[{}]/);
    await screenshot(page, 'privacy-audit-log');

    // The retention change, in a sentence: before → after, and when the shortening applies.
    await action.click();
    await page.getByRole('option', { name: 'Durées de conservation modifiées' }).click();
    await expect
      .poll(() => rows.first().getByTestId('audit-sentence').textContent())
      .toMatch(
        /^Sésame Admin a modifié les durées de conservation : pièces d'identité et photos : 30 → 15 jours \(à partir du \d{1,2} \S+ \d{4}\)\.$/,
      );

    // The search finds the visitor by name, in any case and order: every entry about her.
    await page.goto('/demo/audit');
    await page.getByRole('heading', { name: "Journal d'audit" }).waitFor();
    await page.getByRole('textbox', { name: 'Rechercher', exact: true }).fill('OUATTARA mariam');
    // The unfiltered page holds her entries too: wait for the search's own answer.
    await expect
      .poll(async () => {
        const texts = await rows.allTextContents();
        return texts.length > 0 && texts.every((r) => r.includes('Mariam Ouattara'));
      })
      .toBe(true);
    expect((await rows.allTextContents()).join('|')).toContain(
      "a consulté la pièce d'identité de Mariam Ouattara.",
    );
    await context.close();
  });

  it("a manager sees what the Sésame platform's staff did to the company, marked, and filters on it", async () => {
    const { server } = sesame;
    // The platform's own staff member: a ROLE_SESAME of another company, who creates a user
    // in the demo company (ROLE_SESAME reaches every company).
    const adminToken = await apiToken(server);
    const platform = await created(server, adminToken, '/company', companyForm('Équipe Sésame'));
    await created(server, adminToken, '/user/create', {
      name: 'Kouadio',
      firstname: 'Serge',
      email: 'serge.kouadio@sesame.test',
      password: STAFF_PASSWORD,
      title: 'Support',
      contact: '0102030405',
      role: 'ROLE_SESAME',
      status: true,
      company_id: platform.id,
    });
    const platformToken = await apiToken(server, 'serge.kouadio@sesame.test', STAFF_PASSWORD);
    const demo = (await (await fetch(`${server.url}/api/company/demo`)).json()) as {
      data: { id: string };
    };
    await created(server, platformToken, '/user/create', {
      name: 'Bamba',
      firstname: 'Issa',
      email: 'issa.bamba@example.com',
      password: STAFF_PASSWORD,
      title: 'Agent',
      contact: '0102030405',
      role: 'ROLE_EMPLOYEE',
      status: true,
      company_id: demo.data.id,
    });
    await createDemoStaff(server, {
      name: 'Yao',
      firstname: 'Aya',
      email: 'aya.yao@example.com',
      password: STAFF_PASSWORD,
      title: 'Responsable',
      role: 'ROLE_MANAGER',
    });

    const context = await newContext(sesame.browser, sesame.server.url);
    const page: Page = await context.newPage();
    await signIn(page, 'aya.yao@example.com', STAFF_PASSWORD);
    await page.goto('/demo/audit');
    await page.getByRole('heading', { name: "Journal d'audit" }).waitFor();
    const rows = page.getByTestId('audit-table').locator('tbody tr');
    const origin = page
      .getByRole('textbox', { name: 'Origine', exact: true })
      .or(page.getByRole('combobox', { name: 'Origine', exact: true }))
      .first();

    // Only the platform's doing: the user created by Serge Kouadio, with the badge.
    await origin.click();
    await page.getByRole('option', { name: 'Plateforme Sésame' }).click();
    // The unfiltered list holds 'Utilisateur créé' too (the manager's own creation): wait for
    // the filtered answer, every row marked, before reading it.
    await expect
      .poll(async () => {
        const texts = await rows.allTextContents();
        return texts.length > 0 && texts.every((row) => row.includes('Plateforme Sésame'));
      })
      .toBe(true);
    const platformRows = await rows.allTextContents();
    expect(platformRows.join('|')).toContain('Utilisateur créé');
    expect(platformRows[0]).toContain('Serge Kouadio');
    expect(await page.locator('tbody tr[data-by-platform]').count()).toBe(platformRows.length);
    await screenshot(page, 'privacy-audit-platform');

    // The company's own doing: the manager's sign-in, and no badge.
    await origin.click();
    await page.getByRole('option', { name: "L'entreprise" }).click();
    await expect
      .poll(async () => (await rows.allTextContents()).join('|'))
      .not.toContain('Plateforme Sésame');
    expect((await rows.allTextContents()).join('|')).toContain('Connexion');
    await context.close();
  });

  it('issue 27: the export is named after the person and the day; once erased, the admin is back on the list they opened them from', async () => {
    const { server } = sesame;
    // A guest of an event: her card is opened from the event's participants, not from the
    // visitors' list a card falls back to when it was opened some other way.
    const { slug } = await createOpenEvent(server, await apiToken(server));
    const form = new FormData();
    for (const [key, value] of Object.entries({
      firstname: 'Aïcha',
      lastname: 'Koné',
      email: 'aicha.kone@example.com',
      organisation_name: 'Orange CI',
      id_number: 'CI-2027-0027',
      contact: '+225 07 07 07 07 07',
      language: 'fr',
      privacy_accepted: '1',
    }))
      form.set(key, value);
    form.set('request_image', new Blob([new Uint8Array(ID_PNG)], { type: 'image/png' }), 'id.png');
    const registered = await fetch(`${server.url}/api/evenement/demo/${slug}/register`, {
      method: 'POST',
      body: form,
    });
    expect(registered.status, await registered.clone().text()).toBe(201);

    const context = await newContext(sesame.browser, server.url);
    const page: Page = await context.newPage();
    await signIn(page, server.adminEmail, server.adminPassword);
    const eventPage = `/demo/list-qrcode-events/${slug}`;
    await page.goto(eventPage);
    const participant = page.getByRole('row').filter({ hasText: 'aicha.kone@example.com' });
    await participant.getByRole('link', { name: 'Carte', exact: true }).click();
    await page.waitForURL(/\/company\/demo\/meeting-request-qr\//);

    // 'Exporter les données': the ZIP carries her name as written and the day (the demo
    // company's zone is UTC), read around the click so a midnight between still passes.
    const today = () => new Date().toISOString().slice(0, 10);
    const dayBefore = today();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Exporter les données' }).click(),
    ]);
    expect(
      [dayBefore, today()].map((day) => `sesame-donnees-aïcha-koné-${day}.zip`.normalize('NFC')),
    ).toContain(download.suggestedFilename().normalize('NFC'));

    // 'Effacer la personne', confirmed: back on the participants she was opened from, and
    // that list, loaded afresh, no longer holds her.
    await page.getByRole('button', { name: 'Effacer la personne' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText('Effacer Aïcha Koné ?').waitFor();
    await confirm.getByRole('button', { name: 'Effacer définitivement' }).click();
    await page.getByText('Les données de cette personne ont été effacées.').waitFor();
    await page.waitForURL(`${server.url}${eventPage}`);
    await page.getByText('Aucun participant inscrit pour le moment.').waitFor();
    expect(await participant.count()).toBe(0);
    await screenshot(page, 'privacy-erased-back-to-event');
    await context.close();
  });
});
