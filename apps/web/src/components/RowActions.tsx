/**
 * A staff table's row actions (a site's, a kiosk's): small light buttons side by side,
 * each named for its row, and the confirmation a lasting one asks first.
 */
import type { ReactNode } from 'react';
import { Button, Group, Text, type MantineColor } from '@mantine/core';
import { modals } from '@mantine/modals';

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
