/**
 * The outbox workers' loop (mail, chat, webhooks): a pass at once, then one `pollMs` after
 * each pass ends (never two passes at a time). `stop()` tells the pass in hand to claim
 * nothing more (`stopping`) and resolves when it has finished its row.
 */
export class PollingLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;
  /** Read by the worker's drain between two rows: stop claiming. */
  stopping = false;

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly pollMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      this.running = this.pass()
        .catch(this.onError)
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) this.timer = setTimeout(tick, this.pollMs);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
