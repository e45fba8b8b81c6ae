/**
 * The frame every Sésame mail shares (issue 15): the company's logo and name at the
 * top, the message, the company's signature, and a transactional footer (no
 * List-Unsubscribe: these mails answer something the reader did or is part of; the weekly
 * summary, subscribed to, adds its own).
 * HTML with a plain-text part, in the reader's language.
 */
import { asOneLine, countryName } from '@sesame/shared';

export type Language = 'fr' | 'en';

export const asLanguage = (value: string | null | undefined): Language =>
  value === 'en' ? 'en' : 'fr';

export const LOCALE: Record<Language, string> = { fr: 'fr-FR', en: 'en-GB' };
/** French puts a space before the colon. */
export const COLON: Record<Language, string> = { fr: ' : ', en: ': ' };

/**
 * A value as HTML text. Line breaks and control characters become a space first (issue 26
 * §5): HTML shows a line feed as a space anyway, and the others have no place in a mail.
 */
export const escapeHtml = (value: string) =>
  asOneLine(value)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

export interface MailCompany {
  name: string;
  /** Absolute URL of the logo, when the company has one. */
  logoUrl: string | null;
  /** One line: street, zip and city. */
  address: string | null;
  /** Its country's ISO code (named in the mail's language), or a name stored before codes. */
  country: string | null;
}

const FOOTER: Record<Language, (company: string) => string> = {
  fr: (company) =>
    `Message de service envoyé par ${company} avec Sésame, à propos d'une visite. Merci de ne pas y répondre.`,
  en: (company) =>
    `Service message sent by ${company} with Sésame about a visit. Please do not reply to it.`,
};

export type Row = [label: string, value: string | null | undefined];

export function detailsText(rows: Row[], lang: Language): string[] {
  return rows.filter((r) => r[1]).map(([label, value]) => `- ${label}${COLON[lang]}${value}`);
}

export function detailsHtml(rows: Row[]): string {
  const shown = rows.filter((r): r is [string, string] => !!r[1]);
  return `<table role="presentation" style="border-collapse:collapse;margin:8px 0 16px">${shown
    .map(
      ([label, value]) =>
        `<tr><td style="padding:4px 12px 4px 0;color:#555;vertical-align:top">${escapeHtml(label)}</td><td style="padding:4px 0"><strong>${escapeHtml(value)}</strong></td></tr>`,
    )
    .join('')}</table>`;
}

/** A button as mail clients draw it (a styled link; no script, no form). */
export function buttonHtml(label: string, href: string, color = '#1c5d99'): string {
  return `<a href="${escapeHtml(href)}" style="display:inline-block;background:${color};color:#ffffff;text-decoration:none;font-weight:bold;padding:12px 22px;border-radius:6px;margin:4px 8px 4px 0">${escapeHtml(label)}</a>`;
}

export function paragraphs(lines: string[]): string {
  return lines.map((line) => `<p style="margin:0 0 12px">${escapeHtml(line)}</p>`).join('');
}

/**
 * The whole mail: `html` is the body's HTML (already escaped), `text` its plain-text lines.
 * Each text line, and the subject, is written on one line whatever the values in it hold
 * (`asOneLine`): a name stored with a line feed, before the schemas refused one (issue 26
 * §5), cannot add a line to the mail nor a header to its subject.
 */
export function frame(input: {
  lang: Language;
  subject: string;
  company: MailCompany;
  html: string;
  text: string[];
  /** The footer's line, when the mail is not about a visit (the weekly summary, issue 35). */
  footer?: string;
}): { subject: string; html: string; text: string } {
  const { lang, subject, company } = input;
  const footer = input.footer ?? FOOTER[lang](company.name);
  const logo = company.logoUrl
    ? `<img src="${escapeHtml(company.logoUrl)}" alt="" height="40" style="height:40px;max-width:160px;vertical-align:middle;margin-right:12px">`
    : '';
  const place = [company.address, countryName(company.country, lang)].filter(Boolean).join(', ');
  const signature = [company.name, place].filter(Boolean);
  const html = `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6">
<div style="font-family:Arial,Helvetica,sans-serif;color:#1a1a1a;max-width:560px;margin:0 auto;padding:16px;background:#ffffff;font-size:15px;line-height:1.45">
<div style="padding:4px 0 12px;border-bottom:1px solid #e5e7eb;margin-bottom:16px">${logo}<strong style="font-size:18px;vertical-align:middle">${escapeHtml(company.name)}</strong></div>
${input.html}
<p style="margin:20px 0 0;color:#333">${signature.map(escapeHtml).join('<br>')}</p>
<p style="margin:24px 0 0;padding-top:12px;border-top:1px solid #e5e7eb;color:#6b7280;font-size:12px">${escapeHtml(footer)}</p>
</div></body></html>`;
  const text = [...input.text, '', ...signature, '', '--', footer].map(asOneLine).join('\n');
  return { subject: asOneLine(subject), html, text };
}
