// Stacked bars over time, drawn the same way on every page: numbers in the user's digits, the
// value axis at the page's start and time running with the reading direction (the chart itself
// is laid out left to right), and no animation when the user asked the system for less motion.
import { BarChart, type BarChartSeries } from '@mantine/charts';
import { useReducedMotion } from '@mantine/hooks';
import { formatNumber } from '../lib/format';
import { useLanguage } from '../i18n/useLanguage';

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
        legendProps={{ verticalAlign: 'bottom' }}
        valueFormatter={(value) => formatNumber(value, language)}
        yAxisProps={{
          tickFormatter: (value: number) => formatNumber(value, language),
          orientation: language === 'fa' ? 'right' : 'left',
        }}
        xAxisProps={{ reversed: language === 'fa' }}
      />
    </div>
  );
}
