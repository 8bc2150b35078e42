/** The sessions list's sort keys: the API accepts them, the store orders by them, the UI offers them. */
export const SESSION_SORTS = [
  'last_seen',
  'first_seen',
  'duration',
  'calls',
  'first_call_success',
  'retries',
  'chains',
  'errors',
  'units',
  'cost',
] as const;

/** A sessions-list sort key. */
export type SessionSort = (typeof SESSION_SORTS)[number];
