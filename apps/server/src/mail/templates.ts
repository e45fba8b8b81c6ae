/**
 * The visitor-code mail: HTML and plain text, in French (English when the
 * visitor chose English), with the meeting or event details, the uidn and the
 * QR as an inline image (cid), and a link to the meeting QR card.
 */
import { formatUidn } from '@sesame/shared';
import type { SendMailOptions } from 'nodemailer';
import { qrPng, qrTargets } from '../qr/qr';
import { meetingCardUrl, type CardSource } from '../visitors/card';

type Language = 'fr' | 'en';

const TEXT = {
  fr: {
    subjectMeeting: (company: string) => `Votre code visiteur – ${company}`,
    subjectEvent: (event: string) => `Votre code d'accès – ${event}`,
    greeting: (name: string) => `Bonjour ${name},`,
    introMeeting: (company: string) => `Votre rendez-vous chez ${company} est confirmé.`,
    introEvent: (event: string, company: string) =>
      `Votre inscription à l'évènement « ${event} » (${company}) est confirmée.`,
    details: 'Détails',
    date: 'Date',
    time: 'Heure',
    host: 'Hôte',
    reason: 'Motif',
    event: 'Évènement',
    location: 'Lieu',
    address: 'Adresse',
    code: 'Votre code visiteur',
    show: "Présentez ce QR code (ou ce code) à l'accueil à votre arrivée.",
    card: 'Votre carte visiteur en ligne',
    qrAlt: 'QR code visiteur',
    signature: "L'équipe Sésame",
    locale: 'fr-FR',
    /** French puts a space before the colon. */
    colon: ' : ',
  },
  en: {
    subjectMeeting: (company: string) => `Your visitor code – ${company}`,
    subjectEvent: (event: string) => `Your access code – ${event}`,
    greeting: (name: string) => `Hello ${name},`,
    introMeeting: (company: string) => `Your meeting at ${company} is confirmed.`,
    introEvent: (event: string, company: string) =>
      `Your registration for the event “${event}” (${company}) is confirmed.`,
    details: 'Details',
    date: 'Date',
    time: 'Time',
    host: 'Host',
    reason: 'Reason',
    event: 'Event',
    location: 'Place',
    address: 'Address',
    code: 'Your visitor code',
    show: 'Show this QR code (or this code) at the front desk when you arrive.',
    card: 'Your visitor card online',
    qrAlt: 'Visitor QR code',
    signature: 'The Sésame team',
    locale: 'en-GB',
    colon: ': ',
  },
} as const;

const escapeHtml = (value: string) =>
  value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** '24/11/2026' → 'mardi 24 novembre 2026' (or the English long date); unchanged if unreadable. */
export function longDate(ddmmyyyy: string | null, locale: string): string | null {
  if (!ddmmyyyy) return null;
  const [dd, mm, yyyy] = ddmmyyyy.split('/').map(Number);
  if (!dd || !mm || !yyyy) return ddmmyyyy;
  const date = new Date(Date.UTC(yyyy, mm - 1, dd));
  return new Intl.DateTimeFormat(locale, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
}

export interface RenderedMail extends Pick<
  SendMailOptions,
  'subject' | 'text' | 'html' | 'attachments'
> {
  subject: string;
  text: string;
  html: string;
}

export async function renderVisitorCodeMail(
  source: CardSource,
  publicUrl: string,
): Promise<RenderedMail> {
  const { visitor, request, event, company } = source;
  const lang: Language = visitor.language === 'en' ? 'en' : 'fr';
  const t = TEXT[lang];
  const uidn = formatUidn(visitor.uidn);
  const name = `${visitor.firstname} ${visitor.lastname}`.trim();
  const date = longDate(event?.dateEvent ?? visitor.requestDate, t.locale);
  const time = event?.timeEvent ?? visitor.requestTime;
  const address = [
    visitor.address,
    visitor.city,
    [visitor.zipcode, visitor.state].filter(Boolean).join(' '),
    visitor.country,
  ]
    .filter((part) => part && part.trim())
    .join(', ');

  const details: [string, string | null | undefined][] = event
    ? [
        [t.event, event.name],
        [t.location, event.location],
        [t.address, address],
        [t.date, date],
        [t.time, time],
      ]
    : [
        [t.date, date],
        [t.time, time],
        [t.host, request?.host],
        [t.reason, request?.reason],
        [t.location, company.name],
      ];
  const shown = details.filter((d): d is [string, string] => !!d[1]);

  const cid = `qr-${visitor.uidn.replace(/[^A-Z0-9]/gi, '')}@sesame`;
  const png = await qrPng(qrTargets.visitor(publicUrl, visitor.uidn));
  const cardUrl = meetingCardUrl(publicUrl, company.slug, visitor.uidn);
  const subject = event ? t.subjectEvent(event.name) : t.subjectMeeting(company.name);
  const intro = event ? t.introEvent(event.name, company.name) : t.introMeeting(company.name);

  const text = [
    t.greeting(name),
    '',
    intro,
    '',
    `${t.details}${t.colon.trimEnd()}`,
    ...shown.map(([label, value]) => `- ${label}${t.colon}${value}`),
    '',
    `${t.code}${t.colon}${uidn}`,
    t.show,
    '',
    `${t.card}${t.colon}${cardUrl}`,
    '',
    t.signature,
  ].join('\n');

  const rows = shown
    .map(
      ([label, value]) =>
        `<tr><td style="padding:4px 12px 4px 0;color:#555">${escapeHtml(label)}</td><td style="padding:4px 0"><strong>${escapeHtml(value)}</strong></td></tr>`,
    )
    .join('');
  const html = `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#1a1a1a;max-width:560px;margin:0 auto;padding:16px">
<p>${escapeHtml(t.greeting(name))}</p>
<p>${escapeHtml(intro)}</p>
<h2 style="font-size:16px;margin:20px 0 8px">${escapeHtml(t.details)}</h2>
<table role="presentation" style="border-collapse:collapse">${rows}</table>
<h2 style="font-size:16px;margin:20px 0 8px">${escapeHtml(t.code)}</h2>
<p style="font-size:24px;letter-spacing:2px;font-family:monospace;margin:0 0 12px"><strong>${escapeHtml(uidn)}</strong></p>
<p><img src="cid:${cid}" alt="${escapeHtml(t.qrAlt)} ${escapeHtml(uidn)}" width="200" height="200" style="display:block"></p>
<p>${escapeHtml(t.show)}</p>
<p><a href="${escapeHtml(cardUrl)}">${escapeHtml(t.card)}</a></p>
<p style="color:#555">${escapeHtml(t.signature)}</p>
</body></html>`;

  return {
    subject,
    text,
    html,
    attachments: [{ filename: `qrcode-${uidn}.png`, content: png, contentType: 'image/png', cid }],
  };
}
