/**
 * A host's invitation's mails (issue 30), each with its `.ics` (calendar.ts): the invitation
 * itself, a change of its schedule and a cancellation (the whole visit, or one day of it),
 * in the invitation's language; and "Je suis arrivé(e)" told to the host or the front desk,
 * in that reader's language. HTML with a plain-text part, framed by layout.ts; every value
 * read from the database reaches them through `frame` and `escapeHtml`.
 */
import { siteMapUrl } from '../invitations/arrival';
import { toDdMmYyyy, toIsoDay } from '../invitations/days';
import { formatUidn, readRule, type Weekday } from '@sesame/shared';
import { qrPng, qrTargets } from '../qr/qr';
import { wallClock, zonedToUtc } from '../time-zones';
import { writeInvitationEvent } from './calendar';
import { buttons, details, fullName, link, mail, note, para, type Block } from './blocks';
import { COLON, escapeHtml, LOCALE, type Language, type Row } from './layout';
import type { InvitationSource } from './sources';
import { longDate, type RenderedMail } from './templates';
import { timeAtSite } from './zone';

/** The weekdays' plural names, Monday first (a rule's BYDAY order). */
const WEEKDAY_PLURALS: Record<Language, Record<Weekday, string>> = {
  fr: {
    MO: 'lundis',
    TU: 'mardis',
    WE: 'mercredis',
    TH: 'jeudis',
    FR: 'vendredis',
    SA: 'samedis',
    SU: 'dimanches',
  },
  en: {
    MO: 'Mondays',
    TU: 'Tuesdays',
    WE: 'Wednesdays',
    TH: 'Thursdays',
    FR: 'Fridays',
    SA: 'Saturdays',
    SU: 'Sundays',
  },
};
const WEEK_ORDER: Weekday[] = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

const T = {
  fr: {
    hello: (name: string) => `Bonjour ${name},`,
    helloNoName: 'Bonjour,',
    and: 'et',
    // the invitation
    subject: (company: string) => `Vous êtes invité(e) chez ${company}`,
    intro: (host: string | null, company: string) =>
      host ? `${host} vous invite chez ${company}.` : `Vous êtes invité(e) chez ${company}.`,
    updateSubject: (company: string) => `Votre visite chez ${company} a changé`,
    updateIntro: (company: string) =>
      `Le programme de votre visite chez ${company} a changé. Voici le nouveau ; votre code reste le même.`,
    date: 'Date',
    dates: 'Dates',
    time: 'Heure',
    cancelledDays: 'Jours annulés',
    host: 'Hôte',
    reason: 'Motif',
    site: 'Site',
    address: 'Adresse',
    map: 'Voir sur la carte',
    mapLabel: 'Plan',
    code: 'Votre code visiteur',
    show: "Présentez ce QR code (ou ce code) à l'accueil à votre arrivée.",
    sameCode: 'Le même code vaut pour chaque jour de la visite.',
    qrAlt: 'QR code visiteur',
    before:
      'Avant votre venue, complétez les informations que le site demande (pièce d’identité, notice de confidentialité).',
    complete: 'Compléter mes informations',
    here: 'Je suis arrivé(e)',
    hereNote:
      'Le bouton « Je suis arrivé(e) » est à utiliser le jour de la visite, à votre arrivée : votre hôte et l’accueil sont prévenus.',
    calendar: "L'invitation jointe (.ics) ajoute la visite à votre agenda.",
    title: (company: string) => `Visite chez ${company}`,
    from: (start: string, end: string) => `${start} – ${end}`,
    everyDay: 'Tous les jours',
    everyNDays: (n: number) => `Tous les ${n} jours`,
    weekdays: (names: string) => `Les ${names}`,
    everyOtherWeek: 'une semaine sur deux',
    everyNWeeks: (n: number) => `toutes les ${n} semaines`,
    range: (from: string, to: string) => `du ${from} au ${to}`,
    // cancellation
    cancelSubject: (company: string) => `Visite annulée – ${company}`,
    cancelIntro: (company: string, when: string) =>
      `Votre visite chez ${company} ${when} est annulée.`,
    cancelWhen: (date: string, time: string | null) => `du ${date}${time ? ` à ${time}` : ''}`,
    cancelWhenRule: (sentence: string) =>
      `(${sentence.charAt(0).toLowerCase()}${sentence.slice(1)})`,
    cancelCode: "Votre code n'ouvre plus l'accès.",
    dayCancelSubject: (date: string, company: string) => `Visite du ${date} annulée – ${company}`,
    dayCancelIntro: (date: string) =>
      `La visite du ${date} est annulée ; les autres jours restent prévus.`,
    dayCancelCode: 'Votre code reste valable les autres jours.',
    cancelCalendar: "L'annulation jointe (.ics) met votre agenda à jour.",
    // here
    hereSubject: (visitor: string) => `${visitor} est arrivé(e) et attend à l'accueil`,
    hereIntroHost: (visitor: string, site: string) =>
      `${visitor} est arrivé(e) à ${site} et vous attend à l'accueil.`,
    hereIntroDesk: (visitor: string, site: string, host: string | null) =>
      host
        ? `${visitor}, invité(e) par ${host}, est arrivé(e) à ${site} et attend à l'accueil.`
        : `${visitor}, invité(e), est arrivé(e) à ${site} et attend à l'accueil.`,
    hereAt: 'Arrivée signalée à',
    notCheckIn: "L'arrivée n'est pas encore enregistrée : l'accueil scanne son code.",
    myVisitors: 'Voir mes visiteurs',
    onSite: 'Ouvrir la liste sur site',
  },
  en: {
    hello: (name: string) => `Hello ${name},`,
    helloNoName: 'Hello,',
    and: 'and',
    subject: (company: string) => `You are invited to ${company}`,
    intro: (host: string | null, company: string) =>
      host ? `${host} invites you to ${company}.` : `You are invited to ${company}.`,
    updateSubject: (company: string) => `Your visit to ${company} has changed`,
    updateIntro: (company: string) =>
      `The schedule of your visit to ${company} has changed. Here is the new one; your code stays the same.`,
    date: 'Date',
    dates: 'Dates',
    time: 'Time',
    cancelledDays: 'Cancelled days',
    host: 'Host',
    reason: 'Reason',
    site: 'Site',
    address: 'Address',
    map: 'See on the map',
    mapLabel: 'Map',
    code: 'Your visitor code',
    show: 'Show this QR code (or this code) at the front desk when you arrive.',
    sameCode: 'The same code is valid on each day of the visit.',
    qrAlt: 'Visitor QR code',
    before:
      'Before you come, complete the details the site asks for (identity document, privacy notice).',
    complete: 'Complete my details',
    here: "I'm here",
    hereNote:
      'Use the “I’m here” button on the day of your visit, when you arrive: your host and the front desk are told.',
    calendar: 'The attached invitation (.ics) adds the visit to your calendar.',
    title: (company: string) => `Visit to ${company}`,
    from: (start: string, end: string) => `${start} – ${end}`,
    everyDay: 'Every day',
    everyNDays: (n: number) => `Every ${n} days`,
    weekdays: (names: string) => names,
    everyOtherWeek: 'every other week',
    everyNWeeks: (n: number) => `every ${n} weeks`,
    range: (from: string, to: string) => `from ${from} to ${to}`,
    cancelSubject: (company: string) => `Visit cancelled – ${company}`,
    cancelIntro: (company: string, when: string) =>
      `Your visit to ${company} ${when} is cancelled.`,
    cancelWhen: (date: string, time: string | null) => `on ${date}${time ? ` at ${time}` : ''}`,
    cancelWhenRule: (sentence: string) => `(${sentence})`,
    cancelCode: 'Your code no longer opens the door.',
    dayCancelSubject: (date: string, company: string) => `Visit on ${date} cancelled – ${company}`,
    dayCancelIntro: (date: string) =>
      `The visit on ${date} is cancelled; the other days remain planned.`,
    dayCancelCode: 'Your code stays valid on the other days.',
    cancelCalendar: 'The attached cancellation (.ics) updates your calendar.',
    hereSubject: (visitor: string) => `${visitor} has arrived and is waiting at the front desk`,
    hereIntroHost: (visitor: string, site: string) =>
      `${visitor} has arrived at ${site} and is waiting for you at the front desk.`,
    hereIntroDesk: (visitor: string, site: string, host: string | null) =>
      host
        ? `${visitor}, invited by ${host}, has arrived at ${site} and is waiting at the front desk.`
        : `${visitor}, invited, has arrived at ${site} and is waiting at the front desk.`,
    hereAt: 'Arrival reported at',
    notCheckIn: 'The arrival is not recorded yet: the front desk scans their code.',
    myVisitors: 'See my visitors',
    onSite: 'Open the on-site list',
  },
} as const;

/** A list said in words: 'a', 'a et b', 'a, b et c'. */
const inWords = (items: string[], and: string) =>
  items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} ${and} ${items[items.length - 1]}`;

/** '2030-03-04' → '4 mars' (or '4 mars 2030' with the year), in the mail's language. */
function dayMonth(isoDay: string, lang: Language, withYear: boolean): string {
  // An invitation's days are YYYY-MM-DD, checked by its schema: three numbers.
  const [yyyy, mm, dd] = isoDay.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(LOCALE[lang], {
    day: 'numeric',
    month: 'long',
    ...(withYear ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(yyyy, mm - 1, dd)));
}

/** The weekday (MO…SU) of a 'YYYY-MM-DD'. */
const weekdayOf = (isoDay: string): Weekday =>
  WEEK_ORDER[(new Date(`${isoDay}T00:00:00Z`).getUTCDay() + 6) % 7]!;

/**
 * A recurring invitation's days as a sentence: 'Les lundis et jeudis, du 4 mars au 14 mars
 * 2030' / 'Mondays and Thursdays, from 4 March to 14 March 2030', from its rule and the
 * first and last of its days. Null for an invitation of one day.
 */
export function recurrenceSentence(
  rrule: string | null,
  days: readonly { day: string }[],
  lang: Language,
): string | null {
  if (!rrule || days.length < 2) return null;
  const rule = readRule(rrule);
  if (!rule) return null;
  const t = T[lang];
  const first = days[0]!.day;
  const last = days[days.length - 1]!.day;
  const weekdays =
    rule.byDay.length > 0
      ? WEEK_ORDER.filter((day) => rule.byDay.includes(day))
      : rule.freq === 'WEEKLY'
        ? [weekdayOf(first)]
        : [];
  let pattern: string;
  if (weekdays.length === 0) {
    pattern = rule.interval > 1 ? t.everyNDays(rule.interval) : t.everyDay;
  } else {
    pattern = t.weekdays(
      inWords(
        weekdays.map((day) => WEEKDAY_PLURALS[lang][day]),
        t.and,
      ),
    );
    if (rule.freq === 'WEEKLY' && rule.interval === 2) pattern += `, ${t.everyOtherWeek}`;
    if (rule.freq === 'WEEKLY' && rule.interval > 2) pattern += `, ${t.everyNWeeks(rule.interval)}`;
  }
  const sameYear = first.slice(0, 4) === last.slice(0, 4);
  return `${pattern}, ${t.range(dayMonth(first, lang, !sameYear), dayMonth(last, lang, true))}`;
}

/** The site's address on OpenStreetMap's search: the visitor's page's own link (one source). */
export const mapUrl = (address: string) => siteMapUrl(address) ?? '';

/** 'HH:MM' on a 'YYYY-MM-DD' in the site's zone, as an instant. */
function instantAt(isoDay: string, time: string, timeZone: string): Date {
  // An invitation's days are YYYY-MM-DD, checked by its schema: three numbers.
  const [year, month, day] = isoDay.split('-').map(Number) as [number, number, number];
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  return zonedToUtc({ year, month, day, hour, minute }, timeZone);
}

/** The visitor's page, signed until the invitation's last day ends. */
export interface InvitationPageLinks {
  /** "Compléter mes informations". */
  page: string;
  /** "Je suis arrivé(e)". */
  here: string;
}

export interface InvitationMailContext {
  publicUrl: string;
  /** The `.ics`'s ORGANIZER address (the site's front desk, the company's, else MAIL_FROM's). */
  organizerEmail: string | null;
  stamp?: Date;
}

type VisitorMailKind = 'invitation' | 'update';

const standingDays = (source: InvitationSource) => source.days.filter((d) => !d.cancelled);

/** Where the visit is: the company and site, then the site's address. */
const placeOf = (source: InvitationSource) =>
  [`${source.company.name} – ${source.site.name}`, source.site.address].filter(Boolean).join(', ');

/** The `.ics` of an invitation (or its change): METHOD:REQUEST, its rule and cancelled days. */
function requestIcs(
  source: InvitationSource,
  lang: Language,
  ctx: InvitationMailContext,
  url: string,
  sequence: number,
) {
  const t = T[lang];
  const { invitation, site } = source;
  const first = source.days[0]?.day ?? toIsoDay(invitation.firstDate);
  return writeInvitationEvent({
    method: 'REQUEST',
    uid: `invitation-${source.request.id}@sesame`,
    sequence,
    start: instantAt(first, invitation.time, site.timeZone),
    end: instantAt(first, invitation.endTime, site.timeZone),
    rrule: invitation.rrule,
    timeZone: site.timeZone,
    exdates: source.days
      .filter((d) => d.cancelled)
      .map((d) => instantAt(d.day, invitation.time, site.timeZone)),
    occurrences: source.days.map((d) => instantAt(d.day, invitation.time, site.timeZone)),
    recurrenceId: null,
    title: t.title(source.company.name),
    location: placeOf(source),
    description: `${t.code}${COLON[lang]}${formatUidn(source.visitor.uidn)}\n${url}`,
    url,
    organizer: { name: source.company.name, email: ctx.organizerEmail },
    attendee: { name: fullName(source.visitor), email: source.visitor.email },
    ...(ctx.stamp ? { stamp: ctx.stamp } : {}),
  });
}

/** The rows of the visit: when, who, why, where (with the map link). */
function visitRows(source: InvitationSource, lang: Language): Row[] {
  const t = T[lang];
  const { invitation, site } = source;
  const sentence = recurrenceSentence(invitation.rrule, source.days, lang);
  const first = source.days[0]?.day;
  const cancelled = source.days.filter((d) => d.cancelled);
  return [
    sentence
      ? [t.dates, sentence]
      : [t.date, longDate(first ? toDdMmYyyy(first) : invitation.firstDate, LOCALE[lang])],
    [t.time, timeAtSite(t.from(invitation.time, invitation.endTime), site, lang)],
    [
      t.cancelledDays,
      sentence && cancelled.length > 0
        ? cancelled.map((d) => longDate(toDdMmYyyy(d.day), LOCALE[lang])).join(', ')
        : null,
    ],
    [t.host, invitation.hostName],
    [t.reason, invitation.reason],
    [t.site, site.name],
    [t.address, site.address],
  ];
}

/**
 * The invitation (or the change of its schedule) to the visitor, in the invitation's
 * language: who invites, where (the map), when, the code and its QR, the `.ics`, and their
 * page's two links ("Compléter mes informations", "Je suis arrivé(e)").
 */
export async function renderInvitationMail(
  source: InvitationSource,
  kind: VisitorMailKind,
  sequence: number,
  links: InvitationPageLinks,
  ctx: InvitationMailContext,
): Promise<RenderedMail> {
  const lang = source.invitation.language;
  const t = T[lang];
  const { company, visitor, invitation, site } = source;
  const uidn = formatUidn(visitor.uidn);
  const cid = `qr-${visitor.uidn.replace(/[^A-Z0-9]/gi, '')}@sesame`;
  const png = await qrPng(qrTargets.visitor(ctx.publicUrl, visitor.uidn));
  const ics = requestIcs(source, lang, ctx, links.page, sequence);
  const recurring = recurrenceSentence(invitation.rrule, source.days, lang) !== null;
  const code: Block = {
    html:
      `<h2 style="font-size:16px;margin:20px 0 8px">${escapeHtml(t.code)}</h2>` +
      `<p style="font-size:24px;letter-spacing:2px;font-family:monospace;margin:0 0 12px"><strong>${escapeHtml(uidn)}</strong></p>` +
      `<p><img src="cid:${cid}" alt="${escapeHtml(t.qrAlt)} ${escapeHtml(uidn)}" width="200" height="200" style="display:block"></p>`,
    text: [`${t.code}${COLON[lang]}${uidn}`],
  };
  const framed = mail(
    lang,
    kind === 'update' ? t.updateSubject(company.name) : t.subject(company.name),
    company,
    [
      [para(fullName(visitor) ? t.hello(fullName(visitor)) : t.helloNoName)],
      [
        para(
          kind === 'update'
            ? t.updateIntro(company.name)
            : t.intro(invitation.hostName, company.name),
        ),
      ],
      [details(visitRows(source, lang), lang)],
      ...(site.address ? [[link(lang, t.mapLabel, t.map, mapUrl(site.address))]] : []),
      [code, para(t.show), ...(recurring ? [para(t.sameCode)] : [])],
      [para(t.before), buttons(lang, [t.complete, links.page])],
      [buttons(lang, [t.here, links.here, '#2b7a0b']), note(t.hereNote)],
      [note(t.calendar)],
    ],
  );
  return {
    ...framed,
    attachments: [
      { filename: `qrcode-${uidn}.png`, content: png, contentType: 'image/png', cid },
      {
        filename: 'invitation.ics',
        content: ics,
        contentType: 'text/calendar; charset=utf-8; method=REQUEST',
      },
    ],
  };
}

/**
 * A cancellation to the visitor: the whole visit (the invitation, or this visitor of it)
 * or one day (`day`, YYYY-MM-DD), with the `.ics` METHOD:CANCEL of the same entry (one
 * occurrence named by RECURRENCE-ID when the other days remain).
 */
export function renderInvitationCancelMail(
  source: InvitationSource,
  input: { sequence: number; day: string | null; url: string },
  ctx: InvitationMailContext,
): RenderedMail {
  const lang = source.invitation.language;
  const t = T[lang];
  const { company, visitor, invitation, site } = source;
  const uid = `invitation-${source.request.id}@sesame`;
  const others = standingDays(source).filter((d) => d.day !== input.day);
  // One day of several: the others remain. The only day left, or no day named: the whole visit.
  const oneDay =
    input.day !== null && invitation.rrule !== null && others.length > 0 ? input.day : null;
  const first = source.days[0]?.day ?? toIsoDay(invitation.firstDate);
  const shownDay = oneDay ?? input.day ?? first;
  const date = longDate(toDdMmYyyy(shownDay), LOCALE[lang]) ?? shownDay;
  const ics = writeInvitationEvent({
    method: 'CANCEL',
    uid,
    sequence: input.sequence,
    start: instantAt(oneDay ?? first, invitation.time, site.timeZone),
    end: instantAt(oneDay ?? first, invitation.endTime, site.timeZone),
    rrule: oneDay ? null : invitation.rrule,
    timeZone: site.timeZone,
    exdates: [],
    occurrences: source.days.map((d) => instantAt(d.day, invitation.time, site.timeZone)),
    recurrenceId: oneDay ? instantAt(oneDay, invitation.time, site.timeZone) : null,
    title: t.title(company.name),
    location: placeOf(source),
    description: oneDay ? t.dayCancelIntro(date) : t.cancelCode,
    url: input.url,
    organizer: { name: company.name, email: ctx.organizerEmail },
    attendee: { name: fullName(visitor), email: visitor.email },
    ...(ctx.stamp ? { stamp: ctx.stamp } : {}),
  });
  const sentence = recurrenceSentence(invitation.rrule, source.days, lang);
  const time = timeAtSite(invitation.time, site, lang);
  const body: Block[][] = oneDay
    ? [
        [para(t.hello(fullName(visitor)))],
        [para(t.dayCancelIntro(date)), para(t.dayCancelCode)],
        [details(visitRows(source, lang), lang)],
        [note(t.cancelCalendar)],
      ]
    : [
        [para(t.hello(fullName(visitor)))],
        [
          para(
            t.cancelIntro(
              company.name,
              sentence && input.day === null
                ? t.cancelWhenRule(sentence)
                : t.cancelWhen(date, time),
            ),
          ),
          para(t.cancelCode),
        ],
        [note(t.cancelCalendar)],
      ];
  const framed = mail(
    lang,
    oneDay ? t.dayCancelSubject(date, company.name) : t.cancelSubject(company.name),
    company,
    body,
  );
  return {
    ...framed,
    attachments: [
      {
        filename: 'invitation.ics',
        content: ics,
        contentType: 'text/calendar; charset=utf-8; method=CANCEL',
      },
    ],
  };
}

/**
 * "Je suis arrivé(e)" to a staff member: the host (their "Mes visiteurs") or the site's
 * front desk (the on-site list). Not a check-in: the mail says the desk still scans the code.
 */
export function renderInvitationHereMail(
  source: InvitationSource,
  reader: { lang: Language; firstname: string | null; isHost: boolean },
  publicUrl: string,
): RenderedMail {
  const { lang } = reader;
  const t = T[lang];
  const { visitor, invitation, site, company } = source;
  const name = fullName(visitor);
  const who = visitor.organisationName.trim() ? `${name} (${visitor.organisationName})` : name;
  const hereAt = source.request.hereAt;
  const w = hereAt ? wallClock(hereAt, site.timeZone) : null;
  const at = w
    ? timeAtSite(
        `${String(w.hour).padStart(2, '0')}:${String(w.minute).padStart(2, '0')}`,
        site,
        lang,
      )
    : null;
  const rows: Row[] = [
    [t.hereAt, at],
    [t.host, reader.isHost ? null : invitation.hostName],
    [t.reason, invitation.reason],
  ];
  const target: [string, string] = reader.isHost
    ? [t.myVisitors, `${publicUrl}/${company.slug}/my-visitors`]
    : [t.onSite, `${publicUrl}/${company.slug}/on-site`];
  return mail(lang, t.hereSubject(name), company, [
    [para(reader.firstname ? t.hello(reader.firstname) : t.helloNoName)],
    [
      para(
        reader.isHost
          ? t.hereIntroHost(who, site.name)
          : t.hereIntroDesk(who, site.name, invitation.hostName),
      ),
    ],
    [details(rows, lang)],
    [para(t.notCheckIn)],
    [buttons(lang, target)],
  ]);
}
