/**
 * Keyboard: `/` focuses the page's search box, `g` then a letter jumps to a page, and
 * {@link useListNav} gives `j`/`k`/Enter to the page's main list. Keys typed into a field are
 * left alone.
 */
import { useEffect, useState } from 'react';

export function isTyping(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  if (!t) return false;
  return (
    t.isContentEditable ||
    t.tagName === 'INPUT' ||
    t.tagName === 'TEXTAREA' ||
    t.tagName === 'SELECT'
  );
}

export function useGlobalHotkeys(go: (letter: string) => boolean): void {
  useEffect(() => {
    let pendingG = 0;
    const onKey = (e: KeyboardEvent): void => {
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      if (e.key === 'Escape' && isTyping(e)) {
        (e.target as HTMLElement).blur();
        return;
      }
      if (isTyping(e)) return;
      if (e.key === '/') {
        const search = document.querySelector<HTMLInputElement>('[data-search]');
        if (search) {
          e.preventDefault();
          search.focus();
          search.select();
        }
        return;
      }
      if (e.key === 'g') {
        pendingG = Date.now();
        return;
      }
      if (pendingG && Date.now() - pendingG < 1200) {
        pendingG = 0;
        if (go(e.key)) e.preventDefault();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [go]);
}

/**
 * `j`/`k` (and the arrow keys) move a selection through `count` rows, Enter opens the selected
 * one. Returns the selected index (-1 = none) and a setter for mouse hover/click.
 */
export function useListNav(
  count: number,
  onOpen: (index: number) => void,
  { scrollTo }: { scrollTo?: (index: number) => void } = {},
): [number, (i: number) => void] {
  const [selected, setSelected] = useState(-1);
  const clamped = selected >= count ? count - 1 : selected;

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.metaKey || e.ctrlKey || e.altKey || isTyping(e) || count === 0) return;
      let next = clamped;
      if (e.key === 'j' || e.key === 'ArrowDown') next = Math.min(count - 1, clamped + 1);
      else if (e.key === 'k' || e.key === 'ArrowUp') next = Math.max(0, clamped - 1);
      else if (e.key === 'Enter' && clamped >= 0) {
        // Enter on a focused link or button belongs to that element.
        const t = e.target as HTMLElement;
        if (t.tagName === 'A' || t.tagName === 'BUTTON') return;
        e.preventDefault();
        onOpen(clamped);
        return;
      } else return;
      e.preventDefault();
      setSelected(next);
      if (scrollTo) scrollTo(next);
      else
        document.querySelector(`[data-row-index="${next}"]`)?.scrollIntoView({ block: 'nearest' });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [count, clamped, onOpen, scrollTo]);

  return [clamped, setSelected];
}
