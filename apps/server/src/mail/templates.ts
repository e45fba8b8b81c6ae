/**
 * The visitor-code mail: HTML and plain text, in French (English when the
 * visitor chose English), with the meeting or event details, the uidn and the
 * QR as an inline image (cid), a link to the meeting QR card, and a calendar invitation.
 */
import { countryName, formatUidn } from '@sesame/shared';
import type { SendMailOptions } from 'nodemailer';
import { qrPng, qrTargets } from '../qr/qr';
import { meetingCardUrl, type CardSource } from '../visitors/card';
import { calendarInvitation } from './calendar';
import { escapeHtml, frame, type MailCompany } from './layout';
import { timeAtSite, type MailSite } from './zone';

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
    site: 'Site',
    address: 'Adresse',
    code: 'Votre code visiteur',
    show: "Présentez ce QR code (ou ce code) à l'accueil à votre arrivée.",
    card: 'Votre carte visiteur en ligne',
    qrAlt: 'QR code visiteur',
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
    site: 'Site',
    address: 'Address',
    code: 'Your visitor code',
    show: 'Show this QR code (or this code) at the front desk when you arrive.',
    card: 'Your visitor card online',
    qrAlt: 'Visitor QR code',
    calendar: 'The attached invitation (.ics) adds the meeting to your calendar.',
    meetingTitle: (company: string) => `Meeting at ${company}`,
    locale: 'en-GB',
    colon: ': ',
  },
} as const;

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
  'subject' | 'text' | 'html' | 'attachments' | 'list'
> {
  subject: string;
  text: string;
  html: string;
}

/**
 * The visitor-code mail, with the company's logo, address and signature and a calendar
 * invitation (issue 15). Every value read from the database reaches the mail through
 * `frame` (its text lines and subject on one line) and `escapeHtml` (its HTML): a name
 * stored with a line feed before the schemas refused one cannot start a line of its own.
 */
export async function renderVisitorCodeMail(
  source: CardSource,
  publicUrl: string,
  branding: {
    company: MailCompany;
    /** The zone of the visit's site: the meeting's (or event's) date and time are read in it. */
    timeZone: string;
    /** The invitation's ORGANIZER address (calendar.ts); null: the invitation names none. */
    organizerEmail: string | null;
    /**
     * The visit's site (issue 28): its address is the meeting's, and when the company has
     * several sites the mail names the site and the time's zone, the invitation the site.
     */
    site?: MailSite;
  },
): Promise<RenderedMail> {
  const { visitor, request, event, company } = source;
  const lang: Language = visitor.language === 'en' ? 'en' : 'fr';
  const t = TEXT[lang];
  const uidn = formatUidn(visitor.uidn);
  const name = `${visitor.firstname} ${visitor.lastname}`.trim();
  const date = longDate(event?.dateEvent ?? visitor.requestDate, t.locale);
  const time = event?.timeEvent ?? visitor.requestTime;
  const { site } = branding;
  const named = site?.named ? site : null;
  const shownTime = timeAtSite(time, site, lang);
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
        [t.site, named?.name],
        [t.date, date],
        [t.time, shownTime],
      ]
    : [
        [t.date, date],
        [t.time, shownTime],
        [t.host, request?.host],
        [t.reason, request?.reason],
        [t.location, company.name],
        [t.site, named?.name],
      ];
  const shown = details.filter((d): d is [string, string] => !!d[1]);

  const { company: brand } = branding;
  // Where the meeting is: its site's address, else (a site without one) the company's.
  const placeAddress = site?.address ?? brand.address;
  const cid = `qr-${visitor.uidn.replace(/[^A-Z0-9]/gi, '')}@sesame`;
  const png = await qrPng(qrTargets.visitor(publicUrl, visitor.uidn));
  const cardUrl = meetingCardUrl(publicUrl, company.slug, visitor.uidn);
  const subject = event ? t.subjectEvent(event.name) : t.subjectMeeting(company.name);
  const intro = event ? t.introEvent(event.name, company.name) : t.introMeeting(company.name);
  const ics = calendarInvitation({
    uid: `visit-${visitor.id}@sesame`,
    title: event ? event.name : t.meetingTitle(company.name),
    date: event?.dateEvent ?? visitor.requestDate,
    time,
    timeZone: branding.timeZone,
    location: event
      ? [event.location, address].filter(Boolean).join(', ')
      : named
        ? [`${company.name} – ${named.name}`, placeAddress].filter(Boolean).join(', ')
        : (placeAddress ?? company.name),
    description: `${t.code}${t.colon}${uidn}\n${cardUrl}`,
    url: cardUrl,
    organizer: { name: company.name, email: branding.organizerEmail },
  });
  const placeRow: [string, string][] = event || !placeAddress ? [] : [[t.address, placeAddress]];
  const rows = [...shown, ...placeRow];
  const framed = frame({
    lang,
    subject,
    company: brand,
    html:
      `<p style="margin:0 0 12px">${escapeHtml(t.greeting(name))}</p>` +
      `<p style="margin:0 0 12px">${escapeHtml(intro)}</p>` +
      `<h2 style="font-size:16px;margin:20px 0 8px">${escapeHtml(t.details)}</h2>` +
      `<table role="presentation" style="border-collapse:collapse">${rows
        .map(
          ([label, value]) =>
            `<tr><td style="padding:4px 12px 4px 0;color:#555;vertical-align:top">${escapeHtml(label)}</td><td style="padding:4px 0"><strong>${escapeHtml(value)}</strong></td></tr>`,
        )
        .join('')}</table>` +
      `<h2 style="font-size:16px;margin:20px 0 8px">${escapeHtml(t.code)}</h2>` +
      `<p style="font-size:24px;letter-spacing:2px;font-family:monospace;margin:0 0 12px"><strong>${escapeHtml(uidn)}</strong></p>` +
      `<p><img src="cid:${cid}" alt="${escapeHtml(t.qrAlt)} ${escapeHtml(uidn)}" width="200" height="200" style="display:block"></p>` +
      `<p style="margin:0 0 12px">${escapeHtml(t.show)}</p>` +
      `<p style="margin:0 0 12px"><a href="${escapeHtml(cardUrl)}">${escapeHtml(t.card)}</a></p>` +
      (ics
        ? `<p style="margin:0 0 12px;color:#555;font-size:13px">${escapeHtml(t.calendar)}</p>`
        : ''),
    text: [
      t.greeting(name),
      '',
      intro,
      '',
      `${t.details}${t.colon.trimEnd()}`,
      ...rows.map(([label, value]) => `- ${label}${t.colon}${value}`),
      '',
      `${t.code}${t.colon}${uidn}`,
      t.show,
      '',
      `${t.card}${t.colon}${cardUrl}`,
      ...(ics ? ['', t.calendar] : []),
    ],
  });
  return {
    ...framed,
    attachments: [
      { filename: `qrcode-${uidn}.png`, content: png, contentType: 'image/png', cid },
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
