/**
 * Retry chains spelled out, one table per chain: each attempt with what is known to have
 * changed since the previous one (args hash, outcome, response size and emptiness, the delay,
 * extra fields the SDK sent), and the playground one click away to compare the two argument
 * texts themselves, which never leave the SDK. The tables are the kit's, with one set of
 * columns for the whole session so the chains line up.
 */
import type { CallView, Chain } from '../../api/types';
import { Link } from '../../app/router';
import { ContentBoundary } from '../../components/ContentBoundary';
import { DataTable } from '../../components/table/DataTable';
import { ToolLink } from '../../components/ToolLink';
import { fmtMs } from '../../lib/format';
import { attemptsOf } from './attempt-changes';
import { attemptColumns, compareHref, type AttemptRowData } from './attempt-columns';
import { ChainContent } from './ChainContent';
import './chains.css';

export function ChainList({
  chains,
  calls,
  selectedId,
  onSelectCall,
}: {
  chains: Chain[];
  calls: CallView[];
  selectedId?: number;
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
  const all = chains.map((ch) => attemptsOf(ch.call_ids, byId));
  // Decided once for the session, so every chain's table has the same columns and widths.
  // Most SDKs send nothing beyond the contract: then the column would only say "none".
  const showExtra = all.some((attempts) => attempts.some((a) => a.call.extra !== null));
  // Two attempts are compared by the link under the table; longer chains get one per step.
  const showCompare = all.some((attempts) => attempts.length > 2);
  const columns = attemptColumns({ showExtra, showCompare, onSelect: onSelectCall });
  return (
    <ol className="chains" data-testid="chains">
      {chains.map((ch, n) => {
        const attempts = all[n]!;
        const rows: AttemptRowData[] = attempts.map((a, i) => ({
          n: i + 1,
          a,
          prev: attempts[i - 1]?.call,
        }));
        const first = attempts[0]?.call;
        const last = attempts.at(-1)?.call;
        return (
          <li key={ch.id} className="chain" data-chain={ch.id}>
            <div className="chain-head">
              <span className="chain-no">{n + 1}</span>
              <ToolLink name={ch.tool} className="chain-tool" />
              <span className="muted">
                {ch.call_count} calls · {ch.retries} {ch.retries === 1 ? 'retry' : 'retries'}
                {ch.repeats
                  ? ` · ${ch.repeats} repeat${ch.repeats === 1 ? '' : 's'}`
                  : ''} over {fmtMs(ch.last_started_ms - ch.started_ms)}
              </span>
              <span className={`badge ${ch.resolved ? 'ok' : 'danger'}`}>
                {ch.resolved ? 'resolved' : 'unresolved'}
              </span>
            </div>
            <DataTable
              label={`Attempts of chain ${n + 1} (${ch.tool})`}
              className="chain-table"
              testId="chain-attempts"
              columns={columns}
              rows={rows}
              rowKey={(r) => r.a.call.id}
              selected={rows.findIndex((r) => r.a.call.id === selectedId)}
              {...(onSelectCall
                ? { onSelect: (i: number) => onSelectCall(rows[i]!.a.call.id) }
                : {})}
              rowProps={(r) => ({ 'data-attempt': r.n, 'data-call': r.a.call.id })}
            />
            <ContentBoundary
              what="What the proxy captured of this chain"
              resetKey={attempts[0]?.call.id}
            >
              <ChainContent
                attempts={attempts.map((a) => a.call)}
                fallback={
                  first &&
                  last &&
                  first.args_hash !== last.args_hash && (
                    <p className="chain-foot muted">
                      Only the hash of the arguments leaves the SDK. Have the argument texts?{' '}
                      <Link href={compareHref(first, last)} data-testid="chain-compare">
                        Compare attempt 1 and {attempts.length} in the playground
                      </Link>
                    </p>
                  )
                }
              />
            </ContentBoundary>
          </li>
        );
      })}
    </ol>
  );
}
