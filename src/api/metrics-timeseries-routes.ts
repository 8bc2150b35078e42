/** Time series route: gap-filled minute, hour or day buckets aligned to the viewer's offset. */
import { emptyStats, firstCallSuccessOf, type Stats } from '../metrics/aggregate.js';
import { OUTCOME_CLASSES } from '../shared/outcomes.js';
import {
  HOUR_BUCKETS_UP_TO_MS,
  MAX_BUCKETS,
  MAX_MINUTE_BUCKETS,
  MINUTE_BUCKETS_BELOW_MS,
} from '../shared/metric-constants.js';
import { LINK } from '../metrics/links.js';
import { costUsd } from '../metrics/sizes.js';
import { bucketStart, bucketStarts, GRANULARITY_MS, type Granularity } from '../metrics/time.js';
import { metricsOf } from '../store/metrics/queries.js';
import type { DatedGroup } from '../metrics/clock.js';
import { echo, iso, price } from './metrics-params.js';
import { groupOf, outliersOf, seriesExtent } from './timeseries-range.js';
import { oneOf, tzParam } from './params.js';
import { ApiError, type RouteMap } from './types.js';

/** `/api/timeseries`. */
export const metricsTimeseriesRoutes = {
  'GET /api/timeseries': ({ store, filter, query }) => {
    const m = metricsOf(store);
    const tz = tzParam(query);
    const offsetMs = tz * 60_000;
    const extent = seriesExtent(m, filter, Date.now());
    const dataTo = extent.last_ms === null ? null : extent.last_ms + 1;
    const span = (filter.to ?? dataTo ?? 0) - (filter.from ?? extent.first_ms ?? 0);
    const auto: Granularity =
      span > 0 && span < MINUTE_BUCKETS_BELOW_MS
        ? 'minute'
        : span <= HOUR_BUCKETS_UP_TO_MS
          ? 'hour'
          : 'day';
    const bucket = oneOf(query, 'bucket', ['minute', 'hour', 'day'] as const, auto);
    const width = GRANULARITY_MS[bucket];
    const limit = bucket === 'minute' ? MAX_MINUTE_BUCKETS : MAX_BUCKETS;
    // An open end follows the data out to whole buckets (so whole days come from the rollup).
    let from =
      filter.from ??
      (extent.first_ms === null ? null : bucketStart(extent.first_ms, width, offsetMs));
    const to =
      filter.to ?? (dataTo === null ? null : bucketStart(dataTo - 1, width, offsetMs) + width);
    // An open start never makes the answer an error: past the most buckets one chart holds,
    // the chart shows the latest ones and says how many calls came before.
    let earlier: DatedGroup | null = null;
    if (filter.from === undefined && from !== null && to !== null) {
      const count = Math.ceil((to - from) / width);
      if (count > limit) {
        const cut = to - limit * width;
        earlier = groupOf(m, { ...filter, from: extent.first_ms ?? from, to: cut });
        from = cut;
      }
    }
    const base = {
      bucket,
      width_ms: width,
      tz,
      from: iso(from),
      to: iso(to),
      outliers: outliersOf(extent, earlier),
      filter: echo(filter),
    };
    if (from === null || to === null || to <= from) return { ...base, points: [] };
    // Count before listing: a long range in minutes must not build a huge array first.
    const count = Math.ceil((to - bucketStart(from, width, offsetMs)) / width);
    // Name what made the range too long: the bucket asked for, else the range given.
    const culprit = query.get('bucket') ? 'bucket' : filter.from !== undefined ? 'from' : 'to';
    if (bucket === 'minute' && count > MAX_MINUTE_BUCKETS)
      throw new ApiError(
        400,
        `${culprit}: that range has ${count} minutes; minute buckets are limited to ${MAX_MINUTE_BUCKETS} (48 h) — use bucket=hour or a shorter range`,
      );
    if (count > MAX_BUCKETS)
      throw new ApiError(
        400,
        `${culprit}: that range has ${count} ${bucket}s; use ${bucket === 'day' ? '' : 'bucket=day or '}a shorter range`,
      );
    const starts = bucketStarts(from, to, width, offsetMs);
    const f = { ...filter, from, to };
    const usd = price(m);
    const acc = new Map<number, Stats>();
    for (const [b, oc, link, calls, units] of m.series(f, width, offsetMs)) {
      const s = acc.get(b) ?? emptyStats();
      acc.set(b, s);
      s.calls += calls;
      s.outcomes[OUTCOME_CLASSES[oc] ?? 'crashed'] += calls;
      if (oc === 0 && link !== LINK.retry) s.first_call_successes += calls;
      if (link === LINK.retry) s.retries += calls;
      s.response_units += units;
    }
    const p95 = m.seriesP95(f, width, offsetMs);
    const started = new Map<number, number>();
    for (const ms of m.sessionStarts(f, { widthMs: width, offsetMs })) {
      const b = bucketStart(ms, width, offsetMs);
      started.set(b, (started.get(b) ?? 0) + 1);
    }
    return {
      ...base,
      points: starts.map((start) => {
        const s = acc.get(start) ?? emptyStats();
        return {
          start_ms: start,
          start: iso(start),
          calls: s.calls,
          first_call_success: firstCallSuccessOf(s),
          outcomes: s.outcomes,
          errors: s.outcomes.bad_args + s.outcomes.tool_error + s.outcomes.crashed,
          retries: s.retries,
          response_units: s.response_units,
          cost_usd: costUsd(s.response_units, usd),
          p95_ms: p95.get(start) ?? null,
          sessions_started: started.get(start) ?? 0,
        };
      }),
    };
  },
} satisfies RouteMap;
