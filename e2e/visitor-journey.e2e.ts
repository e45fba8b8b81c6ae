/**
 * The visitor journey (issue 3): an anonymous visitor on a phone requests a
 * meeting with an identity document; a receptionist signed in on another device
 * validates it from 'Liste des demandes'; the visitor's waiting screen changes by
 * itself to the card; the mail reaches a real SMTP server with a QR that decodes
 * to the scan URL; staff capture the card as meeting-{company}-{code}.png.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { newContext, PHONE, screenshot, signIn, field } from './support/browser';
import { waitForMailSent } from './support/mail';
import { decodeQr } from './support/qr';
import { useSesame } from './support/sesame';
import { fillMeetingIdentity, ID_PNG } from './support/visitors';

const RECEPTIONIST = { email: 'accueil@demo.test', password: 'Accueil-Password-123' };
const VISITOR_EMAIL = 'awa.kone@example.com';

/** A day `offset` days from today in the demo company's zone (UTC): 'DD/MM/YYYY' and the calendar's name. */
function day(offset: number): { form: string; long: string } {
  const date = new Date(Date.now() + offset * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const long = new Intl.DateTimeFormat('fr-FR', {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(date);
  return {
    form: `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}`,
    long,
  };
}

describe('visitor journey in Chromium', () => {
  const sesame = useSesame({
    smtp: true,
    staff: [
      {
        ...RECEPTIONIST,
        name: 'Yao',
        firstname: 'Aya',
        title: 'Réceptionniste',
        role: 'ROLE_EMPLOYEE',
      },
    ],
  });

  it('request on a phone, validation by the receptionist, card by itself, mail with QR, PNG capture', async () => {
    // ── The visitor, anonymous, on a 375 px phone ─────────────────────────────
    const visitorContext = await newContext(sesame.browser, sesame.server.url, PHONE);
    const visitor = await visitorContext.newPage();
    await visitor.goto('/demo');
    await visitor.getByRole('link', { name: 'Demander un rendez-vous' }).click();
    await visitor.waitForURL(`${sesame.server.url}/demo/meeting`);
    await visitor.getByRole('heading', { name: 'Demande de rendez-vous' }).waitFor();
    // One page, no steps (issue 17); midnight is an hour like the others.
    expect(await visitor.getByText(/Étape \d/).count()).toBe(0);
    expect(await field(visitor, 'Heure').locator('option[value="00"]').count()).toBe(1);

    // Everything but the first names and the e-mail: the first missing field is named.
    await fillMeetingIdentity(visitor);
    // A document of another type is refused under its field as it is picked (issue 27);
    // the chooser's `accept` list offers only the accepted types.
    const documentInput = visitor.locator('input[type="file"]');
    expect(await documentInput.getAttribute('accept')).toBe(
      'image/jpeg,image/png,image/webp,application/pdf',
    );
    await documentInput.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a document'),
    });
    await visitor.getByText('La pièce doit être une image JPEG, PNG ou WebP, ou un PDF.').waitFor();
    await documentInput.setInputFiles({
      name: 'piece-identite.png',
      mimeType: 'image/png',
      buffer: ID_PNG,
    });
    expect(
      await visitor.getByText('La pièce doit être une image JPEG, PNG ou WebP, ou un PDF.').count(),
    ).toBe(0);
    // A search among the company's staff (issue 15); nobody matches, the text is kept.
    await visitor.getByRole('combobox', { name: "Nom de l'hôte" }).fill('M. Diallo');
    await field(visitor, 'Motif de la visite').fill('Entretien');
    // The calendar offers no past day (issue 11 §4): yesterday is disabled, today is not.
    await visitor.getByRole('button', { name: 'Ouvrir le calendrier' }).click();
    const todayButton = visitor.getByRole('button', { name: day(0).long, exact: true });
    await todayButton.waitFor();
    expect(await todayButton.isDisabled()).toBe(false);
    const yesterdayButton = visitor.getByRole('button', { name: day(-1).long, exact: true });
    if ((await yesterdayButton.count()) > 0) {
      expect(await yesterdayButton.isDisabled()).toBe(true);
    } else {
      // Today is the month's first day, on the week's first column: no going back a month.
      expect(await visitor.locator('button[data-direction="previous"]').isDisabled()).toBe(true);
    }
    await visitor.keyboard.press('Escape');
    // Typed by hand, a past date is refused too (the server refuses it again).
    await field(visitor, 'Date').fill(day(-1).form);
    await field(visitor, 'Heure').selectOption('10');
    await field(visitor, 'Minute').selectOption('30');
    // Written as people write it: the country code and spaces (stored in E.164).
    await field(visitor, 'Contact').fill('+225 07 01 02 03 04');
    // Issue 16: the privacy notice, accepted.
    await visitor.getByLabel("J'ai lu et j'accepte la notice de confidentialité.").check();
    await visitor.getByRole('button', { name: 'Envoyer la demande' }).click();
    await visitor
      .getByTestId('visitor-form-error')
      .filter({ hasText: 'Le champ "Prénoms" est requis.' })
      .waitFor();
    await screenshot(visitor, 'visitor-form-error-375');

    await field(visitor, 'Prénoms').fill('Awa');
    await field(visitor, 'Email').fill(VISITOR_EMAIL);
    await visitor.getByRole('button', { name: 'Envoyer la demande' }).click();
    await visitor
      .getByTestId('visitor-form-error')
      .filter({ hasText: 'La date de la visite ne peut pas être dans le passé.' })
      .waitFor();
    // Typed on a number pad, without slashes: they come by themselves.
    await field(visitor, 'Date').fill('');
    await field(visitor, 'Date').pressSequentially('24122030');
    expect(await field(visitor, 'Date').inputValue()).toBe('24/12/2030');
    // A file named and typed as a PNG whose bytes are not: the server's 415 is said under
    // the field, not as a bare status toast (issue 27).
    await documentInput.setInputFiles({
      name: 'piece-identite.png',
      mimeType: 'image/png',
      buffer: Buffer.from('this is no image'),
    });
    await visitor.getByRole('button', { name: 'Envoyer la demande' }).click();
    await visitor.getByText("Ce type de fichier n'est pas accepté.").first().waitFor();
    expect(await visitor.getByText(/Code : 415/).count()).toBe(0);
    await documentInput.setInputFiles({
      name: 'piece-identite.png',
      mimeType: 'image/png',
      buffer: ID_PNG,
    });
    await visitor.getByRole('button', { name: 'Envoyer la demande' }).click();
    await visitor.getByText('Visiteur créé avec succès.').first().waitFor();
    await visitor.getByText('Demande créée avec succès.').first().waitFor();
    await visitor.waitForURL(/\/demo\/request-meeting\/[0-9a-f-]{36}$/);
    const requestId = visitor.url().split('/').pop()!;
    await visitor.getByText("En attente de la confirmation de l'hôte...").waitFor();
    // A marker that survives only if the page is never reloaded.
    await visitor.evaluate(
      () => ((window as unknown as { __noReload: boolean }).__noReload = true),
    );
    await screenshot(visitor, 'visitor-waiting-375');

    // ── The receptionist, signed in on a desktop ─────────────────────────────
    const staffContext = await newContext(sesame.browser, sesame.server.url);
    const staff = await staffContext.newPage();
    await signIn(staff, RECEPTIONIST.email, RECEPTIONIST.password);
    await staff.goto('/demo/list-qrcode');
    await staff.getByRole('heading', { name: 'Liste des demandes' }).waitFor();
    const row = staff.getByRole('row').filter({ hasText: 'Awa Koné' });
    await row.getByText('En attente').waitFor();
    await row.getByText(VISITOR_EMAIL).waitFor();
    await row.getByText('+2250701020304').waitFor();
    // The whole list fits a 1280 px screen: no sideways scroll to reach Valider.
    expect(
      await staff
        .locator('table')
        .evaluate((table) => table.getBoundingClientRect().right <= window.innerWidth),
    ).toBe(true);
    // Only admins delete.
    expect(await staff.getByRole('columnheader', { name: 'Supprimer' }).count()).toBe(0);
    // The identity document is no thumbnail: 'Voir la pièce' opens it in a modal (issue 27).
    expect(await row.locator('img').count()).toBe(0);
    await row.getByRole('button', { name: /^Voir la pièce de / }).click();
    const modal = staff.getByRole('dialog');
    await modal.waitFor();
    expect(await modal.locator('img').getAttribute('src')).toMatch(/^\/api\/files\//);
    await screenshot(staff, 'request-list-modal-1280');
    await staff.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });

    await row.getByRole('link', { name: 'Valider' }).click();
    await staff.waitForURL(`${sesame.server.url}/demo/waiting-validation/${requestId}`);
    // The page speaks to the receptionist (issue 27), not to the visitor.
    await staff
      .getByText(
        "Cette demande attend d'être validée : par l'hôte depuis son e-mail, ou par vous ici.",
      )
      .waitFor();
    await staff.getByTestId('request-summary').getByText('Awa Koné').waitFor();
    await staff.getByRole('button', { name: 'Valider' }).click();
    await staff.getByTestId('visitor-card').waitFor();
    const uidn = (await staff.getByTestId('visitor-code').textContent())!.trim();
    expect(uidn).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    await staff.getByRole('link', { name: 'Menu' }).waitFor();
    await screenshot(staff, 'waiting-validated-1280');

    // Capture: a PNG named for the meeting and the company, whose QR still decodes.
    const [download] = await Promise.all([
      staff.waitForEvent('download'),
      staff.getByRole('button', { name: 'Capture' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`meeting-demo-${uidn}.png`);
    const capture = await readFile((await download.path())!);
    expect(capture.subarray(1, 4).toString()).toBe('PNG');
    expect(await decodeQr(capture)).toBe(`${sesame.server.url}/scan/${uidn}`);

    // ── The visitor's screen changed by itself, without a reload ─────────────
    await visitor.getByTestId('visitor-card').waitFor({ timeout: 15_000 });
    expect(
      await visitor.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload),
    ).toBe(true);
    expect((await visitor.getByTestId('visitor-code').textContent())!.trim()).toBe(uidn);
    await visitor.getByText('Votre QRCode a été envoyé par e-mail, Merci').waitFor();
    expect(await visitor.getByRole('button', { name: 'Capture' }).count()).toBe(0);
    await screenshot(visitor, 'visitor-card-375');

    // ── The mail: French, the details, the code, a QR that decodes to the scan URL ──
    const mail = await sesame.smtp.waitForMessage((m) => m.text?.includes(uidn) ?? false, 20_000);
    expect(mail.subject).toBe('Votre code visiteur – Demo');
    expect(mail.text).toContain('Bonjour Awa Koné,');
    expect(mail.text).toContain('M. Diallo');
    expect(mail.text).toContain('mardi 24 décembre 2030');
    const qr = mail.attachments.find((a) => a.contentType === 'image/png');
    expect(qr?.contentDisposition).toBe('inline');
    expect(await decodeQr(qr!.content)).toBe(`${sesame.server.url}/scan/${uidn}`);

    // The list now says 'Confirmé'.
    await staff.goto('/demo/list-qrcode');
    await staff.getByRole('row').filter({ hasText: 'Awa Koné' }).getByText('Confirmé').waitFor();

    // The meeting QR card opens with the code alone (the link in the mail), on the phone.
    await visitor.goto(`/company/demo/meeting-request-qr/${uidn}`);
    await visitor.getByTestId('visitor-card').getByText('Awa Koné').waitFor();
    // The card's address is where to go, not the visitor's home.
    expect(await visitor.getByTestId('visitor-card').textContent()).not.toContain(
      'Rue des Jardins',
    );
    await screenshot(visitor, 'meeting-card-375');

    // Exactly one mail for this visitor: the list says it was sent, the mail server holds one.
    await waitForMailSent(staff, () => staff.getByRole('row').filter({ hasText: 'Awa Koné' }));
    expect(sesame.smtp.messages.filter((m) => m.text?.includes(uidn))).toHaveLength(1);

    await visitorContext.close();
    await staffContext.close();
  });
});
