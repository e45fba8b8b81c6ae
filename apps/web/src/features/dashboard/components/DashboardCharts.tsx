/**
 * The dashboard's charts (issue 35), drawn with @mantine/charts (recharts underneath) and the
 * charts' CSS: this module is the only one that imports them, and the dashboard loads it on
 * demand (React.lazy), so neither reaches any other page (test/public-bundle.test.ts).
 *
 * Each graphic is a picture of its section's sentence and table (ChartSection): it is hidden
 * from assistive technology and holds nothing focusable (recharts' keyboard layer is off);
 * the sentence names what it shows and the "Tableau" toggle gives its figures.
 */
import { Box } from '@mantine/core';
import { BarChart, MatrixChart, type BarChartSeries } from '@mantine/charts';
import { useElementSize } from '@mantine/hooks';
import {
  DECISION_TIME_BUCKETS,
  VISIT_LENGTH_BUCKETS,
  type Dashboard,
  type DashboardChart,
  type Language,
} from '@sesame/shared';
import {
  arrivalCells,
  bucketAxis,
  dashboardWords,
  dayOnAxis,
  visitsPerDaySeries,
} from '../lib/dashboard';
// The legend's swatches are Mantine's ColorSwatch, whose CSS no public page needs either.
import '@mantine/core/styles/ColorSwatch.css';
import '@mantine/charts/styles.css';

/** Dark enough against white for a graphic's 3:1 (WCAG 1.4.11), and told apart by the legend. */
const PALETTE = [
  'blue.7',
  'teal.8',
  'grape.7',
  'orange.8',
  'cyan.8',
  'pink.7',
  'indigo.7',
  'lime.9',
  'red.8',
  'gray.7',
];
const color = (i: number) => PALETTE[i % PALETTE.length]!;

export interface ChartGraphicProps {
  chart: DashboardChart;
  dashboard: Dashboard;
  lang: Language;
  /** The heatmap legend's two ends ('Moins', 'Plus'). */
  legend: [string, string];
}

/** What every bar chart shares: no keyboard layer (the table is the keyboard's way in). */
const common = {
  h: 260,
  accessibilityLayer: false,
  tooltipAnimationDuration: 0,
} as const;

function Bars(
  props: {
    data: Record<string, string | number>[];
    dataKey: string;
    series: BarChartSeries[];
    type?: 'default' | 'stacked';
    horizontal?: boolean;
    withLegend?: boolean;
  } & { h?: number },
) {
  const horizontal = props.horizontal ?? false;
  return (
    <BarChart
      {...common}
      h={props.h ?? common.h}
      data={props.data}
      dataKey={props.dataKey}
      series={props.series}
      type={props.type ?? 'default'}
      withLegend={props.withLegend ?? props.series.length > 1}
      legendProps={{ verticalAlign: 'bottom' }}
      orientation={horizontal ? 'vertical' : 'horizontal'}
      // Mantine's 'x' grid is the lines along the x axis: horizontal ones under upright bars.
      gridAxis={horizontal ? 'y' : 'x'}
      tickLine={horizontal ? 'x' : 'y'}
      xAxisProps={horizontal ? { allowDecimals: false } : { minTickGap: 8 }}
      yAxisProps={horizontal ? { width: 130 } : { allowDecimals: false, width: 36 }}
      maxBarWidth={48}
      textColor="gray.8"
    />
  );
}

/** Arrivals by weekday (rows) and hour (columns): cells coloured by how many arrived. */
function ArrivalsHeatmap({ dashboard, lang, legend }: ChartGraphicProps) {
  const { ref, width } = useElementSize();
  const { cells, weekdays, hours } = arrivalCells(dashboard, lang);
  const labelsWidth = 44;
  const gap = 2;
  // As wide as the section allows: 24 columns on a phone too, smaller cells there.
  const cellSize = Math.max(8, Math.min(28, Math.floor((width - labelsWidth) / 24) - gap));
  return (
    <Box ref={ref} w="100%" style={{ overflow: 'hidden' }}>
      {width > 0 && (
        <MatrixChart
          data={cells}
          xLabels={hours}
          yLabels={weekdays}
          withXLabels
          withYLabels
          withLegend
          legendLabels={legend}
          cellSize={cellSize}
          gap={gap}
          yLabelsWidth={labelsWidth}
          xLabelsHeight={24}
          xLabelsRotation={cellSize < 18 ? -90 : 0}
          fontSize={cellSize < 14 ? 9 : 11}
          domain={[1, Math.max(1, ...cells.map((cell) => cell.value ?? 0))]}
          colors={['blue.2', 'blue.4', 'blue.6', 'blue.8']}
          emptyColor="gray.1"
          aria-label=""
        />
      )}
    </Box>
  );
}

/** One chart's graphic (the section around it gives its title, sentence, table and CSV). */
export default function ChartGraphic(props: ChartGraphicProps) {
  const { chart, dashboard, lang } = props;
  const words = dashboardWords(lang);
  const header = words.charts[chart].header;
  const c = dashboard.charts;
  switch (chart) {
    case 'visits_per_day': {
      const { data, series } = visitsPerDaySeries(dashboard, lang);
      return (
        <Bars
          data={data}
          dataKey="day"
          type="stacked"
          withLegend
          series={series.map((s, i) => ({ ...s, color: color(i) }))}
        />
      );
    }
    case 'arrivals_by_hour':
      return <ArrivalsHeatmap {...props} />;
    case 'on_site_peaks':
      return (
        <Bars
          data={c.on_site_peaks.map((r) => ({ day: dayOnAxis(r.day, lang), peak: r.peak }))}
          dataKey="day"
          series={[{ name: 'peak', label: header[1], color: color(1) }]}
        />
      );
    case 'visit_lengths':
      return (
        <Bars
          data={c.visit_lengths.map((r, i) => ({
            bucket: bucketAxis(VISIT_LENGTH_BUCKETS, i, lang),
            visits: r.visits,
          }))}
          dataKey="bucket"
          series={[{ name: 'visits', label: header[1], color: color(2) }]}
        />
      );
    case 'no_shows_per_day':
      return (
        <Bars
          data={c.no_shows_per_day.map((r) => ({
            day: dayOnAxis(r.day, lang),
            expected: r.expected,
            no_shows: r.no_shows,
          }))}
          dataKey="day"
          series={[
            { name: 'expected', label: header[1], color: color(0) },
            { name: 'no_shows', label: header[2], color: color(3) },
          ]}
        />
      );
    case 'decision_times':
      return (
        <Bars
          data={c.decision_times.map((r, i) => ({
            bucket: bucketAxis(DECISION_TIME_BUCKETS, i, lang),
            requests: r.requests,
          }))}
          dataKey="bucket"
          series={[{ name: 'requests', label: header[1], color: color(4) }]}
        />
      );
    case 'event_attendance':
      return (
        <Bars
          horizontal
          h={Math.max(160, 56 * c.event_attendance.length + 60)}
          data={c.event_attendance.map((r) => ({
            name: r.name,
            registrations: r.registrations,
            attendees: r.attendees,
          }))}
          dataKey="name"
          series={[
            { name: 'registrations', label: header[2], color: color(2) },
            { name: 'attendees', label: header[3], color: color(1) },
          ]}
        />
      );
    case 'top_hosts':
      return (
        <Bars
          horizontal
          h={Math.max(140, 36 * c.top_hosts.length + 40)}
          data={c.top_hosts.map((r) => ({ host: r.host, visits: r.visits }))}
          dataKey="host"
          series={[{ name: 'visits', label: header[1], color: color(0) }]}
        />
      );
  }
}
