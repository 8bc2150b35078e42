/** Defaults every entry point agrees on. */

/** The port SDKs are pointed at (`http://localhost:7857`), unless told otherwise. */
export const DEFAULT_PORT = 7857;
