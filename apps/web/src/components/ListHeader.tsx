/** A staff list page's title, with its create button when the role may create. */
import { Button, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PageTitle } from './PageTitle';

/** The create button: a link to the form's page, or one that opens the form in place. */
export type CreateAction = { label: string } & ({ to: string } | { onClick: () => void });

/** `intro`: a line under the title saying what the page is for. */
export function ListHeader(props: { title: string; create?: CreateAction; intro?: string }) {
  const { create } = props;
  return (
    <>
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <PageTitle>{props.title}</PageTitle>
        {create &&
          ('to' in create ? (
            <Button component={Link} to={create.to} variant="light">
              {create.label}
            </Button>
          ) : (
            <Button variant="light" onClick={create.onClick}>
              {create.label}
            </Button>
          ))}
      </Group>
      {props.intro && (
        <Text c="dimmed" size="sm" mb="md">
          {props.intro}
        </Text>
      )}
    </>
  );
}
