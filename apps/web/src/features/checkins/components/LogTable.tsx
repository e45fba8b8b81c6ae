import type { ReactNode } from 'react';
import { Box, Group, Pagination, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { QueryState } from '../../../components/QueryState';
import { RowsTable, type Column } from '../../../components/RowsTable';
import { TableScroll } from '../../../components/TableScroll';
import type { LogPage } from '../api/logs';
import '@mantine/core/styles/SimpleGrid.css';

/**
 * A log column. On a phone each row becomes a card: `title` heads it, `aside` sits
 * beside the title (the image), `wide` takes the card's width, `hidden` is left out
 * (the row number, shown next to the title); the others share the width in two.
 */
export interface LogColumn<T> extends Column<T> {
  card?: 'title' | 'aside' | 'wide' | 'hidden';
}

export interface LogTableProps<T> {
  query: UseQueryResult<LogPage<T>>;
  columns: LogColumn<T>[];
  rowKey: (row: T) => string;
  page: number;
  onPageChange: (page: number) => void;
  emptyMessage: ReactNode;
  /** How the total reads (the count, and the count formatted); checks by default. */
  totalLabel?: (count: number, total: string) => ReactNode;
  /** The table's accessible name (the screen's title). */
  label: string;
  minWidth?: number;
}

/** One row as a card, for screens too narrow for the table. */
function LogCard<T>({ row, index, columns }: { row: T; index: number; columns: LogColumn<T>[] }) {
  const title = columns.find((c) => c.card === 'title');
  const aside = columns.find((c) => c.card === 'aside');
  const fields = columns.filter((c) => !c.card || c.card === 'wide');
  return (
    <Paper component="li" withBorder p="sm" radius="md" data-testid="log-card">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm" mb="xs">
        <Group align="flex-start" wrap="nowrap" gap="sm" miw={0}>
          {aside && <Box>{aside.render(row, index)}</Box>}
          <Box miw={0}>{title?.render(row, index)}</Box>
        </Group>
        <Text size="xs" c="dimmed">
          #{index + 1}
        </Text>
      </Group>
      <SimpleGrid cols={2} spacing="sm" verticalSpacing="xs">
        {fields.map((c) => (
          <Box key={c.key} style={c.card === 'wide' ? { gridColumn: '1 / -1' } : undefined}>
            <Text size="xs" c="dimmed" fw={500}>
              {c.header}
            </Text>
            <Box fz="sm" style={{ overflowWrap: 'anywhere' }}>
              {c.render(row, index)}
            </Box>
          </Box>
        ))}
      </SimpleGrid>
    </Paper>
  );
}

/**
 * A page of a log served by the server (ARCHITECTURE §4): its total ("10 000+" when
 * the server stopped counting), the rows (a table, or cards on a phone), the pages.
 * Spec §8: a failed load reads 'Failed to fetch data.'.
 */
export function LogTable<T>(props: LogTableProps<T>) {
  const { t, i18n } = useTranslation('checkinLogs');
  const narrow = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  const { query, page } = props;
  const meta = query.data?.meta;
  const perPage = meta?.per_page ?? 10;
  const pages = meta ? Math.max(1, Math.ceil(meta.total / perPage)) : 1;
  const offset = (page - 1) * perPage;
  const numbers = new Intl.NumberFormat(i18n.language.startsWith('en') ? 'en-GB' : 'fr-FR');
  const total = meta ? `${numbers.format(meta.total)}${meta.total_capped ? '+' : ''}` : '';

  if (query.isError || query.isPending) {
    return (
      <QueryState query={query} errorText={() => t('loadFailed')}>
        {() => null}
      </QueryState>
    );
  }
  const rows = query.data.data;
  const refreshing = { opacity: query.isPlaceholderData ? 0.6 : 1 };
  return (
    <div>
      <Text size="sm" c="dimmed" mb="xs" aria-live="polite" data-testid="log-total">
        {props.totalLabel
          ? props.totalLabel(meta?.total ?? 0, total)
          : t('total', { count: meta?.total ?? 0, total })}
      </Text>
      {rows.length === 0 ? (
        <Text py="lg" c="dimmed" data-testid="empty">
          {props.emptyMessage}
        </Text>
      ) : narrow ? (
        <Stack
          component="ul"
          gap="sm"
          p={0}
          m={0}
          style={{ listStyle: 'none', ...refreshing }}
          aria-label={props.label}
          aria-busy={query.isPlaceholderData || undefined}
        >
          {rows.map((row, i) => (
            <LogCard key={props.rowKey(row)} row={row} index={offset + i} columns={props.columns} />
          ))}
        </Stack>
      ) : (
        <TableScroll type="auto" offsetScrollbars label={props.label}>
          <RowsTable
            columns={props.columns}
            rows={rows}
            rowKey={props.rowKey}
            offset={offset}
            miw={props.minWidth ?? 720}
            aria-label={props.label}
            aria-busy={query.isPlaceholderData || undefined}
            style={refreshing}
          />
        </TableScroll>
      )}
      {pages > 1 && (
        <Group justify="center" mt="md">
          <Pagination
            value={page}
            onChange={props.onPageChange}
            total={pages}
            siblings={narrow ? 0 : 1}
            boundaries={1}
            size={narrow ? 'sm' : 'md'}
            aria-label={t('table.pagination', { ns: 'common' })}
          />
        </Group>
      )}
    </div>
  );
}
