/**
 * Helmet's security headers with a strict Content-Security-Policy (ARCHITECTURE §6)
 * on every response.
 *
 * Helmet chooses the headers; with no per-request nonce they are the same for every
 * response, so they are read once at start and set from that table. Running the
 * middleware on each request (the Fastify wrapper even rebuilt it and re-parsed the
 * policy every time) was about 6 % of the server's CPU per code check
 * (npm run bench -- checkin).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

const securityHeadersMiddleware = helmet({
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
      // Mantine sets inline style attributes.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      mediaSrc: ["'self'", 'blob:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
  // Logos and posters are embedded by the captures as same-origin images.
  crossOriginResourcePolicy: { policy: 'same-origin' },
});

/** The headers helmet sets, recorded from one run of its middleware. */
function recordHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  securityHeadersMiddleware(
    // helmet wants Node's request and response; it reads no request, and no more of a response than this.
    {} as IncomingMessage,
    response as unknown as ServerResponse,
    (error?: unknown) => {
      failure = error;
    },
  );
  if (failure || !headers['content-security-policy']) {
    throw new Error(`could not read helmet's security headers: ${String(failure ?? 'no CSP')}`);
  }
  return headers;
}

export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze(recordHeaders());

export function addSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    done();
  });
}
