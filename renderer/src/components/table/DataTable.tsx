/**
 * The one data table of the dashboard: columns from {@link Column} definitions, sorting by a
 * click on a header (the state lives with the page, usually in the URL), fixed widths for the
 * figures so the identifying column keeps the room, a column menu, and "copy row as JSON".
 */
import { useState, type HTMLAttributes, type ReactNode } from 'react';
import { ariaSort, SortIndicator, sortHint, type SortState } from '../SortableTable';
import { rowAsJson, type Column } from './columns';
import { useViewportWidth } from './useViewportWidth';
import './table.css';

export interface DataTableProps<T> {
  /** The accessible name of the table's scroll region. */
  label: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  sort?: SortState;
  onSort?: (next: SortState) => void;
  /** The selected row's index (-1: none). */
  selected?: number;
  onSelect?: (index: number) => void;
  /** Double click (Enter is the page's keyboard map). */
  onOpen?: (index: number) => void;
  /** Extra attributes of a row (`data-call`, `data-tool`). */
  rowProps?: (
    row: T,
    index: number,
  ) => HTMLAttributes<HTMLTableRowElement> & {
    [data: `data-${string}`]: string | number | undefined;
  };
  /** What "copy row as JSON" copies for a row (default: the visible columns' values). */
  copyValue?: (row: T) => unknown;
  /** Shown under the header when there are no rows. */
  empty?: ReactNode;
  /** `data-testid` of the `<table>`. */
  testId?: string;
  className?: string;
  /** The scroll region takes focus (a long list scrolled by keyboard). */
  focusable?: boolean;
}

function HeaderCell<T>({
  c,
  sort,
  onSort,
}: {
  c: Column<T>;
  sort?: SortState;
  onSort?: (s: SortState) => void;
}) {
  const cls = c.num ? 'num' : undefined;
  if (!c.sortValue || !sort || !onSort)
    return (
      <th className={cls} scope="col" data-col={c.key}>
        {c.header}
      </th>
    );
  const active = sort.key === c.key;
  const dir = c.defaultDir ?? (c.num ? 'desc' : 'asc');
  const next: SortState = active
    ? { key: c.key, dir: sort.dir === 'asc' ? 'desc' : 'asc' }
    : { key: c.key, dir };
  return (
    <th className={cls} scope="col" aria-sort={ariaSort(active, sort.dir)} data-col={c.key}>
      <button type="button" onClick={() => onSort(next)} title={sortHint(c.name, active, sort.dir)}>
        {c.header}
        <SortIndicator active={active} dir={sort.dir} />
      </button>
    </th>
  );
}

/** Copies one row; says "Copied" for a moment. */
function CopyRow({ text, name }: { text: string; name: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      className="copy-row"
      aria-label={`Copy ${name} as JSON`}
      title="Copy row as JSON"
      onClick={(e) => {
        // A click on the copy button copies; it does not select or open the row.
        e.stopPropagation();
        void navigator.clipboard?.writeText(text).then(
          () => setDone(true),
          () => setDone(false),
        );
        setTimeout(() => setDone(false), 1200);
      }}
    >
      {done ? '✓' : '{ }'}
    </button>
  );
}

export function DataTable<T>({
  label,
  columns: allColumns,
  rows,
  rowKey,
  sort,
  onSort,
  selected = -1,
  onSelect,
  onOpen,
  rowProps,
  copyValue,
  empty,
  testId,
  className = '',
  focusable = false,
}: DataTableProps<T>) {
  const width = useViewportWidth();
  const columns = allColumns.filter(
    (c) => c.identifying || c.hideBelow === undefined || width >= c.hideBelow,
  );
  // The copy button needs room too: on a phone-sized window the row's page has it.
  const copy = copyValue !== undefined && width >= 600;
  const identifying = columns.find((c) => c.identifying) ?? columns[0];
  return (
    <div
      className={`table-wrap kit ${className}`}
      role="region"
      aria-label={label}
      tabIndex={focusable ? 0 : undefined}
    >
      <table className="data" data-testid={testId}>
        <colgroup>
          {columns.map((c) => (
            <col key={c.key} style={c.width ? { width: c.width } : undefined} />
          ))}
          {copy && <col style={{ width: '40px' }} />}
        </colgroup>
        <thead>
          <tr>
            {columns.map((c) => (
              <HeaderCell key={c.key} c={c} sort={sort} onSort={onSort} />
            ))}
            {copy && (
              <th scope="col">
                <span className="sr-only">Copy</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => {
            const extra = rowProps?.(r, i) ?? {};
            const clickable = onSelect || onOpen;
            return (
              <tr
                key={rowKey(r)}
                data-row-index={i}
                {...extra}
                className={`${clickable ? 'clickable' : ''} ${i === selected ? 'selected' : ''} ${extra.className ?? ''}`}
                aria-selected={onSelect ? i === selected : undefined}
                onClick={onSelect ? () => onSelect(i) : undefined}
                onDoubleClick={onOpen ? () => onOpen(i) : undefined}
              >
                {columns.map((c) => {
                  const cc = typeof c.cellClass === 'function' ? c.cellClass(r) : c.cellClass;
                  return (
                    <td
                      key={c.key}
                      className={`${c.num ? 'num' : ''} ${cc ?? ''}`.trim() || undefined}
                      title={c.cellTitle?.(r)}
                    >
                      {c.cell(r, i)}
                    </td>
                  );
                })}
                {copy && (
                  <td className="copy-cell">
                    <CopyRow
                      text={rowAsJson(r, columns, copyValue(r))}
                      name={identifying ? `row ${i + 1}` : 'row'}
                    />
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      {rows.length === 0 && empty}
    </div>
  );
}
