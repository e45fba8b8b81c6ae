/**
 * A staff list page whose records are created and edited in a form opened in place, above
 * the table (sites, kiosks): which form is open, and what the server answered its last
 * save. A failed save says why under the form and answers the fields' errors for it.
 */
import { useState } from 'react';
import { notifications } from '@mantine/notifications';
import type { Feedback } from '../components/FeedbackAlert';
import { ApiError, serverMessageOf } from './api-client';
import { specificMessage } from './failure';
import type { TFunction } from './i18n';

export type Editing<T> = { mode: 'create' } | { mode: 'edit'; record: T } | null;

export function useInlineEdit<T, Input>(options: {
  /** The page's words: its `saveFailed` and `saveFailedStatus`. */
  t: TFunction;
  /** Creates or updates (as `editing` says), then refreshes the list; throws when refused. */
  save: (input: Input, editing: Editing<T>) => Promise<void>;
  /** What else goes as a form opens or closes. */
  onOpen?: () => void;
}) {
  const { t } = options;
  const [editing, setEditing] = useState<Editing<T>>(null);
  const [feedback, setFeedback] = useState<Feedback | null>(null);

  const open = (next: Editing<T>) => {
    setFeedback(null);
    options.onOpen?.();
    setEditing(next);
  };

  const submit = async (input: Input): Promise<Record<string, string> | undefined> => {
    setFeedback(null);
    try {
      await options.save(input, editing);
      setEditing(null);
      return undefined;
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      setFeedback({
        color: 'red',
        title:
          status === 0
            ? t('saveFailed')
            : (serverMessageOf(error) ?? t('saveFailedStatus', { status })),
        detail: error instanceof ApiError && error.errors ? undefined : specificMessage(error),
      });
      return error instanceof ApiError ? error.errors : undefined;
    }
  };

  return { editing, feedback, open, close: () => setEditing(null), submit };
}

/** A row action's toasts: the server's words when it gave some, else the page's. */
export function toastDone(answer: { message?: string }, fallback: string): void {
  notifications.show({ color: 'teal', message: answer.message ?? fallback });
}

export function toastFailed(error: unknown, fallback: string): void {
  notifications.show({ color: 'red', message: serverMessageOf(error) ?? fallback });
}
