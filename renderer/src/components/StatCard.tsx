/** A headline number with its context line and trend; the number links to the calls behind it. */
import type { ReactNode } from 'react';
import { Link } from '../app/router';
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
}: {
  label: string;
  value: ReactNode;
  sub?: ReactNode;
  href?: string;
  trend?: (number | null)[];
  tone?: 'good' | 'warn' | 'bad';
  testId?: string;
}) {
  return (
    <div className={`stat ${tone ?? ''}`} data-testid={testId}>
      <div className="stat-label">{label}</div>
      <div className="stat-value">{href ? <Link href={href}>{value}</Link> : value}</div>
      <div className="stat-foot">
        <div className="stat-sub">{sub}</div>
        {trend && <Sparkline values={trend} label={`${label} trend`} className="stat-spark" />}
      </div>
    </div>
  );
}
