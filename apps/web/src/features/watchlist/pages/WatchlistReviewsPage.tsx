/**
 * `/{domain}/watchlist-reviews` (issue 31): the visits the watchlist held, for a reviewer to
 * allow once or deny, each with a reason. Who the visitor is, at which site, where the match
 * was caught, what matched (an exact identifier, or the name at a similarity) and the entry
 * it matched. The live feed brings a new hold without a reload, shown and announced at once;
 * a decision (here or elsewhere) and a reconnection refresh the list.
 */
import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  CloseButton,
  Container,
  Group,
  SegmentedControl,
  Stack,
  Text,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import {
  HOLD_STATUSES,
  type HoldDecision,
  type HoldStatus,
  type WatchlistHold,
} from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { QueryState } from '../../../components/QueryState';
import { serverMessageOf } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { playChime, useLiveFeed, useThrottledInvalidate } from '../../../lib/live';
import { useSiteChoice } from '../../../lib/site';
import { toastDone, useInlineEdit } from '../../../lib/use-inline-edit';
import { LiveBadge } from '../../on-site/components/LiveBadge';
import { decideHold, useHolds, watchlistKeys } from '../api/watchlist';
import { DecisionModal } from '../components/DecisionModal';
import { entryName, matchLabel } from '../lib/watchlist';

const STATUS_COLORS: Record<HoldStatus, { color: string; c: string }> = {
  pending: { color: 'orange', c: 'orange.9' },
  allowed: { color: 'teal', c: 'teal.9' },
  denied: { color: 'red', c: 'red.9' },
};

export default function WatchlistReviewsPage() {
  const { t, i18n } = useTranslation(['watchlist', 'onSite']);
  const { domain = '' } = useParams();
  const queryClient = useQueryClient();
  const choice = useSiteChoice();
  const site = choice.siteId;
  const [status, setStatus] = useState<HoldStatus>('pending');
  const [alertCount, setAlertCount] = useState(0);
  const holds = useHolds(domain, { status, site });
  const refresh = useThrottledInvalidate([watchlistKeys.holds(domain)]);

  const live = useLiveFeed({
    site,
    onEvent: (event) => {
      if (event.type !== 'watchlist') return;
      if (event.op === 'held') {
        setAlertCount((n) => n + 1);
        playChime();
      }
      refresh();
    },
    onResync: refresh,
  });

  const [deciding, setDeciding] = useState<'allow' | 'deny'>('allow');
  const decide = useInlineEdit<WatchlistHold, HoldDecision>({
    t,
    save: async (input, editing) => {
      if (editing?.mode !== 'edit') return;
      const answer = await decideHold(domain, editing.record.id, input);
      toastDone(answer, input.decision === 'allow' ? t('reviews.allowed') : t('reviews.denied'));
      await queryClient.invalidateQueries({ queryKey: watchlistKeys.holds(domain) });
    },
  });
  const openDecision = (hold: WatchlistHold, decision: 'allow' | 'deny') => {
    setDeciding(decision);
    decide.openEdit(hold);
  };

  const siteZone = (siteId: string) => choice.sites.find((s) => s.id === siteId)?.timezone;
  const when = (iso: string, siteId: string) =>
    formatDateTime(iso, siteZone(siteId), i18n.language);
  const visitorName = (hold: WatchlistHold) =>
    `${hold.visitor.firstname} ${hold.visitor.lastname}`.trim() || hold.visitor.email;

  const card = (hold: WatchlistHold) => {
    const matched = matchLabel(hold.matched_on, hold.similarity);
    const headingId = `hold-${hold.id}`;
    return (
      <Card
        key={hold.id}
        withBorder
        radius="md"
        padding="md"
        component="article"
        aria-labelledby={headingId}
        data-testid="watchlist-hold"
      >
        <Stack gap="xs">
          <Group justify="space-between" align="flex-start">
            <Stack gap={0}>
              <Text component="h2" fw={700} size="lg" id={headingId}>
                {visitorName(hold)}
              </Text>
              <Text size="sm" c="dimmed">
                {[hold.visitor.email, hold.visitor.organisation].filter(Boolean).join(' · ')}
              </Text>
            </Stack>
            <Badge {...STATUS_COLORS[hold.status]} variant="light" data-status={hold.status}>
              {t(`reviews.status.${hold.status}`)}
            </Badge>
          </Group>
          <dl
            style={{
              margin: 0,
              display: 'grid',
              gridTemplateColumns: 'max-content 1fr',
              gap: '4px 12px',
            }}
          >
            <Text component="dt" size="sm" fw={600}>
              {t('reviews.site')}
            </Text>
            <Text component="dd" size="sm" m={0}>
              {hold.site_name}
            </Text>
            <Text component="dt" size="sm" fw={600}>
              {t('reviews.caught')}
            </Text>
            <Text component="dd" size="sm" m={0} data-testid="hold-source">
              {t(`reviews.source.${hold.source}`)} · {when(hold.created_at, hold.site_id)}
            </Text>
            <Text component="dt" size="sm" fw={600}>
              {t('reviews.matched')}
            </Text>
            <Text component="dd" size="sm" m={0} data-testid="hold-matched">
              {t(matched.key, matched.values)}
            </Text>
            <Text component="dt" size="sm" fw={600}>
              {t('reviews.entry')}
            </Text>
            <Text component="dd" size="sm" m={0} style={{ whiteSpace: 'pre-line' }}>
              {hold.entry
                ? t('reviews.entryLine', {
                    name: entryName(hold.entry) || t('noName'),
                    reason: hold.entry.reason,
                  })
                : t('reviews.entryRemoved')}
            </Text>
            {hold.status !== 'pending' && (
              <>
                <Text component="dt" size="sm" fw={600}>
                  {t('reviews.decision')}
                </Text>
                <Text component="dd" size="sm" m={0} style={{ whiteSpace: 'pre-line' }}>
                  {t('reviews.decisionLine', {
                    who: hold.decided_by ?? t('reviews.someone'),
                    date: hold.decided_at ? when(hold.decided_at, hold.site_id) : '',
                    reason: hold.decision_reason ?? '',
                  })}
                </Text>
              </>
            )}
          </dl>
          {hold.status === 'pending' && (
            <Group>
              <Button
                color="teal"
                c="teal.9"
                variant="light"
                onClick={() => openDecision(hold, 'allow')}
                aria-label={t('reviews.allowOf', { name: visitorName(hold) })}
              >
                {t('reviews.allow')}
              </Button>
              <Button
                color="red"
                c="red.9"
                variant="light"
                onClick={() => openDecision(hold, 'deny')}
                aria-label={t('reviews.denyOf', { name: visitorName(hold) })}
              >
                {t('reviews.deny')}
              </Button>
            </Group>
          )}
        </Stack>
      </Card>
    );
  };

  return (
    <Container size="lg">
      <Group justify="space-between" align="center" mb="sm">
        <PageTitle mb={0}>{t('reviews.title')}</PageTitle>
        <LiveBadge status={live} />
      </Group>
      <Text c="dimmed" size="sm" mb="md">
        {t('reviews.intro')}
      </Text>
      {/* Always in the page, so a new hold is announced as its text arrives. */}
      <div aria-live="assertive" aria-atomic="true" data-testid="watchlist-alert">
        {alertCount > 0 && (
          <Alert
            color="red"
            variant="filled"
            mb="md"
            title={t('reviews.alert.title', { count: alertCount })}
            withCloseButton={false}
          >
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm">{t('reviews.alert.body')}</Text>
              <CloseButton
                aria-label={t('reviews.alert.dismiss')}
                onClick={() => setAlertCount(0)}
                variant="transparent"
                c="white"
              />
            </Group>
          </Alert>
        )}
      </div>
      <SegmentedControl
        value={status}
        onChange={(value) => setStatus(value as HoldStatus)}
        data={HOLD_STATUSES.map((s) => ({ value: s, label: t(`reviews.filter.${s}`) }))}
        aria-label={t('reviews.filter.label')}
        mb="md"
      />
      <QueryState
        query={holds}
        errorText={(error) => serverMessageOf(error) ?? t('reviews.loadFailed')}
        isEmpty={(rows) => rows.length === 0}
        empty={t(`reviews.empty.${status}`)}
      >
        {(rows) => <Stack gap="md">{rows.map(card)}</Stack>}
      </QueryState>
      {decide.record && (
        <DecisionModal
          key={`${decide.record.id}-${deciding}`}
          hold={decide.record}
          decision={deciding}
          feedback={decide.feedback}
          onSubmit={decide.submit}
          onClose={decide.close}
        />
      )}
    </Container>
  );
}
