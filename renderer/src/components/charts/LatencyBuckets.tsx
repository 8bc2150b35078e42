/** The hosted four latency buckets as bars, with exact percentiles beside them. */
import { Bar, BarChart, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { LatencySummary } from '../../api/types';
import { fmtMs } from '../../lib/format';
import { AXIS, COUNT_AXIS, TOOLTIP } from './chart-theme';
import './charts.css';

const BUCKETS = [
  { key: 'under_100', label: '<100 ms', fill: 'var(--ok)' },
  { key: 'under_500', label: '<500 ms', fill: 'var(--accent)' },
  { key: 'under_2000', label: '<2 s', fill: 'var(--bad-args)' },
  { key: 'over_2000', label: '≥2 s', fill: 'var(--tool-error)' },
] as const;

export function LatencyBuckets({
  latency,
  height = 150,
  onBucket,
}: {
  latency: LatencySummary;
  height?: number;
  /** Opens the calls of a bucket (`under_100` … `over_2000`). */
  onBucket?: (key: string) => void;
}) {
  const data = BUCKETS.map((b) => ({
    label: b.label,
    calls: latency.buckets[b.key],
    fill: b.fill,
  }));
  return (
    <div className="latency" data-testid="latency">
      <div className="pcts">
        <Pct label="p50" value={latency.p50_ms} />
        <Pct
          label="p95"
          value={latency.p95_ms}
          note={latency.p95_bucket ? `bucket ${latency.p95_bucket}` : undefined}
        />
        <Pct label="p99" value={latency.p99_ms} />
      </div>
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={data} margin={{ top: 6, right: 6, bottom: 0, left: -18 }}>
          <XAxis dataKey="label" {...AXIS} />
          <YAxis {...COUNT_AXIS} />
          <Tooltip {...TOOLTIP} />
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

function Pct({ label, value, note }: { label: string; value: number | null; note?: string }) {
  return (
    <div className="pct" data-testid={`latency-${label}`}>
      <span className="pct-label">{label}</span>
      <span className="pct-value">{fmtMs(value)}</span>
      {note && <span className="pct-note">{note}</span>}
    </div>
  );
}
