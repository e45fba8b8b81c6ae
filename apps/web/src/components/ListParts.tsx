/** The pieces every staff list page shares around its ServerTable. */
import type { ReactNode } from 'react';
import { Button, Container } from '@mantine/core';
import { ListHeader } from './ListHeader';
import { ServerTable, type ServerTableProps } from './ServerTable';

/** A row's delete button (the confirmation is the caller's `onDelete`). */
export function DeleteRowButton(props: { label: string; ariaLabel: string; onDelete: () => void }) {
  return (
    <Button
      size="xs"
      color="red"
      variant="light"
      onClick={props.onDelete}
      aria-label={props.ariaLabel}
    >
      {props.label}
    </Button>
  );
}

/**
 * A staff list page: its header, then the server-paged, searchable table. `children`
 * stand between the two (the company list's inline edit form).
 */
export function ListPage<T>({
  title,
  create,
  children,
  ...table
}: ServerTableProps<T> & {
  title: string;
  create?: { to: string; label: string };
  children?: ReactNode;
}) {
  return (
    <Container size="xl" py="lg">
      <ListHeader title={title} create={create} />
      {children}
      <ServerTable {...table} searchable />
    </Container>
  );
}
