/**
 * A signature's PDF (issue 31): A4, the company and the site, the document's title, version
 * and language, its exact text (Markdown drawn simply: headings, paragraphs, bullet lists,
 * bold), who signed, when (in the site's zone, with its offset), the drawn signature or the
 * typed name, and the SHA-256 at the bottom of every page.
 *
 * Everything comes from the signature's row and its site, so the same row always makes the
 * same bytes (the creation and modification dates are the signing time): the mail to the
 * visitor and a download after the stored file went both make it again when they must.
 * Helvetica is a standard font in WinAnsi: a character it cannot write becomes '?'.
 */
import type { Color, PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { asOneLine } from '@sesame/shared';
import { pdfLib } from './pdf-lib';
import type { SignatureRow } from './signing';

export interface SignaturePdfContext {
  companyName: string;
  siteName: string;
  /** The site's IANA zone. */
  timeZone: string;
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const FOOTER_SPACE = 40;
const TEXT_WIDTH = A4.width - 2 * MARGIN;

const WORDS = {
  fr: {
    language: 'Langue',
    languageName: 'français',
    version: 'Version',
    signedBy: 'Signé par',
    signedAt: 'Signé le',
    typed: (name: string) => `Signé en tapant son nom : ${name}`,
    drawn: 'Signature :',
    hash: 'SHA-256',
    page: (n: number, of: number) => `Page ${n}/${of}`,
    colon: ' : ',
    locale: 'fr-FR',
  },
  en: {
    language: 'Language',
    languageName: 'English',
    version: 'Version',
    signedBy: 'Signed by',
    signedAt: 'Signed on',
    typed: (name: string) => `Signed by typing their name: ${name}`,
    drawn: 'Signature:',
    hash: 'SHA-256',
    page: (n: number, of: number) => `Page ${n}/${of}`,
    colon: ': ',
    locale: 'en-GB',
  },
} as const;

/** The signing time in the site's zone with its offset: '28/11/2026 10:15 (UTC+01:00, Europe/Paris)'. */
export function signedAtText(at: Date, timeZone: string, locale: string): string {
  const wall = new Intl.DateTimeFormat(locale, {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  const offset =
    new Intl.DateTimeFormat('en-GB', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const utc = offset === 'GMT' ? 'UTC+00:00' : offset.replace('GMT', 'UTC');
  return `${wall} (${utc}, ${timeZone})`;
}

/** A run of text in one weight. */
interface Run {
  text: string;
  bold: boolean;
}

/** One block of the Markdown: a heading (level 1-3), a paragraph, or a bullet item. */
interface Block {
  kind: 'heading' | 'paragraph' | 'bullet';
  level: number;
  runs: Run[];
}

/** `**bold**` runs of one line of text (an unclosed `**` stays as written). */
function inlineRuns(text: string): Run[] {
  const runs: Run[] = [];
  const parts = text.split('**');
  const closed = parts.length % 2 === 1;
  parts.forEach((part, i) => {
    const bold = closed && i % 2 === 1;
    const shown = !closed && i > 0 ? `**${part}` : part;
    if (shown) runs.push({ text: shown, bold });
  });
  return runs;
}

/** The Markdown's blocks: '#'-'###' headings, '-', '*' or '+' bullets, paragraphs between blank lines. */
export function markdownBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) {
      blocks.push({ kind: 'paragraph', level: 0, runs: inlineRuns(paragraph.join(' ')) });
      paragraph = [];
    }
  };
  for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    if (!line) {
      flush();
      continue;
    }
    const heading = /^(#{1,6})\s(.*)$/.exec(line);
    if (heading) {
      flush();
      const level = Math.min(heading[1]!.length, 3);
      blocks.push({
        kind: 'heading',
        level,
        runs: inlineRuns(heading[2]!.trim().replace(/\s#+$/, '')),
      });
      continue;
    }
    const bullet = /^[-*+]\s(.*)$/.exec(line);
    if (bullet) {
      flush();
      blocks.push({ kind: 'bullet', level: 0, runs: inlineRuns(bullet[1]!.trim()) });
      continue;
    }
    paragraph.push(line);
  }
  flush();
  return blocks;
}

/** What Helvetica (WinAnsi) can write: every other character becomes '?'. */
function encodable(font: PDFFont): (text: string) => string {
  const known = new Set(font.getCharacterSet());
  return (text: string) =>
    Array.from(asOneLine(text), (ch) => (known.has(ch.codePointAt(0) ?? 0) ? ch : '?')).join('');
}

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  safe: (text: string) => string;
}

/** Words of runs, each word kept with its weight; a space before each word but the first. */
interface Word {
  text: string;
  bold: boolean;
}

function wordsOf(runs: Run[], safe: (t: string) => string): Word[] {
  const words: Word[] = [];
  for (const run of runs) {
    for (const piece of safe(run.text).split(/\s+/)) {
      if (piece) words.push({ text: piece, bold: run.bold });
    }
  }
  return words;
}

/** A word too wide for a line, cut in pieces that fit. */
function cutWord(word: Word, font: PDFFont, size: number, width: number): Word[] {
  if (font.widthOfTextAtSize(word.text, size) <= width) return [word];
  const pieces: Word[] = [];
  let current = '';
  for (const ch of word.text) {
    if (current && font.widthOfTextAtSize(current + ch, size) > width) {
      pieces.push({ text: current, bold: word.bold });
      current = '';
    }
    current += ch;
  }
  if (current) pieces.push({ text: current, bold: word.bold });
  return pieces;
}

/** The lines of words that fit in `width`. */
function wrap(words: Word[], fonts: Fonts, size: number, width: number): Word[][] {
  const lines: Word[][] = [];
  let line: Word[] = [];
  let used = 0;
  const space = fonts.regular.widthOfTextAtSize(' ', size);
  for (const whole of words) {
    for (const word of cutWord(whole, whole.bold ? fonts.bold : fonts.regular, size, width)) {
      const w = (word.bold ? fonts.bold : fonts.regular).widthOfTextAtSize(word.text, size);
      const needed = line.length ? space + w : w;
      if (line.length && used + needed > width) {
        lines.push(line);
        line = [word];
        used = w;
      } else {
        line.push(word);
        used += needed;
      }
    }
  }
  if (line.length) lines.push(line);
  return lines;
}

/** Writes on pages, adding one when the current one is full. */
class Writer {
  page: PDFPage;
  y: number;

  constructor(
    private readonly pdf: PDFDocument,
    private readonly fonts: Fonts,
    private readonly ink: { text: Color; rule: Color },
  ) {
    this.page = this.newPage();
    this.y = A4.height - MARGIN;
  }

  private newPage(): PDFPage {
    const page = this.pdf.addPage([A4.width, A4.height]);
    this.y = A4.height - MARGIN;
    return page;
  }

  /** Room for `height` more points on this page, else a new page. */
  room(height: number): void {
    if (this.y - height < MARGIN + FOOTER_SPACE) this.page = this.newPage();
  }

  /** Runs wrapped to the width, from `indent`, each line `size` high with some leading. */
  lines(runs: Run[], size: number, options: { indent?: number; after?: number } = {}) {
    const indent = options.indent ?? 0;
    const leading = size * 1.4;
    const space = this.fonts.regular.widthOfTextAtSize(' ', size);
    for (const line of wrap(
      wordsOf(runs, this.fonts.safe),
      this.fonts,
      size,
      TEXT_WIDTH - indent,
    )) {
      this.room(leading);
      this.y -= leading;
      let x = MARGIN + indent;
      for (const [i, word] of line.entries()) {
        const font = word.bold ? this.fonts.bold : this.fonts.regular;
        if (i > 0) x += space;
        this.page.drawText(word.text, { x, y: this.y, size, font, color: this.ink.text });
        x += font.widthOfTextAtSize(word.text, size);
      }
    }
    this.y -= options.after ?? 0;
  }

  gap(points: number): void {
    this.y -= points;
  }

  rule(): void {
    this.room(12);
    this.y -= 6;
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: A4.width - MARGIN, y: this.y },
      thickness: 0.5,
      color: this.ink.rule,
    });
    this.y -= 6;
  }
}

/** The signature's PDF bytes: the same row and context always make the same bytes. */
export async function signaturePdf(
  row: SignatureRow,
  context: SignaturePdfContext,
): Promise<Buffer> {
  const lang = row.language === 'en' ? 'en' : 'fr';
  const t = WORDS[lang];
  const { PDFDocument, StandardFonts, rgb } = await pdfLib();
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const fonts: Fonts = { regular, bold, safe: encodable(regular) };
  pdf.setTitle(row.title);
  pdf.setAuthor(context.companyName);
  pdf.setSubject(`${row.title} – ${t.version} ${row.version}`);
  pdf.setLanguage(lang === 'en' ? 'en-GB' : 'fr-FR');
  pdf.setCreator('Sésame');
  pdf.setProducer('Sésame (pdf-lib)');
  pdf.setCreationDate(row.signedAt);
  pdf.setModificationDate(row.signedAt);

  const w = new Writer(pdf, fonts, { text: rgb(0.1, 0.1, 0.1), rule: rgb(0.7, 0.7, 0.7) });
  w.lines([{ text: `${context.companyName} – ${context.siteName}`, bold: false }], 10);
  w.rule();
  w.lines([{ text: row.title, bold: true }], 18, { after: 4 });
  w.lines(
    [
      {
        text: `${t.version} ${row.version} · ${t.language}${t.colon}${t.languageName}`,
        bold: false,
      },
    ],
    10,
    { after: 8 },
  );
  for (const block of markdownBlocks(row.body)) {
    if (block.kind === 'heading') {
      const size = block.level === 1 ? 15 : block.level === 2 ? 13 : 12;
      w.gap(4);
      w.lines(
        block.runs.map((r) => ({ ...r, bold: true })),
        size,
        { after: 2 },
      );
    } else if (block.kind === 'bullet') {
      w.room(15);
      const top = w.y;
      w.lines(block.runs, 11, { indent: 16 });
      // The bullet beside the item's first line (on the page the first line went to).
      const firstLine = top - 11 * 1.4;
      if (firstLine >= MARGIN + FOOTER_SPACE) {
        w.page.drawCircle({ x: MARGIN + 6, y: firstLine + 3.5, size: 1.8, color: rgb(0, 0, 0) });
      }
      w.gap(2);
    } else {
      w.lines(block.runs, 11, { after: 6 });
    }
  }

  w.gap(10);
  w.room(150);
  w.rule();
  w.lines(
    [
      { text: `${t.signedBy}${t.colon}`, bold: false },
      { text: row.signerName, bold: true },
    ],
    11,
  );
  w.lines(
    [
      {
        text: `${t.signedAt}${t.colon}${signedAtText(row.signedAt, context.timeZone, t.locale)}`,
        bold: false,
      },
    ],
    11,
    { after: 6 },
  );
  if (row.method === 'drawn' && row.imagePng) {
    w.lines([{ text: t.drawn, bold: false }], 11, { after: 4 });
    const image = await pdf.embedPng(Buffer.from(row.imagePng, 'base64'));
    const scale = Math.min(220 / image.width, 90 / image.height, 1);
    const width = image.width * scale;
    const height = image.height * scale;
    w.room(height + 4);
    w.y -= height;
    w.page.drawImage(image, { x: MARGIN, y: w.y, width, height });
    w.gap(4);
  } else {
    w.lines([{ text: t.typed(row.signerName), bold: false }], 11);
  }

  const pages = pdf.getPages();
  pages.forEach((page, i) => {
    page.drawText(`${t.hash}${t.colon}${row.hash}`, {
      x: MARGIN,
      y: MARGIN - 14,
      size: 7.5,
      font: regular,
      color: rgb(0.3, 0.3, 0.3),
    });
    const label = t.page(i + 1, pages.length);
    page.drawText(label, {
      x: A4.width - MARGIN - regular.widthOfTextAtSize(label, 7.5),
      y: MARGIN - 26,
      size: 7.5,
      font: regular,
      color: rgb(0.3, 0.3, 0.3),
    });
  });
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

/**
 * The PDF's file name, plain ASCII from the title, the version and the day it was signed:
 * 'accord-de-confidentialite-v2-2026-11-28.pdf' (never a stored name, nothing to quote).
 */
export function signaturePdfName(row: Pick<SignatureRow, 'title' | 'version' | 'signedAt'>) {
  let slug = row.title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join('-')
    .slice(0, 60);
  while (slug.endsWith('-')) slug = slug.slice(0, -1);
  return `${slug || 'document'}-v${row.version}-${row.signedAt.toISOString().slice(0, 10)}.pdf`;
}
