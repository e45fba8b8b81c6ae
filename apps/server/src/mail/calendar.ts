/**
 * The calendar invitation the visitor-code mail carries (issue 15), written to RFC 5545
 * here (issue 26 §5) rather than by a package: the `ics` package used before put the
 * company's name into the ORGANIZER's CN as it came, so a line feed in it started a line
 * of the manager's choosing (an ATTENDEE, a VALARM, a URL) in every visitor's invitation;
 * it escaped a double quote with a backslash, which a quoted parameter value does not
 * know (`Société "Le Bon"` ended the value there); it wrote ORGANIZER without a value
 * when there was no address, which no strict parser reads; and it folded lines at 75
 * characters where the RFC counts octets.
 *
 * Every value goes through the escaping of its kind: TEXT (`\\`, `\;`, `\,`, `\n`),
 * quoted parameter values (no control character, no DQUOTE), and each content line is
 * folded at 75 octets without cutting a character.
 */
import { EMAIL_PATTERN, asOneLine, asTextLines, breaksTheLine } from '@sesame/shared';
import addressparser from 'nodemailer/lib/addressparser';
import { nextMidnight, wallClock, zonedToUtc } from '../time-zones';

/** The longest content line, in octets, CRLF aside (RFC 5545 §3.1). */
const LINE_OCTETS = 75;

/** A TEXT value (RFC 5545 §3.3.11): on one line, with its separators escaped. */
export function icsText(value: string, lines: 'one' | 'several' = 'one'): string {
  const text = lines === 'one' ? asOneLine(value) : asTextLines(value);
  return text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\n/g, '\\n');
}

/**
 * A parameter value, always quoted (RFC 5545 §3.2): a quoted value may hold `;`, `:` and
 * `,` but no control character and no DQUOTE, which it has no way to escape; a double
 * quote becomes an apostrophe (`Société "Le Bon"` reads `Société 'Le Bon'`). A caret is
 * doubled: RFC 6868, which strict readers apply, gives `^'` and `^n` a meaning.
 */
export function icsParam(value: string): string {
  return `"${asOneLine(value).replace(/\^/g, '^^').replace(/"/g, "'")}"`;
}

/** Octets of one code point in UTF-8. */
const octets = (char: string) => {
  const code = char.codePointAt(0) ?? 0;
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
};

/**
 * A content line folded at 75 octets (RFC 5545 §3.1): each further line starts with a
 * space, which counts; a character's octets never straddle a fold.
 */
export function foldLine(line: string): string {
  const folded: string[] = [];
  let current = '';
  let size = 0;
  for (const char of line) {
    const length = octets(char);
    if (size + length > LINE_OCTETS) {
      folded.push(current);
      current = ' ';
      size = 1;
    }
    current += char;
    size += length;
  }
  folded.push(current);
  return folded.join('\r\n');
}

/** An instant as a UTC DATE-TIME: 20301124T093000Z. */
const utc = (instant: Date) => instant.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');

export interface Invitation {
  /** Stable per visit, so that a second mail updates the same entry. */
  uid: string;
  start: Date;
  title: string;
  location: string | null;
  description: string;
  url: string;
  /**
   * Who publishes it: a name (the company's) and an address to write to. Without an
   * address there is no ORGANIZER line: RFC 5545 gives the property no value but one.
   */
  organizer: { name: string; email: string | null };
  /** When the invitation is written (DTSTAMP); now unless a test fixes it. */
  stamp?: Date;
}

/** An address fit for a `mailto:` value: an e-mail's shape, nothing that breaks the line. */
const mailtoAddress = (email: string | null) =>
  email && EMAIL_PATTERN.test(email) && !breaksTheLine(email) ? email : null;

/**
 * The address the invitation names as its ORGANIZER: the one the mail that carries it
 * comes from (`MAIL_FROM`, 'Sésame <no-reply@…>' or a bare address), since an ORGANIZER
 * must have one and no other is known yet (the front desk's, when the company has one,
 * is for the caller to pass instead). Null when `MAIL_FROM` holds none.
 */
export function senderAddress(mailFrom: string): string | null {
  const [first] = addressparser(mailFrom, { flatten: true });
  return mailtoAddress(first?.address ?? null);
}

/** The whole VCALENDAR, CRLF line ends, METHOD:PUBLISH (no reply is asked for). */
export function writeInvitation(invitation: Invitation): string {
  const organizer = mailtoAddress(invitation.organizer.email);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Sesame//Visitor invitation//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${icsText(invitation.uid)}`,
    `DTSTAMP:${utc(invitation.stamp ?? new Date())}`,
    `DTSTART:${utc(invitation.start)}`,
    // A visit is given an hour in the visitor's calendar.
    'DURATION:PT1H',
    `SUMMARY:${icsText(invitation.title)}`,
    ...(invitation.location ? [`LOCATION:${icsText(invitation.location)}`] : []),
    `DESCRIPTION:${icsText(invitation.description, 'several')}`,
    // A URI, not TEXT: nothing to escape but what cannot be in a line.
    `URL:${asOneLine(invitation.url).replace(/ /g, '%20')}`,
    ...(organizer
      ? [`ORGANIZER;CN=${icsParam(invitation.organizer.name)}:mailto:${organizer}`]
      : []),
    'STATUS:CONFIRMED',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}

/** The meeting (or event) as a calendar invitation, when its day and time can be read. */
export function calendarInvitation(input: {
  uid: string;
  title: string;
  /** DD/MM/YYYY and HH:MM, in `timeZone`. */
  date: string | null;
  time: string | null;
  timeZone: string;
  location: string | null;
  description: string;
  url: string;
  organizer: { name: string; email: string | null };
  stamp?: Date;
}): string | null {
  const [dd, mm, yyyy] = (input.date ?? '').split('/').map(Number);
  const [hh, min] = (input.time ?? '').split(':').map(Number);
  if (!dd || !mm || !yyyy || hh === undefined || min === undefined) return null;
  if (Number.isNaN(hh) || Number.isNaN(min)) return null;
  const start = zonedToUtc(
    { year: yyyy, month: mm, day: dd, hour: hh, minute: min },
    input.timeZone,
  );
  if (Number.isNaN(start.getTime())) return null;
  return writeInvitation({ ...input, start });
}

/**
 * A host's invitation (issue 30) as one calendar entry that its mails keep up to date:
 * METHOD:REQUEST for the invitation and each change of its schedule, METHOD:CANCEL for a
 * cancellation (the whole entry, or one occurrence named by RECURRENCE-ID). The UID is the
 * visitor's request's, so each mail updates the same entry; SEQUENCE grows with each change.
 *
 * Times are UTC DATE-TIMEs. A rule's UNTIL is written as a UTC DATE-TIME too (RFC 5545
 * §3.3.10: it MUST be when DTSTART is one): the end of that day in the site's zone.
 */
export interface InvitationEvent {
  method: 'REQUEST' | 'CANCEL';
  /** `invitation-<requestId>@sesame`: one entry per invited visitor. */
  uid: string;
  sequence: number;
  /** The first day's start and end (or, for one occurrence cancelled, that day's). */
  start: Date;
  end: Date;
  /** The invitation's RRULE (an "RRULE:" prefix is dropped), null for one day. */
  rrule: string | null;
  /** The site's zone: a rule's UNTIL date is read in it, and BYDAY follows the UTC day. */
  timeZone: string;
  /** The start of each cancelled occurrence (EXDATE). */
  exdates: Date[];
  /**
   * The start of every day of the invitation (cancelled ones too), from the site's zone. When
   * they do not all keep the first start's UTC time of day (a change to or from summer time
   * falls within the series), the entry lists them (RDATE) rather than repeat a UTC rule that
   * would move the visit by an hour after the change.
   */
  occurrences?: Date[];
  /** The occurrence a CANCEL is about (its start); null: the whole entry. */
  recurrenceId: Date | null;
  title: string;
  location: string | null;
  description: string;
  url: string;
  organizer: { name: string; email: string | null };
  /** The visitor (ATTENDEE), when they have an address fit for a `mailto:`. */
  attendee: { name: string; email: string | null };
  stamp?: Date;
}

const RULE_WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const;

/**
 * The RRULE value as a calendar reads it with a UTC DTSTART: its parts as stored (a part
 * holding anything but letters, digits and commas is dropped: it could not be one Sésame
 * runs), UNTIL as the UTC end of that day in the site's zone, and BYDAY moved by a day
 * when the first start's UTC day is not its local day (09:00 on Monday in Nouméa is Sunday
 * 22:00 UTC: the rule's days are UTC days then).
 */
export function utcRule(rrule: string, start: Date, timeZone: string): string | null {
  const text = asOneLine(rrule)
    .trim()
    .replace(/^RRULE:/i, '');
  const local = wallClock(start, timeZone);
  const shift = Math.round(
    (Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()) -
      Date.UTC(local.year, local.month - 1, local.day)) /
      86_400_000,
  );
  const parts: string[] = [];
  for (const part of text.split(';')) {
    const [rawKey = '', rawValue = ''] = part.split('=');
    const key = rawKey.trim().toUpperCase();
    const value = rawValue.trim().toUpperCase();
    if (!/^[A-Z]+$/.test(key) || !/^[A-Z0-9,]+$/.test(value)) continue;
    if (key === 'UNTIL') {
      const day = /^(\d{4})(\d{2})(\d{2})/.exec(value);
      if (!day) continue;
      // The regular expression matched three groups of digits.
      const [, yyyy, mm, dd] = day.map(Number) as [number, number, number, number];
      const end = new Date(nextMidnight(yyyy, mm, dd, timeZone).getTime() - 1000);
      parts.push(`UNTIL=${utc(end)}`);
    } else if (key === 'BYDAY' && shift !== 0) {
      const days = value.split(',').map((day) => {
        // indexOf of any text: a day not in the list is -1, handled below.
        const index = RULE_WEEKDAYS.indexOf(day as (typeof RULE_WEEKDAYS)[number]);
        return index < 0 ? day : RULE_WEEKDAYS[(index + shift + 7) % 7]!;
      });
      parts.push(`BYDAY=${days.join(',')}`);
    } else {
      parts.push(`${key}=${value}`);
    }
  }
  return parts.some((part) => part.startsWith('FREQ=')) ? parts.join(';') : null;
}

/** The whole VCALENDAR of an invitation's mail, CRLF line ends, folded at 75 octets. */
export function writeInvitationEvent(event: InvitationEvent): string {
  const organizer = mailtoAddress(event.organizer.email);
  const attendee = mailtoAddress(event.attendee.email);
  const cancel = event.method === 'CANCEL';
  const repeats = !!event.rrule && !event.recurrenceId;
  const timeOfDay = (at: Date) => at.getTime() % 86_400_000;
  const occurrences = event.occurrences ?? [];
  const steady = occurrences.every((at) => timeOfDay(at) === timeOfDay(event.start));
  const rule = repeats && steady ? utcRule(event.rrule!, event.start, event.timeZone) : null;
  // Across a clock change: the days themselves, each at its own UTC time, the first among them
  // (DTSTART is an instance by RFC 5545, which some readers — ical.js — count only when listed;
  // an instance given twice is one).
  const listed = repeats && !steady ? occurrences : [];
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Sesame//Visitor invitation//EN',
    'CALSCALE:GREGORIAN',
    `METHOD:${event.method}`,
    'BEGIN:VEVENT',
    `UID:${icsText(event.uid)}`,
    `SEQUENCE:${Math.max(0, Math.trunc(event.sequence))}`,
    `DTSTAMP:${utc(event.stamp ?? new Date())}`,
    ...(event.recurrenceId ? [`RECURRENCE-ID:${utc(event.recurrenceId)}`] : []),
    `DTSTART:${utc(event.start)}`,
    `DTEND:${utc(event.end > event.start ? event.end : new Date(event.start.getTime() + 3_600_000))}`,
    ...(rule ? [`RRULE:${rule}`] : []),
    ...listed.map((day) => `RDATE:${utc(day)}`),
    ...(rule || listed.length > 0 ? event.exdates.map((day) => `EXDATE:${utc(day)}`) : []),
    `SUMMARY:${icsText(event.title)}`,
    ...(event.location ? [`LOCATION:${icsText(event.location)}`] : []),
    `DESCRIPTION:${icsText(event.description, 'several')}`,
    `URL:${asOneLine(event.url).replace(/ /g, '%20')}`,
    ...(organizer ? [`ORGANIZER;CN=${icsParam(event.organizer.name)}:mailto:${organizer}`] : []),
    ...(attendee
      ? [
          `ATTENDEE;CN=${icsParam(event.attendee.name)};ROLE=REQ-PARTICIPANT;RSVP=FALSE:mailto:${attendee}`,
        ]
      : []),
    `STATUS:${cancel ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
