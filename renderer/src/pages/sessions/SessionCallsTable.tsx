/** A session's calls in order, each with its verdict: first-call success or not, and why. */
import { useEffect, useMemo } from 'react';
import { OUTCOME_LABEL } from '../../api/types';
import type { Chain, CallView } from '../../api/types';
import { chainOfCall, isUnhashable, reasonText } from '../../api/session-facts';
import { ToolLink } from '../../components/ToolLink';
import { fmtMs, fmtTok, fmtUnits } from '../../lib/format';
import { Unit } from '../../components/Term';
import { relLabel } from '../../components/timeline/scale';

export function SessionCallsTable({
  calls,
  chains,
  selectedId,
  selectedIndex,
  onSelect,
}: {
  calls: CallView[];
  chains: Chain[];
  selectedId?: number;
  selectedIndex: number;
  onSelect: (id: number) => void;
}) {
  const chainOf = useMemo(() => chainOfCall(chains), [chains]);
  const chainNo = useMemo(() => new Map(chains.map((c, i) => [c.id, i + 1])), [chains]);
  const origin = calls[0]?.started_ms ?? 0;
  useEffect(() => {
    if (selectedIndex >= 0)
      document
        .querySelector(`[data-row-index="${selectedIndex}"]`)
        ?.scrollIntoView({ block: 'nearest' });
  }, [selectedIndex]);

  return (
    <div className="table-wrap session-calls">
      <table className="data" data-testid="session-calls">
        <colgroup>
          <col className="w-idx" />
          <col className="w-rel" />
          <col className="w-tool" />
          <col className="w-outcome" />
          <col className="w-n" />
          <col className="w-n" />
          <col className="w-hash" />
          <col />
        </colgroup>
        <thead>
          <tr>
            <th>#</th>
            <th>At</th>
            <th>Tool</th>
            <th>Outcome</th>
            <th className="num">Duration</th>
            <th className="num">
              Response
              <Unit unit="tok" />
            </th>
            <th>args_hash</th>
            <th>First-call success</th>
          </tr>
        </thead>
        <tbody>
          {calls.map((c, i) => {
            const o = c.outcome_class;
            const chain = chainOf.get(c.id);
            const fcs = c.first_call_success;
            return (
              <tr
                key={c.id}
                data-row-index={i}
                data-call={c.id}
                className={`clickable ${c.id === selectedId ? 'selected' : ''}`}
                onClick={() => onSelect(c.id)}
              >
                <td className="faint">{i + 1}</td>
                <td className="mono" title={c.started_at}>
                  {relLabel(c.started_ms - origin)}
                </td>
                <td>
                  <ToolLink name={c.tool_name} />
                </td>
                <td>
                  <span className="outcome">
                    <span className={`dot o-${o}`} />
                    {OUTCOME_LABEL[o]}
                  </span>
                </td>
                <td className="num">{fmtMs(c.duration_ms)}</td>
                <td className="num" title={`${fmtUnits(c.response_bytes)} UTF-16 units`}>
                  {fmtTok(c.response_bytes)}
                </td>
                <td
                  className={`mono ${isUnhashable(c) ? 'warn-text' : 'faint'}`}
                  title={isUnhashable(c) ? 'arguments could not be hashed' : undefined}
                >
                  {c.args_hash}
                </td>
                <td title={c.reason}>
                  <div className="verdict-cell">
                    <span
                      className={`verdict ${fcs ? 'yes' : 'no'}`}
                      data-fcs={fcs ? 'yes' : 'no'}
                      aria-label={fcs ? 'first-call success' : 'not a first-call success'}
                    >
                      {fcs ? '✓' : '✗'}
                    </span>
                    <span className="verdict-text">
                      {reasonText(c.reason)}
                      {c.retry_of_previous && (
                        <span className="faint"> · a retry of the previous {c.tool_name} call</span>
                      )}
                    </span>
                    {chain && (
                      <span className="badge chain-badge">chain {chainNo.get(chain.id)}</span>
                    )}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
