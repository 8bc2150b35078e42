/**
 * A tiny history-API router. Routes are one path segment (`/sessions`, `/session?id=…`) and
 * every identifier rides in the query string, next to the filters; any other path (`/session/x`)
 * is not a page, and the shell shows its "not found" page for it.
 */
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

export interface Location {
  path: string;
  params: URLSearchParams;
  /** `path?query`, the key pages use to refetch. */
  href: string;
}

const listeners = new Set<() => void>();
let current = read();

function read(): Location {
  const { pathname, search } = window.location;
  // The whole path, trailing slashes aside: `/session/x` must not quietly open `/session`.
  const path = '/' + pathname.split('/').filter(Boolean).join('/');
  return { path, params: new URLSearchParams(search), href: path + search };
}

function emit(): void {
  current = read();
  for (const l of listeners) l();
}

window.addEventListener('popstate', emit);

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useLocation(): Location {
  return useSyncExternalStore(subscribe, () => current);
}

export function getLocation(): Location {
  return current;
}

/** Goes to `href`; `replace` for changes that should not fill the back button (typing a search). */
export function navigate(href: string, { replace = false } = {}): void {
  if (href === current.href) return;
  if (replace) window.history.replaceState(null, '', href);
  else window.history.pushState(null, '', href);
  emit();
  if (!replace) window.scrollTo(0, 0);
}

/** The current query with some keys set (a value of null/undefined/'' removes the key). */
export function withParams(
  base: URLSearchParams,
  changes: Record<string, string | number | null | undefined>,
): URLSearchParams {
  const next = new URLSearchParams(base);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === undefined || v === '') next.delete(k);
    else next.set(k, String(v));
  }
  return next;
}

export function hrefOf(path: string, params: URLSearchParams): string {
  const q = params.toString();
  return q ? `${path}?${q}` : path;
}

/** An <a> that navigates in-app on a plain click and still opens a tab on Ctrl/Cmd-click. */
export function Link({
  href,
  onClick,
  ...rest
}: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const handle = (e: MouseEvent<HTMLAnchorElement>): void => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey)
      return;
    e.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={handle} {...rest} />;
}
