import { ApiError } from '../../lib/api-client';

/**
 * The server's refusal of the identity document (415: its bytes are no accepted type; 413:
 * too large) as the field's error, shown under it like the form's own checks (issue 27: it
 * was a bare 'Code : 415' toast); undefined for any other failure.
 */
export function documentRefusal(error: unknown): Record<string, string> | undefined {
  if (!(error instanceof ApiError) || (error.status !== 413 && error.status !== 415)) return;
  return error.serverMessage ? { request_image: error.serverMessage } : undefined;
}
