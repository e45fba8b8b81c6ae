/**
 * The host loop (issue 15) in Chromium, the mails read from a real SMTP server:
 * a visitor on a phone requests a meeting, choosing their host in the staff search,
 * and sees their recap; the host's mail carries a Valider link that opens a confirmation page (opening it decides
 * nothing); once the host confirms there, the visitor's page shows the card by
 * itself and their mail carries the code, the QR and an .ics invitation. A host
 * with an account declines from their own mail, with a reason, in English, and the
 * visitor's decline mail says why. The mails are rendered at phone width in French
 * and English and saved under e2e/artifacts for a person to look at.
 */
import type { ParsedMail } from 'mailparser';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newContext, PHONE, screenshot, signIn, field } from './support/browser';
import { decodeQr } from './support/qr';
import { apiToken } from './support/server';
import { useSesame } from './support/sesame';
import { fileRequest, fillMeetingIdentity } from './support/visitors';

const DESK = { email: 'accueil@demo.test', password: 'Accueil-Password-123' };
const HOST = { email: 'moussa.diallo@demo.test', password: 'Diallo-Password-123' };

const to = (mail: ParsedMail) =>
  (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap((a) => a?.value.map((v) => v.address));

/** The link a mail's plain text gives after a label ('Valider : https://…'). */
function linkAfter(mail: ParsedMail, label: string): string {
  const match = new RegExp(`${label} ?: (\\S+)`).exec(mail.text ?? '');
  if (!match) throw new Error(`no '${label}' link in: ${mail.text}`);
  return match[1]!;
}

/** Renders a mail's HTML at phone width, saves it under e2e/artifacts, and returns the page. */
async function renderMail(browser: Browser, mail: ParsedMail, name: string) {
  const context = await browser.newContext({ ...PHONE });
  const page = await context.newPage();
  // cid: images cannot load outside a mail client; the layout is what is looked at.
  await page.setContent(String(mail.html), { waitUntil: 'load' });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  await screenshot(page, name);
  await context.close();
  return { width };
}

describe('host loop in Chromium', () => {
  const sesame = useSesame({
    smtp: true,
    staff: [
      {
        ...DESK,
        name: 'Yao',
        firstname: 'Aya',
        title: 'Réceptionniste',
        role: 'ROLE_EMPLOYEE',
      },
      {
        ...HOST,
        name: 'Diallo',
        firstname: 'Moussa',
        title: 'Directeur',
        role: 'ROLE_USER',
      },
    ],
  });

  it('a phone request, the Valider link from the mail, the card by itself, the code mail with QR and .ics', async () => {
    const visitorEmail = 'awa.kone@example.com';
    const context = await newContext(sesame.browser, sesame.server.url, PHONE);
    const visitor = await context.newPage();
    await visitor.goto('/demo/meeting');
    await visitor.getByRole('heading', { name: 'Demande de rendez-vous' }).waitFor();
    await field(visitor, 'Prénoms').fill('Awa');
    await fillMeetingIdentity(visitor);
    // "Nom de l'hôte" searches the company's staff: names only.
    await visitor.getByRole('combobox', { name: "Nom de l'hôte" }).fill('diallo');
    await visitor.getByRole('option', { name: 'Moussa Diallo' }).click();
    await visitor.getByText('Hôte choisi : Moussa Diallo').waitFor();
    await field(visitor, 'Motif de la visite').fill('Entretien annuel');
    await field(visitor, 'Date').fill('24/12/2030');
    await field(visitor, 'Heure').selectOption('10');
    await field(visitor, 'Minute').selectOption('30');
    await field(visitor, 'Email').fill(visitorEmail);
    await field(visitor, 'Contact').fill('0701020304');
    // Issue 16: the privacy notice, accepted.
    await visitor.getByLabel("J'ai lu et j'accepte la notice de confidentialité.").check();
    await visitor.getByRole('button', { name: 'Envoyer la demande' }).click();

    // The recap, not a bare spinner.
    const recap = visitor.getByTestId('request-recap');
    await recap.waitFor({ timeout: 15_000 });
    await recap.getByText('Votre demande est envoyée').waitFor();
    await recap.getByText('Moussa Diallo').waitFor();
    await recap.getByText('24/12/2030').waitFor();
    await screenshot(visitor, 'host-loop-recap-375');
    const requestId = /\/request-meeting\/([0-9a-f-]{36})$/.exec(visitor.url())?.[1];
    expect(requestId).toBeDefined();

    // The acknowledgement, with a link to follow the request.
    const ack = await sesame.smtp.waitForMessage(
      (m) =>
        to(m).includes(visitorEmail) &&
        m.subject?.startsWith('Demande de rendez-vous reçue') === true,
    );
    expect(ack.subject).toBe('Demande de rendez-vous reçue – Demo');
    expect(linkAfter(ack, 'Suivre ma demande')).toBe(
      `${sesame.server.url}/demo/waiting-validation/${requestId}`,
    );
    await renderMail(sesame.browser, ack, 'mail-fr-visitor-ack-375');

    // The host chosen in the form gets the request, with Valider / Annuler; the desk does not.
    const deskMail = await sesame.smtp.waitForMessage(
      (m) => to(m).includes(HOST.email) && (m.text?.includes('Awa Koné') ?? false),
    );
    expect(deskMail.subject).toBe('Demande de rendez-vous : Awa Koné');
    expect(deskMail.text).toContain('Bonjour Moussa,');
    expect(deskMail.text).toContain('Acme CI');
    expect(deskMail.text).toContain('mardi 24 décembre 2030');
    const { width } = await renderMail(sesame.browser, deskMail, 'mail-fr-host-request-375');
    expect(width).toBeLessThanOrEqual(375);
    const valider = linkAfter(deskMail, 'Valider');
    expect(valider).toContain('/company/demo/host-decision?token=');

    // The link opens a confirmation page; opening it (twice, like a link preview) decides nothing.
    const hostContext = await newContext(sesame.browser, sesame.server.url, PHONE);
    const host = await hostContext.newPage();
    await host.goto(valider);
    await host.getByText('Confirmer ce rendez-vous ?').waitFor();
    await host.reload();
    await host.getByText('Awa Koné (Acme CI) demande à vous rencontrer.').waitFor();
    const pending = (await (
      await fetch(`${sesame.server.url}/api/requests/status/${requestId}`)
    ).json()) as { data: { state: string } };
    expect(pending.data.state).toBe('pending');
    await screenshot(host, 'host-loop-decision-375');
    await host.getByTestId('decision-submit').click();
    await host.getByTestId('decision-done').getByText('Rendez-vous confirmé').waitFor();
    await screenshot(host, 'host-loop-decided-375');

    // The visitor's page shows the card by itself.
    await visitor.getByTestId('visitor-card').waitFor({ timeout: 15_000 });
    const uidn = (await visitor.getByTestId('visitor-code').textContent())!.trim();
    await screenshot(visitor, 'host-loop-card-375');

    // The code mail: the code, a QR that decodes to the scan URL, an .ics invitation.
    const code = await sesame.smtp.waitForMessage((m) => m.text?.includes(uidn) ?? false);
    expect(code.subject).toBe('Votre code visiteur – Demo');
    const qr = code.attachments.find((a) => a.contentType === 'image/png');
    expect(await decodeQr(qr!.content)).toBe(`${sesame.server.url}/scan/${uidn}`);
    const ics = code.attachments.find((a) => a.filename === 'invitation.ics');
    expect(ics?.contentType).toBe('text/calendar');
    const calendar = ics!.content.toString('utf8');
    expect(calendar).toContain('BEGIN:VEVENT');
    expect(calendar).toContain('DTSTART:20301224T103000Z');
    expect(code.text).not.toContain("L'équipe Sésame");
    expect(code.text).toContain('Moussa Diallo');
    expect(sesame.smtp.messages.some((m) => to(m).includes(DESK.email))).toBe(false);
    await renderMail(sesame.browser, code, 'mail-fr-visitor-code-375');

    // The same link again: the decision is shown, not taken twice.
    await host.goto(valider);
    await host.getByTestId('decision-done').waitFor();
    expect(sesame.smtp.messages.filter((m) => m.text?.includes(uidn))).toHaveLength(1);

    await hostContext.close();
    await context.close();
  });

  it('a host with an account declines from their mail in English; the visitor’s decline mail says why', async () => {
    // The host reads their mails in English.
    const hostToken = await apiToken(sesame.server, HOST.email, HOST.password);
    const preferences = await fetch(`${sesame.server.url}/api/me/mail-preferences`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${hostToken}` },
      body: JSON.stringify({ language: 'en', arrival_mail: true }),
    });
    expect(preferences.status).toBe(200);

    // The visitor form's host search finds them by name (never an e-mail).
    const search = (await (
      await fetch(`${sesame.server.url}/api/requests/hosts/demo?q=diallo`)
    ).json()) as { data: { id: string; name: string }[] };
    expect(search.data).toEqual([{ id: expect.any(String), name: 'Moussa Diallo' }]);

    const visitorEmail = 'john.smith@example.com';
    const { requestId } = await fileRequest(
      sesame.server,
      {
        company_id: 'demo',
        firstname: 'John',
        lastname: 'Smith',
        id_number: 'UK-123456',
        organisation_name: 'Globex Ltd',
        email: visitorEmail,
        contact: '0707070707',
        request_date: '26/12/2030',
        request_time: '14:00',
        // Issue 16: the privacy notice accepted.
        privacy_accepted: '1',
        language: 'en',
      },
      {
        host_user_id: search.data[0]!.id,
        reason: 'Contract review',
      },
    );

    const hostMail = await sesame.smtp.waitForMessage(
      (m) => to(m).includes(HOST.email) && (m.text?.includes('John Smith') ?? false),
    );
    expect(hostMail.subject).toBe('Meeting request: John Smith');
    expect(hostMail.text).toContain('Hello Moussa,');
    await renderMail(sesame.browser, hostMail, 'mail-en-host-request-375');
    const decline = linkAfter(hostMail, 'Decline');

    const context = await newContext(sesame.browser, sesame.server.url, PHONE);
    const page = await context.newPage();
    await page.goto(decline);
    await page.getByText('Annuler ce rendez-vous ?').waitFor();
    await page.getByText('John Smith (Globex Ltd) demande à vous rencontrer.').waitFor();
    await page
      .getByLabel('Motif (facultatif, transmis au visiteur)')
      .fill('Je serai en déplacement ce jour-là.');
    await page.getByTestId('decision-submit').click();
    await page.getByTestId('decision-done').getByText('Rendez-vous annulé').waitFor();

    const declined = await sesame.smtp.waitForMessage(
      (m) =>
        to(m).includes(visitorEmail) && m.subject?.startsWith('Meeting not confirmed') === true,
    );
    expect(declined.subject).toBe('Meeting not confirmed – Demo');
    expect(declined.text).toContain('Reason given: Je serai en déplacement ce jour-là.');
    await renderMail(sesame.browser, declined, 'mail-en-visitor-declined-375');
    const ack = await sesame.smtp.waitForMessage(
      (m) =>
        to(m).includes(visitorEmail) && m.subject?.startsWith('Meeting request received') === true,
    );
    await renderMail(sesame.browser, ack, 'mail-en-visitor-ack-375');

    // The visitor's page says so, with the reason.
    await page.goto(`/demo/waiting-validation/${requestId}`);
    await page
      .getByTestId('request-declined')
      .getByText('Je serai en déplacement ce jour-là.', { exact: false })
      .waitFor();
    await screenshot(page, 'host-loop-declined-375');
    await context.close();
  });

  it('the front desk presses Annuler on the waiting screen; the visitor’s page and mail say so', async () => {
    const { requestId } = await fileRequest(
      sesame.server,
      {
        company_id: 'demo',
        firstname: 'Fatou',
        lastname: 'Camara',
        id_number: 'CI-445566',
        organisation_name: 'Sifca',
        email: 'fatou.camara@example.com',
        contact: '0707070707',
        request_date: '27/12/2030',
        request_time: '11:00',
        privacy_accepted: '1',
      },
      { host: 'Mme Koné', reason: 'Livraison' },
    );

    const context = await newContext(sesame.browser, sesame.server.url);
    const page = await context.newPage();
    await signIn(page, DESK.email, DESK.password);
    await page.goto(`/demo/waiting-validation/${requestId}`);
    // The page speaks to the front desk, not to the visitor (issue 27).
    await page.getByRole('heading', { name: 'Demande en attente de validation' }).waitFor();
    await page
      .getByText(
        "Cette demande attend d'être validée : par l'hôte depuis son e-mail, ou par vous ici.",
      )
      .waitFor();
    expect(await page.getByText('Votre demande', { exact: true }).count()).toBe(0);
    expect(await page.getByText("En attente de la confirmation de l'hôte...").count()).toBe(0);
    await page.getByRole('button', { name: 'Annuler' }).click();
    await page.getByLabel('Motif (facultatif)').fill('Mme Koné est absente cette semaine.');
    await page.getByRole('button', { name: "Confirmer l'annulation" }).click();
    await page.getByText('Demande annulée. Le visiteur en est informé par e-mail.').waitFor();
    await page.waitForURL(/\/demo\/list-qrcode$/);
    // The list says the request was cancelled, with its reason (issue 27: it said 'En attente').
    const row = page.getByRole('row').filter({ hasText: 'Fatou Camara' });
    await row.getByText('Annulé', { exact: true }).waitFor();
    await row.getByText('Mme Koné est absente cette semaine.').waitFor();
    expect(await row.getByText('En attente', { exact: true }).count()).toBe(0);
    // Opened again, the declined request says what happened, to the staff member.
    await page.goto(`/demo/waiting-validation/${requestId}`);
    await page.getByTestId('request-declined').getByText('Demande refusée').waitFor();
    await page.getByText('Motif donné : Mme Koné est absente cette semaine.').waitFor();
    expect(await page.getByRole('link', { name: 'Faire une nouvelle demande' }).count()).toBe(0);
    await context.close();

    // The visitor's own page (no session) shows the decline and its reason.
    const visitorContext = await newContext(sesame.browser, sesame.server.url, PHONE);
    const visitor = await visitorContext.newPage();
    await visitor.goto(`/demo/waiting-validation/${requestId}`);
    await visitor.getByTestId('request-declined').waitFor();
    await visitor.getByText('Mme Koné est absente cette semaine.', { exact: false }).waitFor();
    await visitorContext.close();

    const declined = await sesame.smtp.waitForMessage(
      (m) => to(m).includes('fatou.camara@example.com') && /non confirmé/.test(m.subject ?? ''),
    );
    expect(declined.text).toContain('Mme Koné est absente cette semaine.');
  });
});
