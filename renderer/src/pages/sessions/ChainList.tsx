/**
 * Retry chains spelled out, one table per chain: each attempt with what is known to have
 * changed since the previous one (args hash, outcome, response size and emptiness, the delay,
 * extra fields the SDK sent), and the playground one click away to compare the two argument
 * texts themselves, which never leave the SDK.
 */
import { OUTCOME_LABEL } from '../../api/types';
import type { CallView, Chain } from '../../api/types';
import { hrefOf, Link } from '../../app/router';
import { Name } from '../../components/Name';
import { ToolLink } from '../../components/ToolLink';
import { Unit } from '../../components/Term';
import { fmtMs, fmtTok, fmtUnits } from '../../lib/format';
import { attemptsOf, type Attempt, type ExtraChange } from './attempt-changes';
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
  return (
    <ol className="chains" data-testid="chains">
      {chains.map((ch, n) => {
        const attempts = attemptsOf(ch.call_ids, byId);
        // Most SDKs send nothing beyond the contract: then the column would only say "none".
        const anyExtra = attempts.some((a) => a.call.extra !== null);
        // Two attempts are compared by the link under the table; longer chains get one per step.
        const perStep = attempts.length > 2;
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
            <div className="table-wrap">
              <table className="data chain-attempts" data-testid="chain-attempts">
                <thead>
                  <tr>
                    <th>Attempt</th>
                    <th>After</th>
                    <th>args_hash</th>
                    <th>Outcome</th>
                    <th className="num">
                      Response
                      <Unit unit="tok" />
                    </th>
                    <th className="num">Duration</th>
                    {anyExtra && <th>Extra fields sent</th>}
                    {perStep && (
                      <th>
                        <span className="sr-only">Compare</span>
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {attempts.map((a, i) => (
                    <AttemptRow
                      key={a.call.id}
                      n={i + 1}
                      a={a}
                      prev={attempts[i - 1]?.call}
                      selected={a.call.id === selectedId}
                      onSelect={onSelectCall}
                      showExtra={anyExtra}
                      showCompare={perStep}
                    />
                  ))}
                </tbody>
              </table>
            </div>
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
          </li>
        );
      })}
    </ol>
  );
}

/** The playground's compare mode, primed with the two hashes the texts should produce. */
export function compareHref(a: CallView, b: CallView): string {
  return hrefOf(
    '/playground',
    new URLSearchParams({ mode: 'compare', tool: a.tool_name, a: a.args_hash, b: b.args_hash }),
  );
}

function AttemptRow({
  n,
  a,
  prev,
  selected,
  onSelect,
  showExtra,
  showCompare,
}: {
  n: number;
  a: Attempt;
  prev: CallView | undefined;
  selected: boolean;
  onSelect?: (id: number) => void;
  showExtra: boolean;
  showCompare: boolean;
}) {
  const c = a.call;
  const o = c.outcome_class;
  return (
    <tr className={selected ? 'selected' : ''} data-attempt={n} data-call={c.id}>
      <td>
        <button
          type="button"
          className="attempt-no"
          onClick={() => onSelect?.(c.id)}
          aria-label={`Show attempt ${n} (call ${c.id}) in the details`}
        >
          {n}
        </button>
      </td>
      <td className="nowrap">
        {a.delayMs === null ? (
          <span className="muted">first</span>
        ) : (
          <>
            +{fmtMs(a.delayMs)}{' '}
            <span className={`link-kind ${c.prev_link}`}>
              {c.prev_link === 'none' ? '' : c.prev_link}
            </span>
          </>
        )}
      </td>
      <td className="nowrap">
        <code className="hash" title={c.args_hash}>
          {c.args_hash}
        </code>{' '}
        {a.args !== 'first' && (
          <span className={`args-change ${a.args}`} data-args={a.args}>
            {a.args === 'unknown' ? 'not comparable' : a.args}
          </span>
        )}
      </td>
      <td className="nowrap">
        <span className="outcome">
          <span className={`dot o-${o}`} aria-hidden="true" />
          {OUTCOME_LABEL[o]}
        </span>
      </td>
      <td className="num nowrap" title={`${fmtUnits(c.response_bytes)} UTF-16 units`}>
        {fmtTok(c.response_bytes)}
        {prev && prev.response_bytes !== c.response_bytes && (
          <span className="muted delta"> ({signed(c.response_bytes - prev.response_bytes)})</span>
        )}
      </td>
      <td className="num nowrap">{fmtMs(c.duration_ms)}</td>
      {showExtra && (
        <td className="extras" data-testid="attempt-extras">
          <ExtraList changes={a.extras} first={a.delayMs === null} />
        </td>
      )}
      {showCompare && (
        <td className="nowrap">
          {prev && a.args === 'changed' && (
            <Link href={compareHref(prev, c)} className="small-link">
              compare {n - 1} and {n}
            </Link>
          )}
        </td>
      )}
    </tr>
  );
}

function ExtraList({ changes, first }: { changes: ExtraChange[]; first: boolean }) {
  if (changes.length === 0) return <span className="muted">{first ? 'none' : 'unchanged'}</span>;
  return (
    <ul className="extra-changes">
      {changes.map((x) => (
        <li key={x.key} className={x.kind}>
          <Name text={x.key} mono />
          {x.kind === 'added' ? (
            <>
              {first ? ' ' : ' added '}
              <code>{x.after}</code>
            </>
          ) : x.kind === 'removed' ? (
            <> removed</>
          ) : (
            <>
              {' '}
              <code>{x.before}</code> → <code>{x.after}</code>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

const signed = (d: number): string => `${d > 0 ? '+' : '−'}${fmtTok(Math.abs(d))}`;
