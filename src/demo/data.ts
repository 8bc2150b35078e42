/**
 * The demo server's little world: an issue tracker with a few projects. Static data, so every
 * run answers the same way and the numbers the demo produces can be derived by hand.
 */

/** One tracked issue. */
export interface Issue {
  id: string;
  project: string;
  title: string;
  status: 'open' | 'in_progress' | 'closed';
  labels: string[];
}

export const PROJECTS = ['web', 'api', 'mobile'] as const;
export type Project = (typeof PROJECTS)[number];

export const ISSUES: readonly Issue[] = [
  {
    id: 'ISS-7',
    project: 'web',
    title: 'Dark mode toggle forgets its state',
    status: 'open',
    labels: ['ui'],
  },
  {
    id: 'ISS-12',
    project: 'api',
    title: 'Rate limiter counts retries twice',
    status: 'in_progress',
    labels: ['backend'],
  },
  {
    id: 'ISS-19',
    project: 'mobile',
    title: 'Push notifications arrive twice on Android',
    status: 'open',
    labels: ['android'],
  },
  {
    id: 'ISS-23',
    project: 'api',
    title: 'Export endpoint times out on large boards',
    status: 'open',
    labels: ['performance'],
  },
  {
    id: 'ISS-31',
    project: 'web',
    title: 'Search ignores accented characters (café)',
    status: 'closed',
    labels: ['search', 'i18n'],
  },
  {
    id: 'ISS-42',
    project: 'web',
    title: 'Login error on Safari after password reset',
    status: 'open',
    labels: ['auth', 'safari'],
  },
  {
    id: 'ISS-45',
    project: 'web',
    title: 'Login page flashes unstyled content',
    status: 'closed',
    labels: ['auth', 'ui'],
  },
  {
    id: 'ISS-51',
    project: 'api',
    title: 'Webhook signatures fail for unicode payloads',
    status: 'open',
    labels: ['webhooks'],
  },
  {
    id: 'ISS-58',
    project: 'mobile',
    title: 'Offline mode loses drafts',
    status: 'in_progress',
    labels: ['sync'],
  },
  {
    id: 'ISS-64',
    project: 'api',
    title: 'Billing report rounds cents the wrong way',
    status: 'open',
    labels: ['billing'],
  },
  {
    id: 'ISS-70',
    project: 'web',
    title: 'Calendar sync shows events in UTC',
    status: 'open',
    labels: ['calendar'],
  },
  {
    id: 'ISS-77',
    project: 'mobile',
    title: 'Crash when rotating during upload',
    status: 'open',
    labels: ['crash'],
  },
];

/** Activity on an issue: the paging tool serves these five at a time. */
export function activityOf(issueId: string): { at: string; who: string; what: string }[] {
  const people = ['ana', 'bo', 'chen', 'dee'];
  return Array.from({ length: 12 }, (_, i) => ({
    at: `2026-11-${String(10 + i).padStart(2, '0')}T09:${String(i * 4).padStart(2, '0')}:00Z`,
    who: people[i % people.length]!,
    what:
      i % 3 === 0
        ? `commented on ${issueId}`
        : i % 3 === 1
          ? `changed the status of ${issueId}`
          : `linked a pull request to ${issueId}`,
  }));
}

/** Words a query matches on: lower-case, accents folded, short words dropped. */
export function words(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 2);
}

/** Issues whose title or labels contain every word of the query. */
export function searchIssues(query: string, limit: number): Issue[] {
  const wanted = words(query);
  if (wanted.length === 0) return [];
  return ISSUES.filter((issue) => {
    const have = new Set(words(`${issue.title} ${issue.labels.join(' ')}`));
    return wanted.every((w) => have.has(w));
  }).slice(0, limit);
}
