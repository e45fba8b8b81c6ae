/**
 * A visitor's badge from the front desk (issue 29), on the request list's confirmed rows and
 * the on-site list's visitors: 'Badge' opens 'Imprimer' (the browser's print dialog, then the
 * print recorded) and, when the visit's site has a badge printer, 'Envoyer à l'imprimante'
 * (the server sends it over IPP). A badge printed before says 'Réimprimer': its prints are
 * asked for as the menu opens.
 */
import { useState } from 'react';
import { Button, Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError, serverMessageOf } from '../lib/api-client';
import {
  badgePrintsKey,
  fetchBadgeHtml,
  latestPrint,
  recordBadgePrint,
  useBadgePrints,
  type BadgeVia,
} from '../lib/badges';
import { formatDateTime } from '../lib/format';
import { useTranslation } from '../lib/i18n';
import { printHtml } from '../lib/print-html';
import { useCompanySites } from '../lib/site';
import { withZone } from '../lib/zone-label';

export interface BadgeButtonProps {
  /** The visit request the badge is for. */
  requestId: string;
  /** The visitor's name (the button's accessible name, the print frame's title). */
  name: string;
  /** The request's company (id or slug): its sites say which has a printer. */
  company: string;
  /** The visit's site. */
  site: { id: string; timezone?: string } | null;
  /** A larger button (the on-site cards, used on a phone). */
  size?: 'xs' | 'sm' | 'md';
}

export function BadgeButton(props: BadgeButtonProps) {
  // Rendered in lists: the words arrive without holding the list back.
  const { t, i18n, ready } = useTranslation('badges', { useSuspense: false });
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const [busy, setBusy] = useState<BadgeVia | null>(null);
  const prints = useBadgePrints(props.requestId, opened);
  const sites = useCompanySites(props.company, { enabled: opened && !!props.site });
  const printer = sites.data?.find((site) => site.id === props.site?.id)?.badge_printer_url;
  const latest = latestPrint(prints.data);
  if (!ready) return null;

  const done = (message: string | undefined, reprint: boolean) => {
    notifications.show({
      color: 'teal',
      message: message ?? t(reprint ? 'reprinted' : 'printed'),
    });
    void queryClient.invalidateQueries({ queryKey: badgePrintsKey(props.requestId) });
  };
  const failed = (error: unknown) =>
    notifications.show({ color: 'red', message: serverMessageOf(error) ?? t('failed') });

  const print = async (via: BadgeVia) => {
    if (busy) return;
    setBusy(via);
    try {
      if (via === 'browser') {
        const html = await fetchBadgeHtml(props.requestId);
        await printHtml(html, t('buttonOf', { name: props.name }));
        try {
          const answer = await recordBadgePrint(props.requestId, 'browser');
          done(answer.message, answer.data.reprint);
        } catch (error) {
          // The page went to the dialog: only the record is missing, and it says so.
          notifications.show({
            color: 'orange',
            message: serverMessageOf(error) ?? t('notRecorded'),
          });
        }
      } else {
        const answer = await recordBadgePrint(props.requestId, 'ipp');
        done(answer.message, answer.data.reprint);
      }
    } catch (error) {
      failed(error);
      // A request no longer confirmed, or gone: its prints are asked again next time.
      if (error instanceof ApiError) {
        void queryClient.invalidateQueries({ queryKey: badgePrintsKey(props.requestId) });
      }
    } finally {
      setBusy(null);
    }
  };

  const printedBefore = !!latest;
  return (
    <Menu
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      withinPortal
      shadow="md"
      // Mantine's focus placeholder (a focusable role="presentation" div) is a child the
      // 'menu' role may not hold (axe aria-required-children); the arrows reach the items.
      withInitialFocusPlaceholder={false}
    >
      <Menu.Target>
        <Button
          size={props.size ?? 'xs'}
          variant="light"
          loading={busy !== null}
          aria-label={t('buttonOf', { name: props.name })}
          data-testid="badge-button"
        >
          {t('button')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown data-testid="badge-menu">
        {prints.isPending ? (
          <Menu.Label>{t('loading')}</Menu.Label>
        ) : (
          latest && (
            <Menu.Label>
              {t('lastPrint', {
                date: withZone(
                  formatDateTime(latest.at, props.site?.timezone, i18n.language),
                  props.site?.timezone,
                  i18n.language,
                ),
              })}
            </Menu.Label>
          )
        )}
        <Menu.Item onClick={() => void print('browser')} data-testid="badge-print">
          {t(printedBefore ? 'reprint' : 'print')}
        </Menu.Item>
        {printer && (
          <Menu.Item onClick={() => void print('ipp')} data-testid="badge-send">
            {t(printedBefore ? 'resendToPrinter' : 'sendToPrinter')}
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
