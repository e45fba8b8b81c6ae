/**
 * Issue 29: the IPP sender of badges (src/badges/ipp.ts) against printers that misbehave,
 * played by a local HTTP server that reads each Print-Job as a printer would (the `ipp`
 * package's parser) and answers what the test says: the message it sends (operation, PDF
 * format, job and user names, the label as media-col, the document itself), a printer that
 * refuses the label's size (asked again without it), a busy one (asked again), an HTTP or IPP
 * error (502 printerRefused naming it), one that never answers (502 printerUnreachable after
 * the timeout), and an answer that is no IPP.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import ipp from 'ipp';
import { afterEach, describe, expect, it } from 'vitest';
import { FRENCH_MESSAGES as fr } from '@sesame/shared';
import { ippTarget, printPdf } from '../src/badges/ipp';
import { HttpError } from '../src/errors';

const PDF = new TextEncoder().encode('%PDF-1.7\n% a badge\n%%EOF\n');

interface Received {
  path: string;
  contentType: string | undefined;
  message: Record<string, unknown>;
  document: Buffer;
}

type Answer = (received: Received, index: number) => { status?: number; body: Buffer } | null;

/** An IPP response with `statusCode` (and a job id when successful). */
const ippAnswer = (statusCode: string, jobId = 7) =>
  ipp.serialize({
    version: '2.0',
    statusCode,
    id: 1,
    'operation-attributes-tag': {
      'attributes-charset': 'utf-8',
      'attributes-natural-language': 'en',
    },
    ...(statusCode.startsWith('successful') ? { 'job-attributes-tag': { 'job-id': jobId } } : {}),
  });

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A fake printer answering each request with `answer` (null: never answers). */
async function fakePrinter(answer: Answer) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const start = body.indexOf('%PDF');
      const entry: Received = {
        path: req.url ?? '',
        contentType: req.headers['content-type'],
        message: ipp.parse(body) as unknown as Record<string, unknown>,
        document: start >= 0 ? body.subarray(start) : Buffer.alloc(0),
      };
      received.push(entry);
      const reply = answer(entry, received.length - 1);
      if (!reply) return; // hangs
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/ipp' });
      res.end(reply.body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `ipp://127.0.0.1:${port}/ipp/print`, received };
}

const job = (printerUrl: string, extra: Partial<Parameters<typeof printPdf>[0]> = {}) => ({
  printerUrl,
  pdf: PDF,
  jobName: 'badge-1234abcd',
  userName: 'Sésame Borne du hall',
  media: { widthMm: 62, heightMm: 100 },
  ...extra,
});

/** The HttpError `promise` rejects with: its status and French message. */
async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  const http = error as HttpError;
  return { status: http.statusCode, message: http.say(fr) };
}

describe('IPP badge printing', () => {
  it('reads every form of printer address', () => {
    expect(ippTarget('ipp://192.168.1.20/ipp/print')).toEqual({
      httpUrl: 'http://192.168.1.20:631/ipp/print',
      printerUri: 'ipp://192.168.1.20:631/ipp/print',
    });
    expect(ippTarget('ipps://printer.local/ipp/print')).toEqual({
      httpUrl: 'https://printer.local:631/ipp/print',
      printerUri: 'ipps://printer.local:631/ipp/print',
    });
    expect(ippTarget('http://10.0.0.5:8631/printers/badges')).toEqual({
      httpUrl: 'http://10.0.0.5:8631/printers/badges',
      printerUri: 'ipp://10.0.0.5:8631/printers/badges',
    });
    expect(ippTarget('https://label.example.com')).toEqual({
      httpUrl: 'https://label.example.com:443/',
      printerUri: 'ipps://label.example.com:443/',
    });
  });

  it('sends one Print-Job: PDF, job and user names, the label as media-col, the document', async () => {
    const printer = await fakePrinter(() => ({ body: ippAnswer('successful-ok', 42) }));
    const result = await printPdf(job(printer.url));
    expect(result).toEqual({ jobId: 42, status: 'successful-ok' });
    expect(printer.received).toHaveLength(1);
    const [sent] = printer.received;
    expect(sent!.path).toBe('/ipp/print');
    expect(sent!.contentType).toBe('application/ipp');
    expect(sent!.message.operation).toBe('Print-Job');
    expect(sent!.message['operation-attributes-tag']).toMatchObject({
      'printer-uri': printer.url,
      'document-format': 'application/pdf',
      'job-name': 'badge-1234abcd',
      'requesting-user-name': 'Sesame Borne du hall',
    });
    expect(sent!.message['job-attributes-tag']).toMatchObject({
      'media-col': { 'media-size': { 'x-dimension': 6200, 'y-dimension': 10000 } },
    });
    expect(Buffer.compare(sent!.document, Buffer.from(PDF))).toBe(0);
  });

  it('a printer that refuses the label size is asked again without it; a busy one again later', async () => {
    const picky = await fakePrinter((_received, index) => ({
      body: ippAnswer(
        index === 0 ? 'client-error-attributes-or-values-not-supported' : 'successful-ok',
      ),
    }));
    expect((await printPdf(job(picky.url))).status).toBe('successful-ok');
    expect(picky.received).toHaveLength(2);
    expect(picky.received[0]!.message['job-attributes-tag']).toBeDefined();
    expect(picky.received[1]!.message['job-attributes-tag']).toBeUndefined();

    const busy = await fakePrinter((_received, index) => ({
      body: ippAnswer(index < 2 ? 'server-error-busy' : 'successful-ok'),
    }));
    expect((await printPdf(job(busy.url))).status).toBe('successful-ok');
    expect(busy.received).toHaveLength(3);
  });

  it("a printer's refusal is a 502 naming the printer and its reason", async () => {
    const refusing = await fakePrinter(() => ({
      body: ippAnswer('client-error-document-format-not-supported'),
    }));
    expect(await failure(printPdf(job(refusing.url)))).toEqual({
      status: 502,
      message: fr.badge.printerRefused(refusing.url, 'client-error-document-format-not-supported'),
    });

    const broken = await fakePrinter(() => ({ status: 500, body: Buffer.from('oops') }));
    expect(await failure(printPdf(job(broken.url)))).toEqual({
      status: 502,
      message: fr.badge.printerRefused(broken.url, 'HTTP 500'),
    });

    const notIpp = await fakePrinter(() => ({ body: Buffer.from([1]) }));
    expect((await failure(printPdf(job(notIpp.url)))).status).toBe(502);

    const stillBusy = await fakePrinter(() => ({ body: ippAnswer('server-error-busy') }));
    expect(await failure(printPdf(job(stillBusy.url, { timeoutMs: 1_200 })))).toEqual({
      status: 502,
      message: fr.badge.printerRefused(stillBusy.url, 'server-error-busy'),
    });
  });

  it('a printer that does not answer is a 502 printerUnreachable once the timeout passes', async () => {
    const silent = await fakePrinter(() => null);
    expect(await failure(printPdf(job(silent.url, { timeoutMs: 300 })))).toEqual({
      status: 502,
      message: fr.badge.printerUnreachable(silent.url),
    });
    expect(silent.received).toHaveLength(1);
  });
});
