/**
 * A mail's body written once for both its parts: each block holds its HTML and its
 * plain-text lines, so the two parts cannot say different things. The host loop's mails
 * (loop-templates.ts) and an invitation's (invitation-templates.ts) are built from these,
 * then framed by layout.ts.
 */
import {
  buttonHtml,
  COLON,
  detailsHtml,
  detailsText,
  escapeHtml,
  frame,
  paragraphs,
  type Language,
  type MailCompany,
  type Row,
} from './layout';
import type { RenderedMail } from './templates';

/** One piece of a mail's body: its HTML and its plain-text lines. */
export interface Block {
  html: string;
  text: string[];
}

/** A paragraph. */
export const para = (line: string): Block => ({ html: paragraphs([line]), text: [line] });

/** A small grey paragraph (a note under the body). */
export const note = (line: string): Block => ({
  html: `<p style="margin:0 0 12px;color:#555;font-size:13px">${escapeHtml(line)}</p>`,
  text: [line],
});

/** Details: a table, and a '- label: value' line each (rows without a value left out). */
export const details = (rows: Row[], lang: Language): Block => ({
  html: detailsHtml(rows),
  text: detailsText(rows, lang),
});

/** Buttons side by side; in the text, one 'label: url' line each. */
export const buttons = (
  lang: Language,
  ...links: [label: string, url: string, color?: string][]
): Block => ({
  html: `<p style="margin:0 0 12px">${links.map(([label, url, color]) => buttonHtml(label, url, color)).join('')}</p>`,
  text: links.map(([label, url]) => `${label}${COLON[lang]}${url}`),
});

/** A plain link under its own words; in the text, 'label: url'. */
export const link = (lang: Language, label: string, text: string, url: string): Block => ({
  html: `<p style="margin:0 0 12px"><a href="${escapeHtml(url)}">${escapeHtml(text)}</a></p>`,
  text: [`${label}${COLON[lang]}${url}`],
});

/**
 * The whole mail. `body` is its paragraphs in order, each a group of blocks: the HTML is
 * every block's, one after the other; the text puts a blank line between two groups.
 */
export function mail(
  lang: Language,
  subject: string,
  company: MailCompany,
  body: Block[][],
): RenderedMail {
  const html = body
    .flat()
    .map((block) => block.html)
    .join('');
  const text = body.flatMap((group, i) => [
    ...(i > 0 ? [''] : []),
    ...group.flatMap((block) => block.text),
  ]);
  return frame({ lang, subject, company, html, text });
}

/** A visitor's name as a mail greets and names them: first name and last name. */
export const fullName = (v: { firstname: string; lastname: string }) =>
  `${v.firstname} ${v.lastname}`.trim();
