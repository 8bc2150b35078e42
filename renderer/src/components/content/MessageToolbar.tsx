/** The message log's filters: method, kind and a search inside the bodies. */
import { MESSAGE_KINDS } from '../../../../src/shared/proxy-content';
import { fmtInt } from '../../lib/format';
import type { MessageFilter } from './messages';

export function MessageToolbar({
  filter,
  onFilter,
  methods,
  shown,
  total,
}: {
  filter: MessageFilter;
  onFilter: (f: MessageFilter) => void;
  methods: { method: string; count: number }[];
  shown: number;
  total: number;
}) {
  return (
    <div className="ml-toolbar" role="search" aria-label="Filter messages">
      <label className="ml-field">
        <span className="ml-label">Method</span>
        <select
          className="select"
          value={filter.method}
          onChange={(e) => onFilter({ ...filter, method: e.target.value })}
          data-testid="ml-method"
        >
          <option value="">All methods</option>
          {methods.map((m) => (
            <option key={m.method} value={m.method}>
              {m.method} ({m.count})
            </option>
          ))}
        </select>
      </label>
      <label className="ml-field">
        <span className="ml-label">Kind</span>
        <select
          className="select"
          value={filter.kind}
          onChange={(e) => onFilter({ ...filter, kind: e.target.value as MessageFilter['kind'] })}
          data-testid="ml-kind"
        >
          <option value="">All kinds</option>
          {MESSAGE_KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </label>
      <label className="ml-field ml-search">
        <span className="ml-label">Search bodies</span>
        <input
          className="input"
          type="search"
          value={filter.q}
          placeholder="text inside a message"
          onChange={(e) => onFilter({ ...filter, q: e.target.value })}
          data-testid="ml-search"
        />
      </label>
      <span className="ml-count muted" aria-live="polite" data-testid="ml-count">
        {shown === total ? `${fmtInt(total)} messages` : `${fmtInt(shown)} of ${fmtInt(total)}`}
      </span>
    </div>
  );
}
