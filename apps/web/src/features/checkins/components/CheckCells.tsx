import { Anchor, Badge, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CheckMethod } from '@sesame/shared';
import { ImageModal } from '../../../components/ImageModal';
import { formatDateTime } from '../../../lib/format';
import type { LogColumn } from './LogTable';

/** A check's time, and underneath how and by whom it was recorded. */
export function CheckTime({
  at,
  method,
  by,
  timeZone,
}: {
  at: string;
  method: CheckMethod | null;
  by: string | null;
  timeZone: string;
}) {
  const { t, i18n } = useTranslation('checkinLogs');
  const how = method ? t(`methods.${method}`) : null;
  return (
    <Stack gap={2}>
      <Text size="sm">{formatDateTime(at, timeZone, i18n.language)}</Text>
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

/** An identity image or photo opening full size in a modal; a PDF opens in a new tab. */
export function LogImage({
  src,
  type,
  alt,
}: {
  src: string | null;
  type: string | null;
  alt: string;
}) {
  const { t } = useTranslation();
  if (src && type === 'application/pdf') {
    return (
      <Anchor href={src} target="_blank" rel="noreferrer" size="sm">
        {t('openDocument')}
      </Anchor>
    );
  }
  return <ImageModal src={src} alt={alt} />;
}

/** The fields of a log row that say when, how and by whom a person came and left. */
interface CheckFields {
  check_in_time: string;
  check_in_method: CheckMethod;
  check_in_by: string | null;
  check_out_time: string | null;
  check_out_method: CheckMethod | null;
  check_out_by: string | null;
}

/** The check-in and check-out columns every log shows alike. */
export function checkColumns<T extends CheckFields>(
  headers: { checkIn: string; checkOut: string },
  timeZone: string,
): LogColumn<T>[] {
  return [
    {
      key: 'checkIn',
      header: headers.checkIn,
      render: (row) => (
        <CheckTime
          at={row.check_in_time}
          method={row.check_in_method}
          by={row.check_in_by}
          timeZone={timeZone}
        />
      ),
    },
    {
      key: 'checkOut',
      header: headers.checkOut,
      render: (row) => (
        <CheckOutTime
          at={row.check_out_time}
          method={row.check_out_method}
          by={row.check_out_by}
          timeZone={timeZone}
        />
      ),
    },
  ];
}
