/**
 * The table kit's column model: one definition per column (header, cell, width, sort value,
 * whether it is a number) that every data table in the dashboard is written with, plus the
 * columns a user turned off, kept per table in localStorage.
 */
import { useCallback, useState, type ReactNode } from 'react';

/** One column of a {@link DataTable}. */
export interface Column<T> {
  /** Stable key: the sort key in the URL and the name in the column menu's storage. */
  key: string;
  /** The header (may hold an `<abbr>` or a unit). */
  header: ReactNode;
  /** The column's name as plain text: the column menu, sort hints, copy-as-JSON keys. */
  name: string;
  /** The cell of a row. */
  cell: (row: T, index: number) => ReactNode;
  /** Right-aligned, tabular figures, a header that never wraps. */
  num?: boolean;
  /** A CSS width (`12ch`, `96px`); without one the column takes what is left. */
  width?: string;
  /** Makes the column sortable: what its rows are ordered by (nulls always last). */
  sortValue?: (row: T) => unknown;
  /** The first direction a click on the header sorts (numbers: descending). */
  defaultDir?: 'asc' | 'desc';
  /** The identifying column (a tool, a session): always shown, never hidden, at every width. */
  identifying?: boolean;
  /** Off until the user turns it on in the column menu. */
  optional?: boolean;
  /**
   * Dropped when the window is narrower than this (px), so a table fits a narrow window
   * without scrolling sideways; the identifying column ignores it.
   */
  hideBelow?: number;
  /** A class on each cell (`mono`, `faint`) or one computed per row (`slow`). */
  cellClass?: string | ((row: T) => string);
  /** A tooltip on each cell. */
  cellTitle?: (row: T) => string | undefined;
}

const storageKey = (table: string): string => `mcpulse.columns.${table}`;

function readHidden(table: string, columns: readonly Column<unknown>[]): Set<string> {
  try {
    const raw = localStorage.getItem(storageKey(table));
    if (raw) {
      const parsed = JSON.parse(raw) as unknown;
      if (Array.isArray(parsed)) return new Set(parsed.filter((k) => typeof k === 'string'));
    }
  } catch {
    // Storage denied or a bad value: fall back to the defaults below.
  }
  return new Set(columns.filter((c) => c.optional).map((c) => c.key));
}

/**
 * The columns shown for `table`, and a toggle. Identifying columns ignore the toggle, so no
 * table can lose what names its rows.
 */
export function useColumnVisibility<T>(
  table: string,
  columns: readonly Column<T>[],
): { hidden: ReadonlySet<string>; toggle: (key: string) => void; visible: Column<T>[] } {
  const [hidden, setHidden] = useState<Set<string>>(() =>
    readHidden(table, columns as readonly Column<unknown>[]),
  );
  const toggle = useCallback(
    (key: string) =>
      setHidden((prev) => {
        const next = new Set(prev);
        if (next.has(key)) next.delete(key);
        else next.add(key);
        try {
          localStorage.setItem(storageKey(table), JSON.stringify([...next]));
        } catch {
          // Not stored: the choice holds until the page reloads.
        }
        return next;
      }),
    [table],
  );
  return {
    hidden,
    toggle,
    visible: columns.filter((c) => c.identifying || !hidden.has(c.key)),
  };
}

/** A row as plain JSON for "copy row": each visible column's sort value or text under its name. */
export function rowAsJson<T>(row: T, columns: readonly Column<T>[], raw?: unknown): string {
  if (raw !== undefined) return JSON.stringify(raw, null, 2);
  const out: Record<string, unknown> = {};
  for (const c of columns) out[c.name] = c.sortValue ? c.sortValue(row) : null;
  return JSON.stringify(out, null, 2);
}
