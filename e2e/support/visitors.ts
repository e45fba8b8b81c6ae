/**
 * Set-up for journeys that start with a visitor already confirmed: the visitor
 * form's two calls and the host's Valider, made through the API as the web app
 * makes them. Returns the visitor's code and the PNG of their QR.
 */
import type { Page } from 'playwright-core';
import { field } from './browser';
import type { RunningServer } from './server';

/** A small real PNG (the identity document). */
export const ID_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAKElEQVR4nGP8z8Dwn4EIwESMolGF1FHIQqxCRmIVjgbP0FE4GjyDUCEAw9wDH5uY8SkAAAAASUVORK5CYII=',
  'base64',
);

/** Today as the visitor form writes it (DD/MM/YYYY), in the default time zone (UTC). */
export function todayForForm(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}

/**
 * The meeting form's surname, identity document (number and file), address, country and
 * employer, as Awa Koné fills them in French; the journeys fill the other fields themselves.
 */
export async function fillMeetingIdentity(page: Page): Promise<void> {
  await field(page, 'Nom').fill('Koné');
  await field(page, "Numéro de pièce d'identité").fill('CI-2030-0042');
  await page.locator('input[type="file"]').setInputFiles({
    name: 'piece-identite.png',
    mimeType: 'image/png',
    buffer: ID_PNG,
  });
  await field(page, 'Adresse').fill('Rue des Jardins 12');
  await field(page, 'Ville').fill('Abidjan');
  await field(page, 'Pays').selectOption('Côte d’Ivoire');
  await field(page, 'Employeur').fill('Acme CI');
}

/**
 * The visitor form's two calls, as the web app makes them: the visitor (multipart, with
 * the identity document) and then their request. `visitor` holds the form's fields,
 * `request` the request's body beside the visitor's id.
 */
export async function fileRequest(
  server: RunningServer,
  visitor: Record<string, string>,
  request: Record<string, string>,
): Promise<{ visitorId: string; requestId: string }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(visitor)) form.set(key, value);
  form.set('request_image', new Blob([ID_PNG], { type: 'image/png' }), 'id.png');
  const created = await fetch(`${server.url}/api/visitor/create`, { method: 'POST', body: form });
  if (created.status !== 200) throw new Error(`visitor: ${created.status} ${await created.text()}`);
  const visitorId = ((await created.json()) as { data: { visitor_id: string } }).data.visitor_id;

  const filed = await fetch(`${server.url}/api/requests/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ visitor_id: visitorId, ...request }),
  });
  if (filed.status !== 201) throw new Error(`request: ${filed.status} ${await filed.text()}`);
  const requestId = ((await filed.json()) as { data: { id: string } }).data.id;
  return { visitorId, requestId };
}

/** A visitor of today whose request the staff confirmed; `request` overrides its host or reason. */
export async function createConfirmedVisitor(
  server: RunningServer,
  staffToken: string,
  person: { firstname: string; lastname: string; email: string },
  request: { host?: string; reason?: string } = {},
): Promise<{ uidn: string; qrPng: Buffer; requestId: string }> {
  const { requestId } = await fileRequest(
    server,
    {
      company_id: 'demo',
      ...person,
      id_number: 'CI-778899',
      organisation_name: 'Orange CI',
      contact: '0707070707',
      request_date: todayForForm(),
      request_time: '09:30',
      // Issue 16: the privacy notice accepted.
      privacy_accepted: '1',
    },
    { host: 'Mme Traoré', reason: 'Entretien', ...request },
  );

  const confirmed = await fetch(`${server.url}/api/requests/update/${requestId}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${staffToken}` },
    body: JSON.stringify({ status: 1, confirmed: 1 }),
  });
  if (!confirmed.ok) throw new Error(`confirm: ${confirmed.status} ${await confirmed.text()}`);
  const card = ((await confirmed.json()) as { data: { uidn: string; qr_code: string } }).data;
  const qrPng = Buffer.from(card.qr_code.replace(/^data:image\/png;base64,/, ''), 'base64');
  return { uidn: card.uidn, qrPng, requestId };
}

/** A request its host has not answered yet (the visitor's waiting page), filed as the visitor form does. */
export function filePendingRequest(
  server: RunningServer,
  person = { firstname: 'Koffi', lastname: 'Nguessan', email: 'koffi.nguessan@example.com' },
): Promise<{ visitorId: string; requestId: string }> {
  return fileRequest(
    server,
    {
      company_id: 'demo',
      ...person,
      id_number: 'CI-445566',
      organisation_name: 'Acme CI',
      contact: '0707070708',
      request_date: todayForForm(),
      request_time: '15:30',
      privacy_accepted: '1',
    },
    { host: 'M. Diallo', reason: 'Livraison' },
  );
}
