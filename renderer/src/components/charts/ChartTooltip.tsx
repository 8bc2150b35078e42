/**
 * The tooltip of every bar chart: a heading, one row per series in the order they are stacked
 * on screen (top of the stack first), each with its colour swatch, and a total when the bars
 * stack. Recharts' default lists series in declaration order (bottom first) with no total.
 */
import type { ReactNode } from 'react';
import { fmtInt } from '../../lib/format';

/** What recharts passes a custom tooltip (the parts used here). */
export interface TooltipProps {
  active?: boolean;
  label?: unknown;
  payload?: readonly {
    name?: unknown;
    value?: unknown;
    color?: string;
    fill?: string;
    payload?: unknown;
  }[];
}

type Row = NonNullable<TooltipProps['payload']>[number];

/** A series' colour: its own fill, or (bars coloured per cell) the datum's. */
function swatchOf(r: Row): string | undefined {
  const datum = r.payload as { fill?: unknown } | undefined;
  return typeof datum?.fill === 'string' ? datum.fill : (r.fill ?? r.color);
}

/** Recharts' `content` for a bar chart: heading, rows top of the stack first, total. */
export function ChartTooltip({
  active,
  label,
  payload,
  heading,
  total = true,
  unit = 'calls',
  extra,
}: TooltipProps & {
  heading: (label: unknown) => ReactNode;
  /** A total row (stacked bars). */
  total?: boolean;
  /** The noun after each count. */
  unit?: string;
  /** A line under the rows, from the hovered datum. */
  extra?: (datum: unknown) => ReactNode;
}) {
  if (!active || !payload?.length) return null;
  // Recharts lists stacked series bottom-up; the eye reads the stack top-down.
  const rows = [...payload].reverse();
  const sum = rows.reduce((n, r) => n + (Number(r.value) || 0), 0);
  return (
    <div className="chart-tip" data-testid="chart-tooltip">
      <div className="chart-tip-head">{heading(label)}</div>
      <table>
        <tbody>
          {rows.map((r) => (
            <tr key={String(r.name)}>
              <td>
                <span className="chart-tip-swatch" style={{ background: swatchOf(r) }} />
                {String(r.name)}
              </td>
              <td className="num">{fmtInt(Number(r.value) || 0)}</td>
            </tr>
          ))}
          {total && rows.length > 1 && (
            <tr className="chart-tip-total">
              <td>Total</td>
              <td className="num">
                {fmtInt(sum)} {unit}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {extra && payload[0] && <div className="chart-tip-extra">{extra(payload[0].payload)}</div>}
    </div>
  );
}
