import { useTranslation } from '../../../lib/i18n';
import type { SaveFailure } from '../../../lib/use-save';
import { ApiError } from '../../../lib/api-client';
import { specificMessage, statusSentence } from '../../../lib/failure';

const SPEC_STATUSES = [200, 201, 400, 401, 403, 404, 409, 500];

/** Spec §8 User creation: the status-dependent text, and the server's own words when they add something. */
export function useUserFailure() {
  const { t } = useTranslation('users');
  return (error: unknown): SaveFailure => {
    if (!(error instanceof ApiError) || error.status === 0) {
      const message = error instanceof Error && !(error instanceof ApiError) ? error.message : '';
      return {
        feedback: {
          color: 'red',
          title: t('status.failure', { message: message || t('status.failureFallback') }),
        },
        fieldErrors: {},
      };
    }
    // 409 is the spec's own sentence already.
    const detail = error.status === 409 ? undefined : specificMessage(error);
    return {
      feedback: {
        color: 'red',
        title: statusSentence(t, 'status', SPEC_STATUSES, error.status),
        detail,
      },
      fieldErrors: error.errors ?? {},
    };
  };
}
