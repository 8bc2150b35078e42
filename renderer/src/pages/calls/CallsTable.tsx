/** The calls table: one row per call with its outcome and first-call verdict. */
import { OUTCOME_LABEL } from '../../api/types';
import type { CallView } from '../../api/types';
import { reasonText } from '../../api/session-facts';
import { Name } from '../../components/Name';
import { NoMatch } from '../../components/States';
import { Unit } from '../../components/Term';
import { ToolLink } from '../../components/ToolLink';
import { fmtDateTime, fmtMs, fmtTimeMs, fmtTok, fmtUnits } from '../../lib/format';

export function CallsTable({
  rows,
  selected,
  onOpen,
}: {
  rows: CallView[];
  selected: number;
  onOpen: (i: number) => void;
}) {
  return (
    <div className="table-wrap calls-table" tabIndex={0} role="region" aria-label="Calls">
      <table className="data" data-testid="calls">
        <colgroup>
          <col className="w-when" />
          <col className="w-tool" />
          <col className="w-outcome" />
          <col className="w-n" />
          <col className="w-n" />
          <col className="w-hash" />
          <col />
          <col className="w-session" />
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
            <th>args_hash</th>
            <th>First-call success</th>
            <th>Session</th>
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
                onClick={() => onOpen(i)}
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
                <td className="mono faint">{c.args_hash}</td>
                <td title={c.reason}>
                  <span className={`verdict-inline ${c.first_call_success ? 'yes' : 'no'}`}>
                    {c.first_call_success ? '✓' : '✗'}
                  </span>{' '}
                  {reasonText(c.reason)}
                </td>
                <td className="mono">
                  <Name text={c.session_id} />
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
