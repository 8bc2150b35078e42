/** The hosted four latency buckets as bars, with exact percentiles beside them. */
import { Bar, BarChart, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { LatencySummary } from '../../api/types';
import { fmtMs, LATENCY_BUCKETS, latencyBucketOf } from '../../lib/format';
import { AXIS, countAxis, TOOLTIP } from './chart-theme';
import { Abbr } from '../Term';
import { ChartTooltip, type TooltipProps } from './ChartTooltip';
import './charts.css';

/** The latency palette (theme.css): one hue, darker (light theme) or brighter (dark) as slower. */
const FILL: Record<(typeof LATENCY_BUCKETS)[number]['key'], string> = {
  under_100: 'var(--lat-0)',
  under_500: 'var(--lat-1)',
  under_2000: 'var(--lat-2)',
  over_2000: 'var(--lat-3)',
};

export function LatencyBuckets({
  latency,
  height = 150,
  onBucket,
  percentiles = true,
}: {
  latency: LatencySummary;
  height?: number;
  /** The p50/p95/p99 row above the bars (off where the page shows them already). */
  percentiles?: boolean;
  /** Opens the calls of a bucket (`under_100` … `over_2000`). */
  onBucket?: (key: string) => void;
}) {
  // Each bar is labelled with its range: `100–500 ms`, never `<500 ms` (which would claim the
  // calls under 100 ms too), and the p95 note names the same range.
  const data = LATENCY_BUCKETS.map((b) => ({
    key: b.key,
    label: b.range,
    calls: latency.buckets[b.key],
    fill: FILL[b.key],
  }));
  return (
    <div className="latency" data-testid="latency">
      {percentiles && <Percentiles latency={latency} />}
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={data} margin={{ top: 6, right: 6, bottom: 0, left: -18 }}>
          <XAxis dataKey="label" {...AXIS} interval={0} />
          <YAxis {...countAxis(Math.max(0, ...data.map((d) => d.calls)))} />
          <Tooltip
            cursor={TOOLTIP.cursor}
            isAnimationActive={false}
            content={(p: TooltipProps) => (
              <ChartTooltip {...p} total={false} heading={(l) => `${String(l)}`} />
            )}
          />
          <Bar
            dataKey="calls"
            name="calls"
            isAnimationActive={false}
            radius={[3, 3, 0, 0]}
            maxBarSize={64}
            cursor={onBucket ? 'pointer' : undefined}
            onClick={(d: { payload?: { key?: string } }) =>
              d.payload?.key && onBucket?.(d.payload.key)
            }
          >
            {data.map((d) => (
              <Cell key={d.label} fill={d.fill} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** The exact percentiles of a latency summary, p95 with the hosted range it falls in. */
export function Percentiles({ latency }: { latency: LatencySummary }) {
  const p95 = latencyBucketOf(latency.p95_bucket);
  return (
    <div className="pcts">
      <Pct label="p50" value={latency.p50_ms} />
      <Pct label="p95" value={latency.p95_ms} note={p95 ? `in ${p95.range}` : undefined} />
      <Pct label="p99" value={latency.p99_ms} />
    </div>
  );
}

function Pct({
  label,
  value,
  note,
}: {
  label: 'p50' | 'p95' | 'p99';
  value: number | null;
  note?: string;
}) {
  return (
    <div className="pct" data-testid={`latency-${label}`}>
      <span className="pct-label">
        <Abbr term={label} />
      </span>
      <span className="pct-value">{fmtMs(value)}</span>
      {note && <span className="pct-note">{note}</span>}
    </div>
  );
}
