/**
 * The host loop's mails (issue 15): the host's request with Valider / Annuler, the
 * visitor's acknowledgement, decline and reminder, and the host's arrival notice.
 * Each in its reader's language, HTML with a plain-text part, framed by layout.ts.
 */
import { asTextLines, formatUidn } from '@sesame/shared';
import { buttons, details, fullName, mail, note, para, type Block } from './blocks';
import {
  COLON,
  detailsHtml,
  escapeHtml,
  LOCALE,
  type Language,
  type MailCompany,
  type Row,
} from './layout';
import { longDate, type RenderedMail } from './templates';
import { timeAtSite, type MailSite } from './zone';

export interface LoopMailSource {
  company: MailCompany & { slug: string };
  visitor: {
    firstname: string;
    lastname: string;
    organisationName: string;
    requestDate: string | null;
    requestTime: string | null;
    uidn: string;
  };
  request: {
    id: string;
    host: string | null;
    reason: string | null;
    declineReason: string | null;
  };
  /**
   * The visitor's site (issue 28): the meeting's date and time are its; a company of several
   * sites has its mails name the site and the zone. Absent: the times as they are.
   */
  site?: MailSite;
}

const L = {
  fr: {
    hello: (name: string) => `Bonjour ${name},`,
    helloNoName: 'Bonjour,',
    visitor: 'Visiteur',
    employer: 'Entreprise',
    date: 'Date',
    time: 'Heure',
    reason: 'Motif',
    host: 'Hôte',
    site: 'Site',
    code: 'Votre code visiteur',
    confirm: 'Valider',
    decline: 'Annuler',
    // host request
    hostSubject: (visitor: string) => `Demande de rendez-vous : ${visitor}`,
    hostIntro: (visitor: string, employer: string) =>
      `${visitor} (${employer}) demande à vous rencontrer.`,
    deskIntro: (visitor: string, employer: string, host: string | null) =>
      host
        ? `${visitor} (${employer}) demande un rendez-vous avec ${host}, qui n'a pas de compte Sésame : merci de répondre à sa place.`
        : `${visitor} (${employer}) demande un rendez-vous.`,
    hostAsk: 'Acceptez-vous ce rendez-vous ?',
    hostNote:
      'Chaque bouton ouvre une page où vous confirmez votre choix. Les liens expirent à la fin du jour du rendez-vous.',
    // acknowledgement
    ackSubject: (company: string) => `Demande de rendez-vous reçue – ${company}`,
    ackIntro: (company: string) => `Votre demande de rendez-vous chez ${company} est bien reçue.`,
    ackWait: (host: string | null) =>
      host
        ? `${host} va y répondre : vous recevrez un e-mail dès que le rendez-vous sera confirmé ou annulé.`
        : 'Vous recevrez un e-mail dès que le rendez-vous sera confirmé ou annulé.',
    follow: 'Suivre ma demande',
    // declined
    declinedSubject: (company: string) => `Rendez-vous non confirmé – ${company}`,
    declinedIntro: (company: string, date: string | null, time: string | null) =>
      `Votre demande de rendez-vous chez ${company}${date ? ` du ${date}` : ''}${time ? ` à ${time}` : ''} n'a pas été acceptée.`,
    declinedReason: 'Motif donné',
    declinedAgain:
      "Vous pouvez faire une nouvelle demande à une autre date depuis la page d'accueil de l'entreprise.",
    // reminder
    reminderSubject: (company: string) => `Rappel : votre rendez-vous demain chez ${company}`,
    reminderIntro: (company: string) =>
      `Nous vous rappelons votre rendez-vous de demain chez ${company}.`,
    reminderShow: "Présentez votre QR code (ou ce code) à l'accueil à votre arrivée.",
    card: 'Votre carte visiteur en ligne',
    // arrival
    arrivalSubject: (visitor: string) => `${visitor} est arrivé(e) à l'accueil`,
    arrivalIntro: (visitor: string, time: string) =>
      `${visitor} est arrivé(e) à l'accueil à ${time}.`,
    arrivalOff: 'Vous pouvez désactiver ces e-mails dans votre profil Sésame.',
  },
  en: {
    hello: (name: string) => `Hello ${name},`,
    helloNoName: 'Hello,',
    visitor: 'Visitor',
    employer: 'Company',
    date: 'Date',
    time: 'Time',
    reason: 'Reason',
    host: 'Host',
    site: 'Site',
    code: 'Your visitor code',
    confirm: 'Confirm',
    decline: 'Decline',
    hostSubject: (visitor: string) => `Meeting request: ${visitor}`,
    hostIntro: (visitor: string, employer: string) => `${visitor} (${employer}) asks to meet you.`,
    deskIntro: (visitor: string, employer: string, host: string | null) =>
      host
        ? `${visitor} (${employer}) asks for a meeting with ${host}, who has no Sésame account: please answer for them.`
        : `${visitor} (${employer}) asks for a meeting.`,
    hostAsk: 'Do you accept this meeting?',
    hostNote:
      'Each button opens a page where you confirm your choice. The links expire at the end of the meeting day.',
    ackSubject: (company: string) => `Meeting request received – ${company}`,
    ackIntro: (company: string) => `Your meeting request at ${company} has been received.`,
    ackWait: (host: string | null) =>
      host
        ? `${host} will answer it: you will get an e-mail as soon as the meeting is confirmed or declined.`
        : 'You will get an e-mail as soon as the meeting is confirmed or declined.',
    follow: 'Follow my request',
    declinedSubject: (company: string) => `Meeting not confirmed – ${company}`,
    declinedIntro: (company: string, date: string | null, time: string | null) =>
      `Your meeting request at ${company}${date ? ` on ${date}` : ''}${time ? ` at ${time}` : ''} was not accepted.`,
    declinedReason: 'Reason given',
    declinedAgain: "You may ask for another date from the company's home page.",
    reminderSubject: (company: string) => `Reminder: your meeting tomorrow at ${company}`,
    reminderIntro: (company: string) => `A reminder of your meeting tomorrow at ${company}.`,
    reminderShow: 'Show your QR code (or this code) at the front desk when you arrive.',
    card: 'Your visitor card online',
    arrivalSubject: (visitor: string) => `${visitor} has arrived at the front desk`,
    arrivalIntro: (visitor: string, time: string) =>
      `${visitor} arrived at the front desk at ${time}.`,
    arrivalOff: 'You can turn these e-mails off in your Sésame profile.',
  },
} as const;

function meetingRows(source: LoopMailSource, lang: Language, withVisitor: boolean): Row[] {
  const t = L[lang];
  const { visitor, request } = source;
  const who: Row[] = withVisitor
    ? [
        [t.visitor, fullName(visitor)],
        [t.employer, visitor.organisationName],
      ]
    : [];
  return [
    ...who,
    [t.date, longDate(visitor.requestDate, LOCALE[lang])],
    [t.time, timeAtSite(visitor.requestTime, source.site, lang)],
    [t.host, withVisitor ? null : request.host],
    [t.reason, request.reason],
    [t.site, source.site?.named ? source.site.name : null],
  ];
}

/** To the host (or to each front-desk member when the host has no account). */
export function renderHostRequestMail(
  source: LoopMailSource,
  reader: { lang: Language; firstname: string; isHost: boolean },
  links: { confirm: string; decline: string },
): RenderedMail {
  const { lang } = reader;
  const t = L[lang];
  const visitor = fullName(source.visitor);
  const intro = reader.isHost
    ? t.hostIntro(visitor, source.visitor.organisationName)
    : t.deskIntro(visitor, source.visitor.organisationName, source.request.host);
  return mail(lang, t.hostSubject(visitor), source.company, [
    [para(t.hello(reader.firstname))],
    [para(intro)],
    [details(meetingRows(source, lang, true), lang)],
    [
      para(t.hostAsk),
      buttons(lang, [t.confirm, links.confirm, '#2b7a0b'], [t.decline, links.decline, '#b42318']),
    ],
    [note(t.hostNote)],
  ]);
}

/** To the visitor, when the request is filed: its details and where to follow it. */
export function renderVisitorAckMail(
  source: LoopMailSource,
  lang: Language,
  followUrl: string,
): RenderedMail {
  const t = L[lang];
  return mail(lang, t.ackSubject(source.company.name), source.company, [
    [para(t.hello(fullName(source.visitor)))],
    [para(t.ackIntro(source.company.name))],
    [details(meetingRows(source, lang, false), lang)],
    [para(t.ackWait(source.request.host))],
    [buttons(lang, [t.follow, followUrl])],
  ]);
}

/** To the visitor, when the host pressed Annuler (with their reason, if any). */
export function renderVisitorDeclinedMail(source: LoopMailSource, lang: Language): RenderedMail {
  const t = L[lang];
  const intro = t.declinedIntro(
    source.company.name,
    longDate(source.visitor.requestDate, LOCALE[lang]),
    timeAtSite(source.visitor.requestTime, source.site, lang),
  );
  const reason = source.request.declineReason;
  // Written in a text area: its lines are kept in the text part, one entry each (`frame`
  // writes every entry on one line).
  const [firstLine = '', ...moreLines] = reason ? asTextLines(reason).split('\n') : [];
  return mail(lang, t.declinedSubject(source.company.name), source.company, [
    [para(t.hello(fullName(source.visitor)))],
    [para(intro)],
    // The reason: a one-row table in HTML, 'label: reason' (no dash) in the text.
    ...(reason
      ? [
          [
            {
              html: detailsHtml([[t.declinedReason, reason]]),
              text: [`${t.declinedReason}${COLON[lang]}${firstLine}`, ...moreLines],
            },
          ],
        ]
      : []),
    [para(t.declinedAgain)],
  ]);
}

/** To the visitor, the day before a meeting confirmed more than a day ahead. */
export function renderVisitorReminderMail(
  source: LoopMailSource,
  lang: Language,
  cardUrl: string,
): RenderedMail {
  const t = L[lang];
  const uidn = formatUidn(source.visitor.uidn);
  const code: Block = {
    html:
      `<p style="margin:0 0 4px">${escapeHtml(t.code)}</p>` +
      `<p style="font-size:24px;letter-spacing:2px;font-family:monospace;margin:0 0 12px"><strong>${escapeHtml(uidn)}</strong></p>`,
    text: [`${t.code}${COLON[lang]}${uidn}`],
  };
  return mail(lang, t.reminderSubject(source.company.name), source.company, [
    [para(t.hello(fullName(source.visitor)))],
    [para(t.reminderIntro(source.company.name))],
    [details(meetingRows(source, lang, false), lang)],
    [code, para(t.reminderShow)],
    [buttons(lang, [t.card, cardUrl])],
  ]);
}

/** To the host, at their visitor's check-in ("{visiteur} est arrivé(e) à l'accueil à 09:14"). */
export function renderHostArrivalMail(
  source: LoopMailSource,
  reader: { lang: Language; firstname: string },
  arrivedAt: string,
): RenderedMail {
  const t = L[reader.lang];
  const visitor = fullName(source.visitor);
  const at = timeAtSite(arrivedAt, source.site, reader.lang) ?? arrivedAt;
  return mail(reader.lang, t.arrivalSubject(visitor), source.company, [
    [para(t.hello(reader.firstname))],
    [para(t.arrivalIntro(visitor, at))],
    [note(t.arrivalOff)],
  ]);
}
