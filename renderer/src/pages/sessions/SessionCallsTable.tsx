/**
 * A session's calls in order, each with a short first-call verdict; the selected call's full
 * reason shows in the details panel beside the table. Written with the table kit: the same
 * columns and cells as the Calls page, in session order.
 */
import { useEffect, useMemo } from 'react';
import { OUTCOME_LABEL } from '../../api/types';
import type { Chain, CallView } from '../../api/types';
import { chainOfCall, isUnhashable } from '../../api/session-facts';
import { VerdictCell } from '../../components/details/VerdictCell';
import { DataTable } from '../../components/table/DataTable';
import type { Column } from '../../components/table/columns';
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
  useEffect(() => {
    if (selectedIndex >= 0)
      document
        .querySelector(`[data-row-index="${selectedIndex}"]`)
        ?.scrollIntoView({ block: 'nearest' });
  }, [selectedIndex]);

  const columns = useMemo<Column<CallView>[]>(
    () => [
      {
        key: 'idx',
        name: '#',
        header: '#',
        width: '44px',
        cellClass: 'faint',
        cell: (_c, i) => i + 1,
      },
      {
        key: 'at',
        name: 'At',
        header: 'At',
        width: '76px',
        // Narrow windows: the start time moves to the drawer (the # and the timeline keep the order).
        hideBelow: 1181,
        cellClass: 'mono',
        cellTitle: (c) => c.started_at,
        cell: (c) => relLabel(c.started_ms - origin),
      },
      {
        key: 'tool',
        name: 'Tool',
        header: 'Tool',
        identifying: true,
        cell: (c) => <ToolLink name={c.tool_name} />,
      },
      {
        key: 'outcome',
        name: 'Outcome',
        header: 'Outcome',
        width: '100px',
        cell: (c) => (
          <span className="outcome">
            <span className={`dot o-${c.outcome_class}`} aria-hidden="true" />
            {OUTCOME_LABEL[c.outcome_class]}
          </span>
        ),
      },
      {
        key: 'duration',
        name: 'Duration',
        header: 'Duration',
        num: true,
        width: '84px',
        cell: (c) => fmtMs(c.duration_ms),
      },
      {
        key: 'response',
        name: 'Response (tok)',
        header: (
          <>
            Response
            <Unit unit="tok" />
          </>
        ),
        num: true,
        width: '104px',
        hideBelow: 700,
        cellTitle: (c) => `${fmtUnits(c.response_bytes)} UTF-16 units`,
        cell: (c) => fmtTok(c.response_bytes),
      },
      {
        key: 'hash',
        name: 'args_hash',
        header: 'args_hash',
        width: '116px',
        hideBelow: 900,
        cellClass: (c) => `mono ${isUnhashable(c) ? 'warn-text' : 'faint'}`,
        cellTitle: (c) => (isUnhashable(c) ? 'arguments could not be hashed' : undefined),
        cell: (c) => c.args_hash,
      },
      {
        key: 'fcs',
        name: 'First-call success',
        header: 'First-call success',
        width: '170px',
        hideBelow: 600,
        cell: (c) => {
          const chain = chainOf.get(c.id);
          return (
            <div className="verdict-cell">
              <VerdictCell call={c} />
              {chain && <span className="badge chain-badge">chain {chainNo.get(chain.id)}</span>}
            </div>
          );
        },
      },
    ],
    [chainOf, chainNo, origin],
  );

  return (
    <DataTable
      label="Calls of this session"
      className="session-calls"
      testId="session-calls"
      columns={columns}
      rows={calls}
      rowKey={(c) => c.id}
      selected={calls.findIndex((c) => c.id === selectedId)}
      onSelect={(i) => onSelect(calls[i]!.id)}
      rowProps={(c) => ({ 'data-call': c.id })}
      copyValue={(c) => c}
    />
  );
}
