/**
 * The calls table, DevTools-style: sortable and toggleable columns (session and client
 * included), a copy-as-JSON button per row. A click selects the row (its details, session
 * included, show beside the table); a double click or Enter opens it in its session.
 */
import { OUTCOME_LABEL } from '../../api/types';
import type { CallView } from '../../api/types';
import { useFilters } from '../../app/filters';
import { VerdictCell } from '../../components/details/VerdictCell';
import type { SortState } from '../../components/SortableTable';
import { DataTable } from '../../components/table/DataTable';
import type { Column } from '../../components/table/columns';
import { Unit } from '../../components/Term';
import { ToolLink } from '../../components/ToolLink';
import { SessionNameLink } from '../sessions/SessionNameLink';
import { callSessionTitle } from '../sessions/session-title';
import { fmtDateTime, fmtMs, fmtTimeMs, fmtTok, fmtUnits } from '../../lib/format';

/** Every column of the calls table, the low-priority ones dropped on narrower windows. */
export function callColumns(link: ReturnType<typeof useFilters>['link']): Column<CallView>[] {
  return [
    {
      key: 'started',
      hideBelow: 520,
      name: 'Started',
      header: 'Started',
      width: '108px',
      sortValue: (c) => c.started_ms,
      defaultDir: 'desc',
      cellClass: 'mono',
      cellTitle: (c) => `${c.started_at} (${fmtDateTime(c.started_ms)})`,
      cell: (c) => fmtTimeMs(c.started_ms),
    },
    {
      key: 'tool',
      name: 'Tool',
      header: 'Tool',
      identifying: true,
      sortValue: (c) => c.tool_name,
      cell: (c) => <ToolLink name={c.tool_name} />,
    },
    {
      key: 'outcome',
      name: 'Outcome',
      header: 'Outcome',
      width: '100px',
      sortValue: (c) => c.outcome_class,
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
      sortValue: (c) => c.duration_ms,
      cellClass: (c) => (c.duration_ms >= 2000 ? 'slow' : ''),
      cellTitle: (c) => `${c.duration_ms} ms`,
      cell: (c) => fmtMs(c.duration_ms),
    },
    {
      key: 'response',
      hideBelow: 800,
      name: 'Response (tok)',
      header: (
        <>
          Response
          <Unit unit="tok" />
        </>
      ),
      num: true,
      width: '104px',
      sortValue: (c) => c.response_bytes,
      cellTitle: (c) => `${fmtUnits(c.response_bytes)} UTF-16 units`,
      cell: (c) => fmtTok(c.response_bytes),
    },
    {
      key: 'client',
      hideBelow: 1280,
      name: 'Client',
      header: 'Client',
      width: '112px',
      sortValue: (c) => c.client_name,
      cellTitle: (c) => c.client_name,
      cell: (c) => c.client_name,
    },
    // After the client, not mid-row: a click on a row's middle selects it, and the session's
    // name is a link that would take the click to the session page instead.
    {
      key: 'session',
      hideBelow: 1100,
      name: 'Session',
      header: 'Session',
      width: '200px',
      sortValue: (c) => callSessionTitle(c),
      cell: (c) => (
        <SessionNameLink call={c} href={link('/session', { id: c.session_id, call: c.id })} />
      ),
    },
    {
      key: 'hash',
      name: 'args_hash',
      header: 'args_hash',
      width: '116px',
      hideBelow: 1440,
      sortValue: (c) => c.args_hash,
      cellClass: 'mono faint',
      cell: (c) => c.args_hash,
    },
    {
      key: 'fcs',
      hideBelow: 900,
      name: 'First-call success',
      header: 'First-call success',
      width: '170px',
      sortValue: (c) => (c.first_call_success ? 1 : 0),
      cell: (c) => <VerdictCell call={c} />,
    },
  ];
}

export function CallsTable({
  rows,
  columns,
  sort,
  onSort,
  selected,
  onSelect,
  onOpen,
  empty,
}: {
  rows: CallView[];
  columns: Column<CallView>[];
  sort: SortState;
  onSort: (s: SortState) => void;
  selected: number;
  onSelect: (i: number) => void;
  onOpen: (i: number) => void;
  empty: React.ReactNode;
}) {
  return (
    <DataTable
      label="Calls"
      className="calls-table"
      testId="calls"
      focusable
      columns={columns}
      rows={rows}
      rowKey={(c) => c.id}
      sort={sort}
      onSort={onSort}
      selected={selected}
      onSelect={onSelect}
      onOpen={onOpen}
      rowProps={(c) => ({ 'data-call': c.id })}
      copyValue={(c) => c}
      empty={empty}
    />
  );
}
