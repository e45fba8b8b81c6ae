/**
 * The CSV of invited visitors (issue 30, POST /api/invitations/import): its bytes read as
 * French Excel saves them, its header matched to the columns, each line checked by the
 * shared schema the invite screen uses. Nothing here writes: the route creates the
 * invitation only when every line is right, so a file with one bad line creates nothing.
 *
 *   - Bytes: UTF-8 when they are valid UTF-8 (a BOM dropped), else Windows-1252 ("CSV
 *     (séparateur : point-virgule)" in a French Excel). Node's own 'windows-1252' decoder
 *     reads 0x80–0x9F as C1 controls, as ISO-8859-1 does, so those 32 bytes (€, ’, œ, …,
 *     common in French text) are mapped here by the code page's table.
 *   - Separator: `;` or `,`, whichever the header line holds more of (outside quotes).
 *   - Lines: CRLF, LF or CR; quotes as RFC 4180 ("" inside a quoted cell); blank lines and
 *     lines of empty cells (`;;;;`, left by Excel) skipped; a line of another number of
 *     cells than the header is an error of that line, its cells not read further. Empty
 *     cells after the last column, as Excel leaves when a column beyond was once used, are
 *     not counted.
 *   - Header: each column named in French or English (`INVITATION_CSV_COLUMNS`, compared by
 *     `foldHeader`), in any order; first and last name required, and an e-mail or a phone
 *     column. Anything else is a 400 naming the columns expected in the reader's language.
 *   - Each line: `invitedVisitorSchema`, then the phone read into E.164 (`toE164`), as the
 *     invitation's service reads it: what passes here is written as it is.
 * A line is its number in the file (the header is 1); a cell over several lines counts from
 * its record's first line.
 */
import { CsvError, parse } from 'csv-parse/sync';
import {
  INVITATION_CSV_COLUMNS,
  INVITATION_LIMITS,
  foldHeader,
  invitedVisitorSchema,
  megabytes,
  type InvitedVisitor,
  type InvitedVisitorField,
  type Language,
  type Say,
} from '@sesame/shared';
import { toE164 } from '@sesame/shared/phone';
import { badRequest } from '../errors';
import { issueMessages } from '../language';

/** One problem of one line: the field when it is one cell's (null for the whole line). */
export interface CsvLineProblem {
  line: number;
  field: InvitedVisitorField | null;
  say: Say;
}

/** A file read: its visitors (each with its line), or the problems of its lines. */
export interface InvitationCsv {
  visitors: InvitedVisitor[];
  /** The file's line of each visitor, in the same order. */
  lines: number[];
  problems: CsvLineProblem[];
}

/** Windows-1252's 0x80–0x9F; the five bytes it leaves undefined stay as their C1 control. */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ'.split('');

/** The text of the file's bytes: UTF-8 (without its BOM) when valid, else Windows-1252. */
export function decodeCsv(bytes: Uint8Array): string {
  try {
    // `ignoreBOM: false` (the default) drops a leading BOM.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252')
      .decode(bytes)
      .replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!);
  }
}

/** `;` or `,`: the one the header line holds more of outside quotes (`;` on a tie, as French Excel). */
function separatorOf(headerLine: string): ';' | ',' {
  const bare = headerLine.replace(/"[^"]*"/g, '');
  const count = (c: string) => bare.split(c).length - 1;
  return count(',') > count(';') ? ',' : ';';
}

/** A line holding nothing but blanks and separators (Excel's empty rows). */
const isBlankLine = (line: string) => /^[\s;,]*$/.test(line);

/** The header's folded names, French and English, to their field. */
const COLUMN_OF = new Map<string, InvitedVisitorField>(
  INVITATION_CSV_COLUMNS.flatMap((c) => [
    [foldHeader(c.fr), c.field],
    [foldHeader(c.en), c.field],
    [foldHeader(c.field), c.field],
  ]),
);

/** 400: the header must name these columns (in the reader's language). */
const headerRefused = (lang: Language) => {
  const names = INVITATION_CSV_COLUMNS.map((c) => c[lang]).join(', ');
  return badRequest((m) => m.invitation.csvHeader(names), {
    file: (m) => m.invitation.csvHeader(names),
  });
};

/** The field of each header cell (trailing empty cells left out), or a 400. */
function readHeader(cells: string[], lang: Language): InvitedVisitorField[] {
  const named = cells.slice(0, cells.length - trailingBlanks(cells));
  const fields: InvitedVisitorField[] = [];
  for (const cell of named) {
    const field = COLUMN_OF.get(foldHeader(cell));
    if (!field || fields.includes(field)) throw headerRefused(lang);
    fields.push(field);
  }
  const has = (field: InvitedVisitorField) => fields.includes(field);
  if (!has('firstname') || !has('lastname') || !(has('email') || has('phone'))) {
    throw headerRefused(lang);
  }
  return fields;
}

const newlines = (cells: string[]) =>
  cells.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0);

/**
 * The file's visitors, or each line's problems. A file that cannot be a list of visitors at
 * all (empty, a wrong header, more lines than an invitation takes) is a 400 thrown here; a
 * line's problems are returned, every line read, for the route to answer them all at once.
 */
export function readInvitationCsv(bytes: Uint8Array, lang: Language): InvitationCsv {
  if (bytes.length > INVITATION_LIMITS.csvMaxBytes) {
    const mo = String(megabytes(INVITATION_LIMITS.csvMaxBytes));
    throw badRequest((m) => m.invitation.csvTooLarge(mo), {
      file: (m) => m.invitation.csvTooLarge(mo),
    });
  }
  // One line ending: csv-parse counts a quoted CRLF as two lines, and a line is reported by number.
  const text = decodeCsv(bytes).replace(/\r\n?/g, '\n');
  // A NUL is no text (UTF-16, a spreadsheet's own format sent by mistake): PostgreSQL refuses it too.
  if (text.includes('\u0000')) throw badRequest((m) => m.invitation.csvUnreadable);
  const physical = text.split('\n');
  const headerIndex = physical.findIndex((line) => !isBlankLine(line));
  if (headerIndex < 0) throw empty();

  // Each record as read, with the line it ends on: kept when a broken quote stops the parser.
  const records: { cells: string[]; end: number }[] = [];
  let broken: CsvLineProblem | null = null;
  try {
    parse(text, {
      delimiter: separatorOf(physical[headerIndex]!),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      // The header, the most an invitation takes, and one more to know there are more.
      to: INVITATION_LIMITS.maxVisitors + 2,
      on_record: (cells: string[], context) => {
        records.push({ cells, end: context.lines });
        return null;
      },
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // A quote opened and never closed, or text after a closing quote: nothing can be read
    // past the record it starts, on the first line holding something after the last record.
    const after = records[records.length - 1]?.end ?? 0;
    const index = physical.findIndex((line, i) => i >= after && !isBlankLine(line));
    broken = {
      line: (index < 0 ? after : index) + 1,
      field: null,
      say: (m) => m.invitation.csvQuotes,
    };
  }
  const [header, ...rows] = records;
  if (!header) throw broken ? badRequest((m) => m.invitation.csvUnreadable) : empty();
  const fields = readHeader(header.cells, lang);
  if (rows.length === 0 && !broken) throw empty();
  if (rows.length > INVITATION_LIMITS.maxVisitors) {
    const max = INVITATION_LIMITS.maxVisitors;
    throw badRequest((m) => m.invitation.tooManyVisitors(max), {
      file: (m) => m.invitation.tooManyVisitors(max),
    });
  }

  const result: InvitationCsv = { visitors: [], lines: [], problems: [] };
  for (const { cells, end } of rows) {
    const line = end - newlines(cells);
    const problems = readLine(cells, fields);
    if (Array.isArray(problems)) {
      result.problems.push(...problems.map((p) => ({ line, ...p })));
    } else {
      result.visitors.push(problems);
      result.lines.push(line);
    }
  }
  if (broken) result.problems.push(broken);
  return result;
}

/** One line's visitor, or its problems (without the line number). */
function readLine(
  cells: string[],
  fields: InvitedVisitorField[],
): InvitedVisitor | Omit<CsvLineProblem, 'line'>[] {
  const extra = cells.slice(fields.length);
  const extraUsed = extra.length - trailingBlanks(extra);
  if (cells.length < fields.length || extraUsed > 0) {
    const found = Math.min(cells.length, fields.length) + extraUsed;
    return [{ field: null, say: (m) => m.invitation.csvCells(found, fields.length) }];
  }
  const input: Record<InvitedVisitorField, string> = {
    firstname: '',
    lastname: '',
    email: '',
    phone: '',
    organisation: '',
  };
  fields.forEach((field, i) => (input[field] = cells[i]!));
  const parsed = invitedVisitorSchema.safeParse(input);
  if (!parsed.success) {
    return Object.entries(issueMessages(parsed.error.issues)).map(([field, say]) => ({
      // issueMessages keys its messages by the schema's field paths: InvitedVisitorField's.
      field: field as InvitedVisitorField,
      say,
    }));
  }
  // The phone as the invitation's service will read it: one it cannot is this line's problem.
  if (parsed.data.phone && !toE164(parsed.data.phone)) {
    return [{ field: 'phone', say: (m) => m.validation.phoneInvalid }];
  }
  return parsed.data;
}

/** How many cells at the end of `cells` are blank. */
function trailingBlanks(cells: string[]): number {
  let count = 0;
  while (count < cells.length && cells[cells.length - 1 - count]!.trim() === '') count++;
  return count;
}

const empty = () =>
  badRequest((m) => m.invitation.csvEmpty, { file: (m) => m.invitation.csvEmpty });
