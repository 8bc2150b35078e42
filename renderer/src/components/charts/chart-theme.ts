/**
 * Colours for recharts. SVG presentation attributes accept CSS variables, so the charts follow
 * the theme without reading computed styles.
 */
import type { OutcomeKey } from '../../api/types';
import { fmtAxisCount } from '../../lib/format';
import { niceTicks } from '../../lib/nice-scale';

export const OUTCOME_FILL: Record<OutcomeKey, string> = {
  ok: 'var(--ok)',
  empty: 'var(--empty)',
  bad_args: 'var(--bad-args)',
  tool_error: 'var(--tool-error)',
  crashed: 'var(--crashed)',
};

export const AXIS = {
  stroke: 'var(--border-strong)',
  tick: { fill: 'var(--text-muted)', fontSize: 11 },
  tickLine: false,
} as const;

/** The y axis of every count chart: thousands abbreviated, so 5-digit counts are not clipped. */
export const COUNT_AXIS = {
  ...AXIS,
  allowDecimals: false,
  axisLine: false,
  width: 52,
  tickFormatter: fmtAxisCount,
} as const;

/**
 * Props for a count axis with round ticks over data up to `max`: the domain ends on the top
 * tick, so recharts cannot pick its own uneven steps.
 */
export function countAxis(max: number) {
  const ticks = niceTicks(max);
  return { ...COUNT_AXIS, ticks, domain: [0, ticks.at(-1)!] as [number, number] };
}

/** The latency palette: one blue-green hue, light to dark, never the outcome colours. */
export const LATENCY_FILL = 'var(--latency)';

export const GRID = { stroke: 'var(--chart-grid)', vertical: false } as const;

export const TOOLTIP = {
  contentStyle: {
    background: 'var(--bg-panel)',
    border: '1px solid var(--border-strong)',
    borderRadius: 6,
    fontSize: 12,
    color: 'var(--text)',
    boxShadow: 'var(--shadow)',
  },
  labelStyle: { color: 'var(--text-muted)', marginBottom: 4 },
  itemStyle: { padding: 0 },
  cursor: { fill: 'var(--bg-hover)' },
  isAnimationActive: false,
} as const;
