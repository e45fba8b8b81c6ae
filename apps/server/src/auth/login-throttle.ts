/**
 * Counts failed logins per client address and per e-mail inside a window;
 * past the limit the login answers 429 until the window ends. In memory: it
 * moves to Redis with the other rate-limit counters when there is more than
 * one instance (ARCHITECTURE §11).
 */
export class LoginThrottle {
  private readonly failures = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  isBlocked(keys: string[], now = Date.now()): boolean {
    return keys.some((key) => {
      const entry = this.failures.get(key);
      return entry !== undefined && entry.resetAt > now && entry.count >= this.limit;
    });
  }

  recordFailure(keys: string[], now = Date.now()): void {
    for (const key of keys) {
      const entry = this.failures.get(key);
      if (!entry || entry.resetAt <= now) {
        this.failures.set(key, { count: 1, resetAt: now + this.windowMs });
      } else {
        entry.count++;
      }
    }
    if (this.failures.size > 10_000) this.prune(now);
  }

  reset(keys: string[]): void {
    for (const key of keys) this.failures.delete(key);
  }

  private prune(now: number): void {
    for (const [key, entry] of this.failures) if (entry.resetAt <= now) this.failures.delete(key);
  }
}
