/**
 * What the server's thread and its read threads say to each other (./pool.ts, ./worker.ts).
 * Every message is structured-clone safe: strings, numbers and plain objects.
 */
import type { ApiName } from '../../shared/api-routes.js';
import type { SpoolState } from '../../shared/spool.js';
import type { ServerInfo } from '../../api/types.js';

/** What a read thread is started with. */
export interface ReadWorkerData {
  /** better-sqlite3's addon for this runtime (src/store/native-binding.ts), if not the default. */
  nativeBinding?: string;
}

/** One read to run: the operation, the database it reads, and the request's parts. */
export interface ReadTask {
  k: 'read';
  id: number;
  /** The database file; a thread keeps a read-only connection per file it has read. */
  db: string;
  name: ApiName;
  /** The query string, without `?`. */
  query: string;
  params: Record<string, string>;
  /** What the status operation reports of the listener, as it stood when the read was asked. */
  info?: ServerInfo;
  spool?: SpoolState | null;
}

/** Messages to a read thread. */
export type ToReadWorker =
  | ReadTask
  /** The server's thread wrote a chunk of a download out; the thread may send the next. */
  | { k: 'more'; id: number }
  /** The client went away: a download stops at its next chunk. */
  | { k: 'cancel'; id: number }
  /** Close the connection to `db` (its server closed; the file may be deleted next). */
  | { k: 'forget'; db: string; ack: number };

/** Messages from a read thread. */
export type FromReadWorker =
  /** Started: its modules loaded. */
  | { k: 'ready' }
  /** A JSON answer, serialised on the read thread. */
  | { k: 'json'; id: number; text: string }
  /** An error answer: an ApiError's status and message, or 500 with what went wrong. */
  | { k: 'error'; id: number; status: number; message: string }
  /** A download starts (`RawResponse`); its body follows as `chunk`s, then `end`. */
  | { k: 'head'; id: number; contentType: string; filename?: string }
  | { k: 'chunk'; id: number; text: string }
  | { k: 'end'; id: number }
  /** A download failed part-way: the connection is cut (its headers are gone). */
  | { k: 'abort'; id: number; message: string }
  /** A `forget` done. */
  | { k: 'forgot'; ack: number };

/** How big a download's chunk grows before it crosses threads (one copy per chunk). */
export const CHUNK_BYTES = 256 * 1024;
