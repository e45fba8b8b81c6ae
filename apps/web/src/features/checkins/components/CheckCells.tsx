import { Badge, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import type { CheckMethod, CheckUndoFields, SiteRef } from '@sesame/shared';
import { UndoCheckButton, UndoneNote } from '../../../components/UndoCheck';
import { formatDateTime } from '../../../lib/format';
import { withZone } from '../../../lib/zone-label';
import type { LogColumn } from './LogTable';

/**
 * A check's time, and underneath how and by whom it was recorded. `siteZone` (issue 28):
 * the check's site's zone, which the time is read in, said when not the reader's.
 */
export function CheckTime({
  at,
  method,
  by,
  timeZone,
  siteZone,
}: {
  at: string;
  method: CheckMethod | null;
  by: string | null;
  timeZone: string;
  siteZone?: string;
}) {
  const { t, i18n } = useTranslation('checkinLogs');
  const how = method ? t(`methods.${method}`) : null;
  return (
    <Stack gap={2}>
      <Text size="sm">
        {withZone(formatDateTime(at, siteZone ?? timeZone, i18n.language), siteZone, i18n.language)}
      </Text>
      {how && (
        <Text size="xs" c="dimmed">
          {by ? t('recordedHowBy', { method: how, by }) : t('recordedHow', { method: how })}
        </Text>
      )}
    </Stack>
  );
}

/** The check-out cell: its time, or 'Sur place' while the person has not left. */
export function CheckOutTime(props: {
  at: string | null;
  method: CheckMethod | null;
  by: string | null;
  timeZone: string;
  siteZone?: string;
}) {
  const { t } = useTranslation('checkinLogs');
  if (!props.at) {
    return (
      <Badge color="teal" variant="light" c="teal.9">
        {t('onSite')}
      </Badge>
    );
  }
  return <CheckTime {...props} at={props.at} />;
}

/** The fields of a log row that say when, how and by whom a person came and left. */
interface CheckFields extends CheckUndoFields {
  id: string;
  check_in_time: string;
  check_in_method: CheckMethod;
  check_in_by: string | null;
  check_out_time: string | null;
  check_out_method: CheckMethod | null;
  check_out_by: string | null;
  /** Where the check was made (issue 28): its times are read in its zone. */
  site?: SiteRef | null;
}

/** An undone check reads struck through (issue 14): it stays in the history. */
const struck = { textDecoration: 'line-through' } as const;

/** A departure undone (the person was inside again): its time struck through, who and why. */
function DepartureUndone({
  undo,
  timeZone,
}: {
  undo: NonNullable<CheckUndoFields['departure_undone']>;
  timeZone: string;
}) {
  const { t, i18n } = useTranslation('common');
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" style={struck}>
        {t('undo.departureUndone', {
          time: formatDateTime(undo.departure_time, timeZone, i18n.language),
        })}
      </Text>
      <UndoneNote by={undo.by} reason={undo.reason} />
    </Stack>
  );
}

/** The site column (issue 28): shown when every site of a company of several is listed. */
export function siteColumn<T extends { site: SiteRef }>(header: string): LogColumn<T> {
  return { key: 'site', header, render: (row) => row.site.name, card: 'wide' };
}

/**
 * The check-in and check-out columns every log shows alike; an undone arrival struck
 * through with who undid it and why, an undone departure kept under the check-out, and
 * 'Annuler' on a check still within the undo window. `nameOf` names the person.
 */
export function checkColumns<T extends CheckFields>(
  headers: { checkIn: string; checkOut: string },
  timeZone: string,
  nameOf: (row: T) => string = () => '',
): LogColumn<T>[] {
  return [
    {
      key: 'checkIn',
      header: headers.checkIn,
      render: (row) => (
        <Stack gap={2} style={row.undone ? struck : undefined}>
          <CheckTime
            at={row.check_in_time}
            method={row.check_in_method}
            by={row.check_in_by}
            timeZone={timeZone}
            siteZone={row.site?.timezone}
          />
        </Stack>
      ),
    },
    {
      key: 'checkOut',
      header: headers.checkOut,
      render: (row) =>
        row.undone ? (
          <UndoneNote by={row.undone.by} reason={row.undone.reason} />
        ) : (
          <Stack gap={4} align="flex-start">
            <CheckOutTime
              at={row.check_out_time}
              method={row.check_out_method}
              by={row.check_out_by}
              timeZone={timeZone}
              siteZone={row.site?.timezone}
            />
            {row.departure_undone && (
              <DepartureUndone
                undo={row.departure_undone}
                timeZone={row.site?.timezone ?? timeZone}
              />
            )}
            <UndoCheckButton
              checkId={row.id}
              madeAt={row.check_out_time ?? row.check_in_time}
              name={nameOf(row)}
            />
          </Stack>
        ),
    },
  ];
}
