import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { API_MESSAGES } from '@sesame/shared';
import { ApiError } from '../../../lib/api-client';
import { useUserMessageText } from './UserForm';

export interface Feedback {
  color: 'teal' | 'red';
  title: string;
  detail?: string;
}

const SPEC_STATUSES = [200, 201, 400, 401, 403, 404, 409, 500];
const GENERIC = new Set<string>(Object.values(API_MESSAGES));

/** Spec §8 User creation: the status-dependent text, and the server's own words when they add something. */
export function useUserFailure() {
  const { t } = useTranslation('users');
  const messageText = useUserMessageText();
  return (error: unknown): { feedback: Feedback; fieldErrors: Record<string, string> } => {
    if (!(error instanceof ApiError) || error.status === 0) {
      const message = error instanceof Error && error.message !== 'network' ? error.message : '';
      return {
        feedback: {
          color: 'red',
          title: t('status.failure', { message: message || t('status.failureFallback') }),
        },
        fieldErrors: {},
      };
    }
    const fieldErrors: Record<string, string> = {};
    for (const [field, message] of Object.entries(error.errors ?? {})) {
      fieldErrors[field] = messageText(message, field);
    }
    const title = SPEC_STATUSES.includes(error.status)
      ? t(`status.${error.status}`)
      : t('status.other', { status: error.status });
    const specific =
      !error.message.startsWith('HTTP ') && !GENERIC.has(error.message) && error.status !== 409;
    return {
      feedback: { color: 'red', title, detail: specific ? messageText(error.message) : undefined },
      fieldErrors,
    };
  };
}

export function FeedbackAlert({ feedback }: { feedback: Feedback | null }) {
  if (!feedback) return null;
  return (
    <Alert
      color={feedback.color}
      title={feedback.title}
      role={feedback.color === 'red' ? 'alert' : 'status'}
    >
      {feedback.detail}
    </Alert>
  );
}
