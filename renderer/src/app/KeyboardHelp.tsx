/** `?` opens the list of keyboard shortcuts; Escape or a click outside closes it. */
import { useEffect, useState } from 'react';
import { isTyping } from '../hooks/useHotkeys';
import { NAV } from './nav';

export function KeyboardHelp() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (isTyping(e) || e.metaKey || e.ctrlKey || e.altKey) return;
      if (e.key === '?') setOpen((o) => !o);
      else if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  if (!open) return null;
  const rows: [string, string][] = [
    ['/', 'Focus the search box'],
    ['j / k', 'Move down / up in the list'],
    ['Enter', 'Open the selected row'],
    ['Esc', 'Leave a text field, close this'],
    ...NAV.map((n): [string, string] => [`g ${n.key}`, n.label]),
  ];
  return (
    <div className="kbd-backdrop" onClick={() => setOpen(false)}>
      <div
        className="kbd-dialog"
        role="dialog"
        aria-label="Keyboard shortcuts"
        onClick={(e) => e.stopPropagation()}
      >
        <h2>Keyboard shortcuts</h2>
        <dl>
          {rows.map(([k, label]) => (
            <div key={k} className="kbd-row">
              <dt>
                {k.split(' ').map((part) => (
                  <kbd key={part}>{part}</kbd>
                ))}
              </dt>
              <dd>{label}</dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}
