/** What staff see of a visitor's code mail (the Mail column, issue 12 §5). */
import type { Locator, Page } from 'playwright-core';

/**
 * Waits until a list row shows its mail as sent ('Envoyé'), reloading the page as
 * a person would: the outbox has then handed it to the mail server, and a sent mail
 * is never sent again. No fixed wait: each turn waits for the page to load.
 */
export async function waitForMailSent(page: Page, row: () => Locator, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const badge = row().locator('[data-mail-state]').first();
    const state = await badge
      .waitFor({ timeout: 5_000 })
      .then(() => badge.getAttribute('data-mail-state'))
      .catch(() => null);
    if (state === 'sent') return;
    if (Date.now() > deadline) throw new Error(`the mail is still ${state ?? 'not shown'}`);
    await page.reload({ waitUntil: 'networkidle' });
  }
}
