/**
 * A session's calls in order, each with a short first-call verdict; the selected call's full
 * reason shows in the details panel beside the table.
 */
import { useEffect, useMemo } from 'react';
import { OUTCOME_LABEL } from '../../api/types';
import type { Chain, CallView } from '../../api/types';
import { chainOfCall, isUnhashable } from '../../api/session-facts';
import { useDetailsBeside } from '../../components/details/useDetailsBeside';
import { VerdictCell } from '../../components/details/VerdictCell';
import { Unit } from '../../components/Term';
import { ToolLink } from '../../components/ToolLink';
import { fmtMs, fmtTok, fmtUnits } from '../../lib/format';
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
  // Narrow windows: the start time moves to the drawer (the # and the timeline keep the order).
  const wide = useDetailsBeside();
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
          {wide && <col className="w-rel" />}
          <col />
          <col className="w-outcome" />
          <col className="w-n" />
          <col className="w-n" />
          <col className="w-hash" />
          <col className="w-verdict" />
        </colgroup>
        <thead>
          <tr>
            <th>#</th>
            {wide && <th>At</th>}
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
            return (
              <tr
                key={c.id}
                data-row-index={i}
                data-call={c.id}
                className={`clickable ${c.id === selectedId ? 'selected' : ''}`}
                onClick={() => onSelect(c.id)}
              >
                <td className="faint">{i + 1}</td>
                {wide && (
                  <td className="mono" title={c.started_at}>
                    {relLabel(c.started_ms - origin)}
                  </td>
                )}
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
                <td>
                  <div className="verdict-cell">
                    <VerdictCell call={c} />
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
