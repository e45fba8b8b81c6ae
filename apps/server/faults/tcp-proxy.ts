/**
 * A TCP proxy put in front of PostgreSQL (or any server) to break the network on
 * purpose: `cut()` is a partition (bytes go nowhere, sockets stay open), `reset()`
 * drops every connection at once (a restart or failover), `refuse()` turns new
 * connections away, `slow(ms)` delays every chunk, `heal()` brings it back.
 */
import net from 'node:net';

type Mode = 'pass' | 'cut' | 'refuse';

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
}

export class TcpProxy {
  private server: net.Server | undefined;
  private readonly pairs = new Set<Pair>();
  private mode: Mode = 'pass';
  private delayMs = 0;
  /** Bytes that arrived from the client while cut (what a partition swallowed). */
  swallowedBytes = 0;
  connections = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async listen(port = 0): Promise<number> {
    const server = net.createServer((client) => this.accept(client));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return (server.address() as net.AddressInfo).port;
  }

  get port(): number {
    return (this.server!.address() as net.AddressInfo).port;
  }

  get openConnections(): number {
    return this.pairs.size;
  }

  private accept(client: net.Socket): void {
    client.on('error', () => undefined);
    if (this.mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    this.connections += 1;
    const upstream = net.connect(this.target.port, this.target.host);
    upstream.on('error', () => undefined);
    const pair: Pair = { client, upstream };
    this.pairs.add(pair);
    const forget = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', forget);
    upstream.on('close', forget);
    this.pipe(client, upstream, true);
    this.pipe(upstream, client, false);
  }

  /** Forwards chunks in order, each after the current delay; drops them while cut. */
  private pipe(from: net.Socket, to: net.Socket, fromClient: boolean): void {
    let chain = Promise.resolve();
    from.on('data', (chunk: Buffer) => {
      if (this.mode === 'cut') {
        if (fromClient) this.swallowedBytes += chunk.length;
        return;
      }
      const delay = this.delayMs;
      chain = chain.then(async () => {
        if (delay > 0) await new Promise((r) => setTimeout(r, delay));
        if (this.mode === 'cut') return;
        if (!to.destroyed) to.write(chunk);
      });
    });
  }

  /** A partition: nothing gets through either way, and nobody is told. */
  cut(): void {
    this.mode = 'cut';
    this.swallowedBytes = 0;
  }

  /** Every open connection is reset (TCP RST), like a database restart; new ones go through. */
  reset(): void {
    for (const { client, upstream } of this.pairs) {
      client.resetAndDestroy();
      upstream.destroy();
    }
    this.pairs.clear();
  }

  /** New connections are refused (the database is down); open ones are reset. */
  refuse(): void {
    this.mode = 'refuse';
    this.reset();
  }

  slow(delayMs: number): void {
    this.delayMs = delayMs;
  }

  /** Back to normal. Connections that lived through a cut lost bytes: they are reset. */
  heal(): void {
    const wasCut = this.mode === 'cut';
    this.mode = 'pass';
    this.delayMs = 0;
    if (wasCut) this.reset();
  }

  async close(): Promise<void> {
    this.reset();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}
