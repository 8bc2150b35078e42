/**
 * Which `better_sqlite3.node` this process loads. The CLI runs on the system Node and uses the
 * addon npm built for it; the Electron main process runs Electron's Node, whose
 * NODE_MODULE_VERSION differs, so it loads a second build made for Electron (see
 * docs/desktop.md). The choice is per process — one runtime, one ABI — so it is set once, before
 * the first database opens, and every connection the store makes follows it: the database, the
 * instance-lock files and the checkpoint worker.
 */
import Database from 'better-sqlite3';

let nativeBinding: string | undefined;

/**
 * Loads SQLite from the addon at `path` from now on (`undefined`: better-sqlite3's own lookup).
 * Call before opening any database; connections already open keep the addon they loaded.
 */
export function useNativeBinding(path: string | undefined): void {
  nativeBinding = path;
}

/** The addon path set by {@link useNativeBinding}, if any. */
export const currentNativeBinding = (): string | undefined => nativeBinding;

/** better-sqlite3 constructor options naming the chosen addon (empty for the default). */
export function nativeBindingOptions(): { nativeBinding?: string } {
  return nativeBinding === undefined ? {} : { nativeBinding };
}

/**
 * Loads the chosen addon and opens an in-memory database with it, so a build for another
 * runtime fails here — with the loader's own error (`ERR_DLOPEN_FAILED`, NODE_MODULE_VERSION
 * …) — before any file is touched, rather than inside the first open.
 */
export function probeNativeBinding(): void {
  new Database(':memory:', nativeBindingOptions()).close();
}
