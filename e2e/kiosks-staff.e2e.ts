/**
 * The lobby's staff side (issue 29), in Chromium: the admin creates a kiosk on 'Bornes'
 * (a refused form first), reads its 6-digit pairing code and where to type it; a tablet
 * pairs with that code and the list says 'Appairée' with its last contact; a second kiosk
 * is revoked after its confirmation and stays listed as 'Révoquée'. The site gets a badge
 * printer on its form. A confirmed visitor's badge is printed from the request list (the
 * page the browser prints holds their name at the label's size, the print is recorded),
 * then says 'Réimprimer'; sent to the site's printer that does not answer, the server's
 * message shows; the on-site list offers the same badge. axe on each screen.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeFindings, report, type Finding } from './support/axe';
import { field, screenshot } from './support/browser';
import { demoSite } from './support/kiosk';
import { ADMIN_EMAIL, ADMIN_PASSWORD, apiToken } from './support/server';
import { useSesame } from './support/sesame';
import { createConfirmedVisitor } from './support/visitors';

/** The printer address the site is given: nothing listens there (port 9, discard). */
const DEAD_PRINTER = 'ipp://127.0.0.1:9/ipp/print';

/** What the hidden print frame holds: its text, its @page rule, its images drawn. */
function printFrame(page: Page) {
  return page.evaluate(() => {
    const doc = document.querySelector<HTMLIFrameElement>(
      'iframe[data-print-frame]',
    )?.contentDocument;
    if (!doc) return null;
    const rules = [...doc.styleSheets].flatMap((sheet) =>
      [...sheet.cssRules].map((rule) => rule.cssText),
    );
    return {
      text: doc.body.innerText.replace(/\s+/g, ' '),
      page: rules.find((rule) => rule.startsWith('@page')) ?? '',
      imagesDrawn: [...doc.images].every((image) => image.complete && image.naturalWidth > 0),
    };
  });
}

/** axe once transitions are over (a modal or a menu opening or closing reads half transparent). */
async function settledAxe(page: Page, where: string): Promise<Finding[]> {
  await page.waitForFunction(() => document.getAnimations().length === 0);
  return axeFindings(page, where);
}

describe('kiosks and badges: the staff side', () => {
  const sesame = useSesame({ timeout: 90_000 });
  const findings: Finding[] = [];

  it('creates, pairs and revokes kiosks; prints and reprints a badge from the lists', async () => {
    const { server } = sesame;
    const token = await apiToken(server);
    const site = await demoSite(server, token);
    const visitor = await createConfirmedVisitor(server, token, {
      firstname: 'Awa',
      lastname: 'Koné',
      email: 'awa.kone.kiosks@example.com',
    });
    // Inside, for the on-site list.
    const scanned = await fetch(`${server.url}/api/get-qr-data/${visitor.uidn}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(scanned.status).toBe(200);

    // axe runs inline: the context bypasses the app's Content-Security-Policy.
    const admin = await sesame.signedIn(ADMIN_EMAIL, ADMIN_PASSWORD, { bypassCSP: true });

    // ── 'Bornes': a refused form, then a kiosk and its pairing code ─────────────────
    await admin.goto('/demo/menu');
    await admin.getByRole('link', { name: 'Bornes' }).click();
    await admin.waitForURL(/\/demo\/kiosks$/);
    await admin.getByText('Aucune borne pour le moment.').waitFor();
    await admin.getByRole('button', { name: 'Nouvelle borne' }).click();
    await field(admin, "Retour à l'accueil après (secondes)").fill('5');
    await admin.getByRole('button', { name: 'Créer la borne' }).click();
    await admin.getByText('Le champ "Nom de la borne" est requis.').first().waitFor();
    await admin.getByText('Veuillez entrer un nombre de secondes entre 15 et 600.').waitFor();
    findings.push(...(await settledAxe(admin, 'kiosk form refused')));

    await field(admin, 'Nom de la borne').fill('Accueil hall A');
    await field(admin, "Retour à l'accueil après (secondes)").fill('90');
    await admin.getByRole('switch', { name: 'Photo du visiteur' }).check();
    await admin.getByRole('button', { name: 'Créer la borne' }).click();
    const code = admin.getByTestId('kiosk-pairing-code');
    await code.waitFor();
    const digits = (await code.getAttribute('data-code')) ?? '';
    expect(digits).toMatch(/^\d{6}$/);
    expect(await code.textContent()).toBe(`${digits.slice(0, 3)} ${digits.slice(3)}`);
    const pairing = admin.getByTestId('kiosk-pairing');
    await pairing.getByText(/^Valable 10 minutes, jusqu'à \d{2}:\d{2}$/).waitFor();
    await pairing
      .getByText(`Sur la tablette, ouvrez ${server.url}/kiosk et saisissez ce code.`)
      .waitFor();
    findings.push(...(await settledAxe(admin, 'kiosk pairing code')));
    await screenshot(admin, 'kiosks-pairing-1280');

    // The tablet types it: the list says the kiosk is paired and heard from.
    const paired = await fetch(`${server.url}/api/kiosk/pair`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: digits }),
    });
    expect(paired.status).toBe(200);
    const device = ((await paired.json()) as { token: string }).token;
    await fetch(`${server.url}/api/kiosk/me`, { headers: { authorization: `Bearer ${device}` } });
    await pairing.getByRole('button', { name: 'Fermer' }).click();

    // A second kiosk, revoked after its confirmation: it stays listed.
    await admin.getByRole('button', { name: 'Nouvelle borne' }).click();
    await field(admin, 'Nom de la borne').fill('Borne parking');
    await admin.getByRole('checkbox', { name: 'English' }).uncheck();
    await admin.getByRole('button', { name: 'Créer la borne' }).click();
    await admin.getByTestId('kiosk-pairing-code').waitFor();
    await admin.reload();
    const row = (name: string) =>
      admin.getByRole('row').filter({ has: admin.getByText(name, { exact: true }) });
    await row('Accueil hall A').getByText('Appairée').waitFor();
    await row('Accueil hall A').getByText("À l'instant").waitFor();
    await row('Borne parking').getByText("En attente d'appairage").waitFor();
    await admin.getByRole('button', { name: 'Révoquer la borne Borne parking' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByText('Révoquer la borne Borne parking ?').waitFor();
    findings.push(...(await settledAxe(admin, 'kiosk revoke confirmation')));
    await dialog.getByRole('button', { name: 'Révoquer' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row('Borne parking').getByText('Révoquée').waitFor();
    await expect
      .poll(() =>
        row('Borne parking')
          .getByRole('button', { name: /^Révoquer/ })
          .count(),
      )
      .toBe(0);
    findings.push(...(await settledAxe(admin, 'kiosks list')));
    await screenshot(admin, 'kiosks-list-1280');

    // ── The site's badge printer, on its form ───────────────────────────────────────
    await admin.goto('/demo/sites');
    await admin
      .getByRole('button', { name: /^Modifier le site/ })
      .first()
      .click();
    await field(admin, 'Imprimante de badges (adresse IPP)').fill('lpr://nope');
    await admin.getByRole('button', { name: 'Enregistrer' }).click();
    await admin
      .getByText(/adresse IPP de l'imprimante/)
      .first()
      .waitFor();
    await field(admin, 'Imprimante de badges (adresse IPP)').fill(DEAD_PRINTER);
    await admin.getByRole('button', { name: 'Enregistrer' }).click();
    await admin.getByText('Site mis à jour avec succès.').first().waitFor();
    const sites = (await (
      await fetch(`${server.url}/api/company/${site.companyId}/sites`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { data: { id: string; badge_printer_url: string | null }[] };
    expect(sites.data.find((s) => s.id === site.siteId)?.badge_printer_url).toBe(DEAD_PRINTER);

    // ── A badge from the request list: printed, then a reprint; the printer refuses ─
    await admin.goto('/demo/list-qrcode');
    const badge = admin.getByRole('button', { name: 'Badge de Awa Koné' });
    await badge.click();
    await admin.getByRole('menuitem', { name: 'Imprimer', exact: true }).click();
    await admin.getByText('Badge imprimé.').first().waitFor();
    const printed = await printFrame(admin);
    expect(printed?.text).toContain('Awa Koné');
    expect(printed?.text).toContain('VISITEUR');
    expect(printed?.page).toContain('size: 62mm 100mm');
    expect(printed?.imagesDrawn).toBe(true);
    const prints = (await (
      await fetch(`${server.url}/api/badges/${visitor.requestId}/prints`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { data: { printer: string; reprint: boolean }[] };
    expect(prints.data).toMatchObject([{ printer: 'browser', reprint: false }]);

    await badge.click();
    await admin.getByRole('menuitem', { name: 'Réimprimer', exact: true }).waitFor();
    await admin.getByText(/^Déjà imprimé le /).waitFor();
    findings.push(...(await settledAxe(admin, 'request list badge menu')));
    await admin.getByRole('menuitem', { name: "Renvoyer à l'imprimante" }).click();
    await admin
      .getByText(`L'imprimante ${DEAD_PRINTER} ne répond pas.`, { exact: false })
      .first()
      .waitFor({ timeout: 30_000 });

    // ── The on-site list offers the same badge ──────────────────────────────────────
    await admin.goto('/demo/on-site');
    await admin.getByRole('button', { name: 'Badge de Awa Koné' }).click();
    await admin.getByRole('menuitem', { name: 'Réimprimer', exact: true }).waitFor();
    findings.push(...(await settledAxe(admin, 'on-site badge menu')));

    expect(findings, report(findings)).toEqual([]);
  });
});
