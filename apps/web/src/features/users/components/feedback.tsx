import { useState } from 'react';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import type { Feedback } from '../../../components/FeedbackAlert';
import { ApiError } from '../../../lib/api-client';
import { specificMessage, statusSentence } from '../../../lib/failure';
import { useDelayedNavigate } from '../../../lib/use-delayed-navigate';
import type { UserBody } from '../api/users';

const SPEC_STATUSES = [200, 201, 400, 401, 403, 404, 409, 500];

/** Spec §8 User creation: the status-dependent text, and the server's own words when they add something. */
export function useUserFailure() {
  const { t } = useTranslation('users');
  return (error: unknown): { feedback: Feedback; fieldErrors: Record<string, string> } => {
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

/**
 * Saves the user form: on success the banner says `success` and a toast `toast`,
 * then the page goes to `then` after `delayMs`; a failure says why and answers the
 * fields' messages for the form.
 */
export function useUserSave(
  save: (body: UserBody) => Promise<unknown>,
  options: { success: string; toast: string; then: string; delayMs?: number },
) {
  const failure = useUserFailure();
  const navigateLater = useDelayedNavigate(options.delayMs);
  const [feedback, setFeedback] = useState<Feedback | null>(null);

  const submit = async (body: UserBody): Promise<Record<string, string> | undefined> => {
    setFeedback(null);
    try {
      await save(body);
      setFeedback({ color: 'teal', title: options.success });
      notifications.show({ message: options.toast, color: 'teal' });
      navigateLater(options.then);
      return undefined;
    } catch (error) {
      const { feedback: next, fieldErrors } = failure(error);
      setFeedback(next);
      return fieldErrors;
    }
  };

  return { feedback, saved: feedback?.color === 'teal', submit };
}
