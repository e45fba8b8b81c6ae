/**
 * The check-in journey (issue 4): a receptionist's phone opens a visitor's scan
 * link (as a camera app would), signs in, and the visitor is checked in, then out;
 * the same by typing the code in 'Validation Manuelle UIDN'; and the in-app
 * scanner reading a real QR from Chromium's fake camera. The log shows each check.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VisitorLogRow } from '@sesame/shared';
import { launchBrowser, newContext, PHONE, screenshot } from './support/browser';
import { apiToken, startServer, type RunningServer, createDemoStaff } from './support/server';
import { createConfirmedVisitor } from './support/visitors';

const run = promisify(execFile);
const RECEPTIONIST = { email: 'accueil@demo.test', password: 'Accueil-Password-123' };

async function fillLogin(page: Page): Promise<void> {
  await page.getByLabel('Adresse e-mail').fill(RECEPTIONIST.email);
  await page.getByLabel('Mot de passe').fill(RECEPTIONIST.password);
  await page.getByRole('button', { name: 'Soumettre' }).click();
}

/** A short Y4M video of one still image: Chromium's fake camera plays it in a loop. */
async function videoOf(png: Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sesame-camera-'));
  const image = path.join(dir, 'qr.png');
  const video = path.join(dir, 'qr.y4m');
  await writeFile(image, png);
  try {
    await run('ffmpeg', [
      '-loglevel',
      'error',
      '-loop',
      '1',
      '-i',
      image,
      '-vf',
      'scale=400:400,pad=640:480:(ow-iw)/2:(oh-ih)/2:color=white,format=yuv420p',
      '-r',
      '10',
      '-t',
      '2',
      video,
    ]);
  } catch (error) {
    throw new Error('ffmpeg is needed for the fake camera: apt-get install -y ffmpeg', {
      cause: error,
    });
  }
  return video;
}

describe('check-in journey in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let adminToken: string;

  beforeAll(async () => {
    // No repeat window: the journey checks a visitor in and straight back out.
    server = await startServer({ REPEAT_SCAN_WINDOW_SECONDS: '0' });
    browser = await launchBrowser();
    adminToken = await apiToken(server);
    await createDemoStaff(server, {
      ...RECEPTIONIST,
      name: 'Yao',
      firstname: 'Mariam',
      title: 'Hôtesse d’accueil',
      role: 'ROLE_EMPLOYEE',
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const log = async (q: string) => {
    const res = await fetch(`${server.url}/api/visitorlog?q=${encodeURIComponent(q)}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    return ((await res.json()) as { data: VisitorLogRow[] }).data;
  };

  it("a phone's camera app opens the scan link: sign in, checked in, then out", async () => {
    const visitor = await createConfirmedVisitor(server, adminToken, {
      firstname: 'Awa',
      lastname: 'Diabaté',
      email: 'awa.diabate@example.com',
    });
    const phone = await (await newContext(browser, server.url, PHONE)).newPage();

    // Not signed in: the page says so and goes to the login, then back to the scan.
    await phone.goto(`/scan/${visitor.uidn}`);
    await phone.getByText('You must be logged in to continue.').first().waitFor();
    await phone.waitForURL(`${server.url}/sign-in`);
    await fillLogin(phone);
    await phone.waitForURL(`${server.url}/success-checkin/${visitor.uidn}`);
    await phone.getByRole('heading', { name: 'Thank you for your visit!' }).waitFor();
    await phone.getByText('Bienvenue, Awa Diabaté.').waitFor();
    await phone.getByRole('link', { name: 'Return to Home' }).waitFor();
    await screenshot(phone, 'checkin-thanks-375');

    await phone.goto(`/scan/${visitor.uidn}`);
    await phone.waitForURL(`${server.url}/success-checkout/${visitor.uidn}`);
    await phone.getByText('Au revoir, Awa Diabaté. À bientôt !').waitFor();

    const [row] = await log('Diabaté');
    expect(row).toMatchObject({ check_in_method: 'scan', check_out_method: 'scan' });
    expect(row!.check_out_time).not.toBeNull();
    expect(row!.check_in_by).toBe('Mariam Yao');

    // Anonymous: the check-out thank-you page has no 'Return to Home'.
    const anonymous = await (await newContext(browser, server.url, PHONE)).newPage();
    await anonymous.goto(`/success-checkout/${visitor.uidn}`);
    await anonymous.getByRole('heading', { name: 'Thank you for your visit!' }).waitFor();
    expect(await anonymous.getByRole('link', { name: 'Return to Home' }).count()).toBe(0);

    // An unknown code is refused with the server's message.
    await phone.goto('/scan/ZZZZ-ZZZZ-ZZZZ');
    await phone.getByRole('alert').filter({ hasText: 'QR Code inconnu.' }).waitFor();
  });

  it("'Validation Manuelle UIDN': empty field, then a code typed any case without dashes", async () => {
    const visitor = await createConfirmedVisitor(server, adminToken, {
      firstname: 'Koffi',
      lastname: 'Manuel',
      email: 'koffi.manuel@example.com',
    });
    const page = await (await newContext(browser, server.url)).newPage();
    await page.goto('/sign-in');
    await fillLogin(page);
    await page.waitForURL(`${server.url}/demo`);
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
    await page.getByRole('heading', { name: 'Login with QR Code' }).waitFor();
    await page.getByText("La caméra n'est pas disponible").waitFor();
    await page.getByRole('link', { name: 'Validation manuelle' }).waitFor();
    await screenshot(page, 'camera-unavailable-1280');
  });

  it("the in-app scanner reads a visitor's QR from the rear camera and checks them in", async () => {
    const visitor = await createConfirmedVisitor(server, adminToken, {
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
      const context = await newContext(camera, server.url, PHONE);
      await context.grantPermissions(['camera'], { origin: server.url });
      const page = await context.newPage();
      await page.goto('/sign-in');
      await fillLogin(page);
      await page.waitForURL(`${server.url}/demo`);
      await page.goto('/demo/camera');
      await page.getByRole('heading', { name: 'Login with QR Code' }).waitFor();
      await page.waitForURL(`${server.url}/success-checkin/${visitor.uidn}`, { timeout: 20_000 });
      await page.getByText('Bienvenue, Fatou Camara.').waitFor();
    } finally {
      await camera.close();
    }
    const [row] = await log('Camara');
    expect(row).toMatchObject({ check_in_method: 'scan', check_out_time: null });
  });
});
