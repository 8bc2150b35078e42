/**
 * Why a tool fails: its failing calls grouped by error text, the most common first, each with
 * how many calls and first calls it took, when it was first and last seen, and an example call
 * to open in its session. Error texts come from proxied calls; SDK calls send none and are
 * grouped under a stated stand-in, which says how to get the text.
 */
import { getApi } from '../../api/api';
import { contentPaths, type ToolErrorGroup } from '../../api/content';
import { OUTCOME_LABEL } from '../../api/types';
import { useCli } from '../../app/cli';
import { useFilters } from '../../app/filters';
import { Link } from '../../app/router';
import { useResource } from '../../hooks/useResource';
import { fmtDateTime, fmtInt } from '../../lib/format';
import { Panel } from '../Panel';
import { ErrorState } from '../States';
import './tool-causes.css';
import { RedactedText } from './Redacted';

export function ToolCauses({ tool, failing }: { tool: string; failing: number }) {
  const { filters, link } = useFilters();
  const cli = useCli();
  const res = useResource(failing > 0 ? contentPaths.toolErrors(filters, tool) : null, (p) =>
    getApi(p),
  );
  if (failing === 0) return null;
  const data = res.data;
  const total = data ? data.groups.reduce((n, g) => n + g.count, 0) + data.more.calls : 0;
  const anyText = data?.groups.some((g) => g.from_content) ?? false;
  return (
    <Panel title="Causes · failing calls by error text" className="tool-causes">
      {res.error && !data ? (
        <ErrorState message={res.error} retry={res.retry} compact />
      ) : !data ? (
        <p className="muted small">Reading error texts…</p>
      ) : (
        <>
          {!anyText && (
            <p className="muted small" data-testid="causes-none">
              No error texts for these failures: SDKs send only the outcome. Wrap the server with{' '}
              <code>{cli('proxy')}</code> to see what the tool answered.
            </p>
          )}
          <ol className="causes" data-testid="tool-causes">
            {data.groups.map((g) => (
              <Cause
                key={g.message}
                g={g}
                total={total}
                href={link('/session', { id: g.example_session_id, call: g.example_call_id })}
              />
            ))}
          </ol>
          {data.more.groups > 0 && (
            <p className="muted small">
              and {fmtInt(data.more.groups)} more messages ({fmtInt(data.more.calls)} calls)
            </p>
          )}
          {data.capped && (
            <p className="muted small">
              Grouped from the latest {fmtInt(data.failing_calls)} failing calls.
            </p>
          )}
        </>
      )}
    </Panel>
  );
}

function Cause({ g, total, href }: { g: ToolErrorGroup; total: number; href: string }) {
  const outcomes = Object.entries(g.outcomes)
    .filter(([, n]) => n > 0)
    .map(([o, n]) => `${fmtInt(n)} ${(OUTCOME_LABEL as Record<string, string>)[o] ?? o}`)
    .join(', ');
  return (
    <li className={`cause${g.from_content ? '' : ' stand-in'}`} data-testid="cause">
      <div className="cause-top">
        <span className="cause-count">
          {fmtInt(g.count)}×<span className="sr-only"> calls</span>
        </span>
        {g.from_content ? (
          <q className="cause-message">
            <RedactedText text={g.message} />
          </q>
        ) : (
          <span className="cause-message muted">
            <RedactedText text={g.message} />
          </span>
        )}
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
