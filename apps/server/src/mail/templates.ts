/**
 * The visitor-code mail: HTML and plain text, in French (English when the
 * visitor chose English), with the meeting or event details, the uidn and the
 * QR as an inline image (cid), and a link to the meeting QR card.
 */
import { countryName, formatUidn } from '@sesame/shared';
import { createEvent } from 'ics';
import type { SendMailOptions } from 'nodemailer';
import { qrPng, qrTargets } from '../qr/qr';
import { zonedToUtc } from '../time-zones';
import { meetingCardUrl, type CardSource } from '../visitors/card';
import { frame, type MailCompany } from './layout';

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
    calendar: "L'invitation jointe (.ics) ajoute le rendez-vous à votre agenda.",
    meetingTitle: (company: string) => `Rendez-vous chez ${company}`,
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
    calendar: 'The attached invitation (.ics) adds the meeting to your calendar.',
    meetingTitle: (company: string) => `Meeting at ${company}`,
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

/** The meeting (or event) as a calendar invitation, when its day and time can be read. */
export function calendarInvitation(input: {
  uid: string;
  title: string;
  date: string | null;
  time: string | null;
  timeZone: string;
  location: string | null;
  description: string;
  url: string;
  organizer: string;
}): string | null {
  const [dd, mm, yyyy] = (input.date ?? '').split('/').map(Number);
  const [hh, min] = (input.time ?? '').split(':').map(Number);
  if (!dd || !mm || !yyyy || hh === undefined || min === undefined) return null;
  if (Number.isNaN(hh) || Number.isNaN(min)) return null;
  const start = zonedToUtc(
    { year: yyyy, month: mm, day: dd, hour: hh, minute: min },
    input.timeZone,
  );
  const { error, value } = createEvent({
    uid: input.uid,
    productId: 'sesame',
    method: 'PUBLISH',
    title: input.title,
    start: start.getTime(),
    startInputType: 'utc',
    startOutputType: 'utc',
    duration: { hours: 1 },
    ...(input.location ? { location: input.location } : {}),
    description: input.description,
    url: input.url,
    organizer: { name: input.organizer },
    status: 'CONFIRMED',
  });
  return error || !value ? null : value;
}

/**
 * The visitor-code mail. With `company` (the worker passes it), the mail carries the
 * company's logo, address and signature and a calendar invitation (issue 15).
 */
export async function renderVisitorCodeMail(
  source: CardSource,
  publicUrl: string,
  branding?: { company: MailCompany; timeZone: string },
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
    countryName(visitor.country, lang),
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

  if (branding) {
    const { company: brand } = branding;
    const cidB = `qr-${visitor.uidn.replace(/[^A-Z0-9]/gi, '')}@sesame`;
    const pngB = await qrPng(qrTargets.visitor(publicUrl, visitor.uidn));
    const cardUrlB = meetingCardUrl(publicUrl, company.slug, visitor.uidn);
    const subjectB = event ? t.subjectEvent(event.name) : t.subjectMeeting(company.name);
    const introB = event ? t.introEvent(event.name, company.name) : t.introMeeting(company.name);
    const ics = calendarInvitation({
      uid: `visit-${visitor.id}@sesame`,
      title: event ? event.name : t.meetingTitle(company.name),
      date: event?.dateEvent ?? visitor.requestDate,
      time,
      timeZone: branding.timeZone,
      location: event
        ? [event.location, address].filter(Boolean).join(', ')
        : (brand.address ?? company.name),
      description: `${t.code}${t.colon}${uidn}\n${cardUrlB}`,
      url: cardUrlB,
      organizer: company.name,
    });
    const rowsB = [
      ...shown,
      ...(event || !brand.address ? [] : [[t.address, brand.address] as [string, string]]),
    ];
    const framed = frame({
      lang,
      subject: subjectB,
      company: brand,
      html:
        `<p style="margin:0 0 12px">${escapeHtml(t.greeting(name))}</p>` +
        `<p style="margin:0 0 12px">${escapeHtml(introB)}</p>` +
        `<h2 style="font-size:16px;margin:20px 0 8px">${escapeHtml(t.details)}</h2>` +
        `<table role="presentation" style="border-collapse:collapse">${rowsB
          .map(
            ([label, value]) =>
              `<tr><td style="padding:4px 12px 4px 0;color:#555;vertical-align:top">${escapeHtml(label)}</td><td style="padding:4px 0"><strong>${escapeHtml(value)}</strong></td></tr>`,
          )
          .join('')}</table>` +
        `<h2 style="font-size:16px;margin:20px 0 8px">${escapeHtml(t.code)}</h2>` +
        `<p style="font-size:24px;letter-spacing:2px;font-family:monospace;margin:0 0 12px"><strong>${escapeHtml(uidn)}</strong></p>` +
        `<p><img src="cid:${cidB}" alt="${escapeHtml(t.qrAlt)} ${escapeHtml(uidn)}" width="200" height="200" style="display:block"></p>` +
        `<p style="margin:0 0 12px">${escapeHtml(t.show)}</p>` +
        `<p style="margin:0 0 12px"><a href="${escapeHtml(cardUrlB)}">${escapeHtml(t.card)}</a></p>` +
        (ics
          ? `<p style="margin:0 0 12px;color:#555;font-size:13px">${escapeHtml(t.calendar)}</p>`
          : ''),
      text: [
        t.greeting(name),
        '',
        introB,
        '',
        `${t.details}${t.colon.trimEnd()}`,
        ...rowsB.map(([label, value]) => `- ${label}${t.colon}${value}`),
        '',
        `${t.code}${t.colon}${uidn}`,
        t.show,
        '',
        `${t.card}${t.colon}${cardUrlB}`,
        ...(ics ? ['', t.calendar] : []),
      ],
    });
    return {
      subject: subjectB,
      ...framed,
      attachments: [
        { filename: `qrcode-${uidn}.png`, content: pngB, contentType: 'image/png', cid: cidB },
        ...(ics
          ? [
              {
                filename: 'invitation.ics',
                content: ics,
                contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
              },
            ]
          : []),
      ],
    };
  }

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
