/**
 * Fetches JSON for a view and keeps it fresh. The previous data stays on screen while a new
 * request runs (no flashing), stale responses are discarded, and live refetches are throttled:
 * while one is in flight, further live bumps collapse into a single follow-up, so a flood of
 * events costs this view at most a request or two per second.
 */
import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { describeError } from '../api/http';
import { onLiveBump } from '../api/live';
import { stringifyJson } from '../../../src/shared/deep-json';

export interface Resource<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  /** Fetches again now: the "Try again" of an error state. */
  retry: () => void;
}

/** Minimum gap between two live-triggered refetches of the same view. */
const LIVE_MIN_GAP_MS = 1000;

interface Control<P> {
  path: P | null;
  seq: number;
  applied: number;
  inFlight: boolean;
  queued: boolean;
  last: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** The last applied answer, serialized, to skip identical refetches. */
  lastText?: string;
  /** Set by the path effect; the live effect calls it. */
  schedule?: () => void;
  /** Set by the path effect: an immediate refetch of the current path. */
  refetch?: () => void;
}

/**
 * Keeps `fetcher(path)` fresh. Pages use `useApi` (api/api.ts), which fetches an operation's
 * URL and types the answer from the server's handler map.
 */
export function useResource<P extends string, T>(
  path: P | null,
  fetcher: (path: P) => Promise<T>,
  { live = true } = {},
): Resource<T> {
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  const [state, setState] = useState<Omit<Resource<T>, 'retry'>>({
    data: undefined,
    error: undefined,
    loading: path !== null,
  });
  const ctl = useRef<Control<P>>({
    path: null,
    seq: 0,
    applied: 0,
    inFlight: false,
    queued: false,
    last: 0,
    timer: undefined,
  });

  useEffect(() => {
    const c = ctl.current;
    const fetchNow = (p: P): void => {
      const seq = ++c.seq;
      c.inFlight = true;
      c.last = Date.now();
      const fresh = (): boolean => c.path === p && seq > c.applied;
      fetcherRef
        .current(p)
        .then((data) => {
          if (!fresh()) return;
          c.applied = seq;
          // Any depth: a proxied server's capabilities may nest past JSON.stringify's reach.
          const text = stringifyJson(data);
          // An identical answer (common on live refetches) keeps the old object: no re-render.
          if (text === c.lastText) {
            setState((s) =>
              s.error || s.loading ? { ...s, error: undefined, loading: false } : s,
            );
            return;
          }
          c.lastText = text;
          // Fresh data renders as a transition, so a burst of live updates never blocks input.
          startTransition(() => setState({ data, error: undefined, loading: false }));
        })
        .catch((error: unknown) => {
          if (!fresh()) return;
          c.applied = seq;
          setState((s) => ({ data: s.data, error: describeError(error), loading: false }));
        })
        .finally(() => {
          c.inFlight = false;
          if (c.queued) {
            c.queued = false;
            scheduleLive();
          }
        });
    };
    const scheduleLive = (): void => {
      if (c.path === null) return;
      if (c.inFlight) {
        c.queued = true;
        return;
      }
      if (c.timer) return;
      const wait = Math.max(0, LIVE_MIN_GAP_MS - (Date.now() - c.last));
      c.timer = setTimeout(() => {
        c.timer = undefined;
        if (c.path !== null) fetchNow(c.path);
      }, wait);
    };
    c.schedule = scheduleLive;
    c.refetch = () => {
      if (c.path === null) return;
      setState((s) => ({ ...s, loading: true }));
      fetchNow(c.path);
    };

    c.path = path;
    clearTimeout(c.timer);
    c.timer = undefined;
    c.queued = false;
    if (path === null) {
      setState({ data: undefined, error: undefined, loading: false });
      return;
    }
    setState((s) => ({ ...s, loading: true }));
    fetchNow(path);
    return () => {
      c.path = null;
      clearTimeout(c.timer);
      c.timer = undefined;
    };
  }, [path]);

  useEffect(() => {
    if (!live) return;
    return onLiveBump(() => ctl.current.schedule?.());
  }, [live]);

  const retry = useCallback(() => ctl.current.refetch?.(), []);
  return useMemo(() => ({ ...state, retry }), [state, retry]);
}
