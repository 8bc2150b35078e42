/** A tool's status badges, exactly as the metrics engine assigns them (hosted thresholds). */
import type { ToolSummary } from '../../api/types';

type Badge = ToolSummary['badges'][number];

const BADGES: Record<Badge, { label: string; tone: string; title: string }> = {
  never_used: {
    label: 'never used',
    tone: '',
    title: 'Registered in the latest startup, no calls in this view',
  },
  unregistered: {
    label: 'not registered',
    tone: 'info',
    title: 'Called, but not in the latest startup tool list (a misspelt or removed tool)',
  },
  heavy_payload: {
    label: 'heavy payload',
    tone: 'warn',
    title: 'Average response above 10,000 units (≈2,500 tokens)',
  },
  low_first_call: {
    label: 'low first-call',
    tone: 'danger',
    title: 'First-call success below 70% over at least 20 calls',
  },
  slow: {
    label: 'slow',
    tone: 'warn',
    title: 'More than 10% of calls took 2 s or more (at least 20 calls)',
  },
  empty_results: {
    label: 'empty results',
    tone: 'warn',
    title: 'More than 5% of calls returned empty results (at least 20 calls)',
  },
};

export function ToolBadges({ tool }: { tool: ToolSummary }) {
  return (
    <span className="badges">
      {tool.badges.map((b) => {
        const info = BADGES[b] ?? { label: b, tone: '', title: b };
        return (
          <span key={b} className={`badge ${info.tone}`} title={info.title} data-badge={b}>
            {info.label}
          </span>
        );
      })}
    </span>
  );
}
