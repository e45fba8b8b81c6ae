/**
 * What the three log screens (the visitor log, the QR users' log, their attendance)
 * share: the page with its title and the 'forbidden' alert for a role without the
 * right, the row-number column, and the filter bar above the paged table.
 */
import type { ReactNode } from 'react';
import { Alert, Container, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { PageTitle } from '../../../components/PageTitle';
import type { LogFilterState } from '../lib/use-log-filters';
import { LogFilterBar } from './LogFilterBar';
import { LogTable, type LogColumn, type LogTableProps } from './LogTable';

/** The screen: its title, an optional intro, then the log, or why the role may not see it. */
export function LogScreen(props: {
  title: string;
  intro?: string;
  allowed: boolean;
  /** The log, shown when `allowed`. */
  children: ReactNode;
}) {
  const { t } = useTranslation('checkinLogs');
  return (
    <Container size="xl" py="lg">
      {props.intro ? (
        <>
          <PageTitle mb={4}>{props.title}</PageTitle>
          <Text c="dimmed" size="sm" mb="md">
            {props.intro}
          </Text>
        </>
      ) : (
        <PageTitle>{props.title}</PageTitle>
      )}
      {props.allowed ? (
        props.children
      ) : (
        <Alert color="red" role="alert">
          {t('forbidden')}
        </Alert>
      )}
    </Container>
  );
}

/** The row's number on its page; a phone's card shows it beside the title. */
export function indexColumn<T>(header: string): LogColumn<T> {
  return { key: 'index', header, render: (_row, i) => i + 1, card: 'number' };
}

/** The log's filters (search, range, `actions` at the bar's end) above its paged table. */
export function FilteredLog<T>({
  log,
  actions,
  ...table
}: Omit<LogTableProps<T>, 'page' | 'onPageChange'> & { log: LogFilterState; actions?: ReactNode }) {
  return (
    <>
      <LogFilterBar log={log} actions={actions} />
      <LogTable {...table} page={log.page} onPageChange={log.setPage} />
    </>
  );
}
