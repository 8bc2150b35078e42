/** The pages, in sidebar order, with their `g` + letter shortcut. */
export interface NavItem {
  path: string;
  label: string;
  key: string;
  /** Other paths that highlight this item (detail pages). */
  also?: string[];
}

export const NAV: NavItem[] = [
  { path: '/', label: 'Overview', key: 'o' },
  { path: '/sessions', label: 'Sessions', key: 's', also: ['/session', '/compare'] },
  { path: '/tools', label: 'Tools', key: 't', also: ['/tool'] },
  { path: '/calls', label: 'Calls', key: 'c' },
  { path: '/sizes', label: 'Sizes', key: 'z' },
  { path: '/ingest', label: 'Ingest log', key: 'i' },
  { path: '/playground', label: 'Playground', key: 'p' },
  { path: '/setup', label: 'Setup', key: 'u' },
  { path: '/settings', label: 'Settings', key: 'e' },
];
