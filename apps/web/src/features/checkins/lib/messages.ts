import type { TFunction } from '../../../lib/translator';
import { ApiError } from '../../../lib/api-client';

/** Spec §8 scan: the server's message, else the error's, else 'Request failed'. */
export function scanFailureText(error: unknown, t: TFunction): string {
  if (error instanceof ApiError) return error.serverMessage ?? t('scan.requestFailed');
  if (error instanceof Error && error.message) return error.message;
  return t('scan.requestFailed');
}
