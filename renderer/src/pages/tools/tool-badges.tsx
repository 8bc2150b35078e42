/** The status badges of a tool, from the same thresholds the insights use. */
import type { ToolSummary } from '../../api/metrics-types';
import { HEAVY_PAYLOAD_UNITS, INSIGHT_MIN_CALLS, THRESHOLDS } from '../../lib/thresholds';

export interface BadgeInfo {
  id: string;
  label: string;
  tone: 'ok' | 'warn' | 'danger' | 'info' | '';
  title: string;
}

export function toolBadges(t: ToolSummary): BadgeInfo[] {
  const out: BadgeInfo[] = [];
  if (t.dead) {
    out.push({
      id: 'dead',
      label: 'never used',
      tone: '',
      title: 'Registered in the latest startup, no calls in this view',
    });
    return out;
  }
  if (!t.registered) {
    out.push({
      id: 'unregistered',
      label: 'not registered',
      tone: 'info',
      title: 'Called, but not in the latest startup tool list (misspelt name, or removed tool)',
    });
  }
  const rate = t.calls ? t.first_call_successes / t.calls : null;
  if (rate !== null && t.calls >= INSIGHT_MIN_CALLS && rate < THRESHOLDS.firstCallSuccess.medium) {
    out.push({
      id: 'low-fcs',
      label: 'low first-call',
      tone: rate < THRESHOLDS.firstCallSuccess.high ? 'danger' : 'warn',
      title: `First-call success below ${THRESHOLDS.firstCallSuccess.medium * 100}% over ${t.calls} calls`,
    });
  }
  if ((t.avg_response_bytes ?? 0) > HEAVY_PAYLOAD_UNITS) {
    out.push({
      id: 'heavy',
      label: 'heavy payload',
      tone: (t.avg_response_bytes ?? 0) > THRESHOLDS.avgResponse.high ? 'danger' : 'warn',
      title: `Average response over ${HEAVY_PAYLOAD_UNITS.toLocaleString('en-US')} units`,
    });
  }
  if (out.length === 0 && t.calls >= INSIGHT_MIN_CALLS)
    out.push({ id: 'healthy', label: 'healthy', tone: 'ok', title: 'No threshold crossed' });
  return out;
}

export function ToolBadges({ tool }: { tool: ToolSummary }) {
  const badges = toolBadges(tool);
  return (
    <span className="badges">
      {badges.map((b) => (
        <span key={b.id} className={`badge ${b.tone}`} title={b.title} data-badge={b.id}>
          {b.label}
        </span>
      ))}
    </span>
  );
}
