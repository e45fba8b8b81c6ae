/**
 * A staff form's save: on success the banner says `success` (and a toast `toast`),
 * then the page goes to `then` after the delay; a failure shows the screen's words
 * for it (`failure`) and answers the fields' messages for the form to show.
 * One save at a time (issue 17): a submit while one runs, or once saved (the page is
 * about to leave), sends nothing.
 */
import { useRef, useState } from 'react';
import { notifications } from '@mantine/notifications';
import type { Feedback } from '../components/FeedbackAlert';
import { useDelayedNavigate } from './use-delayed-navigate';

export interface SaveFailure {
  feedback: Feedback;
  fieldErrors: Record<string, string>;
}

/** A save in progress or done, as a form shows it (its banner, its state, its submit). */
export interface Save<Body> {
  feedback: Feedback | null;
  /** Saved: the page is about to go elsewhere; the form stays disabled. */
  saved: boolean;
  /** Sends; answers the server's field errors, if any. */
  submit: (body: Body) => Promise<Record<string, string> | undefined>;
}

export function useSave<Body, Result = unknown>(
  save: (body: Body) => Promise<Result>,
  failure: (error: unknown) => SaveFailure,
  options: {
    success: string;
    toast?: string;
    /** Where to go once saved (the record's own page: from what the server answered). */
    then: string | ((result: Result) => string);
    delayMs?: number;
    /** Where to go after the delay when the save failed this way (a 401: sign in again). */
    goneAfter?: (error: unknown) => string | undefined;
  },
): Save<Body> {
  const navigateLater = useDelayedNavigate(options.delayMs);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  /** 'saving' while the call runs, 'saved' once it succeeded: both refuse another send. */
  const state = useRef<'idle' | 'saving' | 'saved'>('idle');

  const submit = async (body: Body): Promise<Record<string, string> | undefined> => {
    if (state.current !== 'idle') return undefined;
    state.current = 'saving';
    setFeedback(null);
    try {
      const result = await save(body);
      state.current = 'saved';
      setFeedback({ color: 'teal', title: options.success });
      notifications.show({ message: options.toast ?? options.success, color: 'teal' });
      navigateLater(typeof options.then === 'function' ? options.then(result) : options.then);
      return undefined;
    } catch (error) {
      state.current = 'idle';
      const { feedback: next, fieldErrors } = failure(error);
      setFeedback(next);
      const elsewhere = options.goneAfter?.(error);
      if (elsewhere) navigateLater(elsewhere);
      return fieldErrors;
    }
  };

  return { feedback, saved: feedback?.color === 'teal', submit };
}
