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

/** Failures of loading a native addon at all (not SQLite's own errors). */
const ADDON_LOAD_FAILURE =
  /invalid ELF header|not a valid Win32 application|Module did not self-register|cannot open shared object file|image not found|slice is not valid mach-o|wrong ELF class/i;

/** What the user can run to get an addon built for this Electron. */
const NATIVE_FIX =
  'Run `npm run electron:native` in the checkout (it fetches or builds SQLite for this Electron), ' +
  'or use `npm run serve` for the dashboard in a browser.';

/** Is this the error of loading better-sqlite3's addon built for another runtime? */
export function isNativeModuleError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return ABI_MISMATCH.test(message) || ADDON_LOAD_FAILURE.test(message);
}

/** The dialog text for an addon that would not load. */
export function describeNativeModuleError(error: unknown, binding: string | undefined): string {
  const message = error instanceof Error ? error.message : String(error);
  const which = binding ?? "better-sqlite3's default build (build/Release)";
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
  /** The addon start-up asked better-sqlite3 to load, if any. */
  binding: string | undefined;
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
  // openDbForCli wraps the load failure, so the ABI words may be inside its message.
  if (isNativeModuleError(error)) return describeNativeModuleError(error, context.binding);
  if (error instanceof DatabaseOpenError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `MCPulse Devtools could not start: ${firstLine(message)}`;
}
