/**
 * Cross-tool agreement: two tools return the same declared field, and the SDK reports whether
 * the values agreed (never the values). A field two tools disagree on is a bug no other metric
 * sees — the calls succeed, fast, non-empty — so divergent pairs come first and are marked.
 */
import { agreementsPath } from '../api/agreements';
import { useApi } from '../hooks/useApi';
import type { AgreementPair } from '../api/types';
import { useFilters, type Filters } from '../app/filters';
import { Link } from '../app/router';
import { fmtDateTime, fmtInt, fmtMs } from '../lib/format';
import { Name } from './Name';
import './agreements.css';

/** The agreement pairs for the filters (and one tool, if given); nothing while there are none. */
export function ToolAgreements({ filters, tool }: { filters: Filters; tool?: string }) {
  const res = useApi(agreementsPath({ ...filters, tool: tool ?? filters.tool }));
  const pairs = res.data?.pairs ?? [];
  if (pairs.length === 0) return null;
  return (
    <div className="agreements" data-testid="agreements">
      <h3 className="agreements-title">
        Agreement on shared fields
        <span className="faint">
          {' '}
          · {fmtInt(res.data!.checks)} checks, {fmtInt(res.data!.diverged)} diverged
        </span>
      </h3>
      <AgreementList pairs={pairs} />
    </div>
  );
}

/** One row per field and pair of tools. */
export function AgreementList({ pairs }: { pairs: AgreementPair[] }) {
  const { link } = useFilters();
  return (
    <ul className="agreement-list">
      {pairs.slice(0, 12).map((p) => (
        <li
          key={`${p.field}\u0000${p.tool_a}\u0000${p.tool_b}`}
          className={p.diverged > 0 ? 'agreement diverged' : 'agreement'}
          data-testid="agreement-pair"
        >
          <span
            className={`agreement-mark ${p.last_agreed ? 'ok' : 'bad'}`}
            title="the latest check"
          >
            {p.last_agreed ? 'agree' : 'disagree'}
          </span>
          <span className="agreement-field mono" title="the declared field">
            <Name text={p.field} />
          </span>
          <span className="agreement-tools">
            <Link href={link('/tool', { name: p.tool_a })}>
              <Name text={p.tool_a} />
            </Link>
            <span className="faint" aria-label="compared with">
              {' '}
              vs{' '}
            </span>
            <Link href={link('/tool', { name: p.tool_b })}>
              <Name text={p.tool_b} />
            </Link>
          </span>
          <span
            className="agreement-n"
            title={`last checked ${fmtDateTime(p.last_checked_ms)}${
              p.window_ms !== null ? `, within ${fmtMs(p.window_ms)}` : ''
            }`}
          >
            {p.diverged > 0
              ? `${fmtInt(p.diverged)} of ${fmtInt(p.checks)} diverged`
              : `${fmtInt(p.checks)} agreed`}
          </span>
        </li>
      ))}
    </ul>
  );
}
