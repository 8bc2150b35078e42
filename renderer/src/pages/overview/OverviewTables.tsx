/** The small tables of the overview: clients and tool pairs. */
import type { ClientRow, Pair } from '../../api/types';
import { useFilters } from '../../app/filters';
import { Link } from '../../app/router';
import { Name } from '../../components/Name';
import { Abbr } from '../../components/Term';
import { ToolLink } from '../../components/ToolLink';
import { fmtInt, fmtPct } from '../../lib/format';

export function ClientsTable({ clients }: { clients: ClientRow[] }) {
  const { link } = useFilters();
  if (clients.length === 0) return <div className="empty-row">No clients in this view.</div>;
  return (
    <div className="table-wrap short">
      <table className="data" data-testid="clients">
        <colgroup>
          <col />
          <col className="w-n" />
          <col className="w-n" />
        </colgroup>
        <thead>
          <tr>
            <th>Client</th>
            <th className="num">Calls</th>
            <th className="num">
              <Abbr term="FCS" />
            </th>
          </tr>
        </thead>
        <tbody>
          {clients.map((c) => (
            <tr key={c.client}>
              <td>
                <Link href={link('/', { client: c.client })} title={`Filter to ${c.client}`}>
                  <Name text={c.client} />
                </Link>
              </td>
              <td className="num">
                <Link href={link('/calls', { client: c.client })}>{fmtInt(c.calls)}</Link>
              </td>
              <td
                className="num"
                title={`${c.first_call_success.successes} of ${c.first_call_success.calls}`}
              >
                {fmtPct(c.first_call_success.rate)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function PairsList({ pairs }: { pairs: Pair[] }) {
  const { link } = useFilters();
  if (pairs.length === 0)
    return (
      <div className="empty-row">
        No tool pairs yet: a pair is two different tools called back to back in a session.
      </div>
    );
  const max = Math.max(...pairs.map((p) => p.count));
  return (
    <ul className="pairs" data-testid="pairs">
      {pairs.slice(0, 12).map((p) => (
        <li key={`${p.from}\u0000${p.to}`} className="pair">
          <ToolLink name={p.from} className="pair-tool" />
          <span className="pair-arrow" aria-label="then">
            →
          </span>
          <ToolLink name={p.to} className="pair-tool" />
          <span className="pair-bar" style={{ width: `${Math.max(4, (p.count / max) * 48)}px` }} />
          <Link
            className="pair-n"
            href={link('/calls', { tool: p.to, from_tool: p.from })}
            title="the calls of the second tool that came right after the first"
          >
            {fmtInt(p.count)}
          </Link>
        </li>
      ))}
    </ul>
  );
}
