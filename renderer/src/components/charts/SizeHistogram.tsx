/** A log-scale size histogram (1-2-5 buckets from the metrics engine) as bars. */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { SizeBucketCount } from '../../api/types';
import { fmtInt, fmtTokens } from '../../lib/format';
import { AXIS, COUNT_AXIS, GRID, TOOLTIP } from './chart-theme';

export function SizeHistogram({
  buckets,
  height = 180,
  fill = 'var(--accent)',
  unit = 'calls',
  testId,
  onBucket,
}: {
  buckets: SizeBucketCount[];
  height?: number;
  fill?: string;
  unit?: string;
  testId?: string;
  /** Opens the calls of a bucket (its index in the engine's log scale). */
  onBucket?: (bucket: number) => void;
}) {
  if (buckets.length === 0) return <div className="empty-row">Nothing to show in this view.</div>;
  const data = buckets.map((b) => ({
    bucket: b.bucket,
    label: b.label,
    count: b.count,
    units: b.units,
  }));
  return (
    <div className="chart" data-testid={testId}>
      <ResponsiveContainer width="100%" height={height}>
        <BarChart
          data={data}
          margin={{ top: 6, right: 6, bottom: 0, left: -18 }}
          barCategoryGap="12%"
        >
          <CartesianGrid {...GRID} />
          <XAxis dataKey="label" {...AXIS} interval="preserveStartEnd" minTickGap={8} />
          <YAxis {...COUNT_AXIS} />
          <Tooltip
            {...TOOLTIP}
            formatter={(v, _n, item) => [
              `${fmtInt(Number(v))} ${unit} · ${fmtTokens((item.payload as { units: number }).units)} total`,
              'count',
            ]}
            labelFormatter={(l) => `${String(l)} units`}
          />
          <Bar
            dataKey="count"
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
