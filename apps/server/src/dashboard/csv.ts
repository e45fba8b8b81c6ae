/**
 * The dashboard's figures as CSV for French Excel (as the visitor log: BOM, semicolons,
 * CRLF, formulas defused): one chart's table (`?chart=`: the shared dashboardTable, the
 * screen's table view too), or the figures of the period beside the previous one.
 */
import {
  DASHBOARD_FIGURES,
  catalogue,
  dashboardTable,
  type Dashboard,
  type DashboardChart,
  type Language,
} from '@sesame/shared';
import { frenchExcelCsv } from '../checkins/csv';

const count = (n: number | null): string => (n === null ? '' : String(n));

/** The CSV of one chart, or of every figure beside the previous period's. */
export function dashboardCsv(
  dashboard: Dashboard,
  chart: DashboardChart | undefined,
  lang: Language,
): string {
  const words = catalogue(lang).dashboard;
  if (chart) {
    const table = dashboardTable(dashboard, chart, lang);
    const cells = table.rows.map((row) =>
      row.map((cell) => (typeof cell === 'number' ? String(cell) : cell)),
    );
    return frenchExcelCsv(table.header, cells);
  }
  const rows = [
    ...DASHBOARD_FIGURES.map((figure) => [
      words.figures[figure],
      count(dashboard.current[figure]),
      count(dashboard.previous[figure]),
    ]),
  ];
  return frenchExcelCsv(words.figuresHeader, rows);
}
