/** Header cells that sort: click to sort, click again to flip. State lives in the URL (`sort`). */
import type { ReactNode } from 'react';

export interface SortState {
  key: string;
  dir: 'asc' | 'desc';
}

export function parseSort(value: string | null, fallback: SortState): SortState {
  if (!value) return fallback;
  const desc = value.startsWith('-');
  return { key: desc ? value.slice(1) : value, dir: desc ? 'desc' : 'asc' };
}

export const sortParam = (s: SortState): string => (s.dir === 'desc' ? `-${s.key}` : s.key);

/**
 * `aria-sort` for a sortable header: the sorted one says its direction, the others `none`, so a
 * screen reader tells which column orders the rows and that the others can. Headers that cannot
 * sort carry no `aria-sort` at all.
 */
export function ariaSort(
  active: boolean,
  dir: 'asc' | 'desc',
): 'ascending' | 'descending' | 'none' {
  return active ? (dir === 'asc' ? 'ascending' : 'descending') : 'none';
}

/** What a sort button says beyond its label: the order now, and what a click does. */
export function sortHint(label: string, active: boolean, dir: 'asc' | 'desc'): string {
  if (!active) return `Sort by ${label}`;
  return `Sorted by ${label}, ${dir === 'asc' ? 'ascending' : 'descending'}; click to reverse`;
}

/** The arrow beside a sortable header's label (decorative: `aria-sort` says it). */
export function SortIndicator({ active, dir }: { active: boolean; dir: 'asc' | 'desc' }) {
  return (
    <span className={active ? 'sort-ind on' : 'sort-ind'} aria-hidden="true">
      {active ? (dir === 'asc' ? '↑' : '↓') : '↕'}
    </span>
  );
}

export function SortHeader({
  k,
  sort,
  onSort,
  children,
  num = false,
  defaultDir = 'desc',
}: {
  k: string;
  sort: SortState;
  onSort: (s: SortState) => void;
  children: ReactNode;
  num?: boolean;
  defaultDir?: 'asc' | 'desc';
}) {
  const active = sort.key === k;
  const next: SortState = active
    ? { key: k, dir: sort.dir === 'asc' ? 'desc' : 'asc' }
    : { key: k, dir: defaultDir };
  return (
    <th className={num ? 'num' : ''} scope="col" aria-sort={ariaSort(active, sort.dir)}>
      <button
        type="button"
        onClick={() => onSort(next)}
        title={typeof children === 'string' ? sortHint(children, active, sort.dir) : undefined}
      >
        {children}
        <SortIndicator active={active} dir={sort.dir} />
      </button>
    </th>
  );
}

/** Compares two values of any column: nulls last, numbers numerically, text by locale. */
export function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

export function sortRows<T>(
  rows: T[],
  sort: SortState,
  value: (row: T, key: string) => unknown,
): T[] {
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...rows].sort((x, y) => {
    const a = value(x, sort.key);
    const b = value(y, sort.key);
    // Nulls stay last whichever way the column is sorted.
    if (a === null || a === undefined) return b === null || b === undefined ? 0 : 1;
    if (b === null || b === undefined) return -1;
    return sign * compareValues(a, b);
  });
}
