/**
 * The shapes of retention's runner (./runner.ts): what a pass deleted and reports, the options,
 * and the runner itself.
 */
import type { KeepUp } from './keep-up.js';
import type { RetentionSettings } from './settings.js';

/** Rows deleted, by table. */
export interface DeletedCounts {
  calls: number;
  startups: number;
  batches: number;
  rejections: number;
  agreements: number;
  /** Proxy content rows: messages, unanswered requests and sessions' `initialize` facts. */
  content: number;
}

/** What one pass did. */
export interface PassReport {
  started_ms: number;
  finished_ms: number;
  settings: RetentionSettings;
  deleted: DeletedCounts;
  /** Transactions run. */
  steps: number;
  /** The most calls deleted by one transaction (never more than `chunkRows`). */
  largest_step_calls: number;
  /** The longest single transaction: how long ingest could have waited behind retention. */
  longest_step_ms: number;
  /** Time spent in the pass's transactions, all told. */
  work_ms: number;
  /** Time the pass rested between them, leaving the event loop to ingest and reads. */
  rest_ms: number;
  /**
   * Runs cut without a quiet 30 s (the forget hook rewrites the run left; a run left longer
   * than 1,000 calls sends its project to the rebuild after the pass).
   */
  forced_cuts: number;
  /** Set when a step failed (disk full, say); the pass stops and the next one retries. */
  error?: string;
}

/** Options for {@link createRetention}. */
export interface RetentionOptions {
  /** Clock (tests). */
  now?: () => number;
  /** Calls deleted per transaction at most (default 500: 10–40 ms). */
  chunkRows?: number;
  /** Ids counted per step when the calls are counted (default 25,000: a few ms). */
  countSlice?: number;
  /** How long a keep-up step aims to take (./keep-up.ts). Default 5 ms. */
  keepUpStepMs?: number;
  /** Told after every keep-up step that deleted calls (the live stream). */
  onKeepUp?: (calls: number) => void;
  /** Time between passes. Default 60 s. */
  intervalMs?: number;
  /** Delay before the first pass, so startup never pays for it. Default 10 s. */
  firstDelayMs?: number;
  /** Told about every finished pass (logs, tests). */
  onPass?: (report: PassReport) => void;
  /**
   * Whether acknowledged work is waiting to be applied (the server's spool backlog). While it
   * is, the pass rests three times as long as each step took instead of once (./runner.ts), and
   * the keep-up's steps are left to the applier (./keep-up.ts).
   */
  backlog?: () => boolean;
}

/** A retention runner for one open store. */
export interface Retention {
  /** Starts the timer. */
  start(): void;
  /** Stops the timer; a pass in progress stops after its current transaction. */
  stop(): void;
  /** Runs a pass now (or joins the one running); resolves with its report. */
  runPass(): Promise<PassReport>;
  /** Runs a pass soon, e.g. after the settings changed. */
  schedule(): void;
  readonly lastPass: PassReport | null;
  readonly running: boolean;
  /** The size cap kept between apply slices (./keep-up.ts); the server's applier drives it. */
  readonly keepUp: KeepUp;
}
