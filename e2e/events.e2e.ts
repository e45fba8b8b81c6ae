/**
 * The events journey (issues 5 and 17): a supervisor creates an event for their company
 * (locked) and lands on its page (share link, QR downloadable, poster), finds it in
 * 'Liste des Événements', copies its link and captures its QR poster; an anonymous
 * guest on a 390 px phone opens the link, reads a registration page (the event's name,
 * day, time and place as text) and registers with an identity document; the code mail
 * reaches a real SMTP server with a QR that decodes to the scan URL; staff check the
 * guest in; 'Liste Participants' on the event page shows them (no host or reason
 * column) and exports them as CSV; the event attendance list shows them; closing the
 * event (confirmed) turns the link's form into 'Inscriptions closes'.
 * A double click on 'Créer l'événement' creates one event.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { newContext, PHONE, screenshot, signIn } from './support/browser';
import { apiToken } from './support/server';
import { useSesame } from './support/sesame';
import { waitForMailSent } from './support/mail';
import { decodeQr } from './support/qr';
import { ID_PNG, todayForForm } from './support/visitors';

const SUPERVISOR = { email: 'superviseur@demo.test', password: 'Superviseur-Password-123' };
const GUEST_EMAIL = 'kouadio.guest@example.com';
const EVENT_NAME = 'Forum Numérique 2030';
const EVENT_SLUG = 'forum-numerique-2030';
/**
 * The event is today (the demo company's zone, UTC): a guest's code checks in only
 * on the event's day (issue 11 §4).
 */
const EVENT_DAY = todayForForm();
const dayText = (options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat('fr-FR', { timeZone: 'UTC', ...options }).format(new Date());
/** '24 novembre 2026' and 'mardi 24 novembre 2026'. */
const EVENT_LONG = dayText({ day: 'numeric', month: 'long', year: 'numeric' });
const EVENT_WEEKDAY = dayText({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
/** The phone of issue 17's screenshots. */
const PHONE_390 = { ...PHONE, viewport: { width: 390, height: 844 } };

describe('events journey in Chromium', () => {
  const sesame = useSesame({
    smtp: true,
    staff: [
      {
        ...SUPERVISOR,
        name: 'Bamba',
        firstname: 'Fatou',
        title: 'Superviseure',
        role: 'ROLE_SUPERVISOR',
      },
    ],
  });

  it('create, copy the link, poster PNG, guest registers on a phone, mail with QR, check-in, participants, attendance', async () => {
    const shareLink = `${sesame.server.url}/company/demo/event/${EVENT_SLUG}`;

    // ── The supervisor creates the event for their own company (locked) ───────
    const supContext = await newContext(sesame.browser, sesame.server.url, {
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const sup = await supContext.newPage();
    await signIn(sup, SUPERVISOR.email, SUPERVISOR.password);
    await sup.goto('/demo/create-event');
    await sup.getByRole('heading', { name: 'Création Événement' }).waitFor();
    const company = sup.getByLabel('Entreprise');
    expect(await company.inputValue()).toBe('Demo');
    expect(await company.getAttribute('readonly')).not.toBeNull();

    // The first missing field is named, in the form's order.
    await sup.getByRole('button', { name: "Créer l'événement" }).click();
    await sup
      .getByTestId('event-form-error')
      .filter({ hasText: 'Le champ "Nom" est requis.' })
      .waitFor();

    await sup.getByRole('textbox', { name: 'Nom', exact: true }).fill(EVENT_NAME);
    await sup.getByLabel('Lieu').fill('Salle Ivoire');
    await sup.getByLabel('Adresse').fill('Boulevard de la République');
    await sup.getByLabel('Ville').fill('Abidjan');
    await sup.getByRole('textbox', { name: 'Date', exact: true }).fill(EVENT_DAY);
    await sup.getByLabel('Heure').selectOption('18');
    await sup.getByLabel('Minute').selectOption('30');
    await screenshot(sup, 'event-create-1280');
    await sup.getByRole('button', { name: "Créer l'événement" }).click();
    await sup.getByText('Événement ajouté').first().waitFor();
    await sup.getByText('Événement créé avec succès !').first().waitFor();

    // ── Issue 17: the organiser lands on the event, its link and its QR at hand ──
    await sup.waitForURL(`${sesame.server.url}/demo/list-qrcode-events/${EVENT_SLUG}`);
    await sup.getByRole('heading', { level: 1, name: EVENT_NAME }).waitFor();
    const summary = sup.getByTestId('event-page-summary');
    await summary.getByText(`${EVENT_WEEKDAY} à 18:30`).waitFor();
    await summary.getByText('Inscriptions ouvertes').waitFor();
    expect(await sup.getByTestId('event-share-link').textContent()).toBe(shareLink);
    const pageQr = summary.getByRole('img', { name: `QR code de l'événement ${EVENT_NAME}` });
    await expect
      .poll(() => pageQr.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    await sup.getByText('Aucun participant inscrit pour le moment.').waitFor();
    await screenshot(sup, 'event-page-after-create-1280');
    const [qrDownload] = await Promise.all([
      sup.waitForEvent('download'),
      summary.getByRole('link', { name: 'Télécharger le QR code' }).click(),
    ]);
    expect(qrDownload.suggestedFilename()).toBe(`qr-${EVENT_SLUG}.png`);
    expect(await decodeQr(await readFile((await qrDownload.path())!))).toBe(shareLink);
    await summary.getByRole('button', { name: 'Copier le lien' }).click();
    expect(await sup.evaluate(() => navigator.clipboard.readText())).toBe(shareLink);

    // ── 'Liste des Événements': the row, the link copied, the QR ──────────────
    await sup.goto('/demo/list-events');
    await sup.getByRole('heading', { name: 'Liste des Événements' }).waitFor();
    for (const header of [
      'ID',
      'Entreprise',
      'Nom',
      'Lieu',
      'Date',
      'Heure',
      'Date de Création',
      'Lien',
      'Participants',
      'QRCode',
    ]) {
      await sup.getByRole('columnheader', { name: header, exact: true }).waitFor();
    }
    const row = sup.getByRole('row').filter({ hasText: EVENT_NAME });
    // The event's day and its creation day are both today.
    await row.getByText(EVENT_LONG).first().waitFor();
    expect(await row.getByText(EVENT_LONG).count()).toBe(2);
    await row.getByText('18:30').waitFor();
    await row.getByRole('button', { name: 'Copier le lien' }).click();
    await row.getByRole('button', { name: 'Texte Copié' }).waitFor();
    await sup.getByText('Texte Copié').first().waitFor();
    expect(await sup.evaluate(() => navigator.clipboard.readText())).toBe(shareLink);
    // The 2 s flag goes back.
    await row.getByRole('button', { name: 'Copier le lien' }).waitFor({ timeout: 5000 });
    expect(await row.getByRole('img', { name: /QR code de l'événement/ }).count()).toBe(1);
    await screenshot(sup, 'event-list-1280');

    // ── The poster: Capture → event-demo.png, a QR that decodes to the link ───
    await row.getByRole('link', { name: /QR code de l'événement/ }).click();
    await sup.waitForURL(`${sesame.server.url}/demo/show-event-qrcode/${EVENT_SLUG}`);
    await sup.getByTestId('event-poster').getByText(EVENT_NAME).waitFor();
    await sup.getByRole('link', { name: 'Menu' }).waitFor();
    await screenshot(sup, 'event-poster-1280');
    const captureButton = sup.getByRole('button', { name: 'Capture' });
    await expect.poll(() => captureButton.isEnabled()).toBe(true);
    const [download] = await Promise.all([sup.waitForEvent('download'), captureButton.click()]);
    expect(download.suggestedFilename()).toBe('event-demo.png');
    const poster = await readFile((await download.path())!);
    expect(poster.subarray(1, 4).toString()).toBe('PNG');
    expect(await decodeQr(poster)).toBe(shareLink);

    // ── The guest, anonymous, on a 390 px phone, through the copied link ──────
    const guestContext = await newContext(sesame.browser, sesame.server.url, PHONE_390);
    const guest = await guestContext.newPage();
    await guest.goto(shareLink);
    // Issue 17: a registration page: the event's name is the title, its facts are text.
    await guest.getByRole('heading', { level: 1, name: EVENT_NAME }).waitFor();
    const facts = guest.getByTestId('event-summary');
    await facts.getByText(EVENT_WEEKDAY).waitFor();
    await facts.getByText('18:30').waitFor();
    await facts.getByText('Salle Ivoire').waitFor();
    await facts.getByText('Boulevard de la République, Abidjan').waitFor();
    expect(await guest.getByRole('heading', { name: EVENT_NAME }).count()).toBe(1);
    expect(await guest.getByRole('heading', { name: 'Demande de rendez-vous' }).count()).toBe(0);
    expect(await guest.getByText(/Étape \d/).count()).toBe(0);
    // No place, date or time inputs (the event's), no host, no reason.
    for (const label of ['Adresse', 'Ville', 'Pays', 'Date', 'Heure', 'Minute']) {
      expect(await guest.getByRole('textbox', { name: label, exact: true }).count()).toBe(0);
      expect(await guest.getByRole('combobox', { name: label, exact: true }).count()).toBe(0);
    }
    expect(await guest.getByLabel("Nom de l'hôte").count()).toBe(0);
    expect(await guest.getByLabel('Motif de la visite').count()).toBe(0);
    // Nothing wider than the phone.
    expect(await guest.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await screenshot(guest, 'event-join-390');

    await guest.getByLabel('Prénoms').fill('Kouadio');
    await guest.getByRole('textbox', { name: 'Nom', exact: true }).fill('Yao');
    await guest.getByLabel("Numéro de pièce d'identité").fill('CI-2030-0077');
    await guest.locator('input[type="file"]').setInputFiles({
      name: 'piece-identite.png',
      mimeType: 'image/png',
      buffer: ID_PNG,
    });
    await guest.getByLabel('Employeur').fill('Orange CI');
    await guest.getByLabel('Email').fill(GUEST_EMAIL);
    await guest.getByLabel('Contact').fill('0707070707');
    // Issue 16: the privacy notice, accepted.
    await guest.getByLabel("J'ai lu et j'accepte la notice de confidentialité.").check();
    await screenshot(guest, 'event-join-390-filled');
    await guest.getByRole('button', { name: "S'inscrire" }).click();
    await guest.waitForURL(/\/demo\/qr-code\/[0-9a-f-]{36}$/);
    await guest.getByTestId('visitor-summary').getByText('Kouadio Yao').waitFor();
    await guest.getByText('Votre QRCode a été envoyé par e-mail, Merci').waitFor();
    await screenshot(guest, 'event-joined-390');

    // ── The mail arrives at once (no host approval), with the scan QR ────────
    const mail = await sesame.smtp.waitForMessage(
      (m) => m.to !== undefined && JSON.stringify(m.to).includes(GUEST_EMAIL),
    );
    expect(mail.subject).toBe(`Votre code d'accès – ${EVENT_NAME}`);
    expect(mail.text).toContain('Bonjour Kouadio Yao,');
    expect(mail.text).toContain(EVENT_WEEKDAY);
    const uidn = /\b([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})\b/.exec(mail.text ?? '')?.[1];
    expect(uidn).toBeDefined();
    const qr = mail.attachments.find((a) => a.contentType === 'image/png');
    expect(await decodeQr(qr!.content)).toBe(`${sesame.server.url}/scan/${uidn}`);

    // ── Staff (the admin) check the guest in at the door ─────────────────────
    const adminContext = await newContext(sesame.browser, sesame.server.url);
    const admin = await adminContext.newPage();
    await signIn(admin, sesame.server.adminEmail, sesame.server.adminPassword);
    const check = await admin.evaluate(async (code) => {
      const res = await fetch(`/api/get-qr-data/${code}`, {
        headers: { authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
      });
      return {
        status: res.status,
        body: (await res.json()) as { status?: string; redirectUrl?: string },
      };
    }, uidn!);
    expect(check.status).toBe(200);
    expect(check.body.status).toBe('success');
    expect(check.body.redirectUrl).toContain(`/success-checkin/${uidn}`);

    // ── 'Liste Participants' shows the guest checked in ──────────────────────
    await sup.goto('/demo/list-events');
    await sup
      .getByRole('row')
      .filter({ hasText: EVENT_NAME })
      .getByRole('link', { name: /Participants/ })
      .click();
    await sup.waitForURL(`${sesame.server.url}/demo/list-qrcode-events/${EVENT_SLUG}`);
    await sup.getByRole('heading', { level: 1, name: EVENT_NAME }).waitFor();
    await sup.getByRole('heading', { name: 'Liste Participants' }).waitFor();
    const participant = sup.getByRole('row').filter({ hasText: GUEST_EMAIL });
    await participant.getByText('Confirmé').waitFor();
    await participant
      .getByText(/\d{1,2} \S+ \d{4} à \d{2}:\d{2}/)
      .first()
      .waitFor();
    // Issue 17: no empty Hôte / Motif columns on an event's list.
    await sup.getByRole('columnheader', { name: 'Arrivée' }).waitFor();
    expect(await sup.getByRole('columnheader', { name: 'Hôte' }).count()).toBe(0);
    expect(await sup.getByRole('columnheader', { name: 'Motif' }).count()).toBe(0);
    await screenshot(sup, 'event-participants-1280');
    // The CSV export, for French Excel.
    const [csvDownload] = await Promise.all([
      sup.waitForEvent('download'),
      sup.getByRole('button', { name: 'Exporter (CSV)' }).click(),
    ]);
    expect(csvDownload.suggestedFilename()).toBe(`participants-${EVENT_SLUG}.csv`);
    const csv = (await readFile((await csvDownload.path())!)).toString('utf8');
    expect(
      csv.startsWith('\uFEFFPrénom;Nom;E-mail;Contact;Employeur;Inscription;Arrivée;Départ\r\n'),
    ).toBe(true);
    expect(csv).toContain(`Kouadio;Yao;${GUEST_EMAIL};`);

    // ── The event attendance list shows them under the event ────────────────
    await admin.goto('/demo/event-attendences');
    const attendance = admin.getByRole('row').filter({ hasText: GUEST_EMAIL });
    await attendance.getByText(EVENT_NAME).waitFor();
    await attendance.getByText('Kouadio', { exact: true }).waitFor();
    await attendance.getByText('Salle Ivoire').waitFor();
    await screenshot(admin, 'event-attendance-1280');

    // Exactly one mail for this guest: the participants list says it was sent, the mail
    // server holds one.
    await sup.goto(`/demo/list-qrcode-events/${EVENT_SLUG}`);
    await waitForMailSent(sup, () => sup.getByRole('row').filter({ hasText: GUEST_EMAIL }));
    expect(
      sesame.smtp.messages.filter((m) => JSON.stringify(m.to).includes(GUEST_EMAIL)),
    ).toHaveLength(1);

    // ── Issue 17: closing the event, confirmed; the link then takes no one ────
    await sup.getByRole('button', { name: `Clôturer les inscriptions à ${EVENT_NAME}` }).click();
    const dialog = sup.getByRole('dialog');
    await dialog.getByText(`Clôturer les inscriptions à « ${EVENT_NAME} » ?`).waitFor();
    await dialog.getByRole('button', { name: 'Clôturer', exact: true }).click();
    await sup.getByText('Les inscriptions à cet événement sont maintenant closes.').waitFor();
    await sup.getByTestId('event-page-summary').getByText('Inscriptions closes').waitFor();
    await screenshot(sup, 'event-page-closed-1280');
    expect(
      await sup.getByRole('button', { name: `Clôturer les inscriptions à ${EVENT_NAME}` }).count(),
    ).toBe(0);
    await guest.goto(shareLink);
    await guest.getByText('Les inscriptions à cet événement sont closes.').waitFor();
    expect(await guest.getByRole('button', { name: "S'inscrire" }).count()).toBe(0);
    await screenshot(guest, 'event-join-closed-390');

    await guestContext.close();
    await adminContext.close();
    await supContext.close();
  });

  it('a double click on the submit creates one event', async () => {
    const context = await newContext(sesame.browser, sesame.server.url);
    const page = await context.newPage();
    await signIn(page, SUPERVISOR.email, SUPERVISOR.password);
    await page.goto('/demo/create-event');
    const name = 'Atelier double clic';
    await page.getByRole('textbox', { name: 'Nom', exact: true }).fill(name);
    await page.getByLabel('Lieu').fill('Salle B');
    await page.getByLabel('Adresse').fill('Plateau');
    await page.getByRole('textbox', { name: 'Date', exact: true }).fill(EVENT_DAY);
    await page.getByLabel('Heure').selectOption('10');
    await page.getByLabel('Minute').selectOption('00');
    const submit = page.getByRole('button', { name: "Créer l'événement" });
    await submit.dblclick();
    await page.getByText('Événement ajouté').first().waitFor();
    // Saved: the button stays disabled until the page goes to the event.
    expect(await submit.isDisabled()).toBe(true);
    await page.waitForURL(`${sesame.server.url}/demo/list-qrcode-events/atelier-double-clic`);
    const token = await apiToken(sesame.server, SUPERVISOR.email, SUPERVISOR.password);
    const res = await fetch(`${sesame.server.url}/api/evenement/list?per_page=100&q=double`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const list = (await res.json()) as { data: { name: string; slug: string }[] };
    expect(list.data.filter((e) => e.name === name).map((e) => e.slug)).toEqual([
      'atelier-double-clic',
    ]);
    await context.close();
  });
});
