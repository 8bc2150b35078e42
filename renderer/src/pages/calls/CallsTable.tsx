/**
 * The calls table: one row per call with its outcome and a short first-call verdict. A click
 * selects the row (its details, session included, show beside the table); a double click or
 * Enter opens it in its session.
 */
import { OUTCOME_LABEL } from '../../api/types';
import type { CallView } from '../../api/types';
import { useDetailsBeside } from '../../components/details/useDetailsBeside';
import { VerdictCell } from '../../components/details/VerdictCell';
import { NoMatch } from '../../components/States';
import { Unit } from '../../components/Term';
import { ToolLink } from '../../components/ToolLink';
import { fmtDateTime, fmtMs, fmtTimeMs, fmtTok, fmtUnits } from '../../lib/format';

export function CallsTable({
  rows,
  selected,
  onSelect,
  onOpen,
}: {
  rows: CallView[];
  selected: number;
  onSelect: (i: number) => void;
  onOpen: (i: number) => void;
}) {
  // Narrow windows: the hash moves to the drawer, so tool names keep their room.
  const wide = useDetailsBeside();
  return (
    <div className="table-wrap calls-table" tabIndex={0} role="region" aria-label="Calls">
      <table className="data" data-testid="calls">
        <colgroup>
          <col className="w-when" />
          <col />
          <col className="w-outcome" />
          <col className="w-n" />
          <col className="w-n" />
          {wide && <col className="w-hash" />}
          <col className="w-verdict" />
        </colgroup>
        <thead>
          <tr>
            <th>Started</th>
            <th>Tool</th>
            <th>Outcome</th>
            <th className="num">Duration</th>
            <th className="num">
              Response
              <Unit unit="tok" />
            </th>
            {wide && <th>args_hash</th>}
            <th>First-call success</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((c, i) => {
            const o = c.outcome_class;
            return (
              <tr
                key={c.id}
                data-row-index={i}
                data-call={c.id}
                className={`clickable ${i === selected ? 'selected' : ''}`}
                onClick={() => onSelect(i)}
                onDoubleClick={() => onOpen(i)}
              >
                <td className="mono" title={`${c.started_at} (${fmtDateTime(c.started_ms)})`}>
                  {fmtTimeMs(c.started_ms)}
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
                <td className={`num ${c.duration_ms >= 2000 ? 'slow' : ''}`}>
                  {fmtMs(c.duration_ms)}
                </td>
                <td className="num" title={`${fmtUnits(c.response_bytes)} UTF-16 units`}>
                  {fmtTok(c.response_bytes)}
                </td>
                {wide && <td className="mono faint">{c.args_hash}</td>}
                <td>
                  <VerdictCell call={c} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {rows.length === 0 && <NoMatch compact />}
    </div>
  );
}
