/** Calls per time bucket, stacked by outcome. */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { OUTCOME_KEYS, OUTCOME_LABEL } from '../../api/core-types';
import type { TimePoint } from '../../api/metrics-types';
import { fmtDateTime } from '../../lib/format';
import { AXIS, GRID, OUTCOME_FILL, TOOLTIP } from './chart-theme';

const tickFmt = (bucketMs: number) => (t: number) => {
  const d = new Date(t);
  return bucketMs >= 86_400_000
    ? d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })
    : d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', hour12: false });
};

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
    <div className="chart" data-testid="calls-over-time">
      <ResponsiveContainer width="100%" height={height}>
        <BarChart
          data={data}
          margin={{ top: 6, right: 6, bottom: 0, left: -18 }}
          barCategoryGap="18%"
        >
          <CartesianGrid {...GRID} />
          <XAxis dataKey="t" tickFormatter={tickFmt(bucketMs)} {...AXIS} minTickGap={24} />
          <YAxis allowDecimals={false} {...AXIS} axisLine={false} width={44} />
          <Tooltip {...TOOLTIP} labelFormatter={(t) => fmtDateTime(Number(t))} />
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
