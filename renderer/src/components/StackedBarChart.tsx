// Stacked bars over time, drawn the same way on every page: numbers in the user's digits, the
// value axis at the page's start and time running with the reading direction (the chart itself
// is laid out left to right), and no animation when the user asked the system for less motion.
// Each value label sits level with its grid line: recharts would push the top one down into the
// plot to keep it whole (interval 'preserveEnd'), so every tick keeps its place and the plot has
// room above it instead; on the right (Persian) the labels stand off the plot as they do on the left.
import { BarChart, type BarChartSeries } from '@mantine/charts';
import { useReducedMotion } from '@mantine/hooks';
import { formatNumber } from '../lib/format';
import { useLanguage } from '../i18n/useLanguage';

/** Above the plot, for half a label's height: the top value's label is drawn whole, level with its line. */
const LABEL_ROOM = 12;

export function StackedBarChart({
  data,
  series,
  h,
  testId,
}: {
  data: Array<Record<string, string | number>>;
  series: BarChartSeries[];
  h: number;
  testId?: string;
}) {
  const language = useLanguage();
  const reduceMotion = useReducedMotion();
  return (
    <div dir="ltr" data-testid={testId}>
      <BarChart
        h={h}
        data={data}
        dataKey="label"
        type="stacked"
        series={series}
        withLegend
        barProps={{ isAnimationActive: !reduceMotion }}
        barChartProps={{ margin: { top: LABEL_ROOM } }}
        legendProps={{ verticalAlign: 'bottom' }}
        valueFormatter={(value) => formatNumber(value, language)}
        yAxisProps={{
          tickFormatter: (value: number) => formatNumber(value, language),
          orientation: language === 'fa' ? 'right' : 'left',
          interval: 0,
          // Mantine's own, mirrored on the right: 10 px off the plot.
          tick: { transform: `translate(${language === 'fa' ? 10 : -10}, 0)`, fontSize: 12, fill: 'currentColor' },
        }}
        xAxisProps={{ reversed: language === 'fa' }}
      />
    </div>
  );
}
