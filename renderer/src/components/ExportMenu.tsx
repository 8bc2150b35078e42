/**
 * Export: a small menu of downloads for what is on screen — the raw payloads (JSONL, exactly
 * the wire format, so they replay) or the per-tool summary (CSV, markdown). Each item is a
 * plain same-origin link; the server answers with `content-disposition: attachment`.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { RANGES, type Filters } from '../app/filters';
import { EXPORT_FORMATS, exportPath } from '../api/settings';
import './export-menu.css';

/** What an export covers, in words: `project mp_live_abc · last hour · tool search`. */
export function describeScope(f: Filters, session?: string): string {
  const parts: string[] = [];
  if (session) parts.push(`session ${session}`);
  if (f.project) parts.push(`project ${f.project}`);
  const preset = RANGES.find((r) => r.value === f.range);
  if (preset?.ms) parts.push(preset.label.toLowerCase());
  else {
    if (f.from) parts.push(`from ${f.from}`);
    if (f.to) parts.push(`to ${f.to}`);
  }
  if (f.tool) parts.push(`tool ${f.tool}`);
  if (f.client) parts.push(`client ${f.client}`);
  return parts.length ? parts.join(' · ') : 'all stored data';
}

export function ExportMenu({
  filters,
  session,
  disabled = false,
  testId = 'export',
}: {
  filters: Filters;
  session?: string;
  disabled?: boolean;
  testId?: string;
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent): void => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    root.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const onMenuKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    const items = [...(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    let next = -1;
    if (e.key === 'Escape') {
      setOpen(false);
      button.current?.focus();
    } else if (e.key === 'ArrowDown' || e.key === 'j') next = (at + 1) % items.length;
    else if (e.key === 'ArrowUp' || e.key === 'k') next = (at - 1 + items.length) % items.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = items.length - 1;
    else if (e.key === 'Tab') setOpen(false);
    else return;
    // Keys handled here are not the page's list navigation.
    e.stopPropagation();
    if (e.key !== 'Tab') e.preventDefault();
    if (next >= 0) items[next]?.focus();
  };

  return (
    <div className="export-menu" ref={root} data-testid={testId}>
      <button
        ref={button}
        type="button"
        className="btn"
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={disabled}
        title={disabled ? 'Nothing stored yet' : 'Download what this view shows'}
        onClick={() => setOpen((o) => !o)}
      >
        <svg className="export-icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
          <path d="M8 2v8M5 7l3 3 3-3M3 13h10" />
        </svg>
        Export
        <span className="export-caret" aria-hidden="true">
          ▾
        </span>
      </button>
      {open && (
        <div className="menu" role="menu" aria-label="Export" onKeyDown={onMenuKey}>
          <div className="menu-scope" title={describeScope(filters, session)}>
            <span className="faint">Scope · </span>
            {describeScope(filters, session)}
          </div>
          {EXPORT_FORMATS.map((f) => (
            <a
              key={f.format}
              role="menuitem"
              className="menu-item"
              href={exportPath(filters, f.format, session)}
              download
              data-format={f.format}
              onClick={() => setOpen(false)}
            >
              <span className="menu-item-label">{f.label}</span>
              <span className="menu-item-hint">{f.hint}</span>
            </a>
          ))}
        </div>
      )}
    </div>
  );
}
