/** The roll call's CSV: French Excel (BOM, `;`, CRLF), quoted cells, no formula runs. */
import { describe, expect, it } from 'vitest';
import type { RollCall } from '@sesame/shared';
import { formatDateTime } from '../src/lib/format';
import {
  csvCell,
  rollCallCsv,
  rollCallFileName,
  rollCallPdf,
} from '../src/features/on-site/lib/roll-call-export';

const rollCall: RollCall = {
  id: 'r',
  company: { id: 'c', name: 'Demo', slug: 'demo' },
  site: null,
  started_by: { id: 'u', name: 'Moussa Diallo' },
  started_at: '2026-11-24T08:29:00.000Z',
  ended_by: null,
  ended_at: null,
  counts: { total: 2, safe: 1, missing: 0, unknown: 1 },
  people: [
    {
      id: 'p1',
      person_id: 'v1',
      kind: 'visitor',
      firstname: 'Awa',
      lastname: 'Sanogo',
      organisation: 'Orange; CI',
      check_in_time: '2026-11-24T08:00:00.000Z',
      site: null,
      status: 'safe',
      marked_by: { id: 'u', name: 'Moussa Diallo' },
      marked_at: '2026-11-24T08:30:00.000Z',
    },
    {
      id: 'p2',
      person_id: 'v2',
      kind: 'member',
      firstname: '=cmd',
      lastname: 'Koné',
      organisation: null,
      check_in_time: '2026-11-24T07:00:00.000Z',
      site: null,
      status: 'unknown',
      marked_by: null,
      marked_at: null,
    },
  ],
};

const labels = {
  columns: ['Nom', 'Prénom', 'Type', 'Organisation', 'Arrivée', 'Statut', 'Par', 'À'],
  kind: (p: { kind: string }) => p.kind,
  status: (p: { status: string }) => p.status,
  when: (iso: string) => iso.slice(11, 16),
  heading: [],
};

describe('roll call CSV', () => {
  it('writes one line per person, French Excel style, formulas defused', () => {
    const csv = rollCallCsv(rollCall, labels);
    expect(csv.startsWith('\uFEFFNom;Prénom;')).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines[1]).toBe('Sanogo;Awa;visitor;"Orange; CI";08:00;safe;Moussa Diallo;08:30');
    expect(lines[2]).toBe("Koné;'=cmd;member;;07:00;unknown;;");
    expect(lines[3]).toBe('');
  });

  it('quotes and escapes', () => {
    expect(csvCell('a"b')).toBe('"a""b"');
    expect(csvCell('+1')).toBe("'+1");
  });

  it('names the file after the company and the start', () => {
    expect(rollCallFileName(rollCall, 'csv')).toBe('appel-evacuation-demo-2026-11-24-0829.csv');
  });
});

describe('roll call PDF (issue 27)', () => {
  it("prints each person's arrival and marking date and time, not the date alone", async () => {
    // The screen's own long date and time ("24 novembre 2026 à 08:30"), wider than its column.
    const when = (iso: string) => formatDateTime(iso, 'Africa/Abidjan', 'fr');
    const pdf = await rollCallPdf(rollCall, { ...labels, when, heading: ['Appel'] });
    // jsPDF writes its text uncompressed: each shown line is a string of the page stream.
    const body = pdf.output();
    const shown = [...body.matchAll(/\(([^()]*)\) Tj/g)].map((m) => m[1]);
    for (const text of ['24 novembre 2026', '08:00', '08:30', '07:00']) {
      expect(shown.some((line) => line?.includes(text))).toBe(true);
    }
  });
});
