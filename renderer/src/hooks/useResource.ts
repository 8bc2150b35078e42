/**
 * Fetches JSON for a view and keeps it fresh. The previous data stays on screen while a new
 * request runs (no flashing), stale responses are discarded, and live refetches are throttled:
 * while one is in flight, further live bumps collapse into a single follow-up, so a flood of
 * events costs this view at most a request or two per second.
 */
import { useEffect, useRef, useState } from 'react';
import { describeError, getJson } from '../api/http';
import { useLiveVersion } from '../api/live';

export interface Resource<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
}

/** Minimum gap between two live-triggered refetches of the same view. */
const LIVE_MIN_GAP_MS = 700;

interface Control {
  path: string | null;
  seq: number;
  applied: number;
  inFlight: boolean;
  queued: boolean;
  last: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Set by the path effect; the live effect calls it. */
  schedule?: () => void;
}

export function useResource<T>(path: string | null, { live = true } = {}): Resource<T> {
  const version = useLiveVersion();
  const [state, setState] = useState<Resource<T>>({
    data: undefined,
    error: undefined,
    loading: path !== null,
  });
  const ctl = useRef<Control>({
    path: null,
    seq: 0,
    applied: 0,
    inFlight: false,
    queued: false,
    last: 0,
    timer: undefined,
  });
  const firstVersion = useRef(version);

  useEffect(() => {
    const c = ctl.current;
    const fetchNow = (p: string): void => {
      const seq = ++c.seq;
      c.inFlight = true;
      c.last = Date.now();
      const fresh = (): boolean => c.path === p && seq > c.applied;
      getJson<T>(p)
        .then((data) => {
          if (!fresh()) return;
          c.applied = seq;
          setState({ data, error: undefined, loading: false });
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
    if (!live || version === firstVersion.current) return;
    ctl.current.schedule?.();
  }, [live, version]);

  return state;
}
