/**
 * The columns a visit request shows wherever requests are listed: the request list and an
 * event's participants. Same identity document, status badge, code-mail state, card link and
 * actions (who sees them, and delete) on both; each screen passes its own words (its
 * namespace's labels).
 */
import { Fragment, type ReactNode } from 'react';
import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import {
  REQUEST_LIST_RULES,
  mayPerform,
  type RequestRow,
  type RequestRowState,
  type Role,
} from '@sesame/shared';
import { cameFromHere } from '../lib/came-from';
import { emailParts } from '../lib/email-breaks';
import { confirmDelete } from './confirm-delete';
import { DeleteRowButton } from './ListParts';
import { IdentityDocument } from './visitor-form/IdentityDocument';
import { MailStatus } from './MailStatus';
import type { Column } from './RowsTable';

export const requestFullName = (row: RequestRow) =>
  `${row.visitor.firstname} ${row.visitor.lastname}`;

/**
 * An e-mail address that may go on a new line after its '@' and before a dot (`emailParts`): a
 * long one no longer makes its column as wide as itself, nor breaks in the middle of a word.
 */
function BreakableEmail({ address }: { address: string }) {
  return (
    <>
      {emailParts(address).map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}

/**
 * The visitor's identity document: 'Voir la pièce', no thumbnail (issue 27). The list draws
 * nobody's ID, and the one view it audits is the one somebody opened.
 */
const identityColumn = (header: string): Column<RequestRow> => ({
  key: 'image',
  header,
  card: 'actions',
  render: (row) => (
    <IdentityDocument
      src={row.visitor.request_image}
      type={row.visitor.request_image_type}
      name={requestFullName(row)}
    />
  ),
});

/**
 * Who the visitor is and how to reach them, then their identity document (the first two columns
 * of both lists). Name, organisation, e-mail and phone share one cell, as the meeting's day and
 * time do (issue 14): four columns of their own left the other columns too narrow to read at
 * 1280 px, statuses and actions cut (issue 27). On a phone this cell heads the card.
 */
export const visitorColumns = (headers: {
  visitor: string;
  image: string;
}): Column<RequestRow>[] => [
  {
    key: 'visitor',
    header: headers.visitor,
    card: 'title',
    render: (row) => (
      <Stack gap={0} miw="12rem">
        <Text size="sm" fw={500}>
          {requestFullName(row)}
        </Text>
        {row.visitor.organisation_name && (
          <Text size="xs" c="dimmed">
            {row.visitor.organisation_name}
          </Text>
        )}
        <Text size="xs" mt={4}>
          <BreakableEmail address={row.visitor.email} />
        </Text>
        {row.visitor.contact && <Text size="xs">{row.visitor.contact}</Text>}
      </Stack>
    ),
  },
  identityColumn(headers.image),
];

const STATE_COLORS: Record<RequestRowState, { color: string; c?: string }> = {
  confirmed: { color: 'teal' },
  pending: { color: 'yellow', c: 'yellow.9' },
  declined: { color: 'red' },
  cancelled: { color: 'gray' },
};

/**
 * Confirmed, pending, refused by the host or cancelled by staff (issue 27), with the reason a
 * decline gave beneath it; the list keeps the badge whole (ResponsiveRows).
 */
export const statusColumn = (
  header: string,
  words: Record<RequestRowState, string>,
): Column<RequestRow> => ({
  key: 'status',
  header,
  render: (row) => (
    <Stack gap={2} align="flex-start">
      <Badge variant="light" {...STATE_COLORS[row.state]} data-state={row.state}>
        {words[row.state]}
      </Badge>
      {row.decline_reason && (
        <Text size="xs" c="dimmed" lineClamp={2} title={row.decline_reason} maw={220}>
          {row.decline_reason}
        </Text>
      )}
    </Stack>
  ),
});

/**
 * The visitor's mails and their states, whatever the request's state (issue 27: the
 * acknowledgement and the decline too), with 'Renvoyer' for whoever may resend the code.
 */
export const mailColumn = (header: string, canResend: boolean): Column<RequestRow> => ({
  key: 'mail',
  header,
  render: (row) => <MailStatus visitorId={row.visitor.id} canResend={canResend} />,
});

/**
 * The meeting card's link, once the visitor has a code. The card knows the list it was opened
 * from: erasing the visitor there returns to it (issue 27).
 */
export function CardLink({ row, label }: { row: RequestRow; label: string }) {
  const location = useLocation();
  if (!row.visitor.uidn) return null;
  return (
    <Anchor
      component={Link}
      to={`/company/${row.company.slug}/meeting-request-qr/${row.visitor.uidn}`}
      state={cameFromHere(location)}
      size="sm"
    >
      {label}
    </Anchor>
  );
}

/** One of a row's actions: its button or link, or nothing for that row. */
export type RowAction = (row: RequestRow) => ReactNode;

/**
 * Spec §6 request list: the screen's own row actions (validate, the meeting card) are for
 * whoever may validate requests, but a supervisor.
 */
export const showsOwnActions = (role: Role | null) =>
  !!role &&
  mayPerform(role, 'requests.validate') &&
  !REQUEST_LIST_RULES.noActionColumn.includes(role);

/**
 * A request list's delete, once confirmed (the spec's confirmation names the visitor):
 * `deleteVisitor` erases the row's visitor, then the queries under `listKey` are read again.
 */
export function useDeleteRequest(
  deleteVisitor: (visitorId: string) => Promise<unknown>,
  listKey: string,
) {
  const queryClient = useQueryClient();
  return async (row: RequestRow) => {
    const deleted = await confirmDelete(requestFullName(row), () => deleteVisitor(row.visitor.id));
    if (deleted) await queryClient.invalidateQueries({ queryKey: [listKey] });
  };
}

/**
 * The row's actions in one column (issue 27): the screen's own `actions`, then delete for whoever
 * may (spec §6: the admin), side by side or one above the other as the column's width allows,
 * and at a card's foot on a phone. Delete in a column of its own left the others too narrow to
 * read at 1280 px. No action for the role: no column; none for the row: an empty cell.
 */
export function actionsColumns(
  role: Role | null,
  actions: RowAction[],
  remove: (row: RequestRow) => Promise<void>,
  words: { header: string; delete: string; deleteLabel: (name: string) => string },
): Column<RequestRow>[] {
  const shown = [...actions];
  if (role && REQUEST_LIST_RULES.deleteColumn.includes(role)) {
    shown.push((row) => (
      <DeleteRowButton
        label={words.delete}
        ariaLabel={words.deleteLabel(requestFullName(row))}
        onDelete={() => void remove(row)}
      />
    ));
  }
  if (shown.length === 0) return [];
  return [
    {
      key: 'action',
      header: words.header,
      card: 'actions',
      render: (row) => {
        const nodes = shown.map((action) => action(row)).filter((node) => !!node);
        if (nodes.length === 0) return null;
        return (
          <Group gap="xs">
            {nodes.map((node, i) => (
              <Fragment key={i}>{node}</Fragment>
            ))}
          </Group>
        );
      },
    },
  ];
}
