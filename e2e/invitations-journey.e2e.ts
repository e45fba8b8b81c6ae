/**
 * Issue 30's journey in Chromium, in French and in English, the mails read from a real SMTP
 * server: a host invites two visitors for today from 'Inviter des visiteurs' and keeps 'Mes
 * visiteurs' open; one visitor opens the link of their invitation mail on a phone, completes
 * their identity document, then presses "Je suis arrivé(e)": the host's open screen shows
 * each step by itself (the live feed), the host gets the arrival mail, and the front desk
 * checks the visitor in with their code — which the host's screen shows too.
 */
import type { ParsedMail } from 'mailparser';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { qrPng } from '../apps/server/src/qr/qr';
import { field, PHONE, screenshot } from './support/browser';
import { demoSite } from './support/kiosk';
import { clearOfMidnight } from './support/poll';
import { apiToken } from './support/server';
import { useSesame } from './support/sesame';

const HOST = {
  name: 'Bamba',
  firstname: 'Issa',
  email: 'issa.bamba@example.com',
  password: 'Host-Password-2026',
  title: 'Directeur',
  role: 'ROLE_USER',
};
const DESK = {
  name: 'Yao',
  firstname: 'Aya',
  email: 'aya.yao.desk@example.com',
  password: 'Desk-Password-2026',
  title: 'Réceptionniste',
  role: 'ROLE_EMPLOYEE',
};

/** What differs between the two journeys: the screens' words and the mails' language. */
const WORDS = {
  fr: {
    switchTo: 'FR',
    language: 'Français',
    invite: 'Inviter des visiteurs',
    hour: /^Heure( \*)?$/,
    minute: /^Minute( \*)?$/,
    endHour: /^Heure de fin( \*)?$/,
    endMinute: /^Minute de fin( \*)?$/,
    reason: 'Motif',
    languageLabel: /^Langue des e-mails/,
    firstname: /^Prénom/,
    lastname: /^Nom/,
    email: /^E-mail/,
    organisation: /^Organisation/,
    addVisitor: 'Ajouter un visiteur',
    send: 'Envoyer les 2 invitations',
    sent: '2 invitations envoyées',
    seeMine: 'Voir mes visiteurs',
    invited: 'Invité(e)',
    completed: 'Informations complétées',
    here: "Arrivé(e) à l'accueil",
    arrived: 'Entré(e)',
    hereNotice: (name: string) => `${name} est arrivé(e) à l'accueil`,
    mailSubject: /^Vous êtes invité\(e\) chez /,
    completeLink: 'Compléter mes informations',
    idNumber: /^N° de pièce d'identité/,
    save: 'Enregistrer mes informations',
    saved: 'Merci, vos informations sont enregistrées. À bientôt !',
    hereButton: 'Je suis arrivé(e)',
    hostTold: (host: string) => `${host} est prévenu(e) de votre arrivée.`,
    hereMail: (visitor: string) => `${visitor} est arrivé(e)`,
    manualTitle: 'Validation Manuelle UIDN',
    validate: 'Valider',
    checkedIn: (name: string) => `Arrivée enregistrée : ${name}.`,
  },
  en: {
    switchTo: 'EN',
    language: 'English',
    invite: 'Invite visitors',
    hour: /^Hour( \*)?$/,
    minute: /^Minute( \*)?$/,
    endHour: /^End hour( \*)?$/,
    endMinute: /^End minute( \*)?$/,
    reason: 'Reason',
    languageLabel: /^Language of the e-mails/,
    firstname: /^First name/,
    lastname: /^Last name/,
    email: /^Email/,
    organisation: /^Organisation/,
    addVisitor: 'Add a visitor',
    send: 'Send the 2 invitations',
    sent: '2 invitations sent',
    seeMine: 'See my visitors',
    invited: 'Invited',
    completed: 'Details completed',
    here: 'At the front desk',
    arrived: 'Checked in',
    hereNotice: (name: string) => `${name} is at the front desk`,
    mailSubject: /^You are invited to /,
    completeLink: 'Complete my details',
    idNumber: /^ID document number/,
    save: 'Save my details',
    saved: 'Thank you, your details are saved. See you soon!',
    hereButton: "I'm here",
    hostTold: (host: string) => `${host} knows you have arrived.`,
    hereMail: (visitor: string) => `${visitor} has arrived`,
    manualTitle: 'Manual UIDN validation',
    validate: 'Validate',
    checkedIn: (name: string) => `Arrival recorded: ${name}.`,
  },
} as const;

const to = (mail: ParsedMail) =>
  (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap((a) => a?.value.map((v) => v.address));

/** The link a mail's plain text gives after a label ('Compléter mes informations : https://…'). */
function linkAfter(mail: ParsedMail, label: string): string {
  const match = new RegExp(`${label.replace(/[()]/g, '\\$&')} ?: (\\S+)`).exec(mail.text ?? '');
  if (!match) throw new Error(`no '${label}' link in: ${mail.text}`);
  return match[1]!;
}

describe('invitations: the journey from the host to the front desk', () => {
  const sesame = useSesame({ smtp: true, staff: [HOST, DESK], timeout: 120_000 });

  for (const lang of ['fr', 'en'] as const) {
    const w = WORDS[lang];
    it(`in ${lang === 'fr' ? 'French' : 'English'}: invited, details completed, "here" told live, checked in`, async () => {
      const { server } = sesame;
      const site = await demoSite(server, await apiToken(server));
      // The invitation is for today in the site's zone: not a minute before its midnight.
      await clearOfMidnight(site.timezone);
      const today = new Intl.DateTimeFormat('fr-FR', {
        timeZone: site.timezone,
        day: '2-digit',
        month: '2-digit',
        year: 'numeric',
      }).format(new Date());
      const suffix = lang === 'fr' ? 'fr' : 'en';
      const awa = {
        firstname: 'Awa',
        lastname: `Koné${suffix}`,
        email: `awa.${suffix}@example.com`,
      };
      const koffi = {
        firstname: 'Koffi',
        lastname: `Yao${suffix}`,
        email: `koffi.${suffix}@example.com`,
      };
      const awaName = `${awa.firstname} ${awa.lastname}`;

      // The host invites the two of them, in the journey's language.
      const host = await sesame.signedIn(HOST.email, HOST.password);
      await host.goto('/demo/menu');
      await host.getByRole('banner').getByText(w.switchTo, { exact: true }).click();
      await host.getByRole('link', { name: w.invite }).click();
      await host.getByRole('heading', { level: 1, name: w.invite }).waitFor();
      await field(host, 'Date').fill(today);
      await host.getByLabel(w.hour).selectOption('00');
      await host.getByLabel(w.minute).selectOption('00');
      await host.getByLabel(w.endHour).selectOption('23');
      await host.getByLabel(w.endMinute).selectOption('45');
      await field(host, w.reason).fill(lang === 'fr' ? 'Comité de pilotage' : 'Steering committee');
      await host.getByLabel(w.languageLabel).selectOption(lang);
      const visitor = (n: number) => host.getByTestId('invite-visitor').nth(n);
      for (const [n, person] of [awa, koffi].entries()) {
        if (n > 0) await host.getByRole('button', { name: w.addVisitor }).click();
        await visitor(n).getByLabel(w.firstname).fill(person.firstname);
        await visitor(n).getByLabel(w.lastname).fill(person.lastname);
        await visitor(n).getByLabel(w.email).fill(person.email);
      }
      await visitor(0).getByLabel(w.organisation).fill('Orange CI');
      await host.getByRole('button', { name: w.send }).click();
      const done = host.getByTestId('invite-done');
      await done.getByRole('heading', { name: w.sent }).waitFor();

      // 'Mes visiteurs', left open: what follows shows there by itself.
      await done.getByRole('link', { name: w.seeMine }).click();
      const row = host
        .getByTestId('invited-row')
        .filter({ has: host.getByText(awaName, { exact: true }) });
      await row.getByText(w.invited, { exact: true }).waitFor();

      // The invitation mail, in the journey's language, with the visitor's link.
      const mail = await sesame.smtp.waitForMessage(
        (m) => to(m).includes(awa.email) && w.mailSubject.test(m.subject ?? ''),
      );
      expect(mail.text).toContain(awaName);
      const link = linkAfter(mail, w.completeLink);
      expect(link.startsWith(`${server.url}/demo/invitation?token=`)).toBe(true);
      expect(mail.attachments.some((a) => a.filename === 'invitation.ics')).toBe(true);

      // The visitor, on a phone: completes their identity document…
      const phone = await sesame.page({ ...PHONE });
      await phone.goto(link);
      // The site's first visitor type, 'Visiteur' (issue 31), asks the organisation and the phone too.
      await phone.getByLabel(/^(Société ou organisation|Company or organisation)/).fill('Acme CI');
      await phone.getByLabel(/^(Téléphone|Phone)/).fill('0707080910');
      await phone.getByLabel(w.idNumber).fill('CNI-0102030405');
      await phone
        .locator('input[type="file"][name="request_image"]')
        .setInputFiles({ name: 'cni.png', mimeType: 'image/png', buffer: await qrPng('cni') });
      await phone.getByRole('checkbox').check();
      await phone.getByRole('button', { name: w.save }).click();
      // Saved, or refused: a refusal names its fields (the failure says what the page said).
      const saved = phone.getByTestId('invitation-details-saved').getByText(w.saved);
      const refused = phone.getByTestId('invitation-details-error');
      await saved.or(refused).waitFor();
      if (await refused.isVisible()) {
        throw new Error(`details refused: ${await phone.locator('main').innerText()}`);
      }
      // …which the host's open screen shows by itself.
      await row.getByText(w.completed, { exact: true }).waitFor();

      // …then presses "Je suis arrivé(e)": the host's screen says so at once, and a mail comes.
      await phone.getByRole('button', { name: w.hereButton }).click();
      await phone
        .getByTestId('invitation-here-answer')
        .getByText(w.hostTold(`${HOST.firstname} ${HOST.name}`))
        .waitFor();
      await row.getByText(w.here, { exact: true }).waitFor();
      await host.getByText(w.hereNotice(awaName)).first().waitFor();
      await screenshot(host, `invitations-journey-host-here-${lang}`);
      await screenshot(phone, `invitations-journey-visitor-here-${lang}`);
      await sesame.smtp.waitForMessage(
        (m) => to(m).includes(HOST.email) && (m.subject ?? '').includes(awaName),
      );

      // The front desk checks her in with her code (no door opened before that).
      const code = (await row.locator('span').allInnerTexts())
        .map((text) => text.trim())
        .find((text) => /^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/.test(text));
      expect(code, 'the code on the host’s row').toBeTruthy();
      const desk: Page = await sesame.signedIn(DESK.email, DESK.password);
      await desk.goto('/demo/manual-check');
      await desk.getByRole('banner').getByText(w.switchTo, { exact: true }).click();
      await desk.getByRole('heading', { name: w.manualTitle }).waitFor();
      await desk.getByLabel('UIDN').fill(code!);
      await desk.getByRole('button', { name: w.validate }).click();
      await desk.getByText(w.checkedIn(awaName)).waitFor();
      // The host's screen follows the check-in too; Koffi is still only invited.
      await row.getByText(w.arrived, { exact: true }).waitFor();
      await host
        .getByTestId('invited-row')
        .filter({ has: host.getByText(`${koffi.firstname} ${koffi.lastname}`, { exact: true }) })
        .getByText(w.invited, { exact: true })
        .waitFor();
      await screenshot(host, `invitations-journey-host-arrived-${lang}`);
    });
  }
});
