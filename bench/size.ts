/**
 * Public pages' JavaScript: every script Chromium loads to show the page,
 * summed as gzip bytes of the built files. Budget (ARCHITECTURE §9): 150 KB.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '../e2e/support/browser';
import { ROOT, startServer } from '../e2e/support/server';

const BUDGET_KB = 150;
const PAGES = [
  ['login', '/sign-in'],
  ['home', '/demo'],
  ['visitor form', '/demo/meeting'],
  ['event form', '/company/demo/event/any-event'],
  ['thank-you', '/success-checkout/AAAA-BBBB-CCCC'],
] as const;

export async function run(): Promise<void> {
  const server = await startServer();
  const browser = await launchBrowser();
  const dist = path.join(ROOT, 'apps/web/dist');
  try {
    console.log(`page            scripts   gzip KB   budget ${BUDGET_KB} KB`);
    for (const [name, url] of PAGES) {
      const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
      const page = await context.newPage();
      const scripts = new Set<string>();
      page.on('response', (res) => {
        const u = new URL(res.url());
        if (u.pathname.endsWith('.js')) scripts.add(u.pathname);
      });
      await page.goto(`${server.url}${url}`, { waitUntil: 'networkidle' });
      let bytes = 0;
      for (const script of scripts)
        bytes += gzipSync(await readFile(path.join(dist, script))).length;
      const kb = bytes / 1024;
      console.log(
        `${name.padEnd(15)} ${String(scripts.size).padStart(7)}   ${kb.toFixed(1).padStart(7)}   ${kb <= BUDGET_KB ? 'ok' : 'OVER'}`,
      );
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}
