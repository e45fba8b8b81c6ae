/**
 * Slack's Web API as the chat worker uses it (issue 34), with the company's bot token: find
 * the host by their e-mail (`users.lookupByEmail`, a form-encoded call as Slack's docs give
 * it), then a direct message to them (`chat.postMessage` with `channel` = their user id, a
 * JSON body). Slack answers most failures with HTTP 200 and `{ ok: false, error }`: those
 * are failures too. Every call goes through safePost (the operator's SLACK_API_URL is a URL
 * like any other).
 */
import { safePost } from '../webhooks/safe-post';

/** Slack's errors worth a later attempt; any other says the token or the person will not do. */
const TRANSIENT_ERRORS = new Set([
  'ratelimited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
]);

type Call =
  { ok: true; data: Record<string, unknown> } | { ok: false; retry: boolean; reason: string };

async function call(
  options: { apiUrl: string; token: string; allowPrivate: boolean },
  method: string,
  body: string,
  contentType: string,
): Promise<Call> {
  const result = await safePost(`${options.apiUrl}/${method}`, body, {
    allowPrivate: options.allowPrivate,
    headers: { authorization: `Bearer ${options.token}`, 'content-type': contentType },
  });
  const reason = (what: string) => `slack ${method}: ${what}`;
  if (result.refusal) return { ok: false, retry: false, reason: reason(result.refusal) };
  if (result.status === null) return { ok: false, retry: true, reason: reason(result.body) };
  if (result.status === 429 || result.status >= 500) {
    return { ok: false, retry: true, reason: reason(`HTTP ${result.status}`) };
  }
  if (result.status !== 200) {
    return { ok: false, retry: false, reason: reason(`HTTP ${result.status}`) };
  }
  let data: Record<string, unknown>;
  try {
    // JSON.parse gives any: Slack answers an object, whose fields are each checked below.
    data = JSON.parse(result.body) as Record<string, unknown>;
  } catch {
    return { ok: false, retry: true, reason: reason('an answer that is not JSON') };
  }
  if (data.ok === true) return { ok: true, data };
  const error = typeof data.error === 'string' ? data.error : 'unknown_error';
  return { ok: false, retry: TRANSIENT_ERRORS.has(error), reason: reason(error) };
}

/**
 * What became of a direct message: sent; to be tried again later (Slack busy or out); or
 * not possible this way (no Slack user with that e-mail, a token refused): the channels then.
 */
export type DirectOutcome =
  { kind: 'sent' } | { kind: 'retry'; reason: string } | { kind: 'elsewhere'; reason: string };

export async function slackDirectMessage(
  options: { apiUrl: string; token: string; allowPrivate: boolean },
  email: string,
  body: { text: string; blocks: unknown[] },
): Promise<DirectOutcome> {
  const found = await call(
    options,
    'users.lookupByEmail',
    new URLSearchParams({ email }).toString(),
    'application/x-www-form-urlencoded',
  );
  if (!found.ok) return { kind: found.retry ? 'retry' : 'elsewhere', reason: found.reason };
  // Slack's user is an object or absent; its id is checked to be a string below.
  const user = found.data.user as { id?: unknown } | undefined;
  if (typeof user?.id !== 'string') {
    return { kind: 'elsewhere', reason: 'slack users.lookupByEmail: no user id' };
  }
  const posted = await call(
    options,
    'chat.postMessage',
    JSON.stringify({ channel: user.id, ...body, unfurl_links: false, unfurl_media: false }),
    'application/json; charset=utf-8',
  );
  if (!posted.ok) return { kind: posted.retry ? 'retry' : 'elsewhere', reason: posted.reason };
  return { kind: 'sent' };
}
