/**
 * A visitor's badge (issue 29): what it says, as an HTML page the browser prints at the
 * label's size (`@page`, tier 1), and as a PDF at the exact media size that the server sends
 * to an IPP printer (tier 2). Both carry the same things: the company's logo (or its name),
 * a band "VISITEUR" / "VISITOR" in the visitor's language — or, for a visitor of a type
 * (issue 31), the type's name in that language on a band of the type's colour — the photo a kiosk took, the name,
 * organisation, host, site, the visit's day ("Valable le 28/11/2026 uniquement") and a QR of
 * the visitor's code, which the kiosk's "Je pars" and the desk's scanner check out.
 *
 * A badge is for a confirmed meeting only (400 `badge.notConfirmed`).
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  BADGE_SIZES,
  asLanguage,
  formatUidn,
  sayIn,
  type BadgeSize,
  type Language,
} from '@sesame/shared';
import type { Color, PDFDocument, PDFFont, PDFImage, PDFPage } from 'pdf-lib';
import type { Db } from '../db/client';
import { pdfLib } from '../documents/pdf-lib';
import {
  companies,
  files,
  sites,
  users,
  visitRequests,
  visitorTypes,
  visitors,
} from '../db/schema';
import { badRequest } from '../errors';
import type { FileStorage } from '../files/storage';
import { escapeHtml } from '../mail/layout';
import { qrDataUrl, qrPng } from '../qr/qr';
import { dayOf } from '../time-zones';

/** A meeting's request as the badge routes find it: whose it is and where. */
export interface BadgeRequest {
  id: string;
  companyId: string;
  siteId: string;
  confirmed: boolean;
  /** The meeting's day, DD/MM/YYYY in the site's zone (today for a meeting without one). */
  day: string;
  timezone: string;
  siteBadgeSize: BadgeSize;
  sitePrinterUrl: string | null;
}

/** An image the badge shows, as stored. */
export interface BadgeImage {
  bytes: Buffer;
  mediaType: string;
}

/** Everything a badge says. */
export interface BadgeContent {
  firstname: string;
  lastname: string;
  organisation: string;
  host: string | null;
  site: string;
  company: string;
  day: string;
  language: Language;
  uidn: string;
  photo: BadgeImage | null;
  logo: BadgeImage | null;
  /** The visitor's type (issue 31): its name in the badge's language and its colour; none: the plain band. */
  type?: BadgeType | null;
}

/** What the band shows of a visitor's type. */
export interface BadgeType {
  name: string;
  /** '#RRGGBB'. */
  color: string;
}

/** The plain band's colour, for a visitor without a type. */
const PLAIN_BAND = '#1B3A6B';

/** '#RRGGBB' as its three channels, 0 to 1 (the plain band's for anything else). */
function channels(color: string): [number, number, number] {
  const hex = /^#[0-9A-Fa-f]{6}$/.test(color) ? color : PLAIN_BAND;
  const channel = (at: number) => parseInt(hex.slice(at, at + 2), 16) / 255;
  return [channel(1), channel(3), channel(5)];
}

/** WCAG 2.x relative luminance. */
function luminance(color: string): number {
  const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const [r, g, b] = channels(color);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/**
 * The band's colours: the type's (the plain band without one) and, on it, white or near
 * black, whichever contrasts more (a light type colour gets dark letters).
 */
export function bandColors(type: BadgeType | null | undefined): {
  background: string;
  text: string;
} {
  const background =
    type && /^#[0-9A-Fa-f]{6}$/.test(type.color) ? type.color.toUpperCase() : PLAIN_BAND;
  const l = luminance(background);
  const dark = '#111111';
  const onWhite = 1.05 / (l + 0.05);
  const onDark = (l + 0.05) / (luminance(dark) + 0.05);
  return { background, text: onWhite >= onDark ? '#FFFFFF' : dark };
}

const DAY_TEXT = /^\d{2}\/\d{2}\/\d{4}$/;

/** YYYY-MM-DD as DD/MM/YYYY. */
const dayText = (isoDay: string) => isoDay.split('-').reverse().join('/');

/** Today, DD/MM/YYYY in `timeZone`. */
export const todayIn = (timeZone: string, now = new Date()) => dayText(dayOf(now, timeZone));

export const isBadgeSize = (value: unknown): value is BadgeSize =>
  typeof value === 'string' && Object.hasOwn(BADGE_SIZES, value);

const hostUser = alias(users, 'badge_host');

async function loadRow(db: Db, requestId: string) {
  const [row] = await db
    .select({
      request: visitRequests,
      visitor: visitors,
      site: sites,
      companyName: companies.name,
      companyLogoFileId: companies.logoFileId,
      hostFirstname: hostUser.firstname,
      hostName: hostUser.name,
      typeNameFr: visitorTypes.nameFr,
      typeNameEn: visitorTypes.nameEn,
      typeColor: visitorTypes.color,
    })
    .from(visitRequests)
    .innerJoin(visitors, eq(visitors.id, visitRequests.visitorId))
    .innerJoin(sites, eq(sites.id, visitors.siteId))
    .innerJoin(companies, eq(companies.id, visitRequests.companyId))
    .leftJoin(hostUser, eq(hostUser.id, visitRequests.hostUserId))
    .leftJoin(visitorTypes, eq(visitorTypes.id, visitors.visitorTypeId))
    .where(eq(visitRequests.id, requestId))
    .limit(1);
  return row ?? null;
}

/** The meeting's day in its site's zone: its stored day, else the day it starts, else today. */
function visitDay(
  visitor: { requestDate: string | null; dayStartsAt: Date | null },
  timezone: string,
): string {
  if (visitor.requestDate && DAY_TEXT.test(visitor.requestDate)) return visitor.requestDate;
  if (visitor.dayStartsAt) return dayText(dayOf(visitor.dayStartsAt, timezone));
  return todayIn(timezone);
}

/** The request of a badge (for `loadAuthorized`: its company), or null. */
export async function findBadgeRequest(db: Db, requestId: string): Promise<BadgeRequest | null> {
  const row = await loadRow(db, requestId);
  if (!row) return null;
  return {
    id: row.request.id,
    companyId: row.request.companyId,
    siteId: row.site.id,
    confirmed: row.request.confirmed === true,
    day: visitDay(row.visitor, row.site.timezone),
    timezone: row.site.timezone,
    siteBadgeSize: isBadgeSize(row.site.badgeSize) ? row.site.badgeSize : '62x100',
    sitePrinterUrl: row.site.badgePrinterUrl,
  };
}

/** A stored file's bytes when it is one of `mediaTypes`, else null (missing, or another kind). */
async function storedImage(
  db: Db,
  storage: FileStorage,
  fileId: string | null,
  companyId: string,
): Promise<BadgeImage | null> {
  if (!fileId) return null;
  const [file] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.companyId, companyId)))
    .limit(1);
  if (!file || !file.mediaType.startsWith('image/')) return null;
  const bytes = await storage.get(file.storedName);
  return bytes ? { bytes, mediaType: file.mediaType } : null;
}

/** What the badge of a confirmed request says (400 `badge.notConfirmed` for any other). */
export async function badgeContent(
  db: Db,
  storage: FileStorage,
  request: BadgeRequest,
): Promise<BadgeContent> {
  if (!request.confirmed) throw badRequest((m) => m.badge.notConfirmed);
  const row = await loadRow(db, request.id);
  if (!row || row.request.confirmed !== true) throw badRequest((m) => m.badge.notConfirmed);
  const { visitor } = row;
  const hostName = row.hostName !== null ? `${row.hostFirstname ?? ''} ${row.hostName}`.trim() : '';
  const [photo, logo] = await Promise.all([
    storedImage(db, storage, visitor.photoFileId, row.request.companyId),
    storedImage(db, storage, row.companyLogoFileId, row.request.companyId),
  ]);
  const language = asLanguage(visitor.language);
  const typeName = language === 'en' ? row.typeNameEn : row.typeNameFr;
  return {
    firstname: visitor.firstname,
    lastname: visitor.lastname,
    organisation: visitor.organisationName,
    host: hostName || row.request.host?.trim() || null,
    site: row.site.name,
    company: row.companyName,
    day: request.day,
    language,
    uidn: visitor.uidn,
    photo,
    logo,
    type: typeName && row.typeColor ? { name: typeName, color: row.typeColor } : null,
  };
}

/** What the QR of a badge encodes: the visitor's code itself (the kiosk and the desk read it). */
export const badgeQrText = (content: Pick<BadgeContent, 'uidn'>) => content.uidn;

/** The badge's words in the visitor's language. */
function wordsOf(content: BadgeContent) {
  const say = (pick: Parameters<typeof sayIn>[1]) => sayIn(content.language, pick);
  return {
    // A type's name is set in capitals like the plain band's word.
    band: content.type?.name.trim()
      ? content.type.name.trim().toLocaleUpperCase(content.language)
      : say((m) => m.badge.band),
    validOn: say((m) => m.badge.validOn(content.day)),
    host: say((m) => m.badge.host),
    name: `${content.firstname} ${content.lastname}`.trim(),
  };
}

const dataUrl = (image: BadgeImage) =>
  `data:${image.mediaType};base64,${image.bytes.toString('base64')}`;

/** The images a browser shows inline (a logo may be SVG there; PDF takes PNG and JPEG only). */
const BROWSER_IMAGES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml']);

/** A nonce for the badge page's one inline script (`?print=1`). */
export const newNonce = () => randomBytes(16).toString('base64');

/**
 * The badge page's own Content-Security-Policy: nothing from anywhere, its inline style and
 * data: images, and with a nonce the one script that calls window.print(). The web app may
 * show it in a frame of its own origin.
 */
export function badgePagePolicy(nonce?: string): string {
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    'img-src data:',
    nonce ? `script-src 'nonce-${nonce}'` : "script-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/**
 * The badge as one small HTML page, nothing external: the photo, logo and QR inlined as data
 * URLs, the page at the label's size. With `printNonce` it calls window.print() once loaded.
 */
export async function badgeHtml(
  content: BadgeContent,
  size: BadgeSize,
  { printNonce }: { printNonce?: string } = {},
): Promise<string> {
  const { widthMm: w, heightMm: h } = BADGE_SIZES[size];
  const words = wordsOf(content);
  const band = bandColors(content.type);
  // Type scales with the label: the 62 mm label is the reference.
  const scale = Math.min(w / 62, h / 100);
  const mm = (value: number) => `${(value * scale).toFixed(2)}mm`;
  const qr = await qrDataUrl(badgeQrText(content));
  const logo =
    content.logo && BROWSER_IMAGES.has(content.logo.mediaType)
      ? `<img class="logo" src="${escapeHtml(dataUrl(content.logo))}" alt="${escapeHtml(content.company)}">`
      : `<div class="company">${escapeHtml(content.company)}</div>`;
  const photo =
    content.photo && BROWSER_IMAGES.has(content.photo.mediaType)
      ? `<img class="photo" src="${escapeHtml(dataUrl(content.photo))}" alt="">`
      : '';
  const line = (cls: string, text: string | null) =>
    text ? `<div class="${cls}">${escapeHtml(text)}</div>` : '';
  const script = printNonce
    ? `<script nonce="${escapeHtml(printNonce)}">addEventListener('load',function(){window.print()})</script>`
    : '';
  return `<!doctype html>
<html lang="${content.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${words.band} — ${words.name}`)}</title>
<style>
@page { size: ${w}mm ${h}mm; margin: 0 }
* { box-sizing: border-box }
html, body { margin: 0; padding: 0; background: #fff; color: #111 }
body { font-family: "Helvetica Neue", Arial, sans-serif; -webkit-print-color-adjust: exact; print-color-adjust: exact }
.badge { width: ${w}mm; height: ${h}mm; padding: ${mm(3)}; display: flex; flex-direction: column; align-items: center; text-align: center; overflow: hidden; page-break-after: always }
.badge > * { flex: 0 0 auto; max-width: 100% }
.logo { max-height: ${mm(10)}; object-fit: contain }
.company { font-weight: 700; font-size: ${mm(4)}; line-height: 1.15; max-height: 2.3em; overflow: hidden }
.band { align-self: stretch; max-width: none; margin: ${mm(2)} -${mm(3)}; padding: ${mm(1.2)} 0; background: ${band.background}; color: ${band.text}; font-weight: 700; font-size: ${mm(5)}; line-height: 1.2; letter-spacing: 0.12em }
/* The photo gives way first when the words need the room. */
.photo { flex: 0 1 auto; aspect-ratio: 22 / 26; width: auto; height: ${mm(26)}; min-height: ${mm(8)}; object-fit: cover; border-radius: ${mm(1)}; margin-bottom: ${mm(1.5)} }
.name { font-weight: 700; font-size: ${mm(5.6)}; line-height: 1.15; overflow-wrap: anywhere; max-height: 2.3em; overflow: hidden }
.organisation { font-size: ${mm(3.8)}; line-height: 1.15; margin-top: ${mm(1)}; overflow-wrap: anywhere; max-height: 2.3em; overflow: hidden }
.host, .site { font-size: ${mm(3.2)}; line-height: 1.2; margin-top: ${mm(0.8)}; overflow-wrap: anywhere; max-height: 1.2em; overflow: hidden }
.spacer { flex: 1 1 0; min-height: ${mm(1)} }
.qr { width: ${mm(24)}; height: ${mm(24)}; image-rendering: pixelated }
.valid { font-size: ${mm(3)}; line-height: 1.2; font-weight: 700; margin-top: ${mm(0.8)} }
.code { font-size: ${mm(2.4)}; line-height: 1.2; color: #444; font-family: monospace }
@media screen { body { background: #eee } .badge { background: #fff; margin: 16px auto; box-shadow: 0 1px 4px rgba(0,0,0,.3) } }
</style>
${script}
</head>
<body>
<main class="badge">
${logo}
<div class="band">${escapeHtml(words.band)}</div>
${photo}
${line('name', words.name)}
${line('organisation', content.organisation)}
${content.host ? `<div class="host">${escapeHtml(`${words.host} : ${content.host}`)}</div>` : ''}
${line('site', content.site)}
<div class="spacer"></div>
<img class="qr" src="${escapeHtml(qr)}" alt="${escapeHtml(formatUidn(content.uidn))}">
${line('valid', words.validOn)}
${line('code', formatUidn(content.uidn))}
</main>
</body>
</html>
`;
}

// ---------------------------------------------------------------------------------------------
// PDF

/** Millimetres as PDF points. */
export const mmToPt = (mm: number) => (mm * 72) / 25.4;

/** Latin letters that no accent-stripping reaches. */
const PLAIN_LETTERS: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  ı: 'i',
  Ħ: 'H',
  ħ: 'h',
};

/**
 * Text the standard Helvetica can draw (WinAnsi): a letter it lacks loses its accent
 * ('ș' → 's', 'ł' → 'l'), anything else is a '?', so a name never breaks the PDF.
 */
function drawable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  let out = '';
  for (const ch of text.replace(/[\r\n\t]+/g, ' ')) {
    if (known.has(ch.codePointAt(0)!)) {
      out += ch;
      continue;
    }
    const bare = PLAIN_LETTERS[ch] ?? ch.normalize('NFD').replace(/\p{M}/gu, '');
    out += [...bare].every((c) => known.has(c.codePointAt(0)!)) && bare ? bare : '?';
  }
  return out;
}

/** Splits `text` into lines of at most `maxWidth` at `size` (a word too long is cut). */
function wrap(font: PDFFont, text: string, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  let current = '';
  const width = (s: string) => font.widthOfTextAtSize(s, size);
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = current ? `${current} ${word}` : word;
    if (width(candidate) <= maxWidth) {
      current = candidate;
      continue;
    }
    if (current) lines.push(current);
    // A word wider than the line is cut into pieces that fit.
    let rest = word;
    while (width(rest) > maxWidth && rest.length > 1) {
      let cut = rest.length - 1;
      while (cut > 1 && width(rest.slice(0, cut)) > maxWidth) cut -= 1;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    current = rest;
  }
  if (current) lines.push(current);
  return lines;
}

/**
 * The largest size from `maxSize` down to `minSize` at which `text` fits in `maxLines` lines
 * of `maxWidth`; at the smallest size, the lines beyond `maxLines` are dropped and the last
 * one ends with an ellipsis.
 */
function fit(
  font: PDFFont,
  text: string,
  {
    maxSize,
    minSize,
    maxWidth,
    maxLines,
  }: { maxSize: number; minSize: number; maxWidth: number; maxLines: number },
): { size: number; lines: string[] } {
  for (let size = maxSize; size >= minSize; size -= 0.5) {
    const lines = wrap(font, text, size, maxWidth);
    if (lines.length <= maxLines) return { size, lines };
  }
  const lines = wrap(font, text, minSize, maxWidth).slice(0, maxLines);
  let last = lines[maxLines - 1] ?? '';
  while (last && font.widthOfTextAtSize(`${last}…`, minSize) > maxWidth) last = last.slice(0, -1);
  if (lines.length) lines[lines.length - 1] = `${last}…`;
  return { size: minSize, lines };
}

async function embedImage(pdf: PDFDocument, image: BadgeImage | null): Promise<PDFImage | null> {
  if (!image) return null;
  try {
    // A copy: pdf-lib reads the bytes' whole ArrayBuffer, and a small Buffer is a slice of
    // Node's shared pool.
    const bytes = new Uint8Array(image.bytes);
    if (image.mediaType === 'image/png') return await pdf.embedPng(bytes);
    if (image.mediaType === 'image/jpeg') return await pdf.embedJpg(bytes);
  } catch {
    // An image pdf-lib cannot read is left out, as an SVG or WebP one is.
  }
  return null;
}

/** Draws `lines` centred from `top` down; answers the y under the last line. */
function drawLines(
  page: PDFPage,
  font: PDFFont,
  lines: string[],
  size: number,
  top: number,
  color: Color,
): number {
  const width = page.getWidth();
  let y = top;
  for (const text of lines) {
    y -= size;
    page.drawText(text, {
      x: (width - font.widthOfTextAtSize(text, size)) / 2,
      y: y + size * 0.22,
      size,
      font,
      color,
    });
    y -= size * 0.15;
  }
  return y;
}

/** The badge as a one-page PDF at the label's exact size (points = mm × 72 / 25.4). */
export async function badgePdf(content: BadgeContent, size: BadgeSize): Promise<Uint8Array> {
  const { widthMm, heightMm } = BADGE_SIZES[size];
  const { PDFDocument, StandardFonts, rgb } = await pdfLib();
  const ink = rgb(0.07, 0.07, 0.07);
  const pdf = await PDFDocument.create();
  const words = wordsOf(content);
  pdf.setTitle(`${words.band} - ${words.name}`.replace(/[\r\n\t]+/g, ' '));
  pdf.setCreator('Sésame');
  pdf.setProducer('Sésame');
  pdf.setLanguage(content.language);
  const W = mmToPt(widthMm);
  const H = mmToPt(heightMm);
  const page = pdf.addPage([W, H]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const scale = Math.min(widthMm / 62, heightMm / 100);
  const margin = mmToPt(3);
  const inner = W - 2 * margin;
  const text = (font: PDFFont, value: string) => drawable(font, value);

  // The QR and the day it is valid on, from the bottom up.
  const qrImage = await pdf.embedPng(new Uint8Array(await qrPng(badgeQrText(content))));
  const validFit = fit(bold, text(bold, words.validOn), {
    maxSize: 8.5 * scale,
    minSize: 5,
    maxWidth: inner,
    maxLines: 2,
  });
  const codeSize = Math.max(5, 6.5 * scale);
  const codeText = formatUidn(content.uidn);
  let bottom = margin;
  page.drawText(codeText, {
    x: (W - regular.widthOfTextAtSize(codeText, codeSize)) / 2,
    y: bottom,
    size: codeSize,
    font: regular,
    color: rgb(0.27, 0.27, 0.27),
  });
  bottom += codeSize * 1.3;
  const validHeight = validFit.lines.length * validFit.size * 1.15;
  drawLines(page, bold, validFit.lines, validFit.size, bottom + validHeight, ink);
  bottom += validHeight + mmToPt(1);
  // 24 mm on the 62 mm label: about 10 dots a module at 300 dpi, 6 on a 203 dpi label printer.
  const qrSide = Math.min(inner, mmToPt(24 * scale), H * 0.26);
  page.drawImage(qrImage, { x: (W - qrSide) / 2, y: bottom, width: qrSide, height: qrSide });
  const floor = bottom + qrSide + mmToPt(1);

  // From the top down: the logo (or the company's name), the band, the photo, the words.
  let y = H - margin;
  const logo = await embedImage(pdf, content.logo);
  const logoMaxHeight = mmToPt(11 * scale);
  if (logo) {
    const ratio = Math.min(inner / logo.width, logoMaxHeight / logo.height);
    const lw = logo.width * ratio;
    const lh = logo.height * ratio;
    page.drawImage(logo, { x: (W - lw) / 2, y: y - lh, width: lw, height: lh });
    y -= lh;
  } else {
    const companyFit = fit(bold, text(bold, content.company), {
      maxSize: 11 * scale,
      minSize: 6,
      maxWidth: inner,
      maxLines: 2,
    });
    y = drawLines(page, bold, companyFit.lines, companyFit.size, y, ink);
  }
  y -= mmToPt(2 * scale);
  const bandSize = 14 * scale;
  const bandHeight = bandSize * 1.7;
  const colors = bandColors(content.type);
  page.drawRectangle({
    x: 0,
    y: y - bandHeight,
    width: W,
    height: bandHeight,
    color: rgb(...channels(colors.background)),
  });
  // A long type name is set smaller to stay on the band's one line.
  const band = text(bold, words.band);
  const bandTextSize = Math.min(
    bandSize,
    (bandSize * inner) / Math.max(1, bold.widthOfTextAtSize(band, bandSize)),
  );
  page.drawText(band, {
    x: (W - bold.widthOfTextAtSize(band, bandTextSize)) / 2,
    y: y - bandHeight + (bandHeight - bandTextSize * 0.72) / 2,
    size: bandTextSize,
    font: bold,
    color: rgb(...channels(colors.text)),
  });
  y -= bandHeight + mmToPt(2 * scale);

  // The words need this much room; the photo takes what is left, up to its own size. When
  // long words leave the photo too little, they are set smaller first (down to 70 %).
  const photo = await embedImage(pdf, content.photo);
  const photoMax = mmToPt(26 * scale);
  const photoWanted = mmToPt(14 * scale);
  const photoMin = mmToPt(8);
  const heightOf = (f: { size: number; lines: string[] } | null) =>
    f ? f.lines.length * f.size * 1.15 + mmToPt(0.8) : 0;
  const wordsAt = (shrink: number) => {
    const nameFit = fit(bold, text(bold, `${content.firstname} ${content.lastname}`), {
      maxSize: 15 * scale * shrink,
      minSize: 7,
      maxWidth: inner,
      maxLines: 2,
    });
    const orgFit = fit(regular, text(regular, content.organisation), {
      maxSize: 10 * scale * shrink,
      minSize: 6,
      maxWidth: inner,
      maxLines: 2,
    });
    const hostFit = content.host
      ? fit(regular, text(regular, `${words.host} : ${content.host}`), {
          maxSize: 8.5 * scale * shrink,
          minSize: 5.5,
          maxWidth: inner,
          maxLines: 1,
        })
      : null;
    const siteFit = fit(regular, text(regular, content.site), {
      maxSize: 8.5 * scale * shrink,
      minSize: 5.5,
      maxWidth: inner,
      maxLines: 1,
    });
    const height = heightOf(nameFit) + heightOf(orgFit) + heightOf(hostFit) + heightOf(siteFit);
    return { nameFit, orgFit, hostFit, siteFit, photoRoom: y - floor - height - mmToPt(1.5) };
  };
  let laid = wordsAt(1);
  for (const shrink of [0.9, 0.8, 0.7]) {
    if (!photo || laid.photoRoom >= photoWanted) break;
    laid = wordsAt(shrink);
  }
  const { nameFit, orgFit, hostFit, siteFit } = laid;
  if (photo) {
    const ph = Math.min(photoMax, laid.photoRoom);
    if (ph >= photoMin) {
      const pw = Math.min((photo.width * ph) / photo.height, inner);
      const h2 = (photo.height * pw) / photo.width;
      page.drawImage(photo, { x: (W - pw) / 2, y: y - h2, width: pw, height: h2 });
      y -= h2 + mmToPt(1.5);
    }
  }
  for (const [font, found] of [
    [bold, nameFit],
    [regular, orgFit],
    [regular, hostFit],
    [regular, siteFit],
  ] as const) {
    if (!found) continue;
    y = drawLines(page, font, found.lines, found.size, y, ink) - mmToPt(0.8);
  }
  return pdf.save();
}
