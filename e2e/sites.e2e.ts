/**
 * A second building (issue 28), in Chromium: the admin creates a site in Nouméa on
 * 'Sites', prints its QR poster; a visitor scans it on a phone and files a request for
 * that site (the poster chose it: no site to pick); once confirmed, the front desk,
 * its header's site set to Nouméa, checks the visitor in by hand; 'Sur place' shows them
 * on Nouméa's list and not on the main site's. Then the same lists in English, and axe
 * on every screen of the journey.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeFindings, report, type Finding } from './support/axe';
import { field, newContext, PHONE, screenshot } from './support/browser';
import { decodeQr } from './support/qr';
import { ADMIN_EMAIL, ADMIN_PASSWORD, apiToken } from './support/server';
import { useSesame } from './support/sesame';
import { fillMeetingIdentity } from './support/visitors';

const SITE = 'Port de Nouméa';
const ZONE = 'Pacific/Noumea';

/** Today in Nouméa, as the visitor form writes it (DD/MM/YYYY). */
function todayInNoumea(): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: ZONE,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(new Date());
  return parts;
}

/** Picks `label` in the header's site switcher (a Mantine Select). */
async function chooseSite(page: Page, label: string): Promise<void> {
  await page.getByTestId('site-switcher').click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

const names = (page: Page) =>
  page.getByTestId('on-site-name').evaluateAll((els) => els.map((el) => el.textContent ?? ''));

describe('sites: a second building', () => {
  const sesame = useSesame({ timeout: 90_000 });
  const findings: Finding[] = [];

  it('a request from a site’s poster, checked in there, is on that site’s list only', async () => {
    const { server } = sesame;
    // axe runs inline: these contexts bypass the app's Content-Security-Policy.
    const admin = await sesame.signedIn(ADMIN_EMAIL, ADMIN_PASSWORD, { bypassCSP: true });

    // ── 'Sites': the main site, and a new one in Nouméa ─────────────────────────
    await admin.goto('/demo/sites');
    await admin.getByRole('heading', { name: 'Sites', exact: true }).waitFor();
    await admin.getByRole('button', { name: 'Nouveau site' }).first().click();
    await field(admin, 'Nom du site').fill(SITE);
    await field(admin, 'Ville').fill('Nouméa');
    await field(admin, 'Adresse').fill('1 rue du Port');
    await admin.getByRole('combobox', { name: 'Fuseau horaire' }).fill('Noumea');
    await admin.getByRole('option', { name: 'Pacific/Noumea' }).click();
    // A made-up short code is refused under its field, in the product's words.
    await field(admin, 'Code court').fill('N');
    await admin.getByRole('button', { name: 'Créer le site' }).click();
    await admin
      .getByText('Le code court compte 2 à 6 lettres ou chiffres (par exemple PAR).')
      .first()
      .waitFor();
    await field(admin, 'Code court').fill('NOU');
    await admin.getByRole('button', { name: 'Créer le site' }).click();
    await admin.getByText('Site créé avec succès.').first().waitFor();
    await admin
      .getByRole('cell', { name: SITE })
      .or(admin.getByText(SITE).first())
      .first()
      .waitFor();
    findings.push(...(await axeFindings(admin, 'sites (fr)')));
    await screenshot(admin, 'sites-1280');

    // The site switcher appears in the header once there are two sites.
    await admin.reload();
    await admin.getByTestId('site-switcher').waitFor();

    // ── Its QR poster ───────────────────────────────────────────────────────────
    await admin.getByRole('link', { name: `Affiche QR du site ${SITE}` }).click();
    await admin.waitForURL(/show-company-qrcode\/demo\?site=[0-9a-f-]{36}$/);
    const siteId = new URL(admin.url()).searchParams.get('site')!;
    await admin.getByTestId('company-qr-site').getByText(SITE).first().waitFor();
    const qrSrc = await admin.getByTestId('company-qr-image').getAttribute('src');
    const png = Buffer.from(await (await fetch(new URL(qrSrc!, server.url))).arrayBuffer());
    const target = await decodeQr(png);
    expect(target).toBe(`${server.url}/demo/request-meeting?site=${siteId}`);
    findings.push(...(await axeFindings(admin, 'site poster (fr)')));
    await screenshot(admin, 'site-poster-1280');

    // ── A visitor scans it on a phone ───────────────────────────────────────────
    const phone = await (
      await newContext(sesame.browser, server.url, { ...PHONE, bypassCSP: true })
    ).newPage();
    await phone.goto(new URL(target).pathname + new URL(target).search);
    await phone.getByRole('link', { name: 'Demande de rendez-vous' }).click();
    await phone.waitForURL(/\/demo\/meeting\?site=/);
    await phone.getByRole('heading', { name: 'Demande de rendez-vous' }).waitFor();
    // The poster chose the site: it is said, not asked.
    await phone.getByTestId('visitor-site-fixed').getByText(SITE).waitFor();
    expect(await phone.getByTestId('visitor-site').count()).toBe(0);
    await field(phone, 'Prénoms').fill('Léa');
    await fillMeetingIdentity(phone);
    await field(phone, 'Email').fill('lea.wamytan@example.com');
    await field(phone, 'Contact').fill('+33 6 12 34 56 78');
    await phone.getByRole('combobox', { name: "Nom de l'hôte" }).fill('M. Gope');
    await field(phone, 'Motif de la visite').fill('Réunion');
    await field(phone, 'Date').fill(todayInNoumea());
    await field(phone, 'Heure').selectOption('10');
    await field(phone, 'Minute').selectOption('30');
    await phone.getByLabel("J'ai lu et j'accepte la notice de confidentialité.").check();
    findings.push(...(await axeFindings(phone, 'request form of a site (fr)')));
    await phone.getByRole('button', { name: 'Envoyer la demande' }).click();
    await phone.waitForURL(/\/demo\/request-meeting\/[0-9a-f-]{36}$/);
    const requestId = phone.url().split('/').pop()!;

    // Confirmed (the host's Valider), through the API as the list's button does.
    const token = await apiToken(server);
    const confirmed = await fetch(`${server.url}/api/requests/update/${requestId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ status: 1, confirmed: 1 }),
    });
    expect(confirmed.status).toBe(200);
    const uidn = ((await confirmed.json()) as { data: { uidn: string } }).data.uidn;
    const listed = await fetch(`${server.url}/api/requests/list?site=${siteId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const rows = ((await listed.json()) as { data: { id: string; site: { name: string } }[] }).data;
    expect(rows.find((row) => row.id === requestId)?.site.name).toBe(SITE);

    // ── The front desk, its header on Nouméa, checks the visitor in ─────────────
    await admin.goto('/demo/manual-check');
    await chooseSite(admin, SITE);
    await admin.getByLabel('UIDN').fill(uidn);
    await admin.getByRole('button', { name: 'Valider' }).click();
    await admin.getByText('Arrivée enregistrée : Léa Koné.').waitFor();

    // ── 'Sur place': on Nouméa's list, not on the main site's ───────────────────
    await admin.goto('/demo/on-site');
    await admin.getByRole('heading', { name: 'Sur place' }).waitFor();
    await expect.poll(() => names(admin)).toContain('Léa Koné');
    findings.push(...(await axeFindings(admin, 'on site, Nouméa (fr)')));
    await screenshot(admin, 'on-site-noumea-1280');
    await chooseSite(admin, 'Demo');
    await admin.getByText("Personne n'est sur place.").waitFor();
    expect(await names(admin)).not.toContain('Léa Koné');
    // Every site: the card says where.
    await chooseSite(admin, 'Tous les sites');
    await expect.poll(() => names(admin)).toContain('Léa Koné');
    await admin.getByTestId('on-site-site').filter({ hasText: SITE }).first().waitFor();

    // ── The same in English ─────────────────────────────────────────────────────
    const english = await sesame.signedIn(ADMIN_EMAIL, ADMIN_PASSWORD, { bypassCSP: true });
    await english.goto('/demo/sites');
    // The navbar's language control, as a person switches.
    await english.getByRole('banner').getByText('EN', { exact: true }).click();
    await english.getByRole('heading', { name: 'Sites', exact: true }).waitFor();
    await english.getByText(SITE).first().waitFor();
    findings.push(...(await axeFindings(english, 'sites (en)')));
    await english.goto('/demo/on-site');
    await chooseSite(english, SITE);
    await expect.poll(() => names(english)).toContain('Léa Koné');
    await chooseSite(english, 'Demo');
    await english.getByText('Nobody is on site.').waitFor();
    findings.push(...(await axeFindings(english, 'on site, main site (en)')));

    expect(findings, report(findings)).toEqual([]);
  }, 120_000);
});
