/**
 * A staff list page whose records are created and edited in a form opened in place, above
 * the table (sites, kiosks): which form is open, and what the server answered its last
 * save. A failed save says why under the form and answers the fields' errors for it
 * (`saveWithFeedback`, which any form saying its outcome under it shares).
 */
import { useState } from 'react';
import { notifications } from '@mantine/notifications';
import type { Feedback } from '../components/FeedbackAlert';
import { ApiError, serverMessageOf } from './api-client';
import { specificMessage } from './failure';
import type { TFunction } from './i18n';

export type Editing<T> = { mode: 'create' } | { mode: 'edit'; record: T } | null;

export function useInlineEdit<T extends { id: string }, Input>(options: {
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

  const submit = (input: Input): Promise<Record<string, string> | undefined> =>
    saveWithFeedback(
      async () => {
        await options.save(input, editing);
        setEditing(null);
      },
      { t, setFeedback },
    );

  const openCreate = () => open({ mode: 'create' });
  const record = editing?.mode === 'edit' ? editing.record : undefined;

  return {
    editing,
    feedback,
    open,
    openCreate,
    openEdit: (row: T) => open({ mode: 'edit', record: row }),
    close: () => setEditing(null),
    submit,
    /** The record the open form edits; none when it creates one. */
    record,
    /** The open form's React key: a form per record, its values its own. */
    formKey: record?.id ?? 'new',
    /** The list header's create button, hidden while a form is open. */
    createAction: (label: string) => (editing ? undefined : { label, onClick: openCreate }),
  };
}

/**
 * A form's save and what is said under the form (a list page's form, a panel's, a settings
 * page's): the last answer is cleared, `save` runs; when it throws, `setFeedback` says why —
 * the server's words, else the page's `saveFailed` (no answer) or `saveFailedStatus` — and
 * the refusal's field errors are answered for the form to show under each field (then the
 * alert does not repeat them in its detail).
 */
export async function saveWithFeedback(
  save: () => Promise<void>,
  options: {
    t: TFunction;
    setFeedback: (feedback: Feedback | null) => void;
    /** The refusal's errors by field; the server's `errors` as they came by default. */
    fieldErrors?: (error: unknown) => Record<string, string> | undefined;
    /** The page's keys when they are not `saveFailed` and `saveFailedStatus`. */
    keys?: { failed: string; failedStatus: string };
  },
): Promise<Record<string, string> | undefined> {
  const { t, setFeedback } = options;
  setFeedback(null);
  try {
    await save();
    return undefined;
  } catch (error) {
    const fields = options.fieldErrors
      ? options.fieldErrors(error)
      : error instanceof ApiError
        ? error.errors
        : undefined;
    setFeedback({
      color: 'red',
      title: saveFailedTitle(error, t, options.keys),
      detail: fields ? undefined : specificMessage(error),
    });
    return fields;
  }
}

/** A failed save's title: no answer, the page's `saveFailed`; else the server's words or the status. */
export function saveFailedTitle(
  error: unknown,
  t: TFunction,
  keys?: { failed: string; failedStatus: string },
): string {
  const status = error instanceof ApiError ? error.status : 0;
  return status === 0
    ? t(keys?.failed ?? 'saveFailed')
    : (serverMessageOf(error) ?? t(keys?.failedStatus ?? 'saveFailedStatus', { status }));
}

/** A row action's toasts: the server's words when it gave some, else the page's. */
export function toastDone(answer: { message?: string }, fallback: string): void {
  notifications.show({ color: 'teal', message: answer.message ?? fallback });
}

export function toastFailed(error: unknown, fallback: string): void {
  notifications.show({ color: 'red', message: serverMessageOf(error) ?? fallback });
}
