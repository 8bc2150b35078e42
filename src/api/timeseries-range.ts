/**
 * The range of `/api/timeseries` when `from` or `to` is left open: where the data is, minus
 * calls dated where no call can be (src/metrics/clock.ts) — so one device whose clock was
 * never set, or one running ahead, never stretches the chart over decades or into an error.
 */
import {
  datedGroup,
  FUTURE_TOLERANCE_MS,
  outlierNote,
  PLAUSIBLE_FROM_MS,
  type ClockOutliers,
  type DatedGroup,
} from '../metrics/clock.js';
import type { MetricsQueries } from '../store/metrics/queries.js';
import type { CallFilter } from '../shared/rows.js';

/** The data's first and last call start inside a range, and the calls left out of it. */
export interface SeriesExtent {
  first_ms: number | null;
  last_ms: number | null;
  past: DatedGroup | null;
  future: DatedGroup | null;
  /** True when no call is plausibly dated, so the outliers are the chart after all. */
  outliersShown: boolean;
}

/** Calls matching `f` as a group (count and extent), or null when none. */
export function groupOf(m: MetricsQueries, f: CallFilter): DatedGroup | null {
  const n = m.callCount(f);
  if (n === 0) return null;
  const e = m.extent(f);
  return datedGroup(n, e.first_ms, e.last_ms);
}

/** Where the series' open ends come from, at the server's clock `nowMs`. */
export function seriesExtent(m: MetricsQueries, filter: CallFilter, nowMs: number): SeriesExtent {
  const floor = filter.from === undefined ? PLAUSIBLE_FROM_MS : undefined;
  const ceiling = filter.to === undefined ? nowMs + FUTURE_TOLERANCE_MS : undefined;
  const past =
    floor === undefined ? null : groupOf(m, { ...filter, to: Math.min(floor, filter.to ?? floor) });
  const future =
    ceiling === undefined
      ? null
      : groupOf(m, { ...filter, from: Math.max(ceiling, filter.from ?? ceiling) });
  const core = m.extent({ ...filter, from: filter.from ?? floor, to: filter.to ?? ceiling });
  // Nothing plausibly dated anywhere (every call from one unset clock): those calls are the
  // chart. With a range given, an empty range stays empty.
  const open = filter.from === undefined && filter.to === undefined;
  if (open && core.first_ms === null && (past || future)) {
    return { ...m.extent(filter), past, future, outliersShown: true };
  }
  return { ...core, past, future, outliersShown: false };
}

/** The `outliers` object of the answer. */
export function outliersOf(e: SeriesExtent, earlier: DatedGroup | null): ClockOutliers {
  const groups = { past: e.past, future: e.future, earlier };
  return { ...groups, note: outlierNote(groups, e.outliersShown) };
}
