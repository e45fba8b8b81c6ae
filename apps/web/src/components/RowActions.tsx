/**
 * A staff table's row actions (a site's, a kiosk's): small light buttons side by side,
 * each named for its row, the confirmation a lasting one asks first, and the action itself
 * (`useRecordAction`): its toasts and the list refreshed after.
 */
import type { ReactNode } from 'react';
import { Button, Group, Text, type MantineColor } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation } from '@tanstack/react-query';
import { toastDone, toastFailed } from '../lib/use-inline-edit';

export function RowActions({ children }: { children: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap">
      {children}
    </Group>
  );
}

/** `ariaLabel` names the row ('Modifier Siège'): the visible word alone repeats down the table. */
export function RowButton(props: {
  label: string;
  ariaLabel: string;
  onClick: () => void;
  color?: MantineColor;
  loading?: boolean;
}) {
  return (
    <Button
      size="xs"
      variant="light"
      color={props.color}
      onClick={props.onClick}
      loading={props.loading}
      aria-label={props.ariaLabel}
    >
      {props.label}
    </Button>
  );
}

/** Asks before `onConfirm`; `danger` paints the confirm button red (what cannot be undone). */
export function confirmAction(options: {
  title: string;
  body: string;
  confirm: string;
  cancel: string;
  danger: boolean;
  onConfirm: () => void;
}): void {
  modals.openConfirmModal({
    title: options.title,
    children: <Text>{options.body}</Text>,
    labels: { confirm: options.confirm, cancel: options.cancel },
    confirmProps: { color: options.danger ? 'red.9' : undefined },
    onConfirm: options.onConfirm,
  });
}

/** What the confirmation of a lasting action says: the record is named in its title. */
export interface ConfirmWords {
  title: string;
  body: string;
  confirm: string;
  cancel: string;
}

/**
 * An action on a record (revoke a key, remove a channel, archive a type, a kiosk's new code):
 * its toast when done (the server's words, else `done`) or failed (else `failed`), then the
 * list refreshed whatever the outcome. `ask` confirms first with the `confirm` words (the
 * confirm button red: it cannot be undone); `busy(id)` is that record's action under way, for
 * its button's loader.
 */
export function useRecordAction<
  Vars = void,
  Answer extends { message?: string } | null | undefined = { message?: string },
>(options: {
  run: (vars: Vars) => Promise<Answer>;
  done: string | ((vars: Vars) => string);
  failed: string | ((vars: Vars) => string);
  refresh: () => unknown;
  /** What else follows success, before its toast. */
  onDone?: (answer: Answer, vars: Vars) => void;
  confirm?: (vars: Vars) => ConfirmWords;
}) {
  const said = (words: string | ((vars: Vars) => string), vars: Vars) =>
    typeof words === 'function' ? words(vars) : words;
  const mutation = useMutation({
    mutationFn: options.run,
    onSuccess: (answer, vars) => {
      options.onDone?.(answer, vars);
      toastDone(answer ?? {}, said(options.done, vars));
    },
    onError: (error, vars) => toastFailed(error, said(options.failed, vars)),
    onSettled: () => options.refresh(),
  });
  return {
    ...mutation,
    ask: (vars: Vars) => {
      const words = options.confirm?.(vars);
      if (!words) throw new Error('useRecordAction: ask needs the confirm words');
      confirmAction({ ...words, danger: true, onConfirm: () => mutation.mutate(vars) });
    },
    busy: (id: string) =>
      mutation.isPending && (mutation.variables as { id?: string } | undefined)?.id === id,
  };
}
