/**
 * The lobby's kiosk (issue 29) for the browser journeys and `npm run bench -- kiosk`: a kiosk
 * made through the staff API as the admin, a tablet paired by typing its code on `/kiosk`,
 * a real IPP printer (`ippeveprinter`, the badge tests' helper) whose jobs are read back, and a
 * walk-in gone through on the tablet as a visitor would, with optional human pauses.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ParsedMail } from 'mailparser';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { Kiosk, KioskInput, KioskPairing } from '@sesame/shared';
import { newContext, screenshot } from './browser';
import { decodeQr } from './qr';
import type { RunningServer } from './server';

export {
  startIppPrinter,
  ippPrinterAvailable,
  type TestIppPrinter,
} from '../../apps/server/test/helpers/ipp-printer';

const run = promisify(execFile);

/** Where the tablet keeps its device token (the design's contract). */
export const TOKEN_KEY = 'sesame.kioskToken';

/** A lobby tablet in landscape, touch. */
export const TABLET = {
  viewport: { width: 1024, height: 768 },
  hasTouch: true,
  deviceScaleFactor: 1,
};
/** A 390 px phone in portrait (the issue's second viewport). */
export const PHONE_390 = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
};

/** The demo company (seeded) and its only site. */
export interface DemoSite {
  companyId: string;
  siteId: string;
  timezone: string;
}

const json = (token: string) => ({
  'content-type': 'application/json',
  authorization: `Bearer ${token}`,
});

async function expectOk(res: Response, what: string, status = 200): Promise<unknown> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${text}`);
  return text ? (JSON.parse(text) as unknown) : null;
}

export async function demoSite(server: RunningServer, adminToken: string): Promise<DemoSite> {
  const company = (await expectOk(
    await fetch(`${server.url}/api/company/demo`),
    'GET /api/company/demo',
  )) as { data: { id: string } };
  const sites = (await expectOk(
    await fetch(`${server.url}/api/company/${company.data.id}/sites`, {
      headers: json(adminToken),
    }),
    'GET /api/company/:id/sites',
  )) as { data: { id: string; timezone: string }[] };
  const site = sites.data[0];
  if (!site) throw new Error('the demo company has no site');
  return { companyId: company.data.id, siteId: site.id, timezone: site.timezone };
}

/** POST /api/company/{id}/kiosks as the admin: the kiosk and its pairing code. */
export async function createKiosk(
  server: RunningServer,
  adminToken: string,
  site: DemoSite,
  input: Partial<KioskInput> & { name: string },
): Promise<{ kiosk: Kiosk; pairing: KioskPairing }> {
  const body = (await expectOk(
    await fetch(`${server.url}/api/company/${site.companyId}/kiosks`, {
      method: 'POST',
      headers: json(adminToken),
      body: JSON.stringify({ site_id: site.siteId, ...input }),
    }),
    'POST /api/company/:id/kiosks',
    201,
  )) as { data: Kiosk; pairing: KioskPairing };
  return { kiosk: body.data, pairing: body.pairing };
}

/** PUT /api/company/{id}/kiosks/{kioskId} (a printer address, an idle time...). */
export async function updateKiosk(
  server: RunningServer,
  adminToken: string,
  site: DemoSite,
  kioskId: string,
  patch: Partial<KioskInput>,
): Promise<Kiosk> {
  const body = (await expectOk(
    await fetch(`${server.url}/api/company/${site.companyId}/kiosks/${kioskId}`, {
      method: 'PUT',
      headers: json(adminToken),
      body: JSON.stringify(patch),
    }),
    'PUT /api/company/:id/kiosks/:kioskId',
  )) as { data: Kiosk };
  return body.data;
}

/** DELETE /api/company/{id}/kiosks/{kioskId}: revokes the kiosk's token. */
export async function revokeKiosk(
  server: RunningServer,
  adminToken: string,
  site: DemoSite,
  kioskId: string,
): Promise<Kiosk> {
  const body = (await expectOk(
    await fetch(`${server.url}/api/company/${site.companyId}/kiosks/${kioskId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${adminToken}` },
    }),
    'DELETE /api/company/:id/kiosks/:kioskId',
  )) as { data: Kiosk };
  return body.data;
}

/** GET /api/company/{id}/kiosks: every kiosk, revoked ones too. */
export async function listKiosks(
  server: RunningServer,
  adminToken: string,
  site: DemoSite,
): Promise<Kiosk[]> {
  const body = (await expectOk(
    await fetch(`${server.url}/api/company/${site.companyId}/kiosks`, {
      headers: json(adminToken),
    }),
    'GET /api/company/:id/kiosks',
  )) as { data: Kiosk[] };
  return body.data;
}

/**
 * Opens `/kiosk`, types the pairing code and pairs, as the person setting up the tablet
 * does; waits for the welcome screen and returns the device token the tablet keeps.
 */
export async function pairTablet(page: Page, code: string): Promise<string> {
  await page.goto('/kiosk');
  await page.getByLabel("Code d'appairage").fill(code);
  await page.getByRole('button', { name: 'Appairer' }).click();
  await welcome(page).waitFor({ timeout: 15_000 });
  const token = await page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY);
  if (!token) throw new Error(`the tablet keeps no token under '${TOKEN_KEY}' after pairing`);
  return token;
}

/** The welcome screen's first button: the screen is showing. */
export const welcome = (page: Page): Locator =>
  page.getByRole('button', { name: 'Je suis attendu(e)', exact: true });

/**
 * A context whose `/kiosk` starts already paired with `token` (a second tablet, or the
 * same tablet opened again): the token is put in its storage before any page runs.
 */
export async function pairedContext(
  browser: Browser,
  baseURL: string,
  token: string,
  options: Parameters<typeof newContext>[2] = {},
): Promise<BrowserContext> {
  const context = await newContext(browser, baseURL, options);
  await context.addInitScript(
    ([key, value]) => {
      if (!localStorage.getItem(key)) localStorage.setItem(key, value);
    },
    [TOKEN_KEY, token] as const,
  );
  return context;
}

/** GET /api/kiosk/me with a device token: its status (200 paired, 401 refused). */
export async function kioskMeStatus(server: RunningServer, token: string): Promise<number> {
  const res = await fetch(`${server.url}/api/kiosk/me`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await res.arrayBuffer();
  return res.status;
}

/** The people inside now whose name matches `q` (GET /api/on-site as the admin). */
export async function onSite(
  server: RunningServer,
  adminToken: string,
  q: string,
): Promise<{ firstname: string; lastname: string; photo: string | null; kind: string }[]> {
  const body = (await expectOk(
    await fetch(`${server.url}/api/on-site?company=demo&q=${encodeURIComponent(q)}`, {
      headers: json(adminToken),
    }),
    'GET /api/on-site',
  )) as { data: { firstname: string; lastname: string; photo: string | null; kind: string }[] };
  return body.data;
}

/** A request of the demo company found by the visitor's name (staff list), with its code. */
export async function requestOf(
  server: RunningServer,
  adminToken: string,
  q: string,
): Promise<{ id: string; state: string; visitor: { uidn: string | null; lastname: string } }> {
  const body = (await expectOk(
    await fetch(`${server.url}/api/requests/list/demo?q=${encodeURIComponent(q)}`, {
      headers: json(adminToken),
    }),
    'GET /api/requests/list/demo',
  )) as {
    data: { id: string; state: string; visitor: { uidn: string | null; lastname: string } }[];
  };
  const [row, ...more] = body.data;
  if (!row || more.length) throw new Error(`${body.data.length} requests match '${q}', not 1`);
  return row;
}

/** The addresses a mail was sent to. */
export const recipients = (mail: ParsedMail): string[] =>
  (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap(
    (a) => a?.value.map((v) => v.address ?? '') ?? [],
  );

/** The link a mail's plain text gives after a label ('Valider : https://…'). */
export function linkAfter(mail: ParsedMail, label: string): string {
  const match = new RegExp(`${label} ?: (\\S+)`).exec(mail.text ?? '');
  if (!match) throw new Error(`no '${label}' link in: ${mail.text}`);
  return match[1]!;
}

/** The decision token of a host mail's Valider link. */
export function decisionToken(link: string): string {
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}

/** POST /api/requests/decision as the host's confirmation page does once they press Valider. */
export async function acceptByLink(server: RunningServer, link: string): Promise<void> {
  await expectOk(
    await fetch(`${server.url}/api/requests/decision`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: decisionToken(link), decision: 'confirm' }),
    }),
    'POST /api/requests/decision',
  );
}

/** A PDF's first page size in millimetres, read from its MediaBox (pdfinfo, poppler-utils). */
export async function pdfPageMm(pdf: string): Promise<{ width: number; height: number }> {
  const { stdout } = await run('pdfinfo', [pdf]);
  const match = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(stdout);
  if (!match) throw new Error(`pdfinfo gave no page size: ${stdout}`);
  const mm = (pt: string) => Math.round((Number(pt) * 25.4) / 72);
  return { width: mm(match[1]!), height: mm(match[2]!) };
}

/** The text of a PDF (pdftotext, poppler-utils). */
export async function pdfText(pdf: string): Promise<string> {
  const { stdout } = await run('pdftotext', ['-layout', pdf, '-']);
  return stdout;
}

/** The encodings of the images a PDF holds, one per image ('jpeg', 'image' for a PNG's pixels…; pdfimages -list). */
export async function pdfImageEncodings(pdf: string): Promise<string[]> {
  const { stdout } = await run('pdfimages', ['-list', pdf]);
  // page num type width height color comp bpc enc interp object ID …, after two header lines.
  return stdout
    .split('\n')
    .slice(2)
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length > 8 && cols[2] === 'image')
    .map((cols) => cols[8]!);
}

/** Renders a PDF's first page at 300 dpi (pdftoppm) and decodes its QR with zbarimg. */
export async function pdfQr(pdf: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sesame-badge-'));
  await run('pdftoppm', ['-r', '300', '-png', '-f', '1', '-l', '1', pdf, path.join(dir, 'page')]);
  const [png] = (await readdir(dir)).filter((f) => f.endsWith('.png'));
  if (!png) throw new Error(`pdftoppm rendered nothing from ${pdf}`);
  return decodeQr(await readFile(path.join(dir, png)));
}

/**
 * A short video for Chromium's fake camera to stand for a visitor's face (a moving test
 * pattern, as Y4M): the photo step takes a frame of it.
 */
export async function faceVideo(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sesame-face-'));
  const video = path.join(dir, 'face.y4m');
  try {
    await run('ffmpeg', [
      '-loglevel',
      'error',
      ...['-f', 'lavfi', '-i', 'testsrc2=size=640x480:rate=10'],
      ...['-t', '2', '-pix_fmt', 'yuv420p', video],
    ]);
  } catch (error) {
    throw new Error('ffmpeg is needed for the fake camera: apt-get install -y ffmpeg', {
      cause: error,
    });
  }
  return video;
}

/** Human pauses of the timed walk-in (the issue's: 1 s a field typed, 0.5 s a tap). */
export interface Pauses {
  fieldMs: number;
  tapMs: number;
}
export const NO_PAUSES: Pauses = { fieldMs: 0, tapMs: 0 };
export const HUMAN_PAUSES: Pauses = { fieldMs: 1_000, tapMs: 500 };

const sleep = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : undefined);

/** What a visitor types at the walk-in form. */
export interface WalkInPerson {
  firstname: string;
  lastname: string;
  organisation: string;
  email?: string;
  phone?: string;
  /** The visitor type's button (issue 31); the site's first, 'Visiteur', when left out. */
  type?: string;
  /** "N° de pièce d'identité", which 'Visiteur' and 'Prestataire' ask. */
  idNumber?: string;
  /** How the visitor signs the type's documents, when it has some. */
  sign?: { method: 'drawn' | 'typed'; name: string };
  /** Letters typed in "Personne visitée" and the host's name picked from its answers. */
  hostQuery: string;
  hostName: string;
  reason: string;
}

/** What the walk-in did: how many taps and fields, and when the last tap was. */
export interface WalkInTrace {
  taps: number;
  fields: number;
  /** performance.now()-free wall time (Date.now()) of the first and the last tap. */
  firstTapAt: number;
  lastTapAt: number;
}

/**
 * A field of the kiosk by its label, exactly (a required field's label may end with ' *').
 */
function kioskField(page: Page, label: string): Locator {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return page.getByLabel(new RegExp(`^${escaped}( \\*)?$`));
}

/**
 * Goes through a walk-in on a paired tablet showing its welcome screen, as a visitor does:
 * "Je n'ai pas de rendez-vous", the fields (a step's "Continuer" when the next field is on
 * the next screen), the host picked in the host search, the privacy notice, the photo when
 * the kiosk asks for one, and the last "Continuer" that tells the host. Stops on the waiting
 * screen. `pause` adds the human pauses before each tap and after each field.
 */
export async function walkIn(
  page: Page,
  person: WalkInPerson,
  {
    pause = NO_PAUSES,
    photo = false,
    atPhoto,
  }: {
    pause?: Pauses;
    photo?: boolean;
    /** Called on the photo step, before its tap (the accessibility walk checks it there). */
    atPhoto?: () => Promise<void>;
  } = {},
): Promise<WalkInTrace> {
  try {
    return await walkInSteps(page, person, pause, photo, atPhoto);
  } catch (error) {
    // What the tablet showed when it stopped, for the person reading the failure.
    const shot = await screenshot(page, `kiosk-walk-in-failed-${Date.now()}`).catch(() => null);
    const shown = await page
      .locator('main')
      .innerText({ timeout: 1_000 })
      .catch(() => '(no main)');
    throw new Error(
      `the walk-in stopped: ${(error as Error).message}\nthe tablet showed: ${shown.replace(/\s+/g, ' ').slice(0, 600)}${shot ? `\nscreenshot: ${shot}` : ''}`,
      { cause: error },
    );
  }
}

async function walkInSteps(
  page: Page,
  person: WalkInPerson,
  pause: Pauses,
  photo: boolean,
  atPhoto: (() => Promise<void>) | undefined,
): Promise<WalkInTrace> {
  const trace: WalkInTrace = { taps: 0, fields: 0, firstTapAt: 0, lastTapAt: 0 };
  const tap = async (target: Locator) => {
    await target.waitFor({ timeout: 15_000 });
    await sleep(pause.tapMs);
    const at = Date.now();
    if (trace.taps === 0) trace.firstTapAt = at;
    trace.lastTapAt = at;
    trace.taps += 1;
    await target.click();
  };
  const next = () => page.getByRole('button', { name: 'Continuer', exact: true });
  const waiting = page.getByTestId('kiosk-waiting');
  /** Where the walk-in is: the step it says ("Étape 2 sur 3"), or the waiting screen. */
  const where = () =>
    page.evaluate(() => {
      if (document.querySelector('[data-testid="kiosk-waiting"], [data-testid="kiosk-held"]'))
        return 'waiting';
      const text = document.querySelector('main')?.textContent ?? '';
      return /(?:Étape|Step) \d+ (?:sur|of) \d+/.exec(text)?.[0] ?? '';
    });
  /** "Continuer", then the next step (or the waiting screen) once it shows. */
  const advance = async () => {
    const before = await where();
    await tap(next());
    await page.waitForFunction(
      (before) => {
        if (document.querySelector('[data-testid="kiosk-waiting"], [data-testid="kiosk-held"]'))
          return true;
        const text = document.querySelector('main')?.textContent ?? '';
        return (/(?:Étape|Step) \d+ (?:sur|of) \d+/.exec(text)?.[0] ?? '') !== before;
      },
      before,
      { timeout: 20_000 },
    );
  };
  /**
   * `target`, going on to the next step while it is not on this one: "Continuer" when it can
   * be pressed, else (a step still getting ready, as the photo's camera) a wait for `target`.
   */
  const reach = async (target: Locator, settle = 10_000): Promise<Locator> => {
    for (let step = 0; step < 4; step++) {
      if (await target.isVisible()) return target;
      const button = next();
      if ((await button.isVisible()) && (await button.isEnabled())) {
        await advance();
        // The new step's fields show with it; a moment for them before looking again.
        await target.waitFor({ timeout: 1_000 }).catch(() => undefined);
      } else {
        await target.waitFor({ timeout: settle });
      }
    }
    await target.waitFor({ timeout: 5_000 });
    return target;
  };
  const type = async (label: string, value: string) => {
    const target = await reach(kioskField(page, label));
    await target.fill(value);
    trace.fields += 1;
    await sleep(pause.fieldMs);
  };

  await tap(page.getByRole('button', { name: "Je n'ai pas de rendez-vous", exact: true }));
  // The visitor type (issue 31): one big button each.
  await tap(page.getByTestId('kiosk-visitor-type').filter({ hasText: person.type ?? 'Visiteur' }));
  await type('Prénom', person.firstname);
  await type('Nom', person.lastname);
  await type('Société', person.organisation);
  if (person.email) await type('E-mail', person.email);
  if (person.phone) await type('Téléphone', person.phone);
  if (person.idNumber) await type("N° de pièce d'identité", person.idNumber);
  if (person.sign) await signAtKiosk(page, person.sign, { reach, tap });
  await type('Personne visitée', person.hostQuery);
  // The host search's answers: large buttons (or a list's options), the host's name on each.
  await tap(
    page
      .getByRole('button', { name: person.hostName, exact: true })
      .or(page.getByRole('option', { name: person.hostName, exact: true })),
  );
  await type('Motif de la visite', person.reason);
  // The privacy notice: a checkbox whose label names it.
  const notice = await reach(page.getByRole('checkbox'));
  await sleep(pause.tapMs);
  trace.taps += 1;
  trace.lastTapAt = Date.now();
  await notice.check();
  if (photo) {
    const shoot = await reach(page.getByRole('button', { name: 'Prendre la photo', exact: true }));
    await atPhoto?.();
    await tap(shoot);
    // The photo taken: its preview replaces the camera.
    await page.getByRole('button', { name: 'Reprendre la photo', exact: true }).waitFor();
  }
  // The last "Continuer" sends the request (the host is told) and shows the waiting screen;
  // or, for a visit the watchlist holds (issue 31), the kiosk's welcome words only.
  for (let step = 0; step < 4 && (await where()) !== 'waiting'; step++) await advance();
  await waiting.or(page.getByTestId('kiosk-held')).waitFor({ timeout: 15_000 });
  return trace;
}

/**
 * Signs every document of the signing step (issue 31), as a visitor does: the full name, then
 * a signature drawn with the finger (a stroke across the pad) or the typed name and its box,
 * and "Signer ce document", until the step says they are all signed.
 */
async function signAtKiosk(
  page: Page,
  sign: { method: 'drawn' | 'typed'; name: string },
  {
    reach,
    tap,
  }: {
    reach: (target: Locator) => Promise<Locator>;
    tap: (target: Locator) => Promise<void>;
  },
): Promise<void> {
  const step = page.getByTestId('signing-step');
  for (let doc = 0; doc < 10; doc++) {
    // The first document is on the step after the identity; the next ones follow it.
    const name = await reach(page.getByLabel(/^Nom complet( \*)?$/));
    await name.fill(sign.name);
    if (sign.method === 'drawn') await drawSignature(page);
    else {
      await tap(page.getByRole('button', { name: 'Signer en tapant mon nom', exact: true }));
      await page.getByLabel('Je signe ce document en tapant mon nom').check();
    }
    const title = await step.getByRole('heading').first().innerText();
    await tap(page.getByRole('button', { name: 'Signer ce document', exact: true }));
    // Signed: the next document's title, or the kiosk gone on (the step's end, or the next step).
    await page.waitForFunction(
      (title) => {
        const shown = document.querySelector('[data-testid="signing-step"]');
        return !shown || shown.querySelector('h1, h2, h3, h4')?.textContent !== title;
      },
      title,
      { timeout: 10_000 },
    );
    if (!(await step.isVisible())) return;
  }
  throw new Error('more than 10 documents to sign');
}

/** A signature drawn across the pad: a few strokes of the mouse, as a finger would. */
export async function drawSignature(page: Page): Promise<void> {
  const pad = page.getByTestId('signature-pad');
  await pad.scrollIntoViewIfNeeded();
  const box = await pad.boundingBox();
  if (!box) throw new Error('the signature pad is not on the screen');
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.15, y);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) {
    await page.mouse.move(
      box.x + box.width * (0.15 + i * 0.05),
      y + Math.sin(i) * box.height * 0.25,
      { steps: 3 },
    );
  }
  await page.mouse.up();
  await page.getByText('Signature dessinée.').waitFor({ timeout: 5_000 });
}

/**
 * Records, in the page, each screen the kiosk shows, in order: its heading (`h1`), with the
 * step it says it is at when one heading covers several steps ("Étape 2 sur 3"), each time
 * that changes; a heading shown a moment before its first step (the step's code loading) is
 * that step's screen, not one more. Installed before the app loads; read with `screensSeen`.
 */
export async function watchScreens(context: BrowserContext): Promise<void> {
  // A script's text, not a function: a runner that names functions (tsx's __name) would
  // send the page a helper it does not have.
  await context.addInitScript({
    content: `(() => {
      const seen = [];
      window.__kioskScreens = seen;
      new MutationObserver(() => {
        const heading = document.querySelector('main h1, h1');
        const text = heading && heading.textContent ? heading.textContent.replace(/\\s+/g, ' ').trim() : '';
        if (!text) return;
        const main = document.querySelector('main');
        const step = /(?:Étape|Step) \\d+ (?:sur|of) \\d+/.exec(main ? main.textContent || '' : '');
        const screen = step ? text + ' (' + step[0] + ')' : text;
        // The heading before its form's first step shows (its code loading) is that same screen.
        if (step && seen[seen.length - 1] === text) seen[seen.length - 1] = screen;
        else if (seen[seen.length - 1] !== screen) seen.push(screen);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    })();`,
  });
}

/** The screens the page recorded so far (`watchScreens`), in order. */
export async function screensSeen(page: Page): Promise<string[]> {
  return page.evaluate(() => [
    ...((window as unknown as { __kioskScreens?: string[] }).__kioskScreens ?? []),
  ]);
}
