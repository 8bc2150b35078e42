/** The ingest spool's backlog as every layer reports it (`/api/status`, `/api/spool`, the `spool` live event). */

/** What the spool holds and how applying is going (for `/api/status` and the UI). */
export interface SpoolState {
  /** Acknowledged requests not yet applied, and their items. */
  pendingRequests: number;
  pendingPayloads: number;
  /** Requests acknowledged through the spool since start (the rest were stored directly). */
  spooledRequests: number;
  /** Why applying last failed; `null` once it succeeds again. */
  failing: string | null;
}
