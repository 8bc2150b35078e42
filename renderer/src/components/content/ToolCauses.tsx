/**
 * Why a tool fails: its failing calls grouped by error text, the most common first, each with
 * how many calls and first calls it took, when it was first and last seen, and an example call
 * to open in its session. Only proxied calls carry error texts; an SDK-only tool says how to
 * get them.
 */
import { fetchToolErrors, type ErrorGroup } from '../../api/content';
import { OUTCOME_LABEL } from '../../api/types';
import { useFilters } from '../../app/filters';
import { Link } from '../../app/router';
import { useResource } from '../../hooks/useResource';
import { fmtDateTime, fmtInt } from '../../lib/format';
import { Panel } from '../Panel';
import { ErrorState } from '../States';
import './tool-causes.css';

/** Groups shown before "show all". */
const TOP = 8;

export function ToolCauses({ tool, failing }: { tool: string; failing: number }) {
  const { filters, link } = useFilters();
  const res = useResource(`tool-errors:${filters.project ?? ''}:${tool}`, () =>
    fetchToolErrors(tool, filters.project ?? undefined),
  );
  if (failing === 0 && !res.data?.length) return null;
  const groups = res.data ?? [];
  const total = groups.reduce((n, g) => n + g.count, 0);
  return (
    <Panel title={`Causes · failing calls by error text`} className="tool-causes">
      {res.error && !res.data ? (
        <ErrorState message={res.error} retry={res.retry} compact />
      ) : !res.data ? (
        <p className="muted small">Reading error texts…</p>
      ) : groups.length === 0 ? (
        <p className="muted small" data-testid="causes-none">
          No error texts for these failures: SDKs send only the outcome. Wrap the server with{' '}
          <code>mcpulse-devtools proxy</code> to see what the tool answered.
        </p>
      ) : (
        <ol className="causes" data-testid="tool-causes">
          {groups.slice(0, TOP).map((g) => (
            <Cause
              key={g.message}
              g={g}
              total={total}
              href={link('/session', { id: g.example_session_id, call: g.example_call_id })}
            />
          ))}
          {groups.length > TOP && (
            <li className="muted small">
              and {fmtInt(groups.length - TOP)} more messages (
              {fmtInt(groups.slice(TOP).reduce((n, g) => n + g.count, 0))} calls)
            </li>
          )}
        </ol>
      )}
    </Panel>
  );
}

function Cause({ g, total, href }: { g: ErrorGroup; total: number; href: string }) {
  const outcomes = Object.entries(g.outcomes)
    .filter(([, n]) => n > 0)
    .map(([o, n]) => `${fmtInt(n)} ${(OUTCOME_LABEL as Record<string, string>)[o] ?? o}`)
    .join(', ');
  return (
    <li className="cause" data-testid="cause">
      <div className="cause-top">
        <span className="cause-count" aria-label={`${g.count} calls`}>
          {fmtInt(g.count)}×
        </span>
        <q className="cause-message">{g.message}</q>
      </div>
      <div className="cause-bar" aria-hidden="true">
        <span style={{ width: `${Math.max(2, (g.count / Math.max(1, total)) * 100)}%` }} />
      </div>
      <p className="cause-meta muted small">
        {outcomes}
        {g.first_calls > 0 && (
          <>
            {' '}
            · {fmtInt(g.first_calls)} {g.first_calls === 1 ? 'first call' : 'first calls'}
          </>
        )}{' '}
        · first seen {fmtDateTime(Date.parse(g.first_at))} · last seen{' '}
        {fmtDateTime(Date.parse(g.last_at))} ·{' '}
        <Link href={href} data-testid="cause-example">
          example call
        </Link>
      </p>
    </li>
  );
}
