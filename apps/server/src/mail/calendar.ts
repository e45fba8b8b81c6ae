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
import { zonedToUtc } from '../time-zones';

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
