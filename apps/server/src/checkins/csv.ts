/**
 * The visitor log as CSV that French Excel opens cleanly: UTF-8 with a byte-order
 * mark (or accents come out garbled), semicolons (the comma is the decimal
 * separator there), CRLF line ends, each check's dates in its site's time zone. The headers
 * and fixed words are in the reader's language; the file's form is the same in
 * every language, so French Excel opens an English export as well.
 */
import type { FastifyReply } from 'fastify';
import { catalogue, formatPerZone, type Catalogue, type Language } from '@sesame/shared';
import type { VisitorLogEntry } from './logs';

/** The most rows one export carries; a larger range is split by the person exporting. */
export const EXPORT_MAX_ROWS = 50_000;

/**
 * One field: quoted when it holds a separator, a quote or a line break; a leading
 * = + - @ is defused so a visitor's name can never run as a spreadsheet formula.
 */
export function csvField(value: string | null | undefined): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const dateTimeFormat = formatPerZone('fr-FR', {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});
/** An instant as French Excel reads it ('24/12/2030 18:30'), in `timeZone`; '' for none. */
export function localDateTime(at: Date | null, timeZone: string): string {
  if (!at) return '';
  return dateTimeFormat(timeZone).format(at).replace(',', '');
}

type LogWords = Catalogue['csv']['visitorLog'];
const headerLine = (words: LogWords) => words.header.map(csvField).join(';');

/**
 * A whole CSV for French Excel from a header and its rows (each field through
 * `csvField`): the byte-order mark, semicolons, CRLF. For exports small enough to
 * hold at once; the visitor log streams its own (visitorLogCsvChunks).
 */
export function frenchExcelCsv(
  header: readonly string[],
  rows: readonly (readonly (string | null)[])[],
): string {
  const lines = [header, ...rows].map((fields) => fields.map(csvField).join(';'));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/**
 * Answers a CSV download: its type, the file name the browser saves it under, never kept
 * in a cache (it holds a company's records). `body` is the whole file or a stream of it.
 */
export function sendCsv(reply: FastifyReply, fileName: string, body: unknown) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(body);
}

export function visitorLogCsv(rows: VisitorLogEntry[], lang: Language): string {
  const words = catalogue(lang).csv.visitorLog;
  const lines = [headerLine(words), ...rows.map((row) => csvLine(row, words))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/**
 * The same file, streamed: the byte-order mark and header, then lines in chunks
 * as the rows arrive from the cursor (constant memory, issue 12 §9).
 */
export async function* visitorLogCsvChunks(
  rows: AsyncIterable<VisitorLogEntry>,
  lang: Language,
): AsyncGenerator<string> {
  const words = catalogue(lang).csv.visitorLog;
  yield `\uFEFF${headerLine(words)}\r\n`;
  let chunk = '';
  let count = 0;
  for await (const row of rows) {
    chunk += `${csvLine(row, words)}\r\n`;
    if (++count % 200 === 0) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** An undo (issue 14): the undone arrival, or the departure undone, with who and why. */
function undoText(row: VisitorLogEntry, words: LogWords): string {
  if (row.undoneAt) return words.arrivalUndone(row.undoneBy, row.undoReason ?? '');
  if (row.outUndoneAt && row.undoneOutAt)
    return words.departureUndone(
      localDateTime(row.undoneOutAt, row.timezone),
      row.outUndoneBy,
      row.outUndoReason ?? '',
    );
  return '';
}

function csvLine(row: VisitorLogEntry, words: LogWords): string {
  return [
    row.firstname,
    row.lastname,
    row.email,
    row.uidn,
    row.companyName,
    row.siteName,
    localDateTime(row.checkInAt, row.timezone),
    localDateTime(row.checkOutAt, row.timezone),
    words.methods[row.checkInMethod],
    row.checkOutMethod ? words.methods[row.checkOutMethod] : '',
    row.checkInBy,
    row.checkOutBy,
    undoText(row, words),
  ]
    .map(csvField)
    .join(';');
}
