/**
 * Whether the server refused this page's requests for want of the owner token (issue 40): the
 * status says `authorised: false`, or any request answers 401. The shell then shows the locked
 * screen instead of pages that could only fail one by one.
 */
import { useSyncExternalStore } from 'react';

let locked = false;
const listeners = new Set<() => void>();

/** The server wants the token: every view is replaced by the locked screen. */
export function markLocked(): void {
  if (locked) return;
  locked = true;
  for (const l of listeners) l();
}

/** True once the server has refused this page for want of the token. */
export function useLocked(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => locked,
  );
}
