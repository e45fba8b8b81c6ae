/** Whether the screen hears the live feed: live, connecting, or reconnecting. */
import { Badge } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import type { LiveStatus } from '../../../lib/live';

export function LiveBadge({ status }: { status: LiveStatus }) {
  const { t } = useTranslation('onSite');
  const color = status === 'live' ? 'green.9' : status === 'connecting' ? 'gray.7' : 'orange.9';
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
