/**
 * The host's side of invitations (issue 30), in Chromium: a staff member (ROLE_USER) opens
 * 'Inviter des visiteurs', is refused an empty form (the messages under each field, a
 * visitor's included), sees a weekly repetition said in words, invites two visitors and reads
 * their codes; 'Mes visiteurs' lists both as 'Invité(e)', 'Groupe de 2'; one of them is
 * cancelled alone and says 'Annulée', the schedule is edited, a cancellation made elsewhere
 * shows live, the list reads in English; on a 390 px phone a recurring invitation loses one
 * day (every control 44 px high, nothing wider than the phone). Then a CSV: the template, a
 * file refused line by line, the same fixed, checked and sent. axe on each screen.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { overflow, smallTargets } from './support/a11y';
import { axeFindings, report, type Finding } from './support/axe';
import { field, screenshot } from './support/browser';
import { demoSite, PHONE_390 } from './support/kiosk';
import { apiToken } from './support/server';
import { useSesame } from './support/sesame';

const HOST = {
  name: 'Hôte',
  firstname: 'Jean',
  email: 'jean.hote@example.com',
  password: 'Host-Password-123',
  title: 'Chef de projet',
  role: 'ROLE_USER',
};

/** A day ahead, as the form writes it (the demo site is in UTC's zone). */
function inDays(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}

async function settledAxe(page: Page, where: string): Promise<Finding[]> {
  await page.waitForFunction(() => document.getAnimations().length === 0);
  return axeFindings(page, where);
}

describe('invitations: the host invites and follows their visitors', () => {
  const sesame = useSesame({ timeout: 90_000, staff: [HOST] });
  const findings: Finding[] = [];

  it('invites two visitors, lists them, cancels one', async () => {
    const host = await sesame.signedIn(HOST.email, HOST.password, { bypassCSP: true });
    await host.goto('/demo/menu');
    await host.getByRole('link', { name: 'Inviter des visiteurs' }).click();
    await host.waitForURL(/\/demo\/invite$/);
    await host.getByRole('heading', { level: 1, name: 'Inviter des visiteurs' }).waitFor();

    // Refused: the first field has the focus, each message under its field.
    await host.getByTestId('invite-submit').click();
    await host.locator('[data-path="date"][aria-invalid="true"]').waitFor();
    await host.getByText('Le champ "Prénom" est requis.').first().waitFor();
    await host
      .getByText('Veuillez entrer une adresse e-mail ou un numéro de téléphone.')
      .first()
      .waitFor();
    expect(await host.evaluate(() => document.activeElement?.getAttribute('data-path'))).toBe(
      'date',
    );
    findings.push(...(await settledAxe(host, 'invite refused')));

    await field(host, 'Date').fill(inDays(1));
    await host.getByLabel(/^Heure( \*)?$/).selectOption('10');
    await host.getByLabel(/^Minute( \*)?$/).selectOption('00');
    await host.getByLabel(/^Heure de fin( \*)?$/).selectOption('11');
    await host.getByLabel(/^Minute de fin( \*)?$/).selectOption('30');
    await field(host, 'Motif').fill('Revue de projet');

    // The repetition, said in words, then left off.
    await host.getByRole('switch', { name: 'Répéter' }).check();
    await host.getByRole('checkbox', { name: 'lundi' }).check();
    await host.getByRole('checkbox', { name: 'jeudi' }).check();
    await field(host, "Jusqu'au").fill('30/06/2099');
    await host
      .getByTestId('rule-summary')
      .getByText("Tous les lundis et jeudis jusqu'au 30/06/2099")
      .waitFor();
    await host.getByRole('switch', { name: 'Répéter' }).uncheck();

    const visitor = (n: number) => host.getByTestId('invite-visitor').nth(n);
    await visitor(0)
      .getByLabel(/^Prénom/)
      .fill('Awa');
    await visitor(0).getByLabel(/^Nom/).fill('Koné');
    await visitor(0)
      .getByLabel(/^E-mail/)
      .fill('awa.kone@example.com');
    await visitor(0)
      .getByLabel(/^Organisation/)
      .fill('Orange CI');
    await host.getByRole('button', { name: 'Ajouter un visiteur' }).click();
    // The new line's first name has the focus.
    expect(await host.evaluate(() => document.activeElement?.getAttribute('data-path'))).toBe(
      'visitors.1.firstname',
    );
    await host.keyboard.type('Koffi');
    await visitor(1).getByLabel(/^Nom/).fill('Yao');
    await visitor(1)
      .getByLabel(/^Téléphone/)
      .fill('07 07 07 07 07');
    await screenshot(host, 'invite-form-1280');
    await host.getByRole('button', { name: 'Envoyer les 2 invitations' }).click();

    const done = host.getByTestId('invite-done');
    await done.getByRole('heading', { name: '2 invitations envoyées' }).waitFor();
    expect(await done.getByTestId('invite-done-row').count()).toBe(2);
    await done.getByText('Awa Koné').waitFor();
    await done.getByText('Koffi Yao').waitFor();
    findings.push(...(await settledAxe(host, 'invite done')));
    await screenshot(host, 'invite-done-1280');

    // 'Mes visiteurs': both, invited, a group of two.
    await done.getByRole('link', { name: 'Voir mes visiteurs' }).click();
    await host.waitForURL(/\/demo\/my-visitors$/);
    const row = (name: string) =>
      host.getByTestId('invited-row').filter({ has: host.getByText(name, { exact: true }) });
    await row('Awa Koné').getByText('Invité(e)').waitFor();
    await row('Koffi Yao').getByText('Invité(e)').waitFor();
    await row('Awa Koné').getByText('Groupe de 2').waitFor();
    // A ROLE_USER does not read the company's requests: no company toggle.
    expect(await host.getByRole('switch', { name: "Toute l'entreprise" }).count()).toBe(0);
    findings.push(...(await settledAxe(host, 'my visitors')));
    await screenshot(host, 'my-visitors-1280');

    // Awa alone is cancelled.
    await host.getByRole('button', { name: "Annuler l'invitation de Awa Koné" }).click();
    const dialog = host.getByRole('dialog');
    await dialog.getByRole('radio', { name: 'Cette invitation seulement (Awa Koné)' }).check();
    findings.push(...(await settledAxe(host, 'cancel dialog')));
    await dialog.getByTestId('cancel-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    await row('Awa Koné').getByText('Annulée').waitFor();
    await row('Koffi Yao').getByText('Invité(e)').waitFor();
    expect(
      await row('Awa Koné')
        .getByRole('button', { name: "Annuler l'invitation de Awa Koné" })
        .count(),
    ).toBe(0);

    // Modifier: the meeting's reason changes for the invitation.
    await host.getByRole('button', { name: "Modifier l'invitation de Koffi Yao" }).click();
    const edit = host.getByRole('dialog');
    await edit.getByText("Le changement vaut pour les 2 visiteurs de l'invitation.").waitFor();
    await field(host, 'Motif').fill('Revue finale');
    findings.push(...(await settledAxe(host, 'edit dialog')));
    await edit.getByRole('button', { name: 'Enregistrer' }).click();
    await edit.waitFor({ state: 'detached' });
    await row('Koffi Yao').getByText('Motif : Revue finale').waitFor();

    // The live feed: the invitation cancelled elsewhere (the API) shows without a reload.
    const token = await apiToken(sesame.server, HOST.email, HOST.password);
    const mine = (await (
      await fetch(`${sesame.server.url}/api/invitations/mine`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { data: { invitation_id: string }[] };
    const cancelled = await fetch(
      `${sesame.server.url}/api/invitations/${mine.data[0]!.invitation_id}/cancel`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      },
    );
    expect(cancelled.status).toBe(200);
    await row('Koffi Yao').getByText('Annulée').waitFor();

    // In English, the same list in English words.
    await host.getByRole('banner').getByText('EN', { exact: true }).click();
    await host.getByRole('heading', { level: 1, name: 'My visitors' }).waitFor();
    await row('Koffi Yao').getByText('Cancelled').waitFor();
    await row('Koffi Yao').getByText('Group of 2').waitFor();
    findings.push(...(await settledAxe(host, 'my visitors en')));
    await screenshot(host, 'my-visitors-en-1280');
    await host.getByRole('banner').getByText('FR', { exact: true }).click();
    await host.getByRole('heading', { level: 1, name: 'Mes visiteurs' }).waitFor();

    // 'Inviter à nouveau' brings her back to the form.
    await host.getByRole('button', { name: 'Inviter à nouveau Awa Koné' }).click();
    await host.waitForURL(/\/demo\/invite$/);
    expect(
      await host
        .getByTestId('invite-visitor')
        .first()
        .getByLabel(/^Prénom/)
        .inputValue(),
    ).toBe('Awa');
    expect(await field(host, 'Motif').inputValue()).toBe('Revue finale');

    // The phone: the same screens, nothing wider than it, every control 44 px high. A
    // recurring invitation of two, made through the API, loses one of its days.
    const admin = await apiToken(sesame.server);
    const site = await demoSite(sesame.server, admin);
    const recurring = await fetch(`${sesame.server.url}/api/invitations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        site_id: site.siteId,
        date: inDays(1),
        time: '14:00',
        end_time: '15:00',
        reason: 'Formation',
        language: 'fr',
        rrule: 'FREQ=DAILY;COUNT=3',
        visitors: [
          {
            firstname: 'Mariam',
            lastname: 'Diallo',
            email: 'mariam@example.com',
            phone: '',
            organisation: '',
          },
          {
            firstname: 'Ousmane',
            lastname: 'Bamba',
            email: 'ousmane@example.com',
            phone: '',
            organisation: '',
          },
        ],
      }),
    });
    expect(recurring.status).toBe(201);

    const phone = await sesame.signedIn(HOST.email, HOST.password, {
      ...PHONE_390,
      bypassCSP: true,
    });
    await phone.goto('/demo/invite');
    await phone.getByRole('heading', { level: 1, name: 'Inviter des visiteurs' }).waitFor();
    await phone.getByRole('switch', { name: 'Répéter' }).check();
    await phone.getByRole('checkbox', { name: 'mardi' }).waitFor();
    expect(await overflow(phone)).toBeLessThanOrEqual(0);
    expect(await smallTargets(phone, 'main', 44)).toEqual([]);
    await screenshot(phone, 'invite-form-390');
    await phone.getByText('Importer un CSV', { exact: true }).click();
    await phone.getByRole('button', { name: 'Télécharger le modèle' }).waitFor();
    expect(await overflow(phone)).toBeLessThanOrEqual(0);
    expect(await smallTargets(phone, 'main', 44)).toEqual([]);
    await screenshot(phone, 'invite-csv-390');

    await phone.goto('/demo/my-visitors');
    const card = (name: string) =>
      phone.getByTestId('invited-row').filter({ has: phone.getByText(name, { exact: true }) });
    await card('Mariam Diallo').getByText('Tous les jours (3 fois)').waitFor();
    await card('Mariam Diallo')
      .getByText(/^Prochain jour : /)
      .waitFor();
    expect(await overflow(phone)).toBeLessThanOrEqual(0);
    expect(await smallTargets(phone, 'main', 44)).toEqual([]);
    findings.push(...(await settledAxe(phone, 'my visitors 390')));
    await screenshot(phone, 'my-visitors-390');
    await phone.getByRole('button', { name: "Annuler l'invitation de Mariam Diallo" }).click();
    const cancel = phone.getByRole('dialog');
    await cancel.getByRole('radio', { name: "Toute l'invitation (2 visiteurs)" }).waitFor();
    await cancel.getByText('Annuler un jour').click();
    const days = cancel.getByLabel('Le jour à annuler');
    expect(await days.locator('option').count()).toBe(3);
    await days.selectOption({ index: 1 });
    expect(await smallTargets(phone, '[role="dialog"]', 44)).toEqual([]);
    findings.push(...(await settledAxe(phone, 'cancel a day 390')));
    await screenshot(phone, 'cancel-day-390');
    await cancel.getByRole('button', { name: 'Annuler ce jour' }).click();
    await cancel.waitFor({ state: 'detached' });
    await phone.getByText('Ce jour est annulé : les visiteurs ont été prévenus.').waitFor();
    await card('Mariam Diallo').getByText('Invité(e)').waitFor();

    expect(report(findings)).toBe('');
  });

  it('imports a CSV: the template, its refused lines, then its visitors checked and sent', async () => {
    const host = await sesame.signedIn(HOST.email, HOST.password, { bypassCSP: true });
    await host.goto('/demo/invite');
    await field(host, 'Date').fill(inDays(2));
    await host.getByLabel(/^Heure( \*)?$/).selectOption('10');
    await host.getByLabel(/^Minute( \*)?$/).selectOption('00');
    await host.getByLabel(/^Heure de fin( \*)?$/).selectOption('11');
    await host.getByLabel(/^Minute de fin( \*)?$/).selectOption('30');
    await host.getByText('Importer un CSV', { exact: true }).click();

    // The template: its BOM, its header in the screen's language, under the French name.
    const [download] = await Promise.all([
      host.waitForEvent('download'),
      host.getByRole('button', { name: 'Télécharger le modèle' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('modele-invitations.csv');
    const template = await readFile((await download.path())!, 'utf8');
    expect(template.startsWith('\uFEFFPrénom;Nom;E-mail;Téléphone;Organisation\r\n')).toBe(true);

    // No file: said under the field.
    await host.getByTestId('invite-submit').click();
    await host.getByText('Veuillez joindre le fichier CSV des visiteurs.').first().waitFor();

    // A bad line: named, nothing created.
    const lines = [
      'Prénom;Nom;E-mail;Téléphone;Organisation',
      'Mariam;Diallo;mariam@example.com;;Orange CI',
      'Ousmane;Bamba;pas-un-email;;',
    ];
    const csv = (text: string, name: string) =>
      host
        .locator('input[type="file"]')
        .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
    await csv(lines.join('\r\n'), 'visiteurs.csv');
    await host.getByRole('button', { name: 'Vérifier le fichier' }).click();
    const errors = host.getByTestId('csv-errors');
    await errors.getByText("1 ligne est à corriger : rien n'a été créé.").waitFor();
    await errors
      .getByText('Ligne 3 — E-mail : Veuillez entrer une adresse e-mail valide.')
      .waitFor();
    findings.push(...(await settledAxe(host, 'csv refused')));
    await screenshot(host, 'invite-csv-refused-1280');

    // Fixed: its visitors shown, then sent.
    lines[2] = 'Ousmane;Bamba;ousmane@example.com;;';
    await csv(lines.join('\r\n'), 'visiteurs-corriges.csv');
    await host.getByRole('button', { name: 'Vérifier le fichier' }).click();
    const preview = host.getByTestId('csv-preview');
    await preview.getByRole('heading', { name: '2 visiteurs prêts à être invités' }).waitFor();
    await preview.getByRole('cell', { name: 'ousmane@example.com' }).waitFor();
    findings.push(...(await settledAxe(host, 'csv preview')));
    await screenshot(host, 'invite-csv-preview-1280');
    await preview.getByRole('button', { name: 'Envoyer les 2 invitations' }).click();
    const done = host.getByTestId('invite-done');
    await done.getByRole('heading', { name: '2 invitations envoyées' }).waitFor();
    await done.getByText('Mariam Diallo').waitFor();
    await done.getByText('Ousmane Bamba').waitFor();
    expect(report(findings)).toBe('');
  });
});
