/** Retry chains spelled out: each call as a pill, joined by its link (retry / repeat / unknown). */
import { Fragment } from 'react';
import { OUTCOME_LABEL } from '../../api/types';
import type { Chain, CallView } from '../../api/types';
import { Name } from '../../components/Name';
import { fmtMs } from '../../lib/format';

export function ChainList({
  chains,
  calls,
  onSelectCall,
}: {
  chains: Chain[];
  calls: CallView[];
  onSelectCall?: (id: number) => void;
}) {
  const byId = new Map(calls.map((c) => [c.id, c]));
  if (chains.length === 0) {
    return (
      <div className="empty-row">
        No retry chains: no call was followed within 30 s by the same tool with different arguments.
      </div>
    );
  }
  return (
    <ol className="chains" data-testid="chains">
      {chains.map((ch, n) => (
        <li key={ch.id} className="chain" data-chain={ch.id}>
          <div className="chain-head">
            <span className="chain-no">{n + 1}</span>
            <Name text={ch.tool} mono className="chain-tool" />
            <span className="muted">
              {ch.call_count} calls · {ch.retries} {ch.retries === 1 ? 'retry' : 'retries'}
              {ch.repeats ? ` · ${ch.repeats} repeat${ch.repeats === 1 ? '' : 's'}` : ''}
            </span>
            <span className={`badge ${ch.resolved ? 'ok' : 'danger'}`}>
              {ch.resolved ? 'resolved' : 'unresolved'}
            </span>
          </div>
          <div className="chain-steps">
            {ch.call_ids.map((id, i) => {
              const c = byId.get(id);
              const link = ch.links[i];
              const o = c ? c.outcome_class : 'ok';
              return (
                <Fragment key={id}>
                  <button
                    type="button"
                    className={`step o-${o}`}
                    onClick={() => onSelectCall?.(id)}
                    title={
                      c
                        ? `${OUTCOME_LABEL[o]} · ${fmtMs(c.duration_ms)} · ${c.args_hash}`
                        : String(id)
                    }
                  >
                    <span className={`dot o-${o}`} />
                    {OUTCOME_LABEL[o]}
                    <span className="mono faint">{c?.args_hash.slice(0, 4)}…</span>
                  </button>
                  {link && (
                    <span
                      className={`step-link ${link.kind}`}
                      title={`${link.kind}: next call ${fmtMs(link.gap_ms)} later`}
                    >
                      {link.kind} · {fmtMs(link.gap_ms)} →
                    </span>
                  )}
                </Fragment>
              );
            })}
          </div>
        </li>
      ))}
    </ol>
  );
}
