/**
 * One POST to a URL a company typed (issue 34): a webhook receiver, a Slack or Teams
 * webhook, Slack's API. Such a URL may aim at Sésame's own network (SSRF), so unless the
 * operator allows it (WEBHOOK_ALLOW_PRIVATE=1) the address is checked where it matters:
 *   - https only;
 *   - the name is resolved by our own `lookup`, and every address it gives must be public
 *     (not loopback, private, link-local, carrier-grade NAT, multicast, reserved...). The
 *     connection uses the address just checked, so a name that changes its answer between
 *     a check and the connection (DNS rebinding) gains nothing;
 *   - no redirect is followed.
 * Then a 5 s timeout for the whole attempt and at most 64 KB of the answer read.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { WEBHOOK_LIMITS } from '@sesame/shared';

/** Addresses no company's URL may reach: RFC 6890's special-purpose blocks, both families. */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address (v4 or v6) is one a company's URL may not reach. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  // An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return FORBIDDEN.check(mapped[1], 'ipv4');
  return FORBIDDEN.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why a URL was not posted to, before any byte left: the screens say it in a sentence. */
export type Refusal = 'not_https' | 'private_address' | 'invalid_url';

export class RefusedDestination extends Error {
  constructor(readonly refusal: Refusal) {
    super(`destination refused: ${refusal}`);
  }
}

/**
 * The URL's own check, before resolving: its scheme, and a literal address in it. The
 * screens call it when a URL is saved; `safePost` calls it again at each send.
 */
export function destinationRefusal(url: string, allowPrivate: boolean): Refusal | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'invalid_url';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'invalid_url';
  if (allowPrivate) return null;
  if (parsed.protocol !== 'https:') return 'not_https';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && isForbiddenAddress(host)) return 'private_address';
  if (host === 'localhost' || host.endsWith('.localhost')) return 'private_address';
  return null;
}

/** Resolves a name to all its addresses (node:dns's lookup; a test gives its own). */
export type Resolver = (
  hostname: string,
  options: { all: true; family?: number | string },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** A `lookup` that answers only public addresses, else fails the connection. */
const publicOnlyLookup =
  (resolve: Resolver): LookupFunction =>
  (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, list) => {
      if (error) return callback(error, '', 0);
      if (list.length === 0 || list.some((a) => isForbiddenAddress(a.address))) {
        return callback(new RefusedDestination('private_address'), '', 0);
      }
      // Node's lookup options and callback differ with `all`; this lookup answers both forms.
      if ((options as { all?: boolean }).all) {
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      }
      // The list was checked not to be empty just above.
      const first = list[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };

export interface PostResult {
  /** The HTTP status; null when no answer came (refused, unreachable, timed out). */
  status: number | null;
  /** The answer's first bytes (at most WEBHOOK_LIMITS.answerReadBytes), or why it failed. */
  body: string;
  /** Set when the destination was refused before anything was sent. */
  refusal?: Refusal;
}

export interface PostOptions {
  headers?: Record<string, string>;
  allowPrivate: boolean;
  timeoutMs?: number;
  /** How names are resolved: node:dns unless a test names its own. */
  resolve?: Resolver;
}

/** POSTs `body` to `url` under the rules above. Never throws: the outcome says what happened. */
export function safePost(url: string, body: string, options: PostOptions): Promise<PostResult> {
  const refusal = destinationRefusal(url, options.allowPrivate);
  if (refusal) return Promise.resolve({ status: null, body: refusal, refusal });
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_LIMITS.timeoutMs;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Sesame-Webhooks/1',
          ...options.headers,
        },
        // A fresh connection each time, resolved by the check above: no pooled socket to
        // an address a later answer of the name would no longer give.
        agent: false,
        // dns.lookup's overloads include the `all: true` form Resolver names.
        ...(options.allowPrivate
          ? {}
          : { lookup: publicOnlyLookup(options.resolve ?? (dnsLookup as unknown as Resolver)) }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          if (read >= WEBHOOK_LIMITS.answerReadBytes) return;
          const part = chunk.subarray(0, WEBHOOK_LIMITS.answerReadBytes - read);
          chunks.push(part);
          read += part.length;
          if (read >= WEBHOOK_LIMITS.answerReadBytes) {
            finish({
              status: response.statusCode ?? null,
              body: Buffer.concat(chunks).toString('utf8'),
            });
            response.destroy();
          }
        });
        response.on('end', () =>
          finish({
            status: response.statusCode ?? null,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', (error) =>
          finish({ status: response.statusCode ?? null, body: error.message }),
        );
      },
    );
    const timer = setTimeout(() => {
      request.destroy(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    request.on('error', (error) => {
      if (error instanceof RefusedDestination) {
        finish({ status: null, body: error.refusal, refusal: error.refusal });
      } else {
        finish({ status: null, body: error.message });
      }
    });
    request.end(body);
  });
}
