/**
 * The member cards and permanent QR codes journey (issue "Permanent QR codes and
 * member cards"): the admin creates a member card with a photo, sees its recto
 * and verso, captures them (recto PNG whose QR decodes to the scan URL, and a
 * two-page A4 PDF), finds the member in the company's member list and opens the
 * badge from the QR; then creates a permanent QR with an expiry date, finds it
 * in 'Liste QR Code', opens its details (which survive a reload) and moves its
 * expiry into the past on the expiry page.
 */
import { execFile } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Download, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newContext, screenshot, tempDir, signIn } from './support/browser';
import { decodeQr } from './support/qr';
import { apiToken, type RunningServer } from './support/server';
import { useSesame } from './support/sesame';

const run = promisify(execFile);
const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');

const MEMBER = {
  firstname: 'Aya',
  lastname: 'Koné',
  contact: '0708091011',
  email: 'aya.kone@example.com',
  title: 'Responsable Sécurité',
};
/** MEMBER.contact as the server stores it (E.164, Côte d'Ivoire by default). */
const STORED_CONTACT = '+2250708091011';

const QR_USER = {
  firstname: 'Ibrahim',
  lastname: 'Traoré',
  contact: '0505050505',
  email: 'ibrahim.traore@example.com',
  title: 'Consultant',
};

interface Card {
  id: string;
  uidn: string;
  dateExp: string | null;
  expired: boolean;
}

/** Draws a PNG in the browser (no image library needed): a logo or a portrait. */
async function drawPng(page: Page, kind: 'logo' | 'photo'): Promise<Buffer> {
  const dataUrl = await page.evaluate((what) => {
    const canvas = document.createElement('canvas');
    canvas.width = what === 'logo' ? 160 : 240;
    canvas.height = what === 'logo' ? 160 : 300;
    const g = canvas.getContext('2d')!;
    if (what === 'logo') {
      g.fillStyle = '#f08c00';
      g.fillRect(0, 0, 160, 160);
      g.fillStyle = '#ffffff';
      g.beginPath();
      g.arc(80, 80, 56, 0, Math.PI * 2);
      g.fill();
      g.fillStyle = '#2b8a3e';
      g.font = 'bold 64px sans-serif';
      g.textAlign = 'center';
      g.textBaseline = 'middle';
      g.fillText('D', 80, 84);
    } else {
      g.fillStyle = '#a5d8ff';
      g.fillRect(0, 0, 240, 300);
      g.fillStyle = '#8d5524';
      g.beginPath();
      g.arc(120, 115, 62, 0, Math.PI * 2);
      g.fill();
      g.beginPath();
      g.ellipse(120, 300, 105, 90, 0, 0, Math.PI * 2);
      g.fill();
      g.fillStyle = '#1c1c1c';
      g.beginPath();
      g.arc(98, 108, 8, 0, Math.PI * 2);
      g.arc(142, 108, 8, 0, Math.PI * 2);
      g.fill();
    }
    return canvas.toDataURL('image/png');
  }, kind);
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}

/** Gives the demo company a logo through the API, as its manager would. */
async function giveDemoALogo(server: RunningServer, logo: Buffer): Promise<void> {
  const token = await apiToken(server);
  const demo = (await (await fetch(`${server.url}/api/company/demo`)).json()) as {
    data: { id: string; name: string };
  };
  const form = new FormData();
  form.set('name', demo.data.name);
  form.set('description', 'Société de démonstration');
  form.set('logo', new Blob([new Uint8Array(logo)], { type: 'image/png' }), 'logo-demo.png');
  const res = await fetch(`${server.url}/api/company/${demo.data.id}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (!res.ok) throw new Error(`could not set the demo logo: ${res.status} ${await res.text()}`);
}

async function getCard(server: RunningServer, id: string): Promise<Card> {
  const token = await apiToken(server);
  const res = await fetch(`${server.url}/api/qruser/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Card }).data;
}

/** Every <img> inside the node has loaded with real pixels (no broken or blocked image). */
async function imagesLoaded(page: Page, testId: string): Promise<number> {
  const node = page.getByTestId(testId).first();
  await expect
    .poll(() =>
      node.evaluate((el) =>
        [...el.querySelectorAll('img')].every((img) => img.complete && img.naturalWidth > 0),
      ),
    )
    .toBe(true);
  return node.evaluate((el) => el.querySelectorAll('img').length);
}

async function pdfInfo(file: string): Promise<string> {
  const { stdout } = await run('pdfinfo', [file]);
  return stdout;
}

/** Renders each PDF page under e2e/artifacts (name-1.png, name-2.png) to decode and look at. */
async function renderPdf(file: string, name: string, dpi = 100): Promise<void> {
  await run('pdftoppm', ['-png', '-r', String(dpi), file, path.join(ARTIFACTS, name)]);
}

/** A printed card stays light enough to mail and to send to a printer. */
const PDF_MAX_BYTES = 500_000;

describe('member cards and permanent QR codes in Chromium', () => {
  const sesame = useSesame();

  it('member card with photo, recto/verso, PNG + A4 PDF capture, member list badge; permanent QR, details reload, expiry update', async () => {
    const context = await newContext(sesame.browser, sesame.server.url);
    const admin = await context.newPage();
    const downloads = await tempDir('sesame-member-cards-');

    // Set-up: the demo company gets a logo; the member's photo is a drawn portrait.
    await admin.goto('/sign-in');
    const photo = await drawPng(admin, 'photo');
    await giveDemoALogo(sesame.server, await drawPng(admin, 'logo'));
    await signIn(admin, sesame.server.adminEmail, sesame.server.adminPassword);

    // No member yet: the member list says so.
    await admin.goto('/company/demo/members');
    await admin.getByRole('heading', { name: 'Demo - Liste des Membres' }).waitFor();
    await admin.getByText('Aucun Membre trouvé pour cette entreprise.').waitFor();

    // ── 'Créer une Carte Membre' ─────────────────────────────────────────────
    await admin.goto('/demo/create-membre-qr');
    await admin.getByRole('heading', { name: 'Créer une Carte Membre' }).waitFor();
    // Everything is required: the first missing field is named.
    await admin.getByRole('button', { name: 'Soumettre' }).click();
    await admin
      .getByTestId('card-form-error')
      .filter({ hasText: 'Le champ "Prénom" est requis.' })
      .waitFor();
    // The admin chooses the company; it starts on the page's company.
    const company = admin.getByRole('combobox', { name: 'Entreprise' });
    await expect.poll(() => company.inputValue()).toBe('Demo');
    await admin.getByRole('textbox', { name: 'Prénom' }).fill(MEMBER.firstname);
    await admin.getByRole('textbox', { name: 'Nom', exact: true }).fill(MEMBER.lastname);
    // Contact keeps what is typed (issue 27: the visitor form's one phone rule); the server
    // reads it with libphonenumber and stores it in E.164.
    await admin.getByRole('textbox', { name: 'Contact' }).fill('07 08-09.10.11');
    expect(await admin.getByRole('textbox', { name: 'Contact' }).inputValue()).toBe(
      '07 08-09.10.11',
    );
    await admin.getByRole('textbox', { name: 'Email' }).fill(MEMBER.email);
    await admin.getByRole('textbox', { name: 'Titre' }).fill(MEMBER.title);
    await admin.locator('input[type="file"]').setInputFiles({
      name: 'photo-aya.png',
      mimeType: 'image/png',
      buffer: photo,
    });
    await screenshot(admin, 'member-card-form-1280');
    const [created] = await Promise.all([
      admin.waitForResponse((r) => r.url().endsWith('/api/create-member')),
      admin.getByRole('button', { name: 'Soumettre' }).click(),
    ]);
    expect(created.status()).toBe(201);
    const member = ((await created.json()) as { data: Card & { photo: string } }).data;
    expect(member.photo).toBeTruthy();
    await admin.getByText('Carte créée avec succès.').first().waitFor();

    // Recto: logo, name (last name first), title, contact, photo, QR and uidn. Verso: logo.
    const recto = admin.getByTestId('member-card-recto');
    await recto.getByText(`${MEMBER.lastname} ${MEMBER.firstname}`).waitFor();
    await recto.getByText(MEMBER.title).waitFor();
    await recto.getByText(STORED_CONTACT).waitFor();
    await recto.getByText(member.uidn).waitFor();
    await recto.getByRole('img', { name: 'Logo de Demo' }).waitFor();
    await recto
      .getByRole('img', { name: `Photo de ${MEMBER.lastname} ${MEMBER.firstname}` })
      .waitFor();
    await recto.getByRole('img', { name: /^QR code de / }).waitFor();
    expect(await imagesLoaded(admin, 'member-card-recto')).toBe(3);
    const verso = admin.getByTestId('member-card-verso');
    await verso.getByRole('img', { name: 'Logo de Demo' }).waitFor();
    expect(await imagesLoaded(admin, 'member-card-verso')).toBe(1);
    await screenshot(admin, 'member-card-created-1280');

    // ── Capture: the recto PNG, then the two-page A4 PDF ─────────────────────
    const captured: Download[] = [];
    admin.on('download', (d) => captured.push(d));
    await admin.getByRole('button', { name: 'Capture' }).click();
    await expect.poll(() => captured.length, { timeout: 30_000 }).toBe(2);
    const png = captured.find((d) => d.suggestedFilename().endsWith('.png'))!;
    const pdf = captured.find((d) => d.suggestedFilename().endsWith('.pdf'))!;
    expect(png.suggestedFilename()).toBe(`carte-demo-${member.uidn}-recto.png`);
    expect(pdf.suggestedFilename()).toBe(`QRCode-Membre-${member.uidn}.pdf`);

    const rectoPng = await readFile((await png.path())!);
    expect(rectoPng.subarray(1, 4).toString()).toBe('PNG');
    await writeFile(path.join(ARTIFACTS, 'member-card-recto-capture.png'), rectoPng);
    expect(await decodeQr(rectoPng)).toBe(`${sesame.server.url}/scan-user-qrcode/${member.uidn}`);

    const pdfFile = path.join(downloads, pdf.suggestedFilename());
    await pdf.saveAs(pdfFile);
    const info = await pdfInfo(pdfFile);
    expect(info).toMatch(/^Pages:\s+2$/m);
    expect(info).toMatch(/^Page size:\s+595\.\d+ x 841\.\d+ pts/m);
    expect((await stat(pdfFile)).size).toBeLessThan(PDF_MAX_BYTES);
    // The card at its true size (85.6 mm) on the A4 page, read at a printer's 300 dpi.
    await renderPdf(pdfFile, 'member-card-pdf', 300);
    // Page 1 is the recto: its QR still decodes once printed into the PDF.
    expect(await decodeQr(path.join(ARTIFACTS, 'member-card-pdf-1.png'))).toBe(
      `${sesame.server.url}/scan-user-qrcode/${member.uidn}`,
    );
    // Page 2 is the verso (logo and company), not the recto again.
    await expect(decodeQr(path.join(ARTIFACTS, 'member-card-pdf-2.png'))).rejects.toThrow(
      /no QR code found/,
    );

    // ── The card printer's PDF: two ID-1 pages (85.6 × 54 mm = 242.6 × 153.1 pt) ──
    const [printerPdf] = await Promise.all([
      admin.waitForEvent('download'),
      admin.getByRole('button', { name: 'PDF pour imprimante à cartes' }).click(),
    ]);
    expect(printerPdf.suggestedFilename()).toBe(`QRCode-Membre-${member.uidn}-CR80.pdf`);
    const printerFile = path.join(downloads, printerPdf.suggestedFilename());
    await printerPdf.saveAs(printerFile);
    const printerInfo = await pdfInfo(printerFile);
    expect(printerInfo).toMatch(/^Pages:\s+2$/m);
    expect(printerInfo).toMatch(/^Page size:\s+242\.6\d* x 153\.0\d* pts/m);
    expect((await stat(printerFile)).size).toBeLessThan(PDF_MAX_BYTES);
    await renderPdf(printerFile, 'member-card-cr80', 300);
    expect(await decodeQr(path.join(ARTIFACTS, 'member-card-cr80-1.png'))).toBe(
      `${sesame.server.url}/scan-user-qrcode/${member.uidn}`,
    );

    // ── '{company} - Liste des Membres' and the badge popup ─────────────────
    await admin.goto('/company/demo/members');
    await admin.getByRole('heading', { name: 'Demo - Liste des Membres' }).waitFor();
    for (const header of ['ID', 'Photo', 'Nom', 'Contact', 'Email', 'QR Code']) {
      await admin.getByRole('columnheader', { name: header, exact: true }).waitFor();
    }
    const row = admin.getByRole('row').filter({ hasText: MEMBER.email });
    await row.getByRole('cell', { name: '1', exact: true }).waitFor();
    await row.getByText(`${MEMBER.lastname} ${MEMBER.firstname}`).waitFor();
    await row.getByText(STORED_CONTACT).waitFor();
    await row.getByRole('button', { name: /Agrandir|Photo de/ }).waitFor();
    await screenshot(admin, 'member-list-1280');
    await row
      .getByRole('button', { name: `Ouvrir le badge de ${MEMBER.lastname} ${MEMBER.firstname}` })
      .click();
    const badge = admin.getByRole('dialog');
    await badge.getByTestId('member-card-recto').getByText(MEMBER.title).waitFor();
    // The popup has finished fading in.
    await expect.poll(() => badge.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    await badge.getByTestId('member-card-verso').waitFor();
    expect(await imagesLoaded(admin, 'member-card-recto')).toBe(3);
    await screenshot(admin, 'member-list-badge-1280');
    const [badgePng] = await Promise.all([
      admin.waitForEvent('download'),
      badge.getByRole('button', { name: 'Capture' }).click(),
    ]);
    expect(badgePng.suggestedFilename()).toBe(`carte-demo-${member.uidn}-recto.png`);
    expect(await decodeQr(await readFile((await badgePng.path())!))).toBe(
      `${sesame.server.url}/scan-user-qrcode/${member.uidn}`,
    );
    await admin.keyboard.press('Escape');

    // A photo that cannot be loaded (erased, a link that ended) shows 'Aucune Photo' in
    // its frame, never a broken-image glyph.
    await admin.route('**/api/files/**', (route) => route.abort());
    await admin.reload();
    await row
      .getByRole('button', { name: `Ouvrir le badge de ${MEMBER.lastname} ${MEMBER.firstname}` })
      .click();
    const unloaded = admin.getByRole('dialog').getByTestId('member-card-recto');
    await unloaded.getByText('Aucune Photo').waitFor();
    expect(await unloaded.getByRole('img', { name: /Photo de/ }).count()).toBe(0);
    await admin.keyboard.press('Escape');
    await admin.unroute('**/api/files/**');

    // ── 'Créer un QRCode' with an expiry date ────────────────────────────────
    await admin.goto('/demo/create-qr');
    await admin.getByRole('heading', { name: 'Créer un QRCode' }).waitFor();
    await admin.getByRole('textbox', { name: 'Prénom' }).fill(QR_USER.firstname);
    await admin.getByRole('textbox', { name: 'Nom', exact: true }).fill(QR_USER.lastname);
    await admin.getByRole('textbox', { name: 'Contact' }).fill(QR_USER.contact);
    await admin.getByRole('textbox', { name: 'Email' }).fill(QR_USER.email);
    await admin.getByRole('textbox', { name: 'Titre' }).fill(QR_USER.title);
    await admin.locator('input[type="file"]').setInputFiles({
      name: 'badge.png',
      mimeType: 'image/png',
      buffer: photo,
    });
    // A day already past is refused before anything is sent: a code born expired.
    const expiry = admin.getByRole('textbox', { name: "Date d'expiration" });
    await expiry.fill('01/01/2020');
    await expiry.blur();
    await admin.getByRole('button', { name: 'Soumettre' }).click();
    await admin
      .getByText(
        "La date d'expiration est déjà passée : choisissez aujourd'hui ou un jour à venir.",
      )
      .first()
      .waitFor();
    await expiry.fill('31/12/2030');
    await expiry.blur();
    const [qrCreated] = await Promise.all([
      admin.waitForResponse((r) => r.url().endsWith('/api/create-qr')),
      admin.getByRole('button', { name: 'Soumettre' }).click(),
    ]);
    expect(qrCreated.status()).toBe(200);
    const qrUser = ((await qrCreated.json()) as { data: Card }).data;
    expect(qrUser.dateExp).toBe('2030-12-31');
    await admin.getByText('QR Code créé avec succès.').first().waitFor();
    const qrCard = admin.getByTestId('qr-user-card');
    await qrCard.getByText('Expire le 31 décembre 2030').waitFor();
    await qrCard.getByText(qrUser.uidn).waitFor();
    await screenshot(admin, 'qr-user-created-1280');
    const [qrPng] = await Promise.all([
      admin.waitForEvent('download'),
      admin.getByTestId('qr-card-capture').click(),
    ]);
    expect(qrPng.suggestedFilename()).toBe(`qrcode-demo-${qrUser.uidn}.png`);
    expect(await decodeQr(await readFile((await qrPng.path())!))).toBe(
      `${sesame.server.url}/scan-user-qrcode/${qrUser.uidn}`,
    );

    // ── 'Liste QR Code' → details; the details survive a reload ─────────────
    await admin.goto('/demo/qr-code-list');
    await admin.getByRole('heading', { name: 'Liste QR Code' }).waitFor();
    const qrRow = admin.getByRole('row').filter({ hasText: QR_USER.email });
    await qrRow.getByText('Expire le 31 décembre 2030').waitFor();
    await screenshot(admin, 'qr-user-list-1280');
    await qrRow.getByRole('link', { name: `${QR_USER.lastname} ${QR_USER.firstname}` }).click();
    await admin.waitForURL(`${sesame.server.url}/qr-details?id=${qrUser.id}`);
    await admin.getByTestId('qr-user-card').getByText(qrUser.uidn).waitFor();
    await admin.reload();
    await admin.getByTestId('qr-user-card').getByText(qrUser.uidn).waitFor();
    await admin.getByTestId('qr-user-card').getByText('Expire le 31 décembre 2030').waitFor();
    expect(await imagesLoaded(admin, 'qr-user-card')).toBe(2);
    await screenshot(admin, 'qr-details-reloaded-1280');

    // ── The expiry page: read-only identity, required date, Update ───────────
    await admin.getByRole('link', { name: "Modifier l'expiration" }).click();
    await admin.waitForURL(`${sesame.server.url}/demo/disable-user-qrcode/${qrUser.id}`);
    const firstname = admin.getByRole('textbox', { name: 'Prénom' });
    expect(await firstname.inputValue()).toBe(QR_USER.firstname);
    expect(await firstname.getAttribute('readonly')).not.toBeNull();
    expect(await admin.getByRole('textbox', { name: 'Nom', exact: true }).inputValue()).toBe(
      QR_USER.lastname,
    );
    expect(await admin.getByRole('textbox', { name: 'Email' }).inputValue()).toBe(QR_USER.email);
    const date = admin.getByRole('textbox', { name: "Date d'expiration" });
    expect(await date.inputValue()).toBe('31/12/2030');
    await date.fill('');
    await date.blur();
    await admin.getByRole('button', { name: 'Mettre à jour' }).click();
    await admin.getByText('Le champ "Date d\'expiration" est requis.').waitFor();
    await date.fill('01/01/2020');
    await date.blur();
    await screenshot(admin, 'qr-expiry-1280');
    const [put] = await Promise.all([
      admin.waitForRequest(
        (r) => r.method() === 'PUT' && r.url().endsWith(`/api/qruser/${qrUser.id}`),
      ),
      admin.getByRole('button', { name: 'Mettre à jour' }).click(),
    ]);
    expect(put.postDataJSON()).toEqual({ dateExp: '2020-01-01' });
    await admin
      .getByTestId('expiry-feedback')
      .getByText('Utilisateur QR mis à jour avec succès.')
      .waitFor();
    // Back to the attendance list after the delay.
    await admin.waitForURL(`${sesame.server.url}/demo/user-check-ins`);
    const updated = await getCard(sesame.server, qrUser.id);
    expect(updated.dateExp).toBe('2020-01-01');
    expect(updated.expired).toBe(true);

    // The details, opened directly, show the new expiry.
    await admin.goto(`/qr-details?id=${qrUser.id}`);
    await admin.getByTestId('qr-user-card').getByText('Expiré le 1 janvier 2020').waitFor();
    await screenshot(admin, 'qr-details-expired-1280');

    // An unknown user: 'Utilisateur QR introuvable.' and no update is sent.
    const puts: string[] = [];
    admin.on('request', (r) => {
      if (r.method() === 'PUT') puts.push(r.url());
    });
    await admin.goto('/demo/disable-user-qrcode/0190a000-0000-7000-8000-000000000000');
    await admin.getByText('Utilisateur QR introuvable.').waitFor();
    expect(await admin.getByRole('button', { name: 'Mettre à jour' }).count()).toBe(0);
    expect(puts).toEqual([]);

    await context.close();
  });
});
