/**
 * A log-scale size histogram (1-2-5 buckets from the metrics engine) as bars, with both axes
 * titled, every bucket labelled (slanted when they would not fit side by side) and a tooltip
 * that gives the count and the bucket's total in tokens.
 */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { SizeBucketCount } from '../../api/types';
import { fmtTokens } from '../../lib/format';
import { NoMatch } from '../States';
import { AXIS, countAxis, GRID, TOOLTIP } from './chart-theme';
import { ChartTooltip, type TooltipProps } from './ChartTooltip';
import { useNarrowWindow } from './useNarrowWindow';
import './charts.css';

/** Past this many buckets the labels slant so none is skipped. */
const FLAT_LABELS_MAX = 8;

export function SizeHistogram({
  buckets,
  height = 200,
  fill = 'var(--accent)',
  unit = 'calls',
  testId,
  xTitle,
  yTitle,
  onBucket,
  heading = (l) => `${l} UTF-16 units`,
  extra = (d) => `${fmtTokens(d.units)} in all`,
}: {
  buckets: SizeBucketCount[];
  height?: number;
  fill?: string;
  unit?: string;
  testId?: string;
  /** The x axis title, with its unit: `Response size per call (UTF-16 units)`. */
  xTitle: string;
  /** The y axis title: what is counted. */
  yTitle: string;
  /** Opens the calls of a bucket (its index in the engine's log scale). */
  onBucket?: (bucket: number) => void;
  /** The tooltip's heading for a bucket label (default: the label in UTF-16 units). */
  heading?: (label: string) => string;
  /** The tooltip's second line for a bucket (default: its total in tokens). */
  extra?: (d: { count: number; units: number }) => string;
}) {
  const narrow = useNarrowWindow();
  if (buckets.every((b) => b.count === 0)) return <NoMatch what={unit} compact />;
  const data = buckets.map((b) => ({
    bucket: b.bucket,
    label: b.label,
    count: b.count,
    units: b.units,
  }));
  const slant = data.length > FLAT_LABELS_MAX;
  // Upright on narrow windows: at -35° a dozen labels overlap in a 250 px plot.
  const angle = slant ? (narrow ? -90 : -35) : 0;
  return (
    <div className="chart" data-testid={testId} data-buckets={data.length}>
      <ResponsiveContainer width="100%" height={height + (slant ? 26 : 0)}>
        <BarChart
          data={data}
          margin={{ top: 6, right: 6, bottom: 4, left: 0 }}
          barCategoryGap="12%"
        >
          <CartesianGrid {...GRID} />
          <XAxis
            dataKey="label"
            {...AXIS}
            interval={0}
            angle={angle}
            textAnchor={slant ? 'end' : 'middle'}
            height={slant ? 66 : 40}
            label={{ value: xTitle, position: 'insideBottom', offset: 0, className: 'axis-title' }}
          />
          <YAxis
            {...countAxis(Math.max(0, ...data.map((d) => d.count)))}
            label={{
              value: yTitle,
              angle: -90,
              position: 'insideLeft',
              className: 'axis-title',
              style: { textAnchor: 'middle' },
            }}
          />
          <Tooltip
            cursor={TOOLTIP.cursor}
            isAnimationActive={false}
            content={(p: TooltipProps) => (
              <ChartTooltip
                {...p}
                total={false}
                heading={(l) => heading(String(l))}
                extra={(d) => extra(d as { count: number; units: number })}
              />
            )}
          />
          <Bar
            dataKey="count"
            name={unit}
            fill={fill}
            isAnimationActive={false}
            radius={[2, 2, 0, 0]}
            maxBarSize={56}
            cursor={onBucket ? 'pointer' : undefined}
            onClick={(d: { payload?: { bucket?: number } }) => {
              if (d.payload?.bucket !== undefined) onBucket?.(d.payload.bucket);
            }}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
