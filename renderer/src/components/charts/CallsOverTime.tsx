/** Calls per time bucket (a minute, an hour or a day, as the server chose), stacked by outcome. */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { OUTCOME_KEYS, OUTCOME_LABEL } from '../../api/types';
import type { TimePoint } from '../../api/types';
import { AXIS, countAxis, GRID, OUTCOME_FILL, TOOLTIP } from './chart-theme';
import { ChartTooltip, type TooltipProps } from './ChartTooltip';
import './charts.css';

const DAY_MS = 86_400_000;
const hm = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});
const md = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const wmd = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
});

/** Axis ticks: dates for daily buckets; times otherwise, with the date where a day starts. */
export function bucketTick(bucketMs: number): (t: number) => string {
  return (t) => {
    const d = new Date(t);
    if (bucketMs >= DAY_MS) return md.format(d);
    if (d.getHours() === 0 && d.getMinutes() === 0) return md.format(d);
    return hm.format(d);
  };
}

/** The tooltip heading: the whole bucket, `Dec 2, 13:05–13:06` or `Wed, Dec 2`. */
export function bucketLabel(t: number, bucketMs: number): string {
  if (bucketMs >= DAY_MS) return wmd.format(t);
  return `${md.format(t)}, ${hm.format(t)}–${hm.format(t + bucketMs)}`;
}

/** Steps that read well on a clock, in minutes: ticks land on :00, :05, :10, … */
const STEPS_MIN = [1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720];

/**
 * Tick positions on round times for minute and hour buckets (at most ~`max` of them), in the
 * viewer's clock; daily buckets keep recharts' own choice.
 */
export function roundTicks(starts: number[], bucketMs: number, max = 10): number[] | undefined {
  if (bucketMs >= DAY_MS || starts.length <= max) return undefined;
  const spanMin = ((starts.at(-1)! - starts[0]!) / 60_000) | 0;
  const step = STEPS_MIN.find((m) => m * 60_000 >= bucketMs && spanMin / m <= max) ?? 1440;
  return starts.filter((t) => {
    const d = new Date(t);
    return (d.getHours() * 60 + d.getMinutes()) % step === 0;
  });
}

/** `per minute`, `per hour`, `per day` (or `per 5 min` for other widths). */
export function bucketName(bucketMs: number): string {
  if (bucketMs === 60_000) return 'per minute';
  if (bucketMs === 3_600_000) return 'per hour';
  if (bucketMs === DAY_MS) return 'per day';
  return bucketMs < 3_600_000 ? `per ${bucketMs / 60_000} min` : `per ${bucketMs / 3_600_000} h`;
}

export function CallsOverTime({
  points,
  bucketMs,
  height = 200,
}: {
  points: TimePoint[];
  bucketMs: number;
  height?: number;
}) {
  const data = points.map((p) => ({ t: p.start_ms, ...p.outcomes }));
  return (
    <div className="chart" data-testid="calls-over-time" data-bucket-ms={bucketMs}>
      <ResponsiveContainer width="100%" height={height}>
        <BarChart
          data={data}
          margin={{ top: 6, right: 6, bottom: 0, left: -18 }}
          barCategoryGap="18%"
        >
          <CartesianGrid {...GRID} />
          <XAxis
            dataKey="t"
            ticks={roundTicks(
              data.map((p) => p.t),
              bucketMs,
            )}
            tickFormatter={bucketTick(bucketMs)}
            {...AXIS}
            minTickGap={28}
          />
          <YAxis
            {...countAxis(Math.max(0, ...points.map((p) => p.calls)))}
            label={{
              value: 'Calls',
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
              <ChartTooltip {...p} heading={(t) => bucketLabel(Number(t), bucketMs)} />
            )}
          />
          {OUTCOME_KEYS.map((k) => (
            <Bar
              key={k}
              dataKey={k}
              name={OUTCOME_LABEL[k]}
              stackId="o"
              fill={OUTCOME_FILL[k]}
              isAnimationActive={false}
              maxBarSize={48}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
