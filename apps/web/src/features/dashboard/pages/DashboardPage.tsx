/**
 * The dashboard (issue 35): the building's figures for a period beside the period before
 * it, and the charts behind them — for the platform's admin (the company the URL names),
 * the company's super admin, managers and supervisors (STAFF_PAGE_ACTIONS: dashboard.view).
 *
 * Filters: the period (today, 7 days — the default —, 30 days, or two dates) and the site
 * (the header's site choice, lib/site.tsx: the same choice on every staff screen). "Sur
 * place maintenant" follows the live feed: a presence event of the scope refetches the
 * dashboard, at most once every two seconds. Each chart says in a sentence what it shows,
 * shows its figures as a table on demand and downloads them as CSV (ChartSection).
 */
import { useEffect, useRef, useState } from 'react';
import {
  Button,
  Container,
  Group,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import {
  DASHBOARD_CHARTS,
  DASHBOARD_PERIODS,
  actsOnAllCompanies,
  asLanguage,
  isIsoDate,
  type DashboardPeriod,
} from '@sesame/shared';
import { DateField } from '../../../components/DateField';
import { PageTitle } from '../../../components/PageTitle';
import { QueryState } from '../../../components/QueryState';
import { serverMessageOf } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useCompany } from '../../../lib/company';
import { downloadFile } from '../../../lib/download';
import { todayIn } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useListSite } from '../../../lib/list-site';
import { useLiveFeed, useThrottledInvalidate } from '../../../lib/live';
import { ALL_SITES, allowsAllSites, useSiteChoice } from '../../../lib/site';
import { useNow } from '../../../lib/use-now';
import { LiveBadge } from '../../on-site/components/LiveBadge';
import {
  dashboardCsvPath,
  dashboardKeys,
  dashboardQueryOptions,
  type DashboardParams,
} from '../api/dashboard';
import { ChartSection } from '../components/ChartSection';
import { FigureCards } from '../components/FigureCards';
import {
  dashboardWords,
  dayInText,
  periodErrorText,
  resolvePeriod,
  typedOf,
  type PeriodChoice,
} from '../lib/dashboard';
import '@mantine/core/styles/SimpleGrid.css';

/** A live refetch at most this often: a busy desk's scans do not refetch at each one. */
const LIVE_REFRESH_MS = 2_000;

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The header's site choice, on the screen itself: every site or one (shown with several). */
function SitePicker({ large }: { large: boolean }) {
  const { t } = useTranslation('dashboard');
  const { sites, siteId, setSiteId, multi } = useSiteChoice();
  if (!multi) return null;
  const data = [
    ...(allowsAllSites(sites, false) ? [{ value: ALL_SITES, label: t('filters.allSites') }] : []),
    ...sites.map((site) => ({ value: site.id, label: site.name })),
  ];
  return (
    <Select
      label={t('filters.site')}
      size={large ? 'md' : 'sm'}
      data={data}
      value={siteId ?? ALL_SITES}
      onChange={(value) => setSiteId(!value || value === ALL_SITES ? undefined : value)}
      allowDeselect={false}
      checkIconPosition="right"
      w={{ base: '100%', sm: 220 }}
      data-testid="dashboard-site"
    />
  );
}

/** What the live region says when "Sur place maintenant" changes for the same filters. */
function useOnSiteAnnouncement(value: number | undefined, key: string): string {
  const { t } = useTranslation('dashboard');
  const [said, setSaid] = useState('');
  const previous = useRef<{ key: string; value: number } | null>(null);
  useEffect(() => {
    if (value === undefined) return;
    const before = previous.current;
    previous.current = { key, value };
    if (before && before.key === key && before.value !== value)
      setSaid(t('live.announce', { count: value }));
  }, [value, key, t]);
  return said;
}

/** The period a link names (two real days, ?from=&to=), else the last 7 days. */
function linkedPeriod(params: URLSearchParams): PeriodChoice {
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  return isIsoDate(from) && isIsoDate(to)
    ? { period: 'range', from: typedOf(from), to: typedOf(to) }
    : { period: '7d', from: '', to: '' };
}

export default function DashboardPage() {
  const { t, i18n } = useTranslation('dashboard');
  const lang = asLanguage(i18n.language.slice(0, 2));
  const words = dashboardWords(lang);
  const { role } = useAuth();
  const { domain } = useParams();
  // The platform's admin reads the company the URL names, as its other pages do (the
  // header's sites are that company's); everyone else reads their own.
  const company = role && actsOnAllCompanies(role, 'dashboard.view') ? domain : undefined;
  const { site, zone } = useListSite();
  const companyZone = useCompany(domain).data?.timezone;
  const large = useMediaQuery('(max-width: 36em)') ?? false;
  // "Today" is the chosen site's day, else the company's, else the browser's.
  const today = todayIn(zone ?? companyZone ?? browserZone(), useNow(60_000));

  // A link (the weekly summary mail's) may name the period and the site: ?from=&to=&site=.
  const [searchParams] = useSearchParams();
  const [choice, setChoice] = useState<PeriodChoice>(() => linkedPeriod(searchParams));
  const { sites, setSiteId } = useSiteChoice();
  const linkedSite = searchParams.get('site');
  const linkedSiteKnown = !!linkedSite && sites.some((s) => s.id === linkedSite);
  useEffect(() => {
    if (linkedSite && linkedSiteKnown) setSiteId(linkedSite);
  }, [linkedSite, linkedSiteKnown, setSiteId]);
  const resolved = resolvePeriod(choice, today);
  const params: DashboardParams | undefined = resolved.ok
    ? { company, site, from: resolved.from, to: resolved.to }
    : undefined;
  const query = useQuery({
    ...dashboardQueryOptions(params ?? { from: today, to: today }, lang),
    enabled: !!params,
    placeholderData: keepPreviousData,
  });

  const choosePeriod = (period: DashboardPeriod) => {
    // Two dates start from the period on screen.
    if (period === 'range' && choice.period !== 'range' && resolved.ok)
      setChoice({ period, from: typedOf(resolved.from), to: typedOf(resolved.to) });
    else setChoice({ ...choice, period });
  };

  // Someone arrived or left in the scope: the figures (on site now first) are read again.
  const refresh = useThrottledInvalidate([dashboardKeys.all], LIVE_REFRESH_MS);
  const status = useLiveFeed({
    company,
    site,
    onEvent: (event) => {
      if (event.type === 'presence' && event.table === 'visitor') refresh();
    },
    onResync: refresh,
  });
  const announcement = useOnSiteAnnouncement(
    query.isPlaceholderData ? undefined : query.data?.on_site_now,
    JSON.stringify(params ?? null),
  );

  const [downloading, setDownloading] = useState(false);
  const downloadFigures = async () => {
    if (!params) return;
    setDownloading(true);
    try {
      await downloadFile(
        dashboardCsvPath(params),
        `${words.fileName}-${params.from}-${params.to}.csv`,
      );
    } catch (error) {
      notifications.show({ color: 'red', message: serverMessageOf(error) ?? t('downloadFailed') });
    } finally {
      setDownloading(false);
    }
  };

  const fieldError = (field: 'from' | 'to') =>
    !resolved.ok && resolved.field === field ? periodErrorText(resolved.error, words) : undefined;

  return (
    <Container size="xl" px="sm">
      <Group justify="space-between" align="center" mb="sm">
        <PageTitle mb={0}>{t('title')}</PageTitle>
        <LiveBadge status={status} />
      </Group>
      {/* Always in the page, so assistive technology hears each change of its text. */}
      <VisuallyHidden role="status" aria-live="polite" data-testid="dashboard-announcement">
        {announcement}
      </VisuallyHidden>

      <Paper
        withBorder
        radius="md"
        p={{ base: 'sm', sm: 'md' }}
        mb="md"
        role="group"
        aria-label={t('filters.label')}
      >
        <Group align="flex-end" gap="md" wrap="wrap">
          <Stack gap={4} w={{ base: '100%', sm: 'auto' }}>
            <Text size="sm" fw={500} id="dashboard-period-label">
              {t('filters.period')}
            </Text>
            <SegmentedControl
              aria-labelledby="dashboard-period-label"
              name="dashboard-period"
              size={large ? 'md' : 'sm'}
              // A phone has no room for four choices side by side: one under the other.
              orientation={large ? 'vertical' : 'horizontal'}
              fullWidth={large}
              styles={large ? { label: { paddingBlock: 10 } } : undefined}
              value={choice.period}
              onChange={(value) => choosePeriod(value as DashboardPeriod)}
              data={DASHBOARD_PERIODS.map((period) => ({
                value: period,
                label: t(`filters.periods.${period}`),
              }))}
              data-testid="dashboard-period"
            />
          </Stack>
          {choice.period === 'range' && (
            <Group gap="sm" align="flex-start" wrap="wrap" w={{ base: '100%', sm: 'auto' }}>
              <DateField
                label={t('filters.from')}
                value={choice.from}
                onChange={(from) => setChoice({ ...choice, from })}
                calendarLabel={t('filters.calendar')}
                language={lang}
                error={fieldError('from')}
                size={large ? 'md' : 'sm'}
                w={{ base: '100%', xs: 170 }}
                data-testid="dashboard-from"
              />
              <DateField
                label={t('filters.to')}
                value={choice.to}
                onChange={(to) => setChoice({ ...choice, to })}
                calendarLabel={t('filters.calendar')}
                language={lang}
                error={fieldError('to')}
                size={large ? 'md' : 'sm'}
                w={{ base: '100%', xs: 170 }}
                data-testid="dashboard-to"
              />
            </Group>
          )}
          <SitePicker large={large} />
          <Button
            variant="default"
            size={large ? 'md' : 'sm'}
            h={large ? 44 : undefined}
            ml={{ base: 0, md: 'auto' }}
            fullWidth={large}
            loading={downloading}
            disabled={!params}
            aria-label={t('figuresCsvLabel')}
            onClick={() => void downloadFigures()}
            data-testid="dashboard-figures-csv"
          >
            {t('figuresCsv')}
          </Button>
        </Group>
      </Paper>

      <QueryState query={query} errorText={(error) => serverMessageOf(error) ?? t('loadFailed')}>
        {(dashboard) => (
          <>
            <Text size="sm" mb={4} data-testid="dashboard-period-line">
              {t('periodLine', {
                from: dayInText(dashboard.period.from, lang),
                to: dayInText(dashboard.period.to, lang),
                previousFrom: dayInText(dashboard.previous_period.from, lang),
                previousTo: dayInText(dashboard.previous_period.to, lang),
              })}
            </Text>
            {dashboard.sites.length > 0 && (
              <Text size="sm" c="dimmed" mb="md">
                {t('sitesLine', { sites: dashboard.sites.map((s) => s.name).join(', ') })}
              </Text>
            )}
            <FigureCards dashboard={dashboard} lang={lang} />
            <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
              {DASHBOARD_CHARTS.map((chart) => (
                <ChartSection
                  key={chart}
                  chart={chart}
                  dashboard={dashboard}
                  params={{
                    company,
                    site,
                    from: dashboard.period.from,
                    to: dashboard.period.to,
                  }}
                  lang={lang}
                  large={large}
                />
              ))}
            </SimpleGrid>
          </>
        )}
      </QueryState>
    </Container>
  );
}
