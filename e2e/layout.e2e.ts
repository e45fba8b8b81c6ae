/**
 * Phone and desktop layout (issue 27, "what a front desk trips over"): the request list, the
 * event list and an event's participants, filled with long names, organisations, e-mail
 * addresses, hosts, reasons and an event's long name, a pending and a confirmed request and
 * their mails, read as the platform admin (every column: company, actions, delete) on a
 * 1280 px desktop and a 390 px phone, in French and in English (switched with the navbar's
 * FR/EN control):
 *
 * - nothing is wider than the window;
 * - every badge says its words whole (no ellipsis at work, its text as wide as its box) and
 *   no text of a row is cut;
 * - every button and link of a row is inside the window and not behind a sideways scroll: the
 *   desktop table needs no sideways scroll at all;
 * - on the phone each row is a card, on the desktop a table row;
 * - the home page's request button holds on one line on the phone.
 *
 * Screenshots: e2e/artifacts/layout-*.png.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, screenshot } from './support/browser';
import {
  createLongRecords,
  labelLines,
  LANGS,
  listScreens,
  LONG,
  measureList,
  settled,
  switchLanguage,
  WORDS,
  type LongRecords,
} from './support/layout';
import { apiToken } from './support/server';
import { useSesame } from './support/sesame';

/** The phone: 390 px wide. */
const PHONE_390 = { ...PHONE, viewport: { width: 390, height: 844 } };
const SIZES = [
  { name: 'desktop-1280', options: DESKTOP, layout: 'table' },
  { name: 'phone-390', options: PHONE_390, layout: 'cards' },
] as const;

describe('the lists on a phone and on a desktop (issue 27)', () => {
  const sesame = useSesame();
  let records: LongRecords;

  beforeAll(async () => {
    records = await createLongRecords(sesame.server, await apiToken(sesame.server));
  });

  for (const size of SIZES) {
    it(`the request list, the event list and the participants read whole at ${size.name}`, async () => {
      const { server } = sesame;
      const page = await sesame.signedIn(server.adminEmail, server.adminPassword, size.options);
      const problems: string[] = [];
      for (const lang of LANGS) {
        if (lang !== 'fr') await switchLanguage(page, lang);
        for (const screen of listScreens(records)) {
          const where = `${screen.name} (${size.name}, ${lang})`;
          await page.goto(screen.path);
          await settled(page, screen, where);
          await screenshot(page, `layout-${screen.name}-${size.name}-${lang}`);

          const found = await measureList(page);
          expect(found.layout, `${where}: the list's layout`).toBe(size.layout);
          expect(found.rows, `${where}: its rows`).toBe(screen.rows);
          if (found.pageOverflow > 0) {
            problems.push(`${where}: the page is ${found.pageOverflow} px wider than the window`);
          }
          problems.push(...found.problems.map((problem) => `${where}: ${problem}`));

          const list = page.locator('main [data-layout]');
          for (const name of screen.controls(lang)) {
            const count = await list.getByText(name, { exact: true }).count();
            if (count === 0) problems.push(`${where}: no '${name}' in the rows`);
          }
        }
        // The long texts are there to be measured: a pending and a confirmed request, whole.
        await page.goto('/demo/list-qrcode');
        await settled(page, listScreens(records)[0]!, `requests (${size.name}, ${lang})`);
        const list = page.locator('main [data-layout]');
        for (const text of [LONG.confirmed.organisation_name, LONG.pending.organisation_name]) {
          expect(await list.getByText(text, { exact: true }).count(), text).toBe(1);
        }
        const { status } = WORDS[lang].requests;
        expect(await list.locator('[data-state="pending"]').textContent()).toBe(status.pending);
        expect(await list.locator('[data-state="confirmed"]').textContent()).toBe(status.confirmed);
      }
      expect(problems).toEqual([]);
    });
  }

  it("the home page's request button holds on one line on a phone", async () => {
    const { server } = sesame;
    for (const options of [PHONE_390, PHONE]) {
      const page = await sesame.signedIn(server.adminEmail, server.adminPassword, options);
      for (const lang of LANGS) {
        if (lang !== 'fr') await switchLanguage(page, lang);
        await page.goto('/demo');
        await page.locator('main h1').waitFor();
        const width = options.viewport.width;
        const label = WORDS[lang].home.requestMeeting;
        expect(await labelLines(page, label), `'${label}' at ${width} px`).toBe(1);
        expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBe(
          0,
        );
        await screenshot(page, `layout-home-${width}-${lang}`);
      }
    }
  });
});
