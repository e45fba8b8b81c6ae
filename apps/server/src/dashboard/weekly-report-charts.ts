/**
 * The weekly summary mail's charts (issue 35), drawn on the server as PNG (SVG rendered by
 * resvg): bars, cells and gridlines only. No text is drawn: a bare machine may have no font
 * at all, and a mail reader cannot copy, translate or read aloud the words of a picture. The
 * mail's HTML says each chart's words and numbers beside its image, and its alt text says
 * what it shows in one sentence.
 */
import { onFirstUse } from '../lazy-module';

/** The mail's column is 560 px with 16 px of padding: the images take 520 px of it. */
export const CHART_WIDTH = 520;
/** Drawn at twice the size shown, for sharp pictures on high-density screens. */
const SCALE = 2;

const INK = '#1c5d99';
const GRID = '#e5e7eb';
const AXIS = '#9ca3af';
const EMPTY = '#f3f4f6';

export interface ChartImage {
  png: Buffer;
  /** The size to show it at, in CSS pixels. */
  width: number;
  height: number;
}

/** resvg, a native module of about 4 MB resident, loaded by the first weekly mail. */
const resvg = onFirstUse(() => import('@resvg/resvg-js'));

async function render(svg: string, width: number, height: number): Promise<ChartImage> {
  const { Resvg } = await resvg();
  const png = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: SCALE },
    font: { loadSystemFonts: false },
    background: '#ffffff',
  })
    .render()
    .asPng();
  return { png, width, height };
}

const svgOf = (width: number, height: number, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`;

const rect = (x: number, y: number, w: number, h: number, fill: string, rx = 0) =>
  `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${Math.max(0, w).toFixed(1)}" height="${Math.max(0, h).toFixed(1)}" rx="${rx}" fill="${fill}"/>`;

const line = (x1: number, y1: number, x2: number, y2: number, stroke: string) =>
  `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${stroke}" stroke-width="1"/>`;

/**
 * Vertical bars, one per value, left to right, in equal columns (the mail's table under the
 * image has the same columns, each with its day and number). Four gridlines mark quarters
 * of the highest bar.
 */
export function barChart(values: number[], height = 180): Promise<ChartImage> {
  const width = CHART_WIDTH;
  const top = 8;
  const bottom = height - 4;
  const max = Math.max(0, ...values);
  const column = width / Math.max(1, values.length);
  const parts: string[] = [];
  for (let q = 1; q <= 4; q += 1) {
    const y = bottom - ((bottom - top) * q) / 4;
    parts.push(line(0, y, width, y, GRID));
  }
  values.forEach((value, i) => {
    const h = max > 0 ? ((bottom - top) * value) / max : 0;
    parts.push(rect(i * column + column * 0.2, bottom - h, column * 0.6, h, INK, 2));
  });
  parts.push(line(0, bottom, width, bottom, AXIS));
  return render(svgOf(width, height, parts.join('')), width, height);
}

/**
 * Horizontal bars, one per value, top to bottom (the mail's list beside it names each in
 * the same order), the longest the whole width.
 */
export function horizontalBars(values: number[]): Promise<ChartImage> {
  const width = CHART_WIDTH;
  const row = 24;
  const height = Math.max(1, values.length) * row + 8;
  const max = Math.max(0, ...values);
  const parts: string[] = [line(0, 0, 0, height, AXIS)];
  values.forEach((value, i) => {
    const w = max > 0 ? ((width - 4) * value) / max : 0;
    parts.push(rect(1, 4 + i * row + 4, w, row - 8, INK, 2));
  });
  return render(svgOf(width, height, parts.join('')), width, height);
}

/** A colour between the empty cell's and the ink, for a share of the highest cell (0–1). */
function shade(share: number): string {
  if (share <= 0) return EMPTY;
  const from = [0xdb, 0xe8, 0xf5];
  const to = [0x1c, 0x5d, 0x99];
  // A single arrival still shows: the scale starts at a fifth of the way.
  const t = 0.2 + 0.8 * Math.min(1, share);
  const mix = from.map((c, i) => Math.round(c + (to[i]! - c) * t));
  return `#${mix.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * A grid of cells, `rows[r][c]`: rows top to bottom, columns left to right, darker for
 * higher values (the arrivals by weekday and hour: seven rows, twenty-four columns).
 */
export function heatmap(rows: number[][]): Promise<ChartImage> {
  const width = CHART_WIDTH;
  const columns = Math.max(1, ...rows.map((r) => r.length));
  const cell = width / columns;
  const rowHeight = 20;
  const height = rows.length * rowHeight;
  const max = Math.max(0, ...rows.flat());
  const parts: string[] = [];
  rows.forEach((values, r) => {
    values.forEach((value, c) => {
      parts.push(
        rect(
          c * cell + 1,
          r * rowHeight + 1,
          cell - 2,
          rowHeight - 2,
          shade(max ? value / max : 0),
          2,
        ),
      );
    });
  });
  return render(svgOf(width, height, parts.join('')), width, height);
}
