/**
 * Waiting in tests without a fixed sleep: `until` asks again and again until the
 * condition holds (or returns a value), and fails with what it waited for once the
 * deadline has passed. A slow machine makes a test slower, never wrong.
 */
export async function until<T>(
  probe: () => Promise<T | false | null | undefined> | T | false | null | undefined,
  what: string,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== false && value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
