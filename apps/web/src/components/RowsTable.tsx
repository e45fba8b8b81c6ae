/** A page of rows as a table: one header per column, one cell per column and row. */
import type { ReactNode } from 'react';
import { Table, Text, type TableProps } from '@mantine/core';
import '@mantine/core/styles/Table.css';

/**
 * Where a column goes when its rows are cards (a phone, `ResponsiveRows`): `title` heads the
 * card, `aside` sits beside the title (an image), `number` is the row's number beside it,
 * `wide` takes the card's width, `actions` joins the buttons at the card's foot (its header
 * unsaid: the buttons name themselves), `hidden` is left out; the others share the width in
 * two, each under its header.
 */
export type CardPlace = 'title' | 'aside' | 'number' | 'wide' | 'actions' | 'hidden';

export interface Column<T> {
  key: string;
  header: ReactNode;
  render: (row: T, index: number) => ReactNode;
  /** Its place on a card; a list with a `title` column shows cards on a phone. */
  card?: CardPlace;
}

/** A record's name, in bold, heading its row and its card (a key's, a kiosk's, a channel's). */
export function nameColumn<T>(
  header: ReactNode,
  name: (row: T) => ReactNode,
  testId: string,
): Column<T> {
  return {
    key: 'name',
    header,
    card: 'title',
    render: (row) => (
      <Text fw={600} size="sm" data-testid={testId}>
        {name(row)}
      </Text>
    ),
  };
}

export function RowsTable<T>({
  columns,
  rows,
  rowKey,
  offset,
  ...table
}: {
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  /** The first row's number in the whole list (its page's start). */
  offset: number;
} & TableProps) {
  return (
    <Table striped highlightOnHover verticalSpacing="sm" {...table}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((c) => (
            <Table.Th key={c.key}>{c.header}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row, i) => (
          <Table.Tr key={rowKey(row)}>
            {columns.map((c) => (
              <Table.Td key={c.key}>{c.render(row, offset + i)}</Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
