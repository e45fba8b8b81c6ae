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

/**
 * Waits, when the day in `timeZone` ends within `marginMs`, until it has turned: a journey
 * that records checks and then reads "today" must not straddle midnight, or its checks are
 * yesterday's by the time it reads (a CI run at 23:59 failed so). Daylight-saving days aside.
 */
export async function clearOfMidnight(timeZone: string, marginMs = 180_000): Promise<void> {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date())
      .map((p) => [p.type, p.value]),
  ) as Record<string, string>;
  const elapsed =
    (Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second)) * 1000;
  const left = 86_400_000 - elapsed;
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 2_000));
}
