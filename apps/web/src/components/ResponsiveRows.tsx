/**
 * A page of rows as a table on a wide screen and as cards on a phone (issue 27): the one way a
 * list becomes cards, for the logs, the request list, the event list and an event's
 * participants. A list opts in by giving its columns their place on a card (`Column.card`, one
 * of them the `title`); a list without a title column stays a table that scrolls sideways.
 */
import { Fragment, type ReactNode } from 'react';
import { Box, Paper, Text, type ScrollAreaProps } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { RowsTable, type Column } from './RowsTable';
import { TableScroll } from './TableScroll';
import classes from './ResponsiveRows.module.css';

/** Below Mantine's `sm` (48em): the phone layout, as in app/a11y.css. */
const PHONE_QUERY = '(max-width: 47.99em)';

/** Whether the screen is a phone's: its lists are cards, its pagers shorter. */
export function usePhoneLayout(): boolean {
  return useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
}

/** Whether a cell has something to show: a card leaves out a field with nothing in it. */
const shows = (node: ReactNode) =>
  node !== null && node !== undefined && node !== false && node !== '';

/** One row as a card. */
function RowCard<T>({ row, index, columns }: { row: T; index: number; columns: Column<T>[] }) {
  const title = columns.find((c) => c.card === 'title');
  const aside = columns.find((c) => c.card === 'aside');
  const number = columns.find((c) => c.card === 'number');
  const fields = columns
    .filter((c) => !c.card || c.card === 'wide')
    .map((c) => ({ column: c, value: c.render(row, index) }))
    .filter((field) => shows(field.value));
  const actions = columns
    .filter((c) => c.card === 'actions')
    .map((c) => ({ key: c.key, value: c.render(row, index) }))
    .filter((action) => shows(action.value));
  return (
    <Paper
      component="li"
      withBorder
      p="sm"
      radius="md"
      className={classes.card}
      data-testid="row-card"
    >
      <div className={classes.head}>
        <div className={classes.who}>
          {aside && <Box>{aside.render(row, index)}</Box>}
          <div className={classes.title}>{title?.render(row, index)}</div>
        </div>
        {number && (
          <Text size="xs" c="dimmed">
            #{number.render(row, index)}
          </Text>
        )}
      </div>
      {fields.length > 0 && (
        <dl className={classes.fields}>
          {fields.map(({ column, value }) => (
            <div key={column.key} className={column.card === 'wide' ? classes.wide : undefined}>
              <Text component="dt" size="xs" c="dimmed" fw={500}>
                {column.header}
              </Text>
              <dd className={classes.value}>{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {actions.length > 0 && (
        <div className={classes.actions}>
          {actions.map((action) => (
            <Fragment key={action.key}>{action.value}</Fragment>
          ))}
        </div>
      )}
    </Paper>
  );
}

export interface ResponsiveRowsProps<T> {
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  /** The first row's number in the whole list (its page's start). */
  offset: number;
  /** The list's name for assistive technology (the card list's, or the table's scrolling region's). */
  label: string;
  /** The table's least width: narrower (a tablet), it scrolls sideways. */
  minWidth: number;
  /** The rows shown are the previous page's while the next one loads. */
  busy?: boolean;
  /** The scrolling box's own settings (the logs keep their scrollbar in view). */
  scroll?: Omit<ScrollAreaProps, 'viewportProps' | 'children'>;
}

/**
 * The rows, as cards on a phone when the columns say where they go on one (`data-layout`
 * says which: 'cards' or 'table'), as a table otherwise.
 */
export function ResponsiveRows<T>(props: ResponsiveRowsProps<T>) {
  const phone = usePhoneLayout();
  const refreshing = props.busy ? { opacity: 0.6 } : undefined;
  if (phone && props.columns.some((c) => c.card === 'title')) {
    return (
      <ul
        className={`${classes.rows} ${classes.list}`}
        style={refreshing}
        aria-label={props.label}
        aria-busy={props.busy || undefined}
        data-layout="cards"
      >
        {props.rows.map((row, i) => (
          <RowCard
            key={props.rowKey(row)}
            row={row}
            index={props.offset + i}
            columns={props.columns}
          />
        ))}
      </ul>
    );
  }
  return (
    <div className={classes.rows} data-layout="table">
      <TableScroll {...props.scroll} label={props.label}>
        <RowsTable
          columns={props.columns}
          rows={props.rows}
          rowKey={props.rowKey}
          offset={props.offset}
          miw={props.minWidth}
          aria-label={props.label}
          aria-busy={props.busy || undefined}
          style={refreshing}
        />
      </TableScroll>
    </div>
  );
}
