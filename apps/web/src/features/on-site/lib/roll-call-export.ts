/**
 * The record of an evacuation roll call as a CSV (French Excel: `;`, a BOM, CRLF) and
 * as a PDF (jsPDF, made in the browser from what the screen already holds).
 */
import type { RollCall, RollCallPerson } from '@sesame/shared';
import { saveBlob } from '../../../lib/save-blob';

export interface RollCallLabels {
  /** Column titles, in order: name, first name, kind, organisation, arrival, status, by, at. */
  columns: string[];
  kind: (person: RollCallPerson) => string;
  status: (person: RollCallPerson) => string;
  /** A date and time as the screen shows it. */
  when: (iso: string) => string;
  /** The header lines of the PDF: title, who started it and when, who ended it, the counts. */
  heading: string[];
}

/** A cell a spreadsheet will not run as a formula, quoted when it needs to be. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[";\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function rowOf(person: RollCallPerson, labels: RollCallLabels): string[] {
  return [
    person.lastname,
    person.firstname,
    labels.kind(person),
    person.organisation ?? '',
    labels.when(person.check_in_time),
    labels.status(person),
    person.marked_by?.name ?? '',
    person.marked_at ? labels.when(person.marked_at) : '',
  ];
}

export function rollCallCsv(rollCall: RollCall, labels: RollCallLabels): string {
  const lines = [labels.columns, ...rollCall.people.map((p) => rowOf(p, labels))];
  return `\uFEFF${lines.map((cells) => cells.map(csvCell).join(';')).join('\r\n')}\r\n`;
}

/** `appel-evacuation-{company}-{YYYY-MM-DD-HHMM}` (the start, UTC). */
export function rollCallFileName(rollCall: RollCall, extension: 'csv' | 'pdf'): string {
  const at = rollCall.started_at.slice(0, 16).replace('T', '-').replace(':', '');
  return `appel-evacuation-${rollCall.company.slug}-${at}.${extension}`;
}

export function downloadRollCallCsv(rollCall: RollCall, labels: RollCallLabels): void {
  const blob = new Blob([rollCallCsv(rollCall, labels)], { type: 'text/csv;charset=utf-8' });
  saveBlob(blob, rollCallFileName(rollCall, 'csv'));
}

/**
 * An A4 landscape table of everyone, with the roll call's header lines. A cell wider than
 * its column wraps onto more lines (the row grows), so a date and time stay whole.
 */
export async function rollCallPdf(rollCall: RollCall, labels: RollCallLabels) {
  const { jsPDF } = await import('jspdf');
  const pdf = new jsPDF({ orientation: 'landscape', unit: 'mm', format: 'a4' });
  const width = pdf.internal.pageSize.getWidth();
  const height = pdf.internal.pageSize.getHeight();
  const margin = 12;
  const lineHeight = 4.5;
  // Column widths (mm) of name, first name, kind, organisation, arrival, status, by, at.
  const widths = [38, 34, 26, 44, 30, 24, 42, 30];
  let y = margin + 4;
  pdf.setFontSize(14);
  pdf.text(labels.heading[0] ?? '', margin, y);
  pdf.setFontSize(10);
  for (const line of labels.heading.slice(1)) {
    y += 6;
    pdf.text(line, margin, y);
  }
  const row = (cells: string[], bold: boolean) => {
    pdf.setFont('helvetica', bold ? 'bold' : 'normal');
    const lines = cells.map(
      (cell, i) => pdf.splitTextToSize(cell, (widths[i] ?? 30) - 2) as string[],
    );
    const tallest = Math.max(1, ...lines.map((cell) => cell.length));
    if (y + (tallest - 1) * lineHeight > height - margin) {
      pdf.addPage('a4', 'landscape');
      y = margin + 4;
    }
    let x = margin;
    lines.forEach((cell, i) => {
      if (cell.length > 0) pdf.text(cell, x, y, { lineHeightFactor: lineHeight / 3.2 });
      x += widths[i] ?? 30;
    });
    y += (tallest - 1) * lineHeight + 6;
  };
  y += 10;
  pdf.setFontSize(9);
  row(labels.columns, true);
  pdf.line(margin, y - 4.5, width - margin, y - 4.5);
  for (const person of rollCall.people) row(rowOf(person, labels), false);
  return pdf;
}

export async function downloadRollCallPdf(rollCall: RollCall, labels: RollCallLabels) {
  (await rollCallPdf(rollCall, labels)).save(rollCallFileName(rollCall, 'pdf'));
}
