/**
 * Whether the window is phone-narrow. A chart's slanted bucket labels (12 of them in a ~250 px
 * plot at 390 px) overlap at -35°; on narrow windows they stand upright instead, so every
 * bucket keeps its label without crowding.
 */
import { useSyncExternalStore } from 'react';

/** Narrow windows: one column of panels, charts about 250 px wide. */
export const NARROW_WINDOW_QUERY = '(max-width: 600px)';

function subscribe(onChange: () => void): () => void {
  const mq = window.matchMedia(NARROW_WINDOW_QUERY);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

/** True while the window matches {@link NARROW_WINDOW_QUERY}. */
export function useNarrowWindow(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(NARROW_WINDOW_QUERY).matches);
}
