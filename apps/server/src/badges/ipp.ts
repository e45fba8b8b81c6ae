/**
 * Sends a badge's PDF to an IPP Everywhere / AirPrint printer (issue 29, printing tier 2):
 * one Print-Job request (IPP/2.0 over HTTP, RFC 8010/8011), the message built and the answer
 * read with the `ipp` package, the HTTP done here with a timeout. A printer that does not
 * answer is a 502 `badge.printerUnreachable`, one that answers with an error a 502
 * `badge.printerRefused` naming its status: never a 500, and the caller records nothing.
 *
 * Addresses: `ipp://host[:port]/path` (port 631 by default, plain HTTP), `ipps://` (TLS, 631),
 * and `http(s)://` as they are.
 */
import ipp from 'ipp';
import { HttpError } from '../errors';

export interface PrintJob {
  /** The printer's address, as set on the kiosk or the site. */
  printerUrl: string;
  pdf: Uint8Array;
  jobName: string;
  /** Who asks (`requesting-user-name`): a kiosk's or a staff member's name, ASCII. */
  userName: string;
  /** The label, in millimetres: sent as `media-col` when the printer takes it. */
  media?: { widthMm: number; heightMm: number };
  timeoutMs?: number;
}

export interface PrintResult {
  jobId: number | null;
  /** The IPP status the printer answered (`successful-ok`, `successful-ok-ignored-…`). */
  status: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** Where to POST and the `printer-uri` to name, for an address a site or a kiosk holds. */
export function ippTarget(printerUrl: string): { httpUrl: string; printerUri: string } {
  const url = new URL(printerUrl);
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  const secure = scheme === 'ipps' || scheme === 'https';
  const defaultPort = scheme === 'ipp' || scheme === 'ipps' ? '631' : secure ? '443' : '80';
  const port = url.port || defaultPort;
  const path = url.pathname && url.pathname !== '' ? url.pathname : '/';
  const host =
    url.hostname.includes(':') && !url.hostname.startsWith('[')
      ? `[${url.hostname}]`
      : url.hostname;
  return {
    httpUrl: `${secure ? 'https' : 'http'}://${host}:${port}${path}`,
    printerUri: `${secure ? 'ipps' : 'ipp'}://${host}:${port}${path}`,
  };
}

/** A name IPP carries as a plain keyword-ish string: ASCII letters, digits and a few marks. */
const asciiName = (value: string) =>
  value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, 127) || 'sesame';

const unreachable = (printer: string) =>
  new HttpError(502, (m) => m.badge.printerUnreachable(printer));
const refused = (printer: string, reason: string) =>
  new HttpError(502, (m) => m.badge.printerRefused(printer, reason));

interface IppAnswer {
  statusCode?: string;
  'job-attributes-tag'?: { 'job-id'?: number };
}

async function postIpp(
  httpUrl: string,
  body: Buffer,
  printer: string,
  timeoutMs: number,
): Promise<IppAnswer> {
  let response: Response;
  try {
    response = await fetch(httpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/ipp' },
      body: new Uint8Array(body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
  } catch {
    throw unreachable(printer);
  }
  let bytes: Buffer;
  try {
    bytes = Buffer.from(await response.arrayBuffer());
  } catch {
    throw unreachable(printer);
  }
  if (response.status !== 200) throw refused(printer, `HTTP ${response.status}`);
  try {
    // The ipp package's types stop at its own loose message shape; IppAnswer is the part read.
    return ipp.parse(bytes) as unknown as IppAnswer;
  } catch {
    throw refused(printer, 'not an IPP answer');
  }
}

function printJobMessage(job: PrintJob, printerUri: string, withMedia: boolean) {
  return {
    version: '2.0',
    operation: 'Print-Job',
    id: Math.floor(Math.random() * 0x7fffffff) + 1,
    'operation-attributes-tag': {
      'attributes-charset': 'utf-8',
      'attributes-natural-language': 'en',
      'printer-uri': printerUri,
      'requesting-user-name': asciiName(job.userName),
      'job-name': asciiName(job.jobName),
      'document-format': 'application/pdf',
    },
    ...(withMedia && job.media
      ? {
          'job-attributes-tag': {
            'media-col': {
              'media-size': {
                // Hundredths of a millimetre (PWG 5100.7).
                'x-dimension': Math.round(job.media.widthMm * 100),
                'y-dimension': Math.round(job.media.heightMm * 100),
              },
            },
          },
        }
      : {}),
    data: Buffer.from(job.pdf),
  };
}

/** How long to wait before asking a busy printer again. */
const BUSY_RETRY_MS = 500;

/**
 * Prints `job.pdf` (Print-Job). A printer that refuses the label's size as a job attribute
 * (`client-error-attributes-or-values-not-supported`) is asked once more without it: the
 * PDF's own page size still says it. A printer busy with another job (`server-error-busy`)
 * is asked again until the timeout.
 */
export async function printPdf(job: PrintJob): Promise<PrintResult> {
  const printer = job.printerUrl;
  let target: ReturnType<typeof ippTarget>;
  try {
    target = ippTarget(printer);
  } catch {
    throw unreachable(printer);
  }
  const deadline = Date.now() + (job.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let withMedia = job.media !== undefined;
  for (;;) {
    let body: Buffer;
    try {
      body = ipp.serialize(printJobMessage(job, target.printerUri, withMedia));
    } catch {
      throw refused(printer, 'request not serialisable');
    }
    const left = deadline - Date.now();
    if (left <= 0) throw unreachable(printer);
    const answer = await postIpp(target.httpUrl, body, printer, left);
    const status = String(answer.statusCode ?? 'unknown');
    if (status.startsWith('successful')) {
      const jobId = answer['job-attributes-tag']?.['job-id'];
      return { jobId: typeof jobId === 'number' ? jobId : null, status };
    }
    if (withMedia && status === 'client-error-attributes-or-values-not-supported') {
      withMedia = false;
      continue;
    }
    if (status === 'server-error-busy' && deadline - Date.now() > BUSY_RETRY_MS) {
      await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
      continue;
    }
    throw refused(printer, status);
  }
}
