/** Whether the screen hears the live feed: live, connecting, interrupted, or reconnecting. */
import { Badge } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import type { LiveStatus } from '../../../lib/live';

/** Interrupted is the one to notice: the list may be out of date. */
const LIVE_COLORS: Record<LiveStatus, string> = {
  live: 'green.9',
  connecting: 'gray.7',
  offline: 'orange.9',
  interrupted: 'red.9',
};

export function LiveBadge({ status }: { status: LiveStatus }) {
  const { t } = useTranslation('onSite');
  const color = LIVE_COLORS[status];
  return (
    <Badge
      color={color}
      variant="filled"
      size="lg"
      role="status"
      data-live={status}
      style={{ flexShrink: 0 }}
    >
      {t(`live.${status}`)}
    </Badge>
  );
}
