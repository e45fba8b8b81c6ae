/** The pieces every staff list page shares around its ServerTable. */
import { Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import { PageTitle } from './PageTitle';

/** The list's title, with its create button when the role may create. */
export function ListHeader(props: { title: string; create?: { to: string; label: string } }) {
  return (
    <Group justify="space-between" align="flex-start" wrap="wrap">
      <PageTitle>{props.title}</PageTitle>
      {props.create && (
        <Button component={Link} to={props.create.to} variant="light">
          {props.create.label}
        </Button>
      )}
    </Group>
  );
}

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
