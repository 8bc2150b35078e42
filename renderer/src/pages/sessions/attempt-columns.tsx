/**
 * The columns of a retry chain's attempts table. Every chain of a session is drawn with the
 * same columns at the same widths (the extras and compare columns are decided once for the
 * session, not per chain), so the chains' tables line up one under the other.
 */
import { OUTCOME_LABEL, type CallView } from '../../api/types';
import { hrefOf, Link } from '../../app/router';
import { Name } from '../../components/Name';
import type { Column } from '../../components/table/columns';
import { Unit } from '../../components/Term';
import { fmtMs, fmtTok, fmtUnits } from '../../lib/format';
import type { Attempt, ExtraChange } from './attempt-changes';

/** One row of a chain's table: the attempt, its number and the attempt before it. */
export interface AttemptRowData {
  n: number;
  a: Attempt;
  prev: CallView | undefined;
}

/** The playground's compare mode, primed with the two hashes the texts should produce. */
export function compareHref(a: CallView, b: CallView): string {
  return hrefOf(
    '/playground',
    new URLSearchParams({ mode: 'compare', tool: a.tool_name, a: a.args_hash, b: b.args_hash }),
  );
}

const signed = (d: number): string => `${d > 0 ? '+' : '−'}${fmtTok(Math.abs(d))}`;

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

/**
 * The attempts table's columns. Fixed widths for all but the widest text (the extras when
 * shown, else the hash), so two chains' columns start at the same x; the figures drop first
 * on a narrow window, the attempt number and hash never.
 */
export function attemptColumns({
  showExtra,
  showCompare,
  onSelect,
}: {
  showExtra: boolean;
  showCompare: boolean;
  onSelect?: (id: number) => void;
}): Column<AttemptRowData>[] {
  const columns: Column<AttemptRowData>[] = [
    {
      key: 'attempt',
      name: 'Attempt',
      header: 'Attempt',
      width: '68px',
      cell: ({ n, a }) => (
        <button
          type="button"
          className="attempt-no"
          onClick={(e) => {
            e.stopPropagation();
            onSelect?.(a.call.id);
          }}
          aria-label={`Show attempt ${n} (call ${a.call.id}) in the details`}
        >
          {n}
        </button>
      ),
    },
    {
      key: 'after',
      name: 'After',
      header: 'After',
      width: '128px',
      hideBelow: 480,
      cell: ({ a }) =>
        a.delayMs === null ? (
          <span className="muted">first</span>
        ) : (
          <>
            +{fmtMs(a.delayMs)}{' '}
            <span className={`link-kind ${a.call.prev_link}`}>
              {a.call.prev_link === 'none' ? '' : a.call.prev_link}
            </span>
          </>
        ),
    },
    {
      key: 'hash',
      name: 'args_hash',
      header: 'args_hash',
      identifying: true,
      // The hash (12 hex) and its "changed" tag, never cut (the tag wraps under the hash on a
      // phone); the rest of the row's width when there are no extras.
      ...(showExtra ? { width: '196px' } : {}),
      cellClass: 'hash-cell',
      cell: ({ a }) => (
        <>
          <code className="hash" title={a.call.args_hash}>
            {a.call.args_hash}
          </code>{' '}
          {a.args !== 'first' && (
            <span className={`args-change ${a.args}`} data-args={a.args}>
              {a.args === 'unknown' ? 'not comparable' : a.args}
            </span>
          )}
        </>
      ),
    },
    {
      key: 'outcome',
      name: 'Outcome',
      header: 'Outcome',
      width: '100px',
      cell: ({ a }) => (
        <span className="outcome">
          <span className={`dot o-${a.call.outcome_class}`} aria-hidden="true" />
          {OUTCOME_LABEL[a.call.outcome_class]}
        </span>
      ),
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
      width: '128px',
      hideBelow: 640,
      cellTitle: ({ a }) => `${fmtUnits(a.call.response_bytes)} UTF-16 units`,
      cell: ({ a, prev }) => (
        <>
          {fmtTok(a.call.response_bytes)}
          {prev && prev.response_bytes !== a.call.response_bytes && (
            <span className="muted delta">
              {' '}
              ({signed(a.call.response_bytes - prev.response_bytes)})
            </span>
          )}
        </>
      ),
    },
    {
      key: 'duration',
      name: 'Duration',
      header: 'Duration',
      num: true,
      width: '84px',
      hideBelow: 560,
      cell: ({ a }) => fmtMs(a.call.duration_ms),
    },
  ];
  if (showExtra)
    columns.push({
      key: 'extras',
      name: 'Extra fields sent',
      header: 'Extra fields sent',
      hideBelow: 760,
      cellClass: 'extras',
      cell: ({ a }) => (
        <div data-testid="attempt-extras">
          <ExtraList changes={a.extras} first={a.delayMs === null} />
        </div>
      ),
    });
  if (showCompare)
    columns.push({
      key: 'compare',
      name: 'Compare',
      header: <span className="sr-only">Compare</span>,
      width: '132px',
      hideBelow: 760,
      cell: ({ n, a, prev }) =>
        prev &&
        a.args === 'changed' && (
          <Link
            href={compareHref(prev, a.call)}
            className="small-link"
            onClick={(e) => e.stopPropagation()}
          >
            compare {n - 1} and {n}
          </Link>
        ),
    });
  return columns;
}
