/**
 * One chart of the dashboard (issue 35): its title (a heading naming the section), the
 * sentence that says what it shows (the section's description, computed from the data), the
 * graphic, a "Tableau" toggle that shows the same figures as a table (the CSV's columns, in
 * the shared words) and its CSV with the screen's filters.
 *
 * The graphic's code (@mantine/charts, recharts, their CSS) loads on demand, once a chart is
 * first drawn: never with another page.
 */
import { lazy, Suspense, useState } from 'react';
import { Badge, Box, Button, Group, Paper, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Dashboard, DashboardChart, Language } from '@sesame/shared';
import { TableScroll } from '../../../components/TableScroll';
import { serverMessageOf } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';
import { useTranslation } from '../../../lib/i18n';
import { dashboardCsvPath, type DashboardParams } from '../api/dashboard';
import { chartSummary, chartTable, dashboardWords, numberText } from '../lib/dashboard';
import '@mantine/core/styles/Table.css';

const ChartGraphic = lazy(() => import('./DashboardCharts'));

/** The charts whose figures have a median and a 90th percentile: those two, in minutes. */
const SPREAD: Partial<Record<DashboardChart, (d: Dashboard) => [number | null, number | null]>> = {
  visit_lengths: (d) => [d.current.visit_length_median_minutes, d.current.visit_length_p90_minutes],
  decision_times: (d) => [d.current.decision_median_minutes, d.current.decision_p90_minutes],
};

/** The chart's figures as a table: the CSV's header, one row per line, numbers at the right. */
function ChartTableView(props: {
  chart: DashboardChart;
  dashboard: Dashboard;
  lang: Language;
  titleId: string;
  title: string;
}) {
  const { t } = useTranslation('dashboard');
  const table = chartTable(props.dashboard, props.chart, props.lang);
  if (table.rows.length === 0) {
    return (
      <Text py="md" c="dimmed" data-testid="chart-no-rows">
        {t('chart.noRows')}
      </Text>
    );
  }
  return (
    <TableScroll label={t('chart.scroll', { title: props.title })} type="auto">
      <Table
        striped
        withTableBorder
        verticalSpacing="xs"
        aria-labelledby={props.titleId}
        data-testid="chart-table"
        style={{ whiteSpace: 'nowrap' }}
      >
        <Table.Thead>
          <Table.Tr>
            {table.header.map((header, i) => (
              <Table.Th key={header} scope="col" ta={i === 0 ? 'left' : 'right'}>
                {header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {table.rows.map((row, r) => (
            <Table.Tr key={r}>
              {row.map((cell, i) => {
                const text = typeof cell === 'number' ? numberText(cell, props.lang) : (cell ?? '');
                return i === 0 ? (
                  <Table.Th key={i} scope="row" fw={500}>
                    {text}
                  </Table.Th>
                ) : (
                  <Table.Td key={i} ta={typeof cell === 'number' ? 'right' : 'left'}>
                    {text}
                  </Table.Td>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableScroll>
  );
}

export function ChartSection(props: {
  chart: DashboardChart;
  dashboard: Dashboard;
  params: DashboardParams;
  lang: Language;
  /** Larger controls (a phone: 44 px targets). */
  large: boolean;
}) {
  const { chart, dashboard, lang } = props;
  const { t } = useTranslation('dashboard');
  const [tableShown, setTableShown] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const words = dashboardWords(lang);
  const title = words.charts[chart].title;
  const summary = chartSummary(dashboard, chart, lang);
  const sentence = t(`charts.${chart}.${summary.key}`, summary.values);
  const id = `chart-${chart.replace(/_/g, '-')}`;
  const spread = SPREAD[chart];
  const [median, p90] = spread ? spread(dashboard) : [null, null];

  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile(
        dashboardCsvPath(props.params, chart),
        `${words.fileName}-${chart}-${props.params.from}-${props.params.to}.csv`,
      );
    } catch (error) {
      notifications.show({ color: 'red', message: serverMessageOf(error) ?? t('downloadFailed') });
    } finally {
      setDownloading(false);
    }
  };

  const size = props.large ? 'md' : 'xs';
  return (
    <Paper
      component="section"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-summary`}
      data-testid="dashboard-chart"
      data-chart={chart}
      miw={0}
    >
      <Group justify="space-between" align="flex-start" gap="xs" mb={4}>
        <Title order={2} size="h4" id={`${id}-title`} style={{ flex: '1 1 12rem' }}>
          {title}
        </Title>
        <Group gap="xs" wrap="nowrap">
          <Button
            size={size}
            h={props.large ? 44 : undefined}
            variant={tableShown ? 'filled' : 'default'}
            aria-pressed={tableShown}
            aria-label={t('chart.tableLabel', { title })}
            onClick={() => setTableShown((shown) => !shown)}
            data-testid="chart-table-toggle"
          >
            {t('chart.table')}
          </Button>
          <Button
            size={size}
            h={props.large ? 44 : undefined}
            variant="default"
            loading={downloading}
            aria-label={t('chart.csvLabel', { title })}
            onClick={() => void download()}
            data-testid="chart-csv"
          >
            {t('chart.csv')}
          </Button>
        </Group>
      </Group>
      <Text size="sm" id={`${id}-summary`} mb="xs" data-testid="chart-summary">
        {sentence}
      </Text>
      {spread && median !== null && p90 !== null && (
        <Group gap="xs" mb="xs">
          <Badge variant="light" color="gray" size="lg" tt="none" fw={600}>
            {t('chart.median', { value: numberText(median, lang) })}
          </Badge>
          <Badge variant="light" color="gray" size="lg" tt="none" fw={600}>
            {t('chart.p90', { value: numberText(p90, lang) })}
          </Badge>
        </Group>
      )}
      {tableShown ? (
        <ChartTableView
          chart={chart}
          dashboard={dashboard}
          lang={lang}
          titleId={`${id}-title`}
          title={title}
        />
      ) : (
        // A picture of the sentence above and of the table: hidden from assistive technology.
        <Box aria-hidden="true" data-testid="chart-graphic" miw={0}>
          <Suspense fallback={<Box h={260} />}>
            <ChartGraphic
              chart={chart}
              dashboard={dashboard}
              lang={lang}
              legend={[t('heatmap.less'), t('heatmap.more')]}
            />
          </Suspense>
        </Box>
      )}
    </Paper>
  );
}
