/** The pieces every staff list page shares around its ServerTable. */
import type { ReactNode } from 'react';
import { Anchor, Button, Container } from '@mantine/core';
import { Link } from 'react-router';
import { ListHeader } from './ListHeader';
import type { Column } from './RowsTable';
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

/** The spec's first column: the row's number in the whole list. */
export const numberColumn = <T,>(header: string): Column<T> => ({
  key: 'id',
  header,
  render: (_row, index) => index + 1,
});

/**
 * The spec's edit column: on each row the viewer may edit, a link to its form named after the
 * row (`ariaLabel`); on the others, nothing. `link` says which, and where.
 */
export function editColumn<T>(
  words: { header: string; label: string },
  link: (row: T) => { to: string; ariaLabel: string } | null,
): Column<T> {
  return {
    key: 'edit',
    header: words.header,
    render: (row) => {
      const shown = link(row);
      return shown ? (
        <Anchor component={Link} to={shown.to} size="sm" aria-label={shown.ariaLabel}>
          {words.label}
        </Anchor>
      ) : null;
    },
  };
}

/**
 * The spec's delete column: on each row the viewer may delete, its button named after the row
 * (`ariaLabel`), which asks first (`onDelete`); on the others, nothing. `button` says which.
 */
export function deleteColumn<T>(
  words: { header: string; label: string },
  button: (row: T) => { ariaLabel: string; onDelete: () => void } | null,
): Column<T> {
  return {
    key: 'delete',
    header: words.header,
    render: (row) => {
      const shown = button(row);
      return shown ? <DeleteRowButton label={words.label} {...shown} /> : null;
    },
  };
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
