/**
 * The columns a visit request shows wherever requests are listed: the request list and an
 * event's participants. Same identity document, status badge, code-mail state, card link and
 * delete button on both; each screen passes its own words (its namespace's labels).
 */
import { Fragment, type ReactNode } from 'react';
import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import type { RequestRow, RequestRowState } from '@sesame/shared';
import { cameFromHere } from '../lib/came-from';
import { emailParts } from '../lib/email-breaks';
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

/**
 * The row's actions in one column (issue 27): the screen's own (validate, the meeting card), then
 * delete for whoever may (spec: the admin), side by side or one above the other as the column's
 * width allows, and at a card's foot on a phone. Delete in a column of its own left the others
 * too narrow to read at 1280 px. No action for the row: an empty cell.
 */
export const actionsColumn = (
  header: string,
  actions: ((row: RequestRow) => ReactNode)[],
): Column<RequestRow> => ({
  key: 'action',
  header,
  card: 'actions',
  render: (row) => {
    const shown = actions.map((action) => action(row)).filter((node) => !!node);
    if (shown.length === 0) return null;
    return (
      <Group gap="xs">
        {shown.map((node, i) => (
          <Fragment key={i}>{node}</Fragment>
        ))}
      </Group>
    );
  },
});

/** The row's delete button, an action of `actionsColumn`; `remove` asks for the confirmation. */
export const deleteAction =
  (label: string, ariaLabel: (row: RequestRow) => string, remove: (row: RequestRow) => void) =>
  (row: RequestRow) => (
    <DeleteRowButton label={label} ariaLabel={ariaLabel(row)} onDelete={() => remove(row)} />
  );
