/**
 * Latency that resolves MCP tools: most answer in a few milliseconds, so the hosted ranges
 * (< 100 ms … ≥ 2 s) put nearly every call in one bar. The main view is a log-bucket
 * histogram (1-2-5 per decade, from the metrics engine); the hosted ranges stay one click
 * away. Both in the latency palette, never the outcome colours.
 */
import { useState } from 'react';
import type { LatencySummary, SizeBucketCount } from '../../api/types';
import { fmtMs } from '../../lib/format';
import { LATENCY_FILL } from './chart-theme';
import { LatencyBuckets, Percentiles } from './LatencyBuckets';
import { SizeHistogram } from './SizeHistogram';

/** A duration bucket's label in milliseconds: `0` is a call under a millisecond. */
const durationLabel = (label: string): string => (label === '0' ? '< 1 ms' : `${label} ms`);

export function LatencyView({
  latency,
  histogram,
  height = 150,
  onHostedBucket,
}: {
  latency: LatencySummary;
  /** Durations in the engine's log buckets. */
  histogram: SizeBucketCount[];
  height?: number;
  onHostedBucket?: (key: string) => void;
}) {
  const [view, setView] = useState<'log' | 'hosted'>('log');
  return (
    <div className="latency latency-view" data-testid="latency-view" data-view={view}>
      <Percentiles latency={latency} />
      <div className="seg small" role="group" aria-label="Latency view">
        <button
          type="button"
          className={view === 'log' ? 'on' : ''}
          aria-pressed={view === 'log'}
          onClick={() => setView('log')}
        >
          Log buckets
        </button>
        <button
          type="button"
          className={view === 'hosted' ? 'on' : ''}
          aria-pressed={view === 'hosted'}
          onClick={() => setView('hosted')}
        >
          Hosted ranges
        </button>
      </div>
      {view === 'log' ? (
        <SizeHistogram
          buckets={histogram}
          height={height}
          fill={LATENCY_FILL}
          testId="latency-log"
          xTitle="Duration (ms, log buckets)"
          yTitle="Calls"
          heading={durationLabel}
          extra={(d) => (d.count ? `average ${fmtMs(Math.round(d.units / d.count))}` : '')}
        />
      ) : (
        <LatencyBuckets
          latency={latency}
          height={height}
          percentiles={false}
          onBucket={onHostedBucket}
        />
      )}
    </div>
  );
}
