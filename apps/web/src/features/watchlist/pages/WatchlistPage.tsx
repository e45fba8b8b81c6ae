/**
 * `/{domain}/watchlist` (issue 31): the people the company wants to know about before they
 * come in — by name, e-mail, phone or ID number, with a reason and a last day — added,
 * edited and removed (every change audited), and the close name match's threshold.
 */
import { Badge, Container, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import type { WatchlistEntry, WatchlistEntryInput } from '@sesame/shared';
import { ListHeader } from '../../../components/ListHeader';
import { RowActions, RowButton, useRecordAction } from '../../../components/RowActions';
import { nameColumn } from '../../../components/RowsTable';
import { ServerTable, type Column } from '../../../components/ServerTable';
import { useTranslation } from '../../../lib/i18n';
import { toastDone, useInlineEdit } from '../../../lib/use-inline-edit';
import {
  addEntry,
  fetchWatchlist,
  removeEntry,
  updateEntry,
  watchlistKeys,
} from '../api/watchlist';
import { EntryForm } from '../components/EntryForm';
import { ThresholdSettings } from '../components/ThresholdSettings';
import { entryName } from '../lib/watchlist';

export default function WatchlistPage() {
  const { t } = useTranslation('watchlist');
  const { domain = '' } = useParams();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: watchlistKeys.entries(domain) });
  const named = (entry: WatchlistEntry) =>
    entryName(entry) || entry.email || entry.phone || entry.id_number || '';

  const edit = useInlineEdit<WatchlistEntry, WatchlistEntryInput>({
    t,
    save: async (input, editing) => {
      if (editing?.mode === 'edit') {
        toastDone(await updateEntry(domain, editing.record.id, input), t('saved'));
      } else {
        toastDone(await addEntry(domain, input), t('created'));
      }
      await refresh();
    },
  });

  const remove = useRecordAction({
    run: (entry: WatchlistEntry) => removeEntry(domain, entry.id),
    done: t('removed'),
    failed: t('removeFailed'),
    refresh,
    confirm: (entry) => ({
      title: t('confirm.title', { name: named(entry) }),
      body: t('confirm.body'),
      confirm: t('confirm.yes'),
      cancel: t('confirm.no'),
    }),
  });

  const dash = (value: string | null) =>
    value ? (
      value
    ) : (
      <Text size="sm" c="dimmed" component="span">
        —
      </Text>
    );

  const columns: Column<WatchlistEntry>[] = [
    nameColumn(t('columns.name'), (entry) => entryName(entry) || t('noName'), 'watchlist-name'),
    { key: 'email', header: t('columns.email'), render: (entry) => dash(entry.email) },
    { key: 'phone', header: t('columns.phone'), render: (entry) => dash(entry.phone) },
    { key: 'id_number', header: t('columns.idNumber'), render: (entry) => dash(entry.id_number) },
    {
      key: 'reason',
      header: t('columns.reason'),
      render: (entry) => (
        <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
          {entry.reason}
        </Text>
      ),
    },
    {
      key: 'until',
      header: t('columns.until'),
      render: (entry) => entry.until ?? t('noEnd'),
    },
    {
      key: 'state',
      header: t('columns.state'),
      render: (entry) => (
        <Badge variant="light" color={entry.active ? 'red' : 'gray'} data-testid="watchlist-state">
          {entry.active ? t('state.active') : t('state.expired')}
        </Badge>
      ),
    },
    {
      key: 'actions',
      header: t('columns.actions'),
      card: 'actions',
      render: (entry) => (
        <RowActions>
          <RowButton
            label={t('edit')}
            ariaLabel={t('editOf', { name: named(entry) })}
            onClick={() => edit.openEdit(entry)}
          />
          <RowButton
            label={t('remove')}
            ariaLabel={t('removeOf', { name: named(entry) })}
            color="red"
            loading={remove.busy(entry.id)}
            onClick={() => remove.ask(entry)}
          />
        </RowActions>
      ),
    },
  ];

  return (
    <Container size="xl">
      <ListHeader title={t('title')} intro={t('intro')} create={edit.createAction(t('create'))} />
      <Stack gap="md">
        {edit.editing && (
          <EntryForm
            key={edit.formKey}
            entry={edit.record}
            feedback={edit.feedback}
            onSubmit={edit.submit}
            onCancel={() => edit.open(null)}
          />
        )}
        <ServerTable
          queryKey={watchlistKeys.entries(domain)}
          fetchPage={(params) => fetchWatchlist(domain, params)}
          columns={columns}
          rowKey={(entry) => entry.id}
          emptyMessage={t('empty')}
          errorMessage={t('loadFailed')}
          label={t('title')}
          searchable
        />
        <ThresholdSettings company={domain} />
      </Stack>
    </Container>
  );
}
