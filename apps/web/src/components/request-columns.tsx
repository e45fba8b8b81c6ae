/**
 * The columns a visit request shows wherever requests are listed: the request list and an
 * event's participants. Same identity document, status badge, code-mail state, card link and
 * delete button on both; each screen passes its own words (its namespace's labels).
 */
import { Anchor, Badge, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { RequestRow } from '@sesame/shared';
import { DeleteRowButton } from './ListParts';
import { IdentityDocument } from './visitor-form/IdentityDocument';
import { MailStatus } from './MailStatus';
import type { Column } from './RowsTable';

export const requestFullName = (row: RequestRow) =>
  `${row.visitor.firstname} ${row.visitor.lastname}`;

/** The visitor's identity document, small. */
const identityColumn = (header: string): Column<RequestRow> => ({
  key: 'image',
  header,
  render: (row) => (
    <IdentityDocument
      src={row.visitor.request_image}
      type={row.visitor.request_image_type}
      name={requestFullName(row)}
      size={50}
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

/** Confirmed or pending; the badge is never cut by a narrow column. */
export const statusColumn = (
  header: string,
  words: { confirmed: string; pending: string },
): Column<RequestRow> => ({
  key: 'status',
  header,
  render: (row) =>
    row.confirmed ? (
      <Badge color="teal" variant="light" style={{ overflow: 'visible' }}>
        {words.confirmed}
      </Badge>
    ) : (
      <Badge color="yellow" variant="light" c="yellow.9" style={{ overflow: 'visible' }}>
        {words.pending}
      </Badge>
    ),
});

/** The code mail's state once confirmed, with 'Renvoyer' for whoever may resend it. */
export const mailColumn = (header: string, canResend: boolean): Column<RequestRow> => ({
  key: 'mail',
  header,
  render: (row) =>
    row.confirmed ? <MailStatus visitorId={row.visitor.id} canResend={canResend} /> : null,
});

/** The meeting card's link, once the visitor has a code. */
export function CardLink({ row, label }: { row: RequestRow; label: string }) {
  if (!row.visitor.uidn) return null;
  return (
    <Anchor
      component={Link}
      to={`/company/${row.company.slug}/meeting-request-qr/${row.visitor.uidn}`}
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
