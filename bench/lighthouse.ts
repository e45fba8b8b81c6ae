/**
 * `npm run bench -- lighthouse` (ARCHITECTURE §9, issue 19): Lighthouse's mobile performance
 * (its default mobile emulation and simulated throttling) on every public page, against the
 * built app served by the real server, in Debian's Chromium. Budget: a score of at least 95.
 *
 * Each page runs RUNS times (3 by default; `--runs=N` or BENCH_LIGHTHOUSE_RUNS) and the
 * medians are printed, with the load average beside them: on a shared machine one run is noise.
 * `--page=NAME` runs only the pages whose name contains NAME; `--details` prints what shifted,
 * the largest paint's element and the long tasks (what the blocking time is made of).
 */
import os from 'node:os';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_FLAGS, chromiumPath } from '../e2e/support/browser';
import { apiToken, startServer, type RunningServer } from '../e2e/support/server';
import { createOpenEvent } from '../e2e/support/events';
import { createConfirmedVisitor, filePendingRequest } from '../e2e/support/visitors';

const BUDGET = 95;
const runsArg = process.argv.find((a) => a.startsWith('--runs='))?.slice('--runs='.length);
const RUNS = Math.max(1, Number(runsArg ?? process.env.BENCH_LIGHTHOUSE_RUNS ?? 3) || 3);
/** `--page=visitor` runs only the pages whose name contains it. */
const only = process.argv.find((a) => a.startsWith('--page='))?.slice('--page='.length);
/** `--details`: each run's layout shifts and largest-paint element. */
const DETAILS = process.argv.includes('--details');

interface Figures {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** An event of the demo company, a pending request (the waiting page) and a visitor's code. */
async function records(server: RunningServer) {
  const token = await apiToken(server);
  const { slug: eventSlug } = await createOpenEvent(server, token);

  const confirmed = await createConfirmedVisitor(server, token, {
    firstname: 'Awa',
    lastname: 'Konan',
    email: 'awa.konan@example.com',
  });

  // A request the host has not answered yet: the visitor's waiting page.
  const { requestId: pendingId } = await filePendingRequest(server, {
    firstname: 'Yao',
    lastname: 'Kouassi',
    email: 'yao.kouassi@example.com',
  });
  return { eventSlug, uidn: confirmed.uidn, pendingId };
}

async function measure(url: string, port: number): Promise<Figures> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  if (DETAILS) {
    // What moved (CLS) and what the largest paint was: `--details`.
    const items = (id: string) =>
      ((lhr.audits[id]?.details as { items?: Record<string, unknown>[] } | undefined)?.items ??
        []) as { node?: { selector?: string; snippet?: string }; score?: number }[];
    for (const shift of items('layout-shifts')) {
      console.log(`    shift ${shift.score?.toFixed(3)}: ${shift.node?.selector ?? '?'}`);
    }
    // Lighthouse 12 gives a list whose first table names the element.
    const lcpTable = items('largest-contentful-paint-element')[0] as
      { items?: { node?: { snippet?: string } }[] } | undefined;
    const lcpNode = lcpTable?.items?.[0]?.node;
    console.log(`    LCP element: ${lcpNode?.snippet?.slice(0, 100) ?? '?'}`);
    // What blocked the page (TBT): its long tasks, as Lighthouse's simulated phone sees them.
    const tasks = items('long-tasks') as { url?: string; duration?: number; startTime?: number }[];
    for (const task of tasks.slice(0, 6)) {
      const where = (task.url ?? '?').replace(/^https?:\/\/[^/]+/, '');
      console.log(
        `    long task ${Math.round(task.duration ?? 0)} ms at ${Math.round(task.startTime ?? 0)} ms: ${where}`,
      );
    }
  }
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcp: audit('first-contentful-paint'),
    lcp: audit('largest-contentful-paint'),
    tbt: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    si: audit('speed-index'),
  };
}

/**
 * Lighthouse sometimes fails to record a trace on a loaded machine (NO_NAVSTART, ...):
 * such a run is taken again, up to twice.
 */
async function measureWithRetries(url: string, port: number): Promise<Figures> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(url, port);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.log(`  (run failed, again: ${(error as Error).message.slice(0, 120)})`);
    }
  }
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export async function run(): Promise<void> {
  const server = await startServer();
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath(),
    chromeFlags: CHROMIUM_FLAGS,
  });
  try {
    const r = await records(server);
    const pages = [
      ['login', '/sign-in'],
      ['home', '/demo'],
      ['visitor form', '/demo/meeting'],
      ['event form', `/company/demo/event/${r.eventSlug}`],
      ['thank-you', `/success-checkout/${r.uidn}`],
      ['waiting', `/demo/request-meeting/${r.pendingId}`],
      // The kiosk app on a tablet not yet paired (issue 29).
      ['kiosk', '/kiosk'],
    ].filter(([name]) => !only || name!.includes(only));
    console.log(
      `Lighthouse mobile (default emulation and throttling), ${RUNS} run(s) per page, medians; ` +
        `budget: score ≥ ${BUDGET}; ${os.cpus().length} cores`,
    );
    console.log(
      'page           score    FCP ms    LCP ms   TBT ms    CLS     SI ms   runs        load avg',
    );
    const failing: string[] = [];
    for (const [name, path] of pages) {
      const runs: Figures[] = [];
      const loads: string[] = [];
      // One warm-up load so the first run does not pay for the server's cold caches.
      await fetch(`${server.url}${path}`);
      for (let i = 0; i < RUNS; i++) {
        loads.push(loadAverage());
        runs.push(await measureWithRetries(`${server.url}${path}`, chrome.port));
      }
      const m = (key: keyof Figures) => median(runs.map((f) => f[key]));
      const score = m('score');
      if (score < BUDGET) failing.push(name!);
      console.log(
        [
          name!.padEnd(13),
          String(score).padStart(6),
          m('fcp').toFixed(0).padStart(9),
          m('lcp').toFixed(0).padStart(9),
          m('tbt').toFixed(0).padStart(8),
          m('cls').toFixed(3).padStart(7),
          m('si').toFixed(0).padStart(9),
          `  ${runs.map((f) => f.score).join('/')}`.padEnd(12),
          `  ${loads[0]}`,
          score >= BUDGET ? '  ok' : '  UNDER',
        ].join(''),
      );
    }
    console.log(
      failing.length
        ? `under the budget of ${BUDGET}: ${failing.join(', ')}`
        : `every page at or above ${BUDGET}`,
    );
  } finally {
    chrome.kill();
    await server.stop();
  }
}
