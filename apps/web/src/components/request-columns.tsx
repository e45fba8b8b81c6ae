/**
 * The columns a visit request shows wherever requests are listed: the request list and an
 * event's participants. Same identity document, status badge, code-mail state, card link and
 * delete button on both; each screen passes its own words (its namespace's labels).
 */
import { Anchor, Badge, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import type { RequestRow, RequestRowState } from '@sesame/shared';
import { cameFromHere } from '../lib/came-from';
import { DeleteRowButton } from './ListParts';
import { IdentityDocument } from './visitor-form/IdentityDocument';
import { MailStatus } from './MailStatus';
import type { Column } from './RowsTable';

export const requestFullName = (row: RequestRow) =>
  `${row.visitor.firstname} ${row.visitor.lastname}`;

/**
 * The visitor's identity document: 'Voir la pièce', no thumbnail (issue 27). The list draws
 * nobody's ID, and the one view it audits is the one somebody opened.
 */
const identityColumn = (header: string): Column<RequestRow> => ({
  key: 'image',
  header,
  render: (row) => (
    <IdentityDocument
      src={row.visitor.request_image}
      type={row.visitor.request_image_type}
      name={requestFullName(row)}
    />
  ),
});

/**
 * Who the visitor is: name and organisation, e-mail, phone, identity document (the first four
 * columns of both lists).
 */
export const visitorColumns = (headers: {
  visitor: string;
  email: string;
  contact: string;
  image: string;
}): Column<RequestRow>[] => [
  {
    key: 'visitor',
    header: headers.visitor,
    render: (row) => (
      <Stack gap={0}>
        <Text size="sm" fw={500}>
          {requestFullName(row)}
        </Text>
        <Text size="xs" c="dimmed">
          {row.visitor.organisation_name}
        </Text>
      </Stack>
    ),
  },
  { key: 'email', header: headers.email, render: (row) => row.visitor.email },
  { key: 'contact', header: headers.contact, render: (row) => row.visitor.contact },
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

/** The row's delete button; `remove` asks for the confirmation. */
export const deleteColumn = (
  header: string,
  label: string,
  ariaLabel: (row: RequestRow) => string,
  remove: (row: RequestRow) => void,
): Column<RequestRow> => ({
  key: 'delete',
  header,
  render: (row) => (
    <DeleteRowButton label={label} ariaLabel={ariaLabel(row)} onDelete={() => remove(row)} />
  ),
});
