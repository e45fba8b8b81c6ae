/**
 * What a line of text may hold (issue 26 §5). A name, a company name, a host, a reason
 * is written into formats made of lines: a mail's subject and text, an iCalendar
 * invitation, a CSV export. A line break there starts a line the reader takes for the
 * format's own (an `ATTENDEE:` in an invitation, a line of a mail), and the other
 * control characters are invisible or steer what displays them (U+009B opens a
 * terminal command). So a single-line field refuses them all, and a text that keeps
 * several lines (a description, a reason in a text area) keeps the line feed alone.
 *
 * Refused: every Unicode control character (general category Cc: C0 U+0000–U+001F,
 * DEL U+007F, C1 U+0080–U+009F), TAB included — a one-line field is never typed with
 * one (the key moves the focus) and it is a column separator in the exports; and the
 * line and paragraph separators U+2028 and U+2029, which some readers break a line at.
 * Zod-free: the mails (server) and the schemas (both sides) read the same rule.
 */

/** A character one line may not hold. */
const NOT_IN_A_LINE = /[\p{Cc}\u2028\u2029]/u;
/** Runs of them, each replaced by one space (a CRLF is one break, not two spaces). */
const NOT_IN_A_LINE_RUNS = /[\p{Cc}\u2028\u2029]+/gu;
/** A line break as typed or pasted: CRLF (a form's multipart body), CR, LF, U+2028, U+2029. */
const LINE_BREAK = /\r\n|[\n\r\u2028\u2029]/g;
/** A control character a text of several lines may not hold: any but the line feed. */
const NOT_IN_LINES = /[^\P{Cc}\n]/u;
const NOT_IN_LINES_RUNS = /[^\P{Cc}\n]+/gu;

/** Whether a single-line value holds a line break or a control character. */
export function breaksTheLine(text: string): boolean {
  return NOT_IN_A_LINE.test(text);
}

/**
 * Every line break as a line feed: a text area's value comes back with CRLF
 * through a multipart form, with LF through JSON; stored, it is one form.
 */
export function withLineFeeds(text: string): string {
  return text.replace(LINE_BREAK, '\n');
}

/** Whether a text of several lines (line feeds, see `withLineFeeds`) holds another control character. */
export function hasControlCharacter(text: string): boolean {
  return NOT_IN_LINES.test(text);
}

/**
 * A value shown on one line whatever was stored: each run of line breaks and control
 * characters becomes one space. What the mails and the invitation write, so that a
 * name stored before the schemas refused them cannot start a line of its own.
 */
export function asOneLine(text: string): string {
  return text.replace(NOT_IN_A_LINE_RUNS, ' ');
}

/** A text of several lines made safe to write: line feeds kept, any other control character a space. */
export function asTextLines(text: string): string {
  return withLineFeeds(text).replace(NOT_IN_LINES_RUNS, ' ');
}
