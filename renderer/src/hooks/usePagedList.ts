/**
 * A long server-side list read in pages, for a virtualized view: only the pages around what is
 * on screen are fetched. A new query (search, sort, filters) starts over; a live bump refreshes
 * just the visible pages, throttled, so 10,000 rows and 200 calls/s stay cheap.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiName } from '../../../src/shared/api-routes';
import { getApi, withQuery, type ApiPath } from '../api/api';
import { describeError } from '../api/http';
import type { Api } from '../api/types';
import { onLiveBump } from '../api/live';

export const PAGE_SIZE = 500;
const LIVE_GAP_MS = 1000;

interface PagedState<P, T> {
  base: P;
  total: number | null;
  pages: Map<number, T[]>;
  error: string | undefined;
}

export interface PagedList<T> {
  total: number | null;
  error: string | undefined;
  rowAt: (i: number) => T | undefined;
  /** Call with the visible index range; fetches missing pages. */
  ensure: (first: number, last: number) => void;
}

/**
 * `base` is the list URL with its query (without limit/offset); `rowsOf` picks the rows and
 * total out of a page's JSON.
 */
export function usePagedList<K extends ApiName, T>(
  base: ApiPath<K>,
  rowsOf: (body: Api[K]) => { rows: T[]; total: number },
): PagedList<T> {
  const [state, setState] = useState<PagedState<ApiPath<K>, T>>({
    base,
    total: null,
    pages: new Map(),
    error: undefined,
  });
  const inflight = useRef(new Set<string>());
  const visible = useRef<[number, number]>([0, 0]);
  const lastLive = useRef(0);
  const rowsOfRef = useRef(rowsOf);
  rowsOfRef.current = rowsOf;

  const fetchPage = useCallback((b: ApiPath<K>, page: number) => {
    const key = `${b}#${page}`;
    if (inflight.current.has(key)) return;
    inflight.current.add(key);
    getApi(withQuery(b, { limit: PAGE_SIZE, offset: page * PAGE_SIZE }))
      .then((body) => {
        const { rows, total } = rowsOfRef.current(body);
        setState((s) => {
          if (s.base !== b) return s;
          const pages = new Map(s.pages);
          pages.set(page, rows);
          return { ...s, total, pages, error: undefined };
        });
      })
      .catch((error: unknown) =>
        setState((s) => (s.base === b ? { ...s, error: describeError(error) } : s)),
      )
      .finally(() => inflight.current.delete(key));
  }, []);

  // A new query: start over from the first page.
  useEffect(() => {
    setState({ base, total: null, pages: new Map(), error: undefined });
    fetchPage(base, 0);
  }, [base, fetchPage]);

  // Live: refresh the pages on screen (dropping the others, now stale).
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = (): void => {
      lastLive.current = Date.now();
      const [a, b] = visible.current;
      const first = Math.floor(a / PAGE_SIZE);
      const last = Math.floor(b / PAGE_SIZE);
      // Off-screen pages are stale now; the visible ones stay until their refresh lands.
      setState((s) => {
        const pages = new Map([...s.pages].filter(([p]) => p >= first && p <= last));
        return { ...s, pages };
      });
      for (let p = first; p <= last; p++) fetchPage(base, p);
    };
    const unsubscribe = onLiveBump(() => {
      if (timer) return;
      const wait = Math.max(0, LIVE_GAP_MS - (Date.now() - lastLive.current));
      timer = setTimeout(() => {
        timer = undefined;
        refresh();
      }, wait);
    });
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [base, fetchPage]);

  const ensure = useCallback(
    (first: number, last: number) => {
      visible.current = [first, last];
      for (let p = Math.floor(first / PAGE_SIZE); p <= Math.floor(last / PAGE_SIZE); p++) {
        if (!state.pages.has(p) && (state.total === null || p * PAGE_SIZE < state.total))
          fetchPage(state.base, p);
      }
    },
    [state, fetchPage],
  );

  const rowAt = useCallback(
    (i: number) => state.pages.get(Math.floor(i / PAGE_SIZE))?.[i % PAGE_SIZE],
    [state.pages],
  );

  return { total: state.base === base ? state.total : null, error: state.error, rowAt, ensure };
}
