/** Polls `check` until it holds or `ms` have passed (no fixed wait); returns how long it took. */
export async function within(
  ms: number,
  check: () => Promise<boolean>,
  what: string,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
