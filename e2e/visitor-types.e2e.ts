/**
 * Visitor types, documents signed at arrival and the watchlist (issue 31) in Chromium, on the
 * kiosk's tablet viewport, against the built Sésame and a real SMTP server:
 *   - the admin writes an NDA for the site and has the 'Prestataire' type ask it (staff API);
 *   - a contractor walks in at the kiosk, chooses 'Prestataire', signs the NDA with a drawn
 *     signature; a second contractor signs by typing their name (no dragging: WCAG 2.2 SC
 *     2.5.7); the signed PDFs open and `pdftotext` finds the text, the version and the name,
 *     in French, and in English for a third signed in English;
 *   - the second contractor, back the same day, is not asked to sign again (the type's
 *     signature lasts until a new version), and is asked again once the NDA has a version 2;
 *   - a watchlisted walk-in is held: the tablet says only "Merci, quelqu'un va venir vous
 *     accueillir.", the security officer's "Contrôles requis" screen shows the alert live
 *     (no reload), and the site's security contact gets the mail.
 */
import { writeFile, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedDocument, VisitorType } from '@sesame/shared';
import { newContext, screenshot } from './support/browser';
import {
  createKiosk,
  demoSite,
  pairTablet,
  pdfText,
  recipients,
  TABLET,
  walkIn,
  welcome,
  type DemoSite,
  type WalkInPerson,
} from './support/kiosk';
import { within } from './support/poll';
import { apiToken } from './support/server';
import { useSesame } from './support/sesame';

const HOST = {
  email: 'moussa.diallo@demo.test',
  password: 'Diallo-Password-123',
  name: 'Diallo',
  firstname: 'Moussa',
  title: 'Directeur',
  role: 'ROLE_USER',
};
/** The security officer who reviews held visits (a supervisor reads "Contrôles requis"). */
const SECURITY = {
  email: 'awa.kone@demo.test',
  password: 'Kone-Password-123',
  name: 'Koné',
  firstname: 'Awa',
  title: 'Responsable sécurité',
  role: 'ROLE_SUPERVISOR',
};
const SECURITY_CONTACT = 'securite@demo.test';

const NDA = {
  title_fr: 'Accord de confidentialité',
  title_en: 'Non-disclosure agreement',
  body_fr:
    '# Accord de confidentialité\n\nLe prestataire garde **confidentielle** toute information vue sur le site.\n\n- Aucune photo\n- Aucun document emporté',
  body_en:
    '# Non-disclosure agreement\n\nThe contractor keeps **confidential** anything seen on site.\n\n- No photos\n- No document taken away',
};

const CONTRACTOR = (
  firstname: string,
  lastname: string,
  sign: WalkInPerson['sign'],
): WalkInPerson => ({
  type: 'Prestataire',
  firstname,
  lastname,
  organisation: 'BTP Services',
  email: `${firstname}.${lastname}@example.com`.toLowerCase(),
  phone: '0707121314',
  idNumber: `CI-${lastname.toUpperCase()}`,
  hostQuery: 'dial',
  hostName: 'Moussa Diallo',
  reason: 'Travaux au 2e étage',
  sign,
});

describe('visitor types, signed documents and the watchlist in Chromium', () => {
  const sesame = useSesame({ smtp: true, staff: [HOST, SECURITY], timeout: 150_000 });
  let adminToken: string;
  let site: DemoSite;
  let tablet: Page;
  let tabletToken: string;
  let ndaId: string;
  const opened: BrowserContext[] = [];

  const api = async <T>(method: string, url: string, body?: unknown, status = 200): Promise<T> => {
    const res = await fetch(`${sesame.server.url}/api${url}`, {
      method,
      headers: {
        authorization: `Bearer ${adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== status) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };

  /** The signed documents of every visit of the people of this last name (the staff's lists). */
  async function signaturesOf(lastname: string): Promise<SignedDocument[]> {
    const list = await api<{ data: { visitor: { id: string; lastname: string } }[] }>(
      'GET',
      `/requests/list/demo?q=${encodeURIComponent(lastname)}`,
    );
    const visits = list.data.filter((r) => r.visitor.lastname === lastname);
    if (visits.length === 0) throw new Error(`no request of ${lastname}`);
    const signed: SignedDocument[] = [];
    for (const { visitor } of visits) {
      signed.push(
        ...(await api<{ data: SignedDocument[] }>('GET', `/visitors/${visitor.id}/signatures`))
          .data,
      );
    }
    return signed.sort((a, b) => a.signed_at.localeCompare(b.signed_at));
  }

  /** A signed document's PDF downloaded as staff, and its text (pdftotext). */
  async function pdfOf(signature: SignedDocument): Promise<string> {
    const res = await fetch(`${sesame.server.url}/api/signatures/${signature.id}/pdf`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/pdf');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sesame-signed-'));
    const file = path.join(dir, `${signature.id}.pdf`);
    await writeFile(file, Buffer.from(await res.arrayBuffer()));
    return (await pdfText(file)).replace(/\s+/g, ' ');
  }

  beforeAll(async () => {
    adminToken = await apiToken(sesame.server);
    site = await demoSite(sesame.server, adminToken);
    // The NDA, asked by 'Prestataire' until a new version.
    const nda = await api<{ data: { id: string } }>(
      'POST',
      `/company/${site.companyId}/documents`,
      { site_id: site.siteId, ...NDA },
      201,
    );
    ndaId = nda.data.id;
    const types = await api<{ data: VisitorType[] }>(
      'GET',
      `/company/${site.companyId}/visitor-types?site=${site.siteId}`,
    );
    const contractor = types.data.find((t) => t.name_fr === 'Prestataire');
    if (!contractor) throw new Error("the site has no 'Prestataire' type");
    await api('PUT', `/company/${site.companyId}/visitor-types/${contractor.id}`, {
      site_id: site.siteId,
      name_fr: contractor.name_fr,
      name_en: contractor.name_en,
      color: contractor.color,
      required_fields: contractor.required_fields,
      host_approval: contractor.host_approval,
      auto_check_out_at: contractor.auto_check_out_at,
      documents: [{ document_id: ndaId, validity: 'version' }],
    });
    // The site's security contact, and a person on the watchlist.
    await api('PUT', `/company/${site.companyId}/sites/${site.siteId}`, {
      security_emails: [SECURITY_CONTACT],
    });
    await api(
      'POST',
      `/company/${site.companyId}/watchlist`,
      {
        firstname: 'Mamadou',
        lastname: 'Konaté',
        email: '',
        phone: '',
        id_number: '',
        reason: 'Accès interdit après incident',
        until: '',
      },
      201,
    );
    const { pairing } = await createKiosk(sesame.server, adminToken, site, {
      name: 'Accueil chantier',
      print_badge: false,
    });
    const context = await newContext(sesame.browser, sesame.server.url, TABLET);
    opened.push(context);
    tablet = await context.newPage();
    tabletToken = await pairTablet(tablet, pairing.code);
  });

  afterAll(async () => {
    for (const context of opened.splice(0).reverse()) await context.close().catch(() => undefined);
  });

  it('a contractor signs the NDA with a drawn signature; its PDF holds the text, the version and the name', async () => {
    await walkIn(tablet, CONTRACTOR('Yao', 'Brou', { method: 'drawn', name: 'Yao Brou' }));
    await screenshot(tablet, 'visitor-types-kiosk-drawn-waiting');
    const [signed, ...more] = await signaturesOf('Brou');
    expect(more).toHaveLength(0);
    expect(signed).toMatchObject({
      title: NDA.title_fr,
      version: 1,
      language: 'fr',
      signer_name: 'Yao Brou',
      method: 'drawn',
    });
    expect(signed!.hash).toMatch(/^[0-9a-f]{64}$/);
    const text = await pdfOf(signed!);
    expect(text).toContain(NDA.title_fr);
    expect(text).toContain('Version 1');
    expect(text).toContain('Yao Brou');
    expect(text).toContain('confidentielle');
    expect(text).toContain(signed!.hash);
  });

  it('a second contractor signs by typing their name, and is not asked again until a new version', async () => {
    await tablet.goto('/kiosk');
    await welcome(tablet).waitFor();
    const person = CONTRACTOR('Koffi', 'Assi', { method: 'typed', name: 'Koffi Assi' });
    await walkIn(tablet, person);
    const [signed] = await signaturesOf('Assi');
    expect(signed).toMatchObject({ method: 'typed', signer_name: 'Koffi Assi', version: 1 });
    const text = await pdfOf(signed!);
    expect(text).toContain('Koffi Assi');
    expect(text).toContain('Version 1');

    // Back the same day with the same e-mail: the NDA's version 1 still holds, no signing step.
    await tablet.goto('/kiosk');
    await welcome(tablet).waitFor();
    await walkIn(tablet, { ...person, lastname: 'Assi', sign: undefined });
    expect(await tablet.getByTestId('signing-step').count()).toBe(0);

    // The NDA changes: version 2 is asked again.
    await api('PUT', `/company/${site.companyId}/documents/${ndaId}`, {
      site_id: site.siteId,
      ...NDA,
      body_fr: `${NDA.body_fr}\n- Badge porté en permanence`,
    });
    await tablet.goto('/kiosk');
    await welcome(tablet).waitFor();
    await walkIn(tablet, { ...person, sign: { method: 'typed', name: 'Koffi Assi' } });
    // Three visits of Koffi Assi, two signatures: version 1 at the first, version 2 at the third.
    expect((await signaturesOf('Assi')).map((s) => s.version)).toEqual([1, 2]);
  });

  it('a contractor signing in English gets the English text in the PDF', async () => {
    const types = await fetch(`${sesame.server.url}/api/kiosk/visitor-types`, {
      headers: { authorization: `Bearer ${tabletToken}` },
    }).then(
      (r) =>
        r.json() as Promise<{
          data: {
            id: string;
            name_fr: string;
            documents: { document_id: string; version: number }[];
          }[];
        }>,
    );
    const contractor = types.data.find((t) => t.name_fr === 'Prestataire')!;
    const [doc] = contractor.documents;
    const res = await fetch(`${sesame.server.url}/api/kiosk/walk-ins`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tabletToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        firstname: 'John',
        lastname: 'Smith',
        organisation_name: 'Smith Engineering',
        email: 'john.smith@example.com',
        contact: '+447700900123',
        id_number: 'GB123456',
        visitor_type_id: contractor.id,
        reason: 'Survey',
        language: 'en',
        privacy_accepted: true,
        signatures: [
          {
            document_id: doc!.document_id,
            version: doc!.version,
            signer_name: 'John Smith',
            method: 'typed',
            accepted: true,
          },
        ],
      }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const [signed] = await signaturesOf('Smith');
    expect(signed).toMatchObject({ language: 'en', title: NDA.title_en });
    const text = await pdfOf(signed!);
    expect(text).toContain(NDA.title_en);
    expect(text).toContain('Version 2');
    expect(text).toContain('John Smith');
    expect(text).toContain('confidential');
  });

  it("a watchlisted walk-in is held: the tablet says only the welcome words, security's screen shows the alert live", async () => {
    const security = await sesame.signedIn(SECURITY.email, SECURITY.password, TABLET);
    await security.goto('/demo/watchlist-reviews');
    // The list has loaded (nothing held yet) and the screen listens to the live feed.
    await security.getByText('Aucune visite à contrôler.').waitFor();
    const alert = security.getByTestId('watchlist-alert');
    expect(await alert.innerText()).toBe('');

    await tablet.goto('/kiosk');
    await welcome(tablet).waitFor();
    await walkIn(tablet, {
      type: 'Visiteur',
      firstname: 'Mamadou',
      lastname: 'Konate',
      organisation: 'Inconnue',
      email: 'm.konate@example.com',
      phone: '0707999999',
      idNumber: 'CI-KONATE',
      hostQuery: 'dial',
      hostName: 'Moussa Diallo',
      reason: 'Rendez-vous',
    });
    const held = tablet.getByTestId('kiosk-held');
    await held.waitFor();
    expect((await held.innerText()).trim()).toBe("Merci, quelqu'un va venir vous accueillir.");
    expect(await tablet.locator('main').innerText()).not.toMatch(/surveillance|contrôle/i);
    await screenshot(tablet, 'visitor-types-kiosk-held');

    // The security officer's screen, not reloaded, hears it.
    await within(
      20_000,
      async () => (await alert.innerText()).includes('Nouvelle visite retenue pour contrôle'),
      "the security officer's live alert",
    );
    await security.getByText('Mamadou Konate').first().waitFor({ timeout: 15_000 });
    await screenshot(security, 'visitor-types-security-alert');

    const mail = await sesame.smtp.waitForMessage((m) => recipients(m).includes(SECURITY_CONTACT));
    expect(mail.text).toContain('Mamadou Konate');
    expect(mail.text).not.toContain('Accès interdit après incident');
    // The host heard nothing of a held walk-in.
    expect(
      sesame.smtp.messages.some(
        (m) => recipients(m).includes(HOST.email) && (m.text?.includes('Konate') ?? false),
      ),
    ).toBe(false);
  });
});
