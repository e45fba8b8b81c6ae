/**
 * The code check calls (spec §7): a visitor's code, a QR user's or member's code,
 * and the kiosk's e-mail code. Each call changes a person's state on the server,
 * so screens call them once, as mutations, never as queries that refetch.
 */
import { useQuery } from '@tanstack/react-query';
import { MANUAL_CHECK_TYPE, type CheckResult, type KioskCheckResult } from '@sesame/shared';
import { api, ApiError } from '../../../lib/api-client';

export type CodeKind = 'visitor' | 'user';

const CHECK_PATHS: Record<CodeKind, string> = {
  visitor: '/get-qr-data',
  user: '/get-qr-user-data',
};

/**
 * `key` (Idempotency-Key) makes a retry safe: the server answers a repeated key
 * with its first answer instead of toggling again (the offline queue's retries).
 * `site` (issue 28) is the desk's site, the header's choice: a QR user's or member's
 * check is recorded there, a visitor of another site is refused. Not given (all
 * sites): the scanner's home site, else the company's main site.
 */
export function checkCode(
  kind: CodeKind,
  uidn: string,
  manual = false,
  key?: string,
  site?: string,
): Promise<CheckResult> {
  const params = new URLSearchParams();
  if (manual) params.set('type', String(MANUAL_CHECK_TYPE));
  if (site) params.set('site', site);
  const query = params.toString() ? `?${params.toString()}` : '';
  return api.get<CheckResult>(
    `${CHECK_PATHS[kind]}/${encodeURIComponent(uidn)}${query}`,
    key ? { 'idempotency-key': key } : undefined,
  );
}

/**
 * A code typed by hand may be a visitor's or a member's: the visitor's check is
 * tried first, and a member's when no visitor holds that code.
 */
export async function checkTypedCode(uidn: string, site?: string): Promise<CheckResult> {
  try {
    return await checkCode('visitor', uidn, true, undefined, site);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404)
      return checkCode('user', uidn, true, undefined, site);
    throw error;
  }
}

/** The kiosk's e-mail check: the answer carries the person's photo for the agent to compare. */
export function checkByEmail(email: string, site?: string): Promise<KioskCheckResult> {
  return api.post<KioskCheckResult>('/kiosk/check', site ? { email, site } : { email });
}

export interface Presence {
  firstname: string;
  lastname: string;
  image: string | null;
  company: { name: string; slug: string };
  /** Newest first: the history for the company's staff, the latest check alone for anyone else. */
  checks: { check_in_time: string; check_out_time: string | null }[];
}

const PRESENCE_PATHS: Record<CodeKind, string> = {
  visitor: '/visitorLog-checkIn',
  user: '/userLog-checkIn',
};

/** A code's card, its photo and history (staff only) and latest check: the thank-you pages. */
export function usePresence(kind: CodeKind, uidn: string) {
  return useQuery({
    queryKey: ['presence', kind, uidn],
    queryFn: () =>
      api
        .get<{ data: Presence }>(`${PRESENCE_PATHS[kind]}/${encodeURIComponent(uidn)}`)
        .then((r) => r.data),
    retry: false,
  });
}
