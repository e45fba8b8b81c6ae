/**
 * The check-in journey (issue 4): a receptionist's phone opens a visitor's scan
 * link (as a camera app would), signs in, and the visitor is checked in, then out;
 * the same by typing the code in 'Validation Manuelle UIDN'; and the in-app
 * scanner reading a real QR from Chromium's fake camera. The log shows each check.
 * The kiosk's e-mail QR is refused until the company turns e-mail presence on, and
 * then shows the member's photo to the agent.
 */
import type { Page } from 'playwright-core';
import QRCode from 'qrcode';
import { beforeAll, describe, expect, it } from 'vitest';
import type { UserLogRow, VisitorLogRow } from '@sesame/shared';
import { launchBrowser, newContext, PHONE, screenshot, signIn } from './support/browser';
import { videoOf } from './support/camera';
import { apiToken, createDemoStaff } from './support/server';
import { useSesame } from './support/sesame';
import { createConfirmedVisitor, ID_PNG } from './support/visitors';

const RECEPTIONIST = { email: 'accueil@demo.test', password: 'Accueil-Password-123' };

async function fillLogin(page: Page): Promise<void> {
  await page.getByLabel('Adresse e-mail').fill(RECEPTIONIST.email);
  await page.getByRole('button', { name: 'Continuer' }).click();
  await page.getByLabel('Mot de passe').fill(RECEPTIONIST.password);
  await page.getByRole('button', { name: 'Soumettre' }).click();
}

describe('check-in journey in Chromium', () => {
  let adminToken: string;

  const sesame = useSesame({ env: { REPEAT_SCAN_WINDOW_SECONDS: '0' } });

  beforeAll(async () => {
    // No repeat window: the journey checks a visitor in and straight back out.
    adminToken = await apiToken(sesame.server);
    await createDemoStaff(sesame.server, {
      ...RECEPTIONIST,
      name: 'Yao',
      firstname: 'Mariam',
      title: 'Hôtesse d’accueil',
      role: 'ROLE_EMPLOYEE',
    });
  });

  const log = async (q: string) => {
    const res = await fetch(`${sesame.server.url}/api/visitorlog?q=${encodeURIComponent(q)}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    return ((await res.json()) as { data: VisitorLogRow[] }).data;
  };

  it("a phone's camera app opens the scan link: sign in, checked in, then out", async () => {
    const visitor = await createConfirmedVisitor(sesame.server, adminToken, {
      firstname: 'Awa',
      lastname: 'Diabaté',
      email: 'awa.diabate@example.com',
    });
    const phone = await (await newContext(sesame.browser, sesame.server.url, PHONE)).newPage();

    // Not signed in: a visitor scanning their own QR lands on their card (issue 15); the
    // front desk signs in from there and goes back to the scan.
    await phone.goto(`/scan/${visitor.uidn}`);
    await phone.waitForURL(`${sesame.server.url}/company/demo/meeting-request-qr/${visitor.uidn}`);
    await phone.getByTestId('visitor-card').getByText('Awa Diabaté').waitFor();
    await phone.getByTestId('scan-staff-login').click();
    await phone.waitForURL(`${sesame.server.url}/sign-in`);
    await fillLogin(phone);
    await phone.waitForURL(`${sesame.server.url}/success-checkin/${visitor.uidn}`);
    // An arrival is welcomed, not thanked for a visit that has just begun (issue 27).
    await phone.getByRole('heading', { name: 'Bienvenue, Awa Diabaté !' }).waitFor();
    await phone.getByText(/^Arrivée enregistrée à \d{2}:\d{2}\.$/).waitFor();
    await phone.getByRole('link', { name: "Retour à l'accueil" }).waitFor();
    await screenshot(phone, 'checkin-thanks-375');

    // The check-out page's address, opened while she is inside, says no goodbye.
    const early = await (await newContext(sesame.browser, sesame.server.url, PHONE)).newPage();
    await early.goto(`/success-checkout/${visitor.uidn}`);
    await early.getByRole('heading', { name: 'Bienvenue, Awa Diabaté !' }).waitFor();
    expect(await early.getByText(/Au revoir/).count()).toBe(0);

    await phone.goto(`/scan/${visitor.uidn}`);
    await phone.waitForURL(`${sesame.server.url}/success-checkout/${visitor.uidn}`);
    await phone.getByText('Au revoir, Awa Diabaté. À bientôt !').waitFor();

    const [row] = await log('Diabaté');
    expect(row).toMatchObject({ check_in_method: 'scan', check_out_method: 'scan' });
    expect(row!.check_out_time).not.toBeNull();
    expect(row!.check_in_by).toBe('Mariam Yao');

    // Anonymous: the check-out thank-you page has no "Retour à l'accueil". Holding the code
    // shows the card and when they left (the latest check, all the server gives anyone).
    const anonymous = await (await newContext(sesame.browser, sesame.server.url, PHONE)).newPage();
    await anonymous.goto(`/success-checkout/${visitor.uidn}`);
    await anonymous.getByRole('heading', { name: 'Merci de votre visite !' }).waitFor();
    await anonymous.getByText('Au revoir, Awa Diabaté. À bientôt !').waitFor();
    await anonymous.getByText(/^Départ enregistré à \d{2}:\d{2}\.$/).waitFor();
    expect(await anonymous.getByRole('link', { name: "Retour à l'accueil" }).count()).toBe(0);

    // An unknown code is refused with the server's message.
    await phone.goto('/scan/ZZZZ-ZZZZ-ZZZZ');
    await phone.getByRole('alert').filter({ hasText: 'QR Code inconnu.' }).waitFor();
  });

  it("'Validation Manuelle UIDN': empty field, then a code typed any case without dashes", async () => {
    const visitor = await createConfirmedVisitor(sesame.server, adminToken, {
      firstname: 'Koffi',
      lastname: 'Manuel',
      email: 'koffi.manuel@example.com',
    });
    const page = await (await newContext(sesame.browser, sesame.server.url)).newPage();
    await page.goto('/sign-in');
    await fillLogin(page);
    await page.waitForURL(`${sesame.server.url}/demo`);
    await page.goto('/demo/manual-check');
    await page.getByRole('heading', { name: 'Validation Manuelle UIDN' }).waitFor();

    await page.getByRole('button', { name: 'Valider' }).click();
    await page.getByText('Veuillez renseigner le UIDN champ svp').waitFor();

    const typed = visitor.uidn.replace(/-/g, '').toLowerCase();
    await page.getByLabel('UIDN').fill(typed);
    await page.getByRole('button', { name: 'Valider' }).click();
    await page.getByText('Bien éffectué').waitFor();
    await page.getByText('Arrivée enregistrée : Koffi Manuel.').waitFor();
    await screenshot(page, 'manual-check-done-1280');
    await page.getByRole('main').getByRole('link', { name: 'Accueil' }).waitFor();

    await page.getByRole('button', { name: 'Valider un autre code' }).click();
    await page.getByLabel('UIDN').fill(visitor.uidn);
    await page.getByRole('button', { name: 'Valider' }).click();
    await page.getByText('Départ enregistré : Koffi Manuel.').waitFor();

    const [row] = await log('Koffi');
    expect(row).toMatchObject({ check_in_method: 'manual', check_out_method: 'manual' });

    // Without a camera the scanner says so and points to the manual validation.
    await page.goto('/demo/camera');
    await page.getByRole('heading', { name: 'Connexion par QR Code' }).waitFor();
    await page.getByText("La caméra n'est pas disponible").waitFor();
    await page.getByRole('link', { name: 'Validation manuelle' }).waitFor();
    await screenshot(page, 'camera-unavailable-1280');
  });

  it("the in-app scanner reads a visitor's QR from the rear camera and checks them in", async () => {
    const visitor = await createConfirmedVisitor(sesame.server, adminToken, {
      firstname: 'Fatou',
      lastname: 'Camara',
      email: 'fatou.camara@example.com',
    });
    const camera = await launchBrowser([
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${await videoOf(visitor.qrPng)}`,
    ]);
    try {
      const context = await newContext(camera, sesame.server.url, PHONE);
      await context.grantPermissions(['camera'], { origin: sesame.server.url });
      const page = await context.newPage();
      await page.goto('/sign-in');
      await fillLogin(page);
      await page.waitForURL(`${sesame.server.url}/demo`);
      await page.goto('/demo/camera');
      await page.getByRole('heading', { name: 'Connexion par QR Code' }).waitFor();
      await page.waitForURL(`${sesame.server.url}/success-checkin/${visitor.uidn}`, {
        timeout: 20_000,
      });
      await page.getByRole('heading', { name: 'Bienvenue, Fatou Camara !' }).waitFor();
    } finally {
      await camera.close();
    }
    const [row] = await log('Camara');
    expect(row).toMatchObject({ check_in_method: 'scan', check_out_time: null });
  });
  it("the kiosk's e-mail QR: refused until the company turns it on, then the member's photo is shown", async () => {
    const member = { firstname: 'Aïcha', lastname: 'Koné', email: 'aicha.kone@example.com' };
    const auth = { authorization: `Bearer ${adminToken}` };
    const demo = (await (await fetch(`${sesame.server.url}/api/company/demo`)).json()) as {
      data: { id: string };
    };
    // The seeded company lacks the edit form's required fields: filled in as its staff would.
    const details = new FormData();
    for (const [key, value] of Object.entries({
      id_number: 'CI-ABJ-2026-B-0001',
      address: 'Boulevard Latrille',
      city: 'Abidjan',
      state: 'Lagunes',
      country: 'Côte d’Ivoire',
      zipcode: '01 BP 1000',
      company_field: 'Services',
      point_contact: 'Mme Yao',
      title: 'Directrice',
      email: 'contact@demo.test',
      phone_number: '0707070707',
    }))
      details.set(key, value);
    const filled = await fetch(`${sesame.server.url}/api/company/${demo.data.id}`, {
      method: 'POST',
      headers: auth,
      body: details,
    });
    expect(filled.status, await filled.clone().text()).toBe(200);
    const card = new FormData();
    for (const [key, value] of Object.entries({
      ...member,
      contact: '0102030405',
      title: 'Consultante',
      type: 'permanent',
      company_id: demo.data.id,
    }))
      card.set(key, value);
    card.set('user_document', new Blob([new Uint8Array(ID_PNG)], { type: 'image/png' }), 'a.png');
    const created = await fetch(`${sesame.server.url}/api/create-member`, {
      method: 'POST',
      headers: auth,
      body: card,
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const userLog = async () => {
      const res = await fetch(`${sesame.server.url}/api/userLog?q=${member.email}`, {
        headers: auth,
      });
      return ((await res.json()) as { data: UserLogRow[] }).data;
    };

    const qr = await QRCode.toBuffer(member.email, { margin: 4, width: 400 });
    const camera = await launchBrowser([
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${await videoOf(qr)}`,
    ]);
    try {
      const context = await newContext(camera, sesame.server.url, PHONE);
      await context.grantPermissions(['camera'], { origin: sesame.server.url });
      const page = await context.newPage();
      await page.goto('/sign-in');
      await fillLogin(page);
      await page.waitForURL(`${sesame.server.url}/demo`);
      await page.goto('/demo/camera');
      await page.getByRole('heading', { name: 'Connexion par QR Code' }).waitFor();
      // Off by default: an e-mail is no secret. Refused, and nothing recorded.
      const feedback = page.getByTestId('scan-feedback');
      await feedback
        .filter({ hasText: "La présence par e-mail n'est pas activée pour cette entreprise." })
        .waitFor({ timeout: 20_000 });
      expect(await userLog()).toEqual([]);

      // The admin turns e-mail presence on in the company form.
      const admin = await (await newContext(sesame.browser, sesame.server.url)).newPage();
      await signIn(admin, sesame.server.adminEmail, sesame.server.adminPassword, 'demo');
      await admin.goto('/demo/edit-company/demo');
      await admin.getByRole('heading', { name: "Éditer l'Entreprise" }).waitFor();
      const kiosk = admin.getByRole('switch', { name: 'Présence par e-mail au scanner' });
      expect(await kiosk.isChecked()).toBe(false);
      await kiosk.check({ force: true });
      // The company form's button (the 'Confidentialité' section below has its own).
      await admin.getByRole('button', { name: 'Enregistrer' }).first().click();
      await admin.getByText('Entreprise mise à jour avec succès.').first().waitFor();

      // The scanner, still reading the same QR, now checks her in and shows her photo.
      await feedback
        .filter({ hasText: `Arrivée enregistrée : ${member.firstname} ${member.lastname}.` })
        .waitFor({ timeout: 20_000 });
      const photo = page.getByRole('img', {
        name: `Photo de ${member.firstname} ${member.lastname}`,
      });
      await photo.waitFor();
      await page.waitForFunction(
        (el) => (el as HTMLImageElement).complete,
        await photo.elementHandle(),
      );
      expect(await photo.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(
        0,
      );
      await screenshot(page, 'camera-kiosk-photo-375');
    } finally {
      await camera.close();
    }
    const [row] = await userLog();
    expect(row).toMatchObject({ check_in_method: 'kiosk' });
  });
});
