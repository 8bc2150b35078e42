/**
 * `document.title` per page and entity — "fetch_url · Tools · MCPulse Devtools" — so a tab,
 * the history menu and a bookmark say what they hold. The shell sets the page's title from
 * the path; a page that knows its entity's name (a session's title) sets a more precise one.
 */
import { useEffect, useLayoutEffect } from 'react';
import { NAV } from './nav';
import { useLocation, type Location } from './router';

export const APP_TITLE = 'MCPulse Devtools';

/** The section a path belongs to, as the sidebar names it. */
function sectionOf(path: string): string | undefined {
  return NAV.find((n) => n.path === path || n.also?.includes(path))?.label;
}

/** The title for a location before any entity is loaded. */
export function titleOf(loc: Pick<Location, 'path' | 'params'>): string {
  const section = sectionOf(loc.path);
  if (!section) return `Not found · ${APP_TITLE}`;
  const entity =
    loc.path === '/tool'
      ? loc.params.get('name')
      : loc.path === '/session'
        ? loc.params.get('id')
        : loc.path === '/compare'
          ? [loc.params.get('a'), loc.params.get('b')].filter(Boolean).join(' vs ')
          : null;
  return [entity, section === 'Overview' && !entity ? null : section, APP_TITLE]
    .filter(Boolean)
    .join(' · ')
    .replace(/^Overview · /, '');
}

/**
 * Keeps `document.title` on the current page's title (the shell calls it once). A layout
 * effect: it runs before any page's {@link useEntityTitle} (a passive effect) in the same
 * commit, so the page's more precise title wins.
 */
export function usePageTitle(): void {
  const loc = useLocation();
  useLayoutEffect(() => {
    document.title = titleOf(loc);
  }, [loc]);
}

/** A page's own title for its entity (`null` until known): "<name> · <section> · MCPulse Devtools". */
export function useEntityTitle(name: string | null | undefined): void {
  const loc = useLocation();
  useEffect(() => {
    if (!name) return;
    const section = sectionOf(loc.path);
    document.title = [name, section, APP_TITLE].filter(Boolean).join(' · ');
  }, [name, loc]);
}
