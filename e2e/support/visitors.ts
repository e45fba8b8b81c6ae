/**
 * Set-up for journeys that start with a visitor already confirmed: the visitor
 * form's two calls and the host's Valider, made through the API as the web app
 * makes them. Returns the visitor's code and the PNG of their QR.
 */
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

export async function createConfirmedVisitor(
  server: RunningServer,
  staffToken: string,
  person: { firstname: string; lastname: string; email: string },
): Promise<{ uidn: string; qrPng: Buffer; requestId: string }> {
  const form = new FormData();
  const fields = {
    company_id: 'demo',
    ...person,
    id_number: 'CI-778899',
    organisation_name: 'Orange CI',
    contact: '0707070707',
    request_date: todayForForm(),
    request_time: '09:30',
    // Issue 16: the privacy notice accepted.
    privacy_accepted: '1',
  };
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set('request_image', new Blob([ID_PNG], { type: 'image/png' }), 'id.png');
  const visitor = await fetch(`${server.url}/api/visitor/create`, { method: 'POST', body: form });
  if (visitor.status !== 200) throw new Error(`visitor: ${visitor.status} ${await visitor.text()}`);
  const visitorId = ((await visitor.json()) as { data: { visitor_id: string } }).data.visitor_id;

  const request = await fetch(`${server.url}/api/requests/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ visitor_id: visitorId, host: 'Mme Traoré', reason: 'Entretien' }),
  });
  if (request.status !== 201) throw new Error(`request: ${request.status} ${await request.text()}`);
  const requestId = ((await request.json()) as { data: { id: string } }).data.id;

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
