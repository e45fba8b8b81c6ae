import type { ReactNode } from 'react';
import { Group, Pagination, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { QueryState } from '../../../components/QueryState';
import { ResponsiveRows, usePhoneLayout } from '../../../components/ResponsiveRows';
import type { Column } from '../../../components/RowsTable';
import type { LogPage } from '../api/logs';

/** A log column; on a phone each row is a card (`Column.card` says where the column goes). */
export type LogColumn<T> = Column<T>;

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

/**
 * A page of a log served by the server (ARCHITECTURE §4): its total ("10 000+" when
 * the server stopped counting), the rows (a table, or cards on a phone), the pages.
 * Spec §8: a failed load reads 'Failed to fetch data.'.
 */
export function LogTable<T>(props: LogTableProps<T>) {
  const { t, i18n } = useTranslation('checkinLogs');
  const narrow = usePhoneLayout();
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
      ) : (
        <ResponsiveRows
          columns={props.columns}
          rows={rows}
          rowKey={props.rowKey}
          offset={offset}
          label={props.label}
          minWidth={props.minWidth ?? 720}
          busy={query.isPlaceholderData}
          scroll={{ type: 'auto', offsetScrollbars: true }}
        />
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
