/** A headline number with its context line and trend; the number links to the calls behind it. */
import type { ReactNode } from 'react';
import { Link } from '../app/router';
import { fmtDateTime } from '../lib/format';
import { Sparkline } from './Sparkline';
import './stat-card.css';

export function StatCard({
  label,
  value,
  sub,
  href,
  trend,
  tone,
  testId,
  valueTitle,
  since,
  trendLabels,
  trendFormat,
}: {
  label: string;
  value: ReactNode;
  sub?: ReactNode;
  href?: string;
  trend?: (number | null)[];
  tone?: 'good' | 'warn' | 'bad';
  testId?: string;
  /** What the figure means or how it is computed, on hover. */
  valueTitle?: string;
  /**
   * Too few points for a trend: a dot and "since <time>" in place of the sparkline
   * (the first bucket with data).
   */
  since?: number;
  /** Each trend bucket's time, for the sparkline's hover values. */
  trendLabels?: string[];
  /** How a trend value reads in a hover. */
  trendFormat?: (v: number) => string;
}) {
  return (
    <div className={`stat ${tone ?? ''}`} data-testid={testId}>
      <div className="stat-label">{label}</div>
      <div className="stat-value" title={valueTitle}>
        {href ? <Link href={href}>{value}</Link> : value}
      </div>
      <div className="stat-foot">
        <div className="stat-sub">{sub}</div>
        {trend && (
          <Sparkline
            values={trend}
            label={`${label} trend`}
            className="stat-spark"
            labels={trendLabels}
            format={trendFormat}
          />
        )}
        {!trend && since !== undefined && (
          <span className="stat-since" data-testid="stat-since" title={fmtDateTime(since)}>
            <span className="stat-since-dot" aria-hidden="true" />
            since {fmtDateTime(since)}
          </span>
        )}
      </div>
    </div>
  );
}
