/**
 * Issue 34's webhook tests: a receiver (node:http) that records what arrives, and the
 * Standard Webhooks verification written here from the specification, apart from the
 * server's own signing code, so a test checks the server against the specification.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  contentType: string;
  raw: string;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
  /** The status this receiver answered. */
  answered: number;
}

/**
 * A receiver on 127.0.0.1: records every POST; `answer` gives a path's status (200 by
 * default), `delayMs` a path's wait before answering, `bigAnswer` a path answered with
 * that many bytes. `stop()` closes it (connections refused), `restart()` listens again on
 * the same port. `connections()` counts every TCP connection it accepted, answered or not.
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const answer = new Map<string, number>();
  const delayMs = new Map<string, number>();
  const bigAnswer = new Map<string, number>();
  let connections = 0;
  let server: http.Server | undefined;
  let port = 0;

  const handler: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const status = answer.get(path) ?? 200;
      const reply = () => {
        received.push({
          path,
          id: String(req.headers['webhook-id']),
          timestamp: String(req.headers['webhook-timestamp']),
          signature: String(req.headers['webhook-signature']),
          contentType: String(req.headers['content-type']),
          raw,
          body: JSON.parse(raw),
          answered: status,
        });
        res.writeHead(status, { 'content-type': 'text/plain' });
        const big = bigAnswer.get(path);
        res.end(big ? 'x'.repeat(big) : status === 200 ? 'ok' : `status ${status}`);
      };
      const wait = delayMs.get(path);
      if (wait) setTimeout(reply, wait).unref();
      else reply();
    });
  };

  const listen = async () => {
    server = http.createServer(handler);
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  };
  const stop = async () => {
    if (!server) return;
    const closing = server;
    server = undefined;
    closing.closeAllConnections();
    await new Promise<void>((resolve) => closing.close(() => resolve()));
  };

  await listen();
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    received,
    answer,
    delayMs,
    bigAnswer,
    at: (path: string) => received.filter((r) => r.path === path),
    connections: () => connections,
    stop,
    restart: listen,
    close: stop,
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/**
 * Standard Webhooks' verification: the key is the base64 after `whsec_`; the signed content
 * `${webhook-id}.${webhook-timestamp}.${body}`; HMAC-SHA256 in base64; the header holds
 * space-separated `v1,<signature>` entries, one of which must match.
 */
export function verifiesStandardWebhook(secret: string, message: ReceivedWebhook): boolean {
  if (!secret.startsWith('whsec_')) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${message.id}.${message.timestamp}.${message.raw}`)
    .digest();
  return message.signature.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
