/**
 * HTTP for the cluster test, over node:http so that each simulated client has its own
 * source address on the loopback (127.0.0.x: Linux answers on the whole 127/8). haproxy
 * sees each desk, uploader or attacker as a different client and says so in the
 * X-Forwarded-For it appends; the instances (TRUST_PROXY=1) count their per-client
 * limits on it, as they would for real clients behind a real proxy.
 */
import http from 'node:http';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body read as JSON (undefined when it is not). */
  json<T>(): T | undefined;
}

export class Client {
  private readonly agent: http.Agent;

  constructor(
    readonly base: string,
    readonly localAddress?: string,
    readonly token?: string,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  }

  /** The same client (source address) speaking to another address, or as someone signed in. */
  with(options: { base?: string; token?: string }): Client {
    return new Client(options.base ?? this.base, this.localAddress, options.token ?? this.token);
  }

  request(
    method: string,
    path: string,
    options: { body?: Buffer | string; headers?: Record<string, string>; timeoutMs?: number } = {},
  ): Promise<Answer> {
    const url = new URL(path, this.base);
    const headers: Record<string, string> = { ...options.headers };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (options.body !== undefined)
      headers['content-length'] = String(Buffer.byteLength(options.body));
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          method,
          headers,
          agent: this.agent,
          ...(this.localAddress ? { localAddress: this.localAddress } : {}),
          timeout: options.timeoutMs ?? 10_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const body = Buffer.concat(chunks);
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body,
              json<T>() {
                try {
                  return JSON.parse(body.toString('utf8')) as T;
                } catch {
                  return undefined;
                }
              },
            });
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`timed out: ${method} ${path}`)));
      req.on('error', reject);
      if (options.body !== undefined) req.write(options.body);
      req.end();
    });
  }

  get(path: string, timeoutMs?: number): Promise<Answer> {
    return this.request('GET', path, timeoutMs ? { timeoutMs } : {});
  }

  sendJson(method: string, path: string, body: unknown): Promise<Answer> {
    return this.request(method, path, {
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
  }

  /** A multipart form as a browser sends it (the boundary and encoding from undici's own). */
  async sendForm(path: string, form: FormData): Promise<Answer> {
    const encoded = new Request('http://form.invalid/', { method: 'POST', body: form });
    const body = Buffer.from(await encoded.arrayBuffer());
    return this.request('POST', path, {
      body,
      headers: { 'content-type': encoded.headers.get('content-type')! },
      timeoutMs: 20_000,
    });
  }

  /**
   * A Server-Sent Events stream: `onEvent` gets each block's `event:` and `data:`; resolves
   * with the status once the answer starts (the stream then runs until `close()` or its end,
   * when `onEnd` is called once).
   */
  openStream(
    path: string,
    onEvent: (type: string, data: string | undefined) => void,
    onEnd: () => void,
  ): Promise<{ status: number; close: () => void }> {
    const url = new URL(path, this.base);
    return new Promise((resolve, reject) => {
      let ended = false;
      const end = () => {
        if (!ended) {
          ended = true;
          onEnd();
        }
      };
      const req = http.get(
        {
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          headers: {
            accept: 'text/event-stream',
            ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
          },
          // A stream holds its socket for its whole life: not the pooled agent's.
          agent: false,
          ...(this.localAddress ? { localAddress: this.localAddress } : {}),
        },
        (res) => {
          resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
          if (res.statusCode !== 200) {
            res.resume();
            res.on('end', end);
            return;
          }
          let buffer = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buffer += chunk;
            let cut;
            while ((cut = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              const type = /^event: (.*)$/m.exec(block)?.[1];
              if (type) onEvent(type, /^data: (.*)$/m.exec(block)?.[1]);
            }
          });
          res.on('end', end);
          res.on('close', end);
          res.on('error', end);
        },
      );
      req.on('error', (error) => {
        if (ended) return;
        reject(error);
        end();
      });
    });
  }
}
