/**
 * Whether the details panel sits beside its table (wide windows) or is a drawer over it. Tables
 * render fewer columns in drawer mode: the drawer shows what they drop. Kept in step with the
 * media query in details.css.
 */
import { useSyncExternalStore } from 'react';

export const DETAILS_BESIDE_QUERY = '(min-width: 1181px)';

function subscribe(onChange: () => void): () => void {
  const mq = window.matchMedia(DETAILS_BESIDE_QUERY);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

export function useDetailsBeside(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(DETAILS_BESIDE_QUERY).matches);
}
