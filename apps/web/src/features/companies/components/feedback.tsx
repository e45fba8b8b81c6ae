import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { API_MESSAGES } from '@sesame/shared';
import { ApiError } from '../../../lib/api-client';
import { useCompanyMessageText } from './CompanyForm';

export interface Feedback {
  color: 'teal' | 'red';
  title: string;
  detail?: string;
}

const SPEC_STATUSES = [400, 401, 403, 404, 500];
const GENERIC = new Set<string>(Object.values(API_MESSAGES));

/**
 * Spec §8 company create and update: the status-dependent text; a refused logo (413,
 * 415) in the server's words, on the logo field; 'Une erreur est survenue lors de
 * l'enregistrement de l'entreprise.' when the server cannot be reached.
 */
export function useCompanyFailure() {
  const { t } = useTranslation('companies');
  const messageText = useCompanyMessageText();
  return (error: unknown): { feedback: Feedback; fieldErrors: Record<string, string> } => {
    if (!(error instanceof ApiError) || error.status === 0) {
      return { feedback: { color: 'red', title: t('status.saveFailed') }, fieldErrors: {} };
    }
    const fieldErrors: Record<string, string> = {};
    for (const [field, message] of Object.entries(error.errors ?? {})) {
      fieldErrors[field] = messageText(message, field);
    }
    const serverText = error.message.startsWith('HTTP ') ? '' : messageText(error.message);
    if (error.status === 413 || error.status === 415) {
      fieldErrors.logo = serverText || t('status.other', { status: error.status });
      return { feedback: { color: 'red', title: fieldErrors.logo }, fieldErrors };
    }
    const title = SPEC_STATUSES.includes(error.status)
      ? t(`status.${error.status}`)
      : t('status.other', { status: error.status });
    const specific = serverText && !GENERIC.has(error.message) ? serverText : undefined;
    return { feedback: { color: 'red', title, detail: specific }, fieldErrors };
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
