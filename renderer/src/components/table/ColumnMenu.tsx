/** The column menu of a {@link DataTable}: a checkbox per column that may be hidden. */
import type { Column } from './columns';

export function ColumnMenu<T>({
  columns,
  hidden,
  onToggle,
}: {
  columns: readonly Column<T>[];
  hidden: ReadonlySet<string>;
  onToggle: (key: string) => void;
}) {
  const choosable = columns.filter((c) => !c.identifying);
  return (
    <details className="column-menu">
      <summary className="btn small">Columns</summary>
      <div className="column-menu-list" role="group" aria-label="Columns shown">
        {choosable.map((c) => (
          <label key={c.key} className="check">
            <input type="checkbox" checked={!hidden.has(c.key)} onChange={() => onToggle(c.key)} />
            {c.name}
          </label>
        ))}
      </div>
    </details>
  );
}
