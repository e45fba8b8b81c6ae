/**
 * A real SMTP server (smtp-server) that can be told to misbehave: `refuse(451)`
 * (try later) or `refuse(550)` (never), `tarpit(ms)` (hold every message that
 * long before accepting it), `stop()` / `start()` (the server gone, then back).
 * It counts deliveries by Message-ID so a double is visible.
 */
import { SMTPServer } from 'smtp-server';

export interface Delivery {
  messageId: string;
  to: string[];
  at: number;
}

export class FaultySmtp {
  private server: SMTPServer | undefined;
  private refusal: 451 | 550 | null = null;
  private tarpitMs = 0;
  readonly deliveries: Delivery[] = [];
  refused = 0;

  constructor(public port = 0) {}

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo: (_address, _session, callback) => {
        if (this.refusal) {
          this.refused += 1;
          const error = Object.assign(
            new Error(
              this.refusal === 550
                ? '5.1.1 Mailbox unavailable: no such user'
                : '4.3.2 Try again later',
            ),
            { responseCode: this.refusal },
          );
          callback(error);
          return;
        }
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const messageId = /^Message-ID:[ \t]*(\S+)/im.exec(text)?.[1] ?? '';
          const accept = () => {
            this.deliveries.push({
              messageId,
              to: session.envelope.rcptTo.map((r) => r.address),
              at: Date.now(),
            });
            callback();
          };
          if (this.tarpitMs > 0) setTimeout(accept, this.tarpitMs);
          else accept();
        });
      },
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    const address = server.server.address();
    if (address && typeof address === 'object') this.port = address.port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  refuse(code: 451 | 550 | null): void {
    this.refusal = code;
  }

  tarpit(ms: number): void {
    this.tarpitMs = ms;
  }

  /** Deliveries per Message-ID; any count above one is a double. */
  counts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const d of this.deliveries) counts.set(d.messageId, (counts.get(d.messageId) ?? 0) + 1);
    return counts;
  }
}
