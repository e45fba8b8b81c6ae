import { useState, type ReactNode } from 'react';
import { Group, Pagination, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../lib/i18n';
import { PAGE_SIZE } from '@sesame/shared';
import type { Paginated } from '../lib/api-client';
import { QueryState } from './QueryState';
import { ResponsiveRows } from './ResponsiveRows';
import type { Column } from './RowsTable';

export type { Column } from './RowsTable';

export interface ServerTableProps<T> {
  /** Query key prefix; page and search are appended. */
  queryKey: readonly unknown[];
  fetchPage: (params: { page: number; per_page: number; q?: string }) => Promise<Paginated<T>>;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  emptyMessage: ReactNode;
  /** Shown instead of the server's error text when loading fails. */
  errorMessage?: ReactNode;
  searchable?: boolean;
  /** The table's name for assistive technology (its scrolling region's); 'Liste' by default. */
  label?: string;
  perPage?: number;
}

/**
 * A table whose rows are paged and searched on the server (ARCHITECTURE §4). Every
 * list is paged: none stops silently at a page's worth of rows (issue 17). On a phone,
 * a list whose columns have their place on a card shows cards (`ResponsiveRows`).
 */
export function ServerTable<T>(props: ServerTableProps<T>) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const perPage = props.perPage ?? PAGE_SIZE;
  const query = useQuery({
    queryKey: [...props.queryKey, { page, perPage, q }],
    queryFn: () => props.fetchPage({ page, per_page: perPage, q: q || undefined }),
    placeholderData: keepPreviousData,
  });
  const total = query.data?.meta.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const offset = (page - 1) * perPage;

  return (
    <div>
      {props.searchable && (
        <TextInput
          label={t('table.search')}
          placeholder={t('table.searchPlaceholder')}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          mb="sm"
          maw={360}
        />
      )}
      <QueryState
        query={query}
        errorText={(error) => props.errorMessage ?? (error as Error).message}
        isEmpty={(answer) => answer.data.length === 0}
        empty={props.emptyMessage}
      >
        {(answer) => (
          <ResponsiveRows
            columns={props.columns}
            rows={answer.data}
            rowKey={props.rowKey}
            offset={offset}
            label={props.label ?? t('table.label')}
            minWidth={600}
            busy={query.isPlaceholderData}
          />
        )}
      </QueryState>
      {pages > 1 && (
        <Group justify="center" mt="md">
          <Pagination
            value={page}
            onChange={setPage}
            total={pages}
            aria-label={t('table.pagination')}
          />
        </Group>
      )}
    </div>
  );
}
