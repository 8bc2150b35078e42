/**
 * A session's calls on a time axis: one lane per tool, time on x, duration as width, colour by
 * outcome. Retry chains are drawn as a framed group on their tool's lane with the links
 * between consecutive calls (retry / repeat / unknown). Drag across the axis to zoom in.
 */
import { useMemo, useRef, useState, type MouseEvent } from 'react';
import { OUTCOME_LABEL } from '../../api/types';
import type { Chain, CallView } from '../../api/types';
import { fmtMs, fmtTimeMs } from '../../lib/format';
import { verdictOf } from '../../lib/verdict';
import { Name } from '../Name';
import { useViewportWidth } from '../table/useViewportWidth';
import { relLabel, ticks } from './scale';
import './timeline.css';

export interface TimelineProps {
  calls: CallView[];
  chains: Chain[];
  selectedId?: number;
  onSelect?: (id: number) => void;
  /** A fixed span (ms) so two timelines share a scale (compare view). */
  spanMs?: number;
  /** Lanes to show, in order (compare view aligns both sides); default: tools by first call. */
  lanes?: string[];
}

const pct = (v: number): string => `${(v * 100).toFixed(4)}%`;

export function Timeline({
  calls,
  chains,
  selectedId,
  onSelect,
  spanMs,
  lanes: fixedLanes,
}: TimelineProps) {
  const origin = calls[0]?.started_ms ?? 0;
  const fullEnd = useMemo(() => {
    const end = Math.max(origin + 1, ...calls.map((c) => c.started_ms + c.duration_ms));
    return spanMs ? Math.max(end, origin + spanMs) : end;
  }, [calls, origin, spanMs]);
  // A little air on both sides so the first and last bars are not glued to the edges.
  const pad = (fullEnd - origin) * 0.02;
  const [view, setView] = useState<[number, number] | null>(null);
  const [from, to] = view ?? [origin - pad, fullEnd + pad];
  const span = to - from;
  const x = (t: number): number => (t - from) / span;

  const lanes = useMemo(
    () => fixedLanes ?? [...new Set(calls.map((c) => c.tool_name))],
    [calls, fixedLanes],
  );
  const track = useRef<HTMLDivElement>(null);
  const [brush, setBrush] = useState<[number, number] | null>(null);
  // A narrow window has room for fewer labels on the time axis: about one per 110 px.
  const maxTicks = Math.max(2, Math.min(8, Math.floor((useViewportWidth() - 260) / 110)));

  const fracAt = (e: MouseEvent): number => {
    const r = track.current?.getBoundingClientRect();
    if (!r || r.width === 0) return 0;
    return Math.min(1, Math.max(0, (e.clientX - r.left) / r.width));
  };
  const onDown = (e: MouseEvent): void => {
    if (e.button !== 0 || (e.target as HTMLElement).closest('.tl-bar')) return;
    const f = fracAt(e);
    setBrush([f, f]);
  };
  const onMove = (e: MouseEvent): void => {
    if (brush) setBrush([brush[0], fracAt(e)]);
  };
  const onUp = (): void => {
    if (brush) {
      const [a, b] = brush[0] < brush[1] ? brush : [brush[1], brush[0]];
      if (b - a > 0.01) setView([from + a * span, from + b * span]);
      setBrush(null);
    }
  };

  const chainsByLane = new Map<string, Chain[]>();
  for (const ch of chains) chainsByLane.set(ch.tool, [...(chainsByLane.get(ch.tool) ?? []), ch]);
  const byId = new Map(calls.map((c) => [c.id, c]));

  return (
    <div className="timeline" data-testid="timeline">
      <div className="tl-toolbar">
        <span className="faint">
          {view ? `Zoomed to ${fmtMs(span)}` : 'Drag across the lanes to zoom'} · starts{' '}
          {calls[0] ? fmtTimeMs(origin) : '—'}
        </span>
        {view && (
          <button className="btn small" onClick={() => setView(null)}>
            Fit all
          </button>
        )}
      </div>
      <div
        className="tl-grid"
        onMouseDown={onDown}
        onMouseMove={onMove}
        onMouseUp={onUp}
        onMouseLeave={onUp}
      >
        <div className="tl-axis-label" />
        <div className="tl-axis" ref={track}>
          {ticks(from, to, origin, maxTicks).map((t) => (
            <span key={t} className="tl-tick" style={{ left: pct(x(t)) }}>
              {relLabel(t - origin)}
            </span>
          ))}
        </div>
        {lanes.map(renderLane)}
        {brush && (
          <div
            className="tl-brush"
            style={{
              left: `calc(var(--label-w) + (100% - var(--label-w)) * ${Math.min(...brush)})`,
              width: `calc((100% - var(--label-w)) * ${Math.abs(brush[1] - brush[0])})`,
            }}
          />
        )}
      </div>
    </div>
  );

  function renderLane(tool: string) {
    const laneCalls = calls.filter((c) => c.tool_name === tool);
    return (
      <div className="tl-row" key={tool}>
        <div className="tl-lane-label">
          <Name text={tool} mono />
        </div>
        <div className="tl-lane">
          {ticks(from, to, origin, maxTicks).map((t) => (
            <span key={t} className="tl-gridline" style={{ left: pct(x(t)) }} />
          ))}
          {(chainsByLane.get(tool) ?? []).map((ch) => (
            <div
              key={ch.id}
              className={`tl-chain ${ch.resolved ? 'resolved' : 'unresolved'}`}
              data-chain={ch.id}
              style={{
                left: `calc(${pct(x(ch.started_ms))} - 4px)`,
                width: `calc(${pct((ch.ended_ms - ch.started_ms) / span)} + 12px)`,
              }}
              title={`Retry chain: ${ch.call_count} calls, ${ch.retries} ${ch.retries === 1 ? 'retry' : 'retries'}, ${ch.resolved ? 'resolved' : 'unresolved'}`}
            />
          ))}
          {(chainsByLane.get(tool) ?? []).flatMap((ch) =>
            ch.links.map((l) => {
              const a = byId.get(l.from);
              const b = byId.get(l.to);
              if (!a || !b) return null;
              return (
                <span
                  key={`${l.from}-${l.to}`}
                  className={`tl-link ${l.kind}`}
                  style={{
                    left: pct(x(a.started_ms)),
                    width: pct((b.started_ms - a.started_ms) / span),
                  }}
                  title={`${l.kind} after ${fmtMs(l.gap_ms)}`}
                />
              );
            }),
          )}
          {laneCalls.map((c) => {
            const o = c.outcome_class;
            if (c.started_ms + c.duration_ms < from || c.started_ms > to) return null;
            return (
              <button
                key={c.id}
                type="button"
                className={`tl-bar o-${o} ${c.id === selectedId ? 'selected' : ''} ${c.first_call_success ? 'fcs' : ''}`}
                style={{
                  left: pct(x(c.started_ms)),
                  width: `max(5px, ${pct(c.duration_ms / span)})`,
                }}
                title={`${c.tool_name} · ${OUTCOME_LABEL[o]} · ${fmtMs(c.duration_ms)} · ${relLabel(c.started_ms - origin)} · ${c.first_call_success ? '✓' : '✗'} ${verdictOf(c).short}`}
                onClick={() => onSelect?.(c.id)}
                data-call={c.id}
                aria-label={`${c.tool_name} ${OUTCOME_LABEL[o]} at ${relLabel(c.started_ms - origin)}`}
              />
            );
          })}
        </div>
      </div>
    );
  }
}
