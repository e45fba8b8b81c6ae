/**
 * The dashboard's figures (issue 35), one card each: the value of the period, the previous
 * period's beside it and the change, said in words (never by a colour or an arrow alone).
 * First the two live ones: visitors on site now (it follows the live feed) and today's peak.
 */
import type { ReactNode } from 'react';
import { Paper, SimpleGrid, Text, VisuallyHidden } from '@mantine/core';
import { DASHBOARD_FIGURES, type Dashboard, type Language } from '@sesame/shared';
import { useTranslation } from '../../../lib/i18n';
import { changeOf, dashboardWords, numberText } from '../lib/dashboard';
import '@mantine/core/styles/SimpleGrid.css';

function Value({ value, lang }: { value: number | null; lang: Language }) {
  const { t } = useTranslation('dashboard');
  if (value === null)
    return (
      <>
        <span aria-hidden="true">{t('card.none')}</span>
        <VisuallyHidden>{t('card.noneLabel')}</VisuallyHidden>
      </>
    );
  return <>{numberText(value, lang)}</>;
}

function Card(props: {
  label: string;
  value: number | null;
  lang: Language;
  testId: string;
  children?: ReactNode;
  highlight?: boolean;
}) {
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      data-testid={props.testId}
      bg={props.highlight ? 'var(--mantine-color-blue-light)' : undefined}
    >
      <Text size="sm" fw={600} lh={1.3}>
        {props.label}
      </Text>
      <Text fz={30} fw={800} lh={1.2} data-testid="figure-value">
        <Value value={props.value} lang={props.lang} />
      </Text>
      {props.children}
    </Paper>
  );
}

/** "Période précédente : 12 · En hausse de 3 (25 %)". */
function Previous(props: { current: number | null; previous: number | null; lang: Language }) {
  const { t } = useTranslation('dashboard');
  const n = (value: number) => numberText(value, props.lang);
  const change = changeOf(props.current, props.previous);
  let said = '';
  if (change) {
    const delta = n(Math.abs(change.delta));
    const percent = change.percent === null ? null : n(Math.abs(change.percent));
    if (change.delta === 0) said = t('card.unchanged');
    else if (change.delta > 0)
      said = percent === null ? t('card.up', { delta }) : t('card.upPercent', { delta, percent });
    else
      said =
        percent === null ? t('card.down', { delta }) : t('card.downPercent', { delta, percent });
  }
  return (
    <>
      <Text size="sm" data-testid="figure-previous">
        {t('card.previous', {
          value: props.previous === null ? t('card.none') : n(props.previous),
        })}
      </Text>
      {said && (
        <Text size="sm" c="dimmed" data-testid="figure-change">
          {said}
        </Text>
      )}
    </>
  );
}

export function FigureCards({ dashboard, lang }: { dashboard: Dashboard; lang: Language }) {
  const { t } = useTranslation('dashboard');
  const words = dashboardWords(lang);
  return (
    <SimpleGrid
      cols={{ base: 1, xs: 2, md: 3, lg: 5 }}
      spacing="sm"
      mb="lg"
      role="group"
      aria-label={t('figuresLabel')}
      data-testid="dashboard-figures"
    >
      <Card
        label={t('live.onSiteNow')}
        value={dashboard.on_site_now}
        lang={lang}
        testId="figure-on_site_now"
        highlight
      >
        <Text size="sm">{t('live.onSiteNowHint')}</Text>
      </Card>
      <Card
        label={t('live.peakToday')}
        value={dashboard.peak_today}
        lang={lang}
        testId="figure-peak_today"
      >
        <Text size="sm">{t('live.peakTodayHint')}</Text>
      </Card>
      {DASHBOARD_FIGURES.map((figure) => (
        <Card
          key={figure}
          label={words.figures[figure]}
          value={dashboard.current[figure]}
          lang={lang}
          testId={`figure-${figure}`}
        >
          <Previous
            current={dashboard.current[figure]}
            previous={dashboard.previous[figure]}
            lang={lang}
          />
        </Card>
      ))}
    </SimpleGrid>
  );
}
