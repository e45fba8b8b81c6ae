/**
 * The kiosk's calls (issue 29). They carry the tablet's device token
 * (`Authorization: Bearer kiosk_…`, localStorage `sesame.kioskToken`), never a staff session,
 * and the language on screen (the visitor's choice) in `Accept-Language`, so the server's
 * messages come back in it. A 401 on any of them (a revoked kiosk) calls the handler set by
 * the kiosk page, which forgets the token and shows the pairing screen with the server's words.
 */
import type {
  BadgePrint,
  DocumentToSign,
  HostCandidate,
  KioskCheckAnswer,
  KioskConfig,
  KioskExpected,
  KioskWalkInInput,
  PublicVisitorType,
  SignatureInput,
} from '@sesame/shared';
import { languageHeader } from '../../lib/language';
import type { KioskCheckKind } from './lib/offline-queue';

/** A walk-in filed: waiting for the host, let in at once (issue 31), or held (said as a welcome). */
export interface KioskWalkInSent {
  request_id: string;
  told: string | null;
  status: 'waiting' | 'let_in' | 'held';
}

export const TOKEN_KEY = 'sesame.kioskToken';
/** The kiosk's own settings (no visitor's data), so it opens on its welcome screen offline. */
export const CONFIG_KEY = 'sesame.kioskConfig';

export class KioskApiError extends Error {
  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    public readonly status: number,
    public readonly serverMessage: string | undefined,
    public readonly errors?: Record<string, string>,
  ) {
    super(serverMessage ?? (status === 0 ? 'network' : `HTTP ${status}`));
  }
}

export const statusOf = (error: unknown): number =>
  error instanceof KioskApiError ? error.status : 0;

const storage = () => (typeof localStorage === 'undefined' ? undefined : localStorage);

export const kioskToken = (): string | null => storage()?.getItem(TOKEN_KEY) ?? null;

export function forgetKiosk(): void {
  storage()?.removeItem(TOKEN_KEY);
  storage()?.removeItem(CONFIG_KEY);
}

export function storedConfig(): KioskConfig | null {
  try {
    const text = storage()?.getItem(CONFIG_KEY);
    return text ? (JSON.parse(text) as KioskConfig) : null;
  } catch {
    return null;
  }
}

export function storeConfig(config: KioskConfig): void {
  storage()?.setItem(CONFIG_KEY, JSON.stringify(config));
}

/** Whether the last call reached the server (the offline banner reads it with navigator.onLine). */
let reachable = true;
const reachListeners = new Set<() => void>();
function setReachable(value: boolean) {
  if (reachable === value) return;
  reachable = value;
  reachListeners.forEach((listener) => listener());
}
export const serverReachable = () => reachable;
export const onReachableChange = (listener: () => void) => {
  reachListeners.add(listener);
  return () => void reachListeners.delete(listener);
};

let onRefused: (message: string | undefined) => void = () => undefined;
/** What to do when the server refuses the device token (set by the kiosk page). */
export const whenRefused = (handler: (message: string | undefined) => void) => {
  onRefused = handler;
};

type Answer = 'json' | 'text';

async function call<T>(
  method: string,
  path: string,
  options: {
    body?: object;
    headers?: Record<string, string>;
    answer?: Answer;
    auth?: boolean;
  } = {},
): Promise<T> {
  const headers: Record<string, string> = {
    accept: options.answer === 'text' ? 'text/html' : 'application/json',
    ...languageHeader(),
    ...options.headers,
  };
  const token = kioskToken();
  if (options.auth !== false && token) headers.authorization = `Bearer ${token}`;
  if (options.body) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`/api/kiosk${path}`, {
      method,
      headers,
      body: options.body ? JSON.stringify(options.body) : undefined,
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    setReachable(false);
    throw new KioskApiError(0, undefined);
  }
  // A proxy's or the server's "unavailable" is not the network being back.
  setReachable(![502, 503, 504].includes(response.status));
  const text = await response.text();
  if (!response.ok) {
    let message: string | undefined;
    let errors: Record<string, string> | undefined;
    try {
      const body = JSON.parse(text) as { message?: unknown; errors?: Record<string, string> };
      message = typeof body.message === 'string' ? body.message : undefined;
      errors = body.errors;
    } catch {
      // Not our answer (a proxy's page): no message to show.
    }
    if (response.status === 401 && options.auth !== false) onRefused(message);
    throw new KioskApiError(response.status, message, errors);
  }
  if (options.answer === 'text') return text as T;
  return (text ? JSON.parse(text) : undefined) as T;
}

const q = (value: string) => encodeURIComponent(value);

export const kioskApi = {
  pair: (code: string) =>
    call<{ token: string; kiosk: KioskConfig }>('POST', '/pair', { body: { code }, auth: false }),
  me: () => call<{ data: KioskConfig }>('GET', '/me').then((r) => r.data),
  expected: (search: string) =>
    call<{ data: KioskExpected[] }>('GET', `/expected?q=${q(search)}`).then((r) => r.data),
  hosts: (search: string) =>
    call<{ data: HostCandidate[] }>('GET', `/hosts?q=${q(search)}`).then((r) => r.data),
  /** Issue 31: `signatures`, the documents `to_sign` of the visit, signed (check-in only). */
  check: (
    kind: KioskCheckKind,
    who: { request_id: string } | { code: string },
    key: string,
    signatures?: SignatureInput[],
  ) =>
    call<{ data: KioskCheckAnswer }>('POST', `/${kind}`, {
      body: signatures?.length ? { ...who, signatures } : who,
      headers: { 'idempotency-key': key },
    }).then((r) => r.data),
  /** The site's visitor types, in order (issue 31: the walk-in's first step). */
  visitorTypes: () =>
    call<{ data: PublicVisitorType[] }>('GET', '/visitor-types').then((r) => r.data),
  /** The documents a visit found by name or code must still sign before its check-in. */
  toSign: (
    who:
      | { request_id: string }
      | { code: string }
      | { visitor_type_id: string; email: string; language: string },
  ) =>
    call<{ data: { to_sign: DocumentToSign[] } }>(
      'GET',
      'request_id' in who
        ? `/to-sign?request_id=${q(who.request_id)}`
        : 'code' in who
          ? `/to-sign?code=${q(who.code)}`
          : `/to-sign?visitor_type_id=${q(who.visitor_type_id)}&email=${q(who.email)}&language=${q(who.language)}`,
    ).then((r) => r.data.to_sign),
  walkIn: (input: KioskWalkInInput) =>
    call<{ data: KioskWalkInSent }>('POST', '/walk-ins', {
      body: input,
    }).then((r) => r.data),
  walkInStatus: (requestId: string) =>
    call<{ data: { status: 'waiting' | 'accepted' | 'declined' } }>(
      'GET',
      `/walk-ins/${q(requestId)}`,
    ).then((r) => r.data.status),
  /** The host did not answer in time: the site's front desk is sent the request too. */
  tellFrontDesk: (requestId: string) =>
    call<{ data: { told: number } }>('POST', `/walk-ins/${q(requestId)}/front-desk`).then(
      (r) => r.data.told,
    ),
  badgeHtml: (requestId: string) =>
    call<string>('GET', `/badges/${q(requestId)}`, { answer: 'text' }),
  recordPrint: (requestId: string, via: 'ipp' | 'browser') =>
    call<{ message: string; data: BadgePrint }>('POST', `/badges/${q(requestId)}/print`, {
      body: { via },
    }),
};
