/**
 * Calendar months inside the dashboard's periods (issue 35): a period of a year reads its
 * whole settled months from `dashboard_months` and only the days at its edges day by day.
 * Days are YYYY-MM-DD; a month is named by its first day.
 */
import { addDays } from '@sesame/shared';

/** A run of days, both ends included. */
export interface DayRange {
  from: string;
  to: string;
}

/** The last day of the month that starts on `month`. */
export function monthEnd(month: string): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, m, 0)).toISOString().slice(0, 10);
}

/** The first day of the month after the one `day` is in. */
function nextMonth(day: string): string {
  return addDays(monthEnd(`${day.slice(0, 7)}-01`), 1);
}

/** The months lying wholly inside `range` and ended by `lastDay`, by their first days. */
export function wholeMonths(range: DayRange, lastDay: string): string[] {
  const months: string[] = [];
  let month = range.from.endsWith('-01') ? range.from : nextMonth(range.from);
  while (monthEnd(month) <= range.to && monthEnd(month) <= lastDay) {
    months.push(month);
    month = nextMonth(month);
  }
  return months;
}

/** The days of `range` outside those of the `months` (first days) it holds, as the fewest runs. */
export function daysOutside(range: DayRange, months: string[]): DayRange[] {
  const taken = months.filter((m) => m >= range.from && monthEnd(m) <= range.to).sort();
  const runs: DayRange[] = [];
  let day = range.from;
  for (const month of taken) {
    if (month > day) runs.push({ from: day, to: addDays(month, -1) });
    day = addDays(monthEnd(month), 1);
  }
  if (day <= range.to) runs.push({ from: day, to: range.to });
  return runs;
}

/** Every day of the runs. */
export function daysOf(runs: DayRange[]): string[] {
  const days: string[] = [];
  for (const run of runs) {
    for (let day = run.from; day <= run.to; day = addDays(day, 1)) days.push(day);
  }
  return days;
}

/** Sorted days as runs of consecutive days. */
export function runsOf(days: string[]): DayRange[] {
  const runs: DayRange[] = [];
  for (const day of days) {
    const last = runs[runs.length - 1];
    if (last && addDays(last.to, 1) === day) last.to = day;
    else runs.push({ from: day, to: day });
  }
  return runs;
}
