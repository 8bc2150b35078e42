/**
 * Every way start-up can fail, worded for a dialog: what is wrong and what to do. The main
 * process shows the sentence and exits non-zero; it never leaves a process with no window.
 */
import { DatabaseOpenError } from '../host/open-db.js';
import { describePortHolder, type PortHolder } from '../host/port-holder.js';
import { PortInUseError } from '../server/index.js';

/** Node's words when an addon was built for another NODE_MODULE_VERSION. */
const ABI_MISMATCH =
  /compiled against a different Node\.js version using\s+NODE_MODULE_VERSION (\d+)\.\s+This version of Node\.js requires\s+NODE_MODULE_VERSION (\d+)/;

/** SQLite's native addon would not load in this Electron (start-up probes it first). */
export class NativeModuleError extends Error {
  constructor(
    /** The addon start-up asked for (`undefined`: better-sqlite3's default build). */
    readonly binding: string | undefined,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** What the user can run to get an addon built for this Electron. */
const NATIVE_FIX =
  'Run `npm run electron:native` in the checkout (it fetches or builds SQLite for this Electron), ' +
  'or use `npm run serve` for the dashboard in a browser.';

/** The dialog text for an addon that would not load. */
export function describeNativeModuleError({ message, binding }: NativeModuleError): string {
  const which = binding ?? "better-sqlite3's default build (build/Release/better_sqlite3.node)";
  const abi = ABI_MISMATCH.exec(message);
  if (abi)
    return (
      `SQLite's native module ${which} was built for NODE_MODULE_VERSION ${abi[1]}, but this ` +
      `Electron needs ${abi[2]}. ${NATIVE_FIX}`
    );
  return `SQLite's native module ${which} could not be loaded (${firstLine(message)}). ${NATIVE_FIX}`;
}

const firstLine = (text: string): string => text.split('\n', 1)[0] ?? text;

/** What start-up knew when it failed, to name things in the message. */
export interface FailureContext {
  /** Who answered on the port, when binding it failed. */
  portHolder?: PortHolder;
  port: number;
}

/** One message for any start-up failure. */
export function describeStartupError(error: unknown, context: FailureContext): string {
  if (error instanceof PortInUseError)
    return context.portHolder
      ? describePortHolder(context.port, context.portHolder)
      : error.message;
  if (error instanceof NativeModuleError) return describeNativeModuleError(error);
  if (error instanceof DatabaseOpenError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `MCPulse Devtools could not start: ${firstLine(message)}`;
}
