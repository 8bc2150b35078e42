/**
 * The window's size and position, remembered between launches in a small JSON file in the
 * user-data folder. Plain functions over an injected file adapter, so they are tested in Node.
 *
 * A saved position is used only if the window would still be visible: a monitor unplugged
 * since last time must not leave the window off-screen, where the user cannot reach it.
 */

/** A rectangle in screen coordinates (Electron's `Rectangle`). */
export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What is remembered. */
export interface WindowState {
  /** The un-maximised bounds, so un-maximising later restores a sensible size. */
  bounds: Bounds;
  maximized: boolean;
}

/** The few file operations the state needs; `readText` returns `undefined` for no file. */
export interface StateFile {
  readText(path: string): string | undefined;
  writeText(path: string, text: string): void;
}

/** The size a first launch opens at; smaller screens shrink it to fit. */
export const DEFAULT_SIZE = { width: 1440, height: 920 } as const;
/** The smallest useful dashboard (BrowserWindow's minWidth/minHeight). */
export const MIN_SIZE = { width: 900, height: 600 } as const;
/** The file name inside the user-data folder. */
export const WINDOW_STATE_FILE = 'window-state.json';

/** How much of the window must be on a display's work area to count as reachable. */
const MIN_VISIBLE = 100;

const isFiniteInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** Parses the file's text; anything malformed is `null` (the defaults then apply). */
export function parseWindowState(text: string): WindowState | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const v = value as { bounds?: Partial<Record<keyof Bounds, unknown>>; maximized?: unknown };
  const b = v?.bounds;
  if (!b || ![b.x, b.y, b.width, b.height].every(isFiniteInt)) return null;
  const bounds = b as Bounds;
  if (bounds.width <= 0 || bounds.height <= 0) return null;
  return { bounds: { ...bounds }, maximized: v.maximized === true };
}

/** Does enough of `bounds` overlap some work area for the user to grab it? */
function isReachable(bounds: Bounds, workAreas: readonly Bounds[]): boolean {
  return workAreas.some((area) => {
    const w = Math.min(bounds.x + bounds.width, area.x + area.width) - Math.max(bounds.x, area.x);
    const h = Math.min(bounds.y + bounds.height, area.y + area.height) - Math.max(bounds.y, area.y);
    return w >= MIN_VISIBLE && h >= MIN_VISIBLE;
  });
}

/** The default window, centred on the primary (first) work area and no larger than it. */
function centred(workAreas: readonly Bounds[]): Bounds {
  const area = workAreas[0] ?? { x: 0, y: 0, ...DEFAULT_SIZE };
  const width = Math.max(MIN_SIZE.width, Math.min(DEFAULT_SIZE.width, area.width));
  const height = Math.max(MIN_SIZE.height, Math.min(DEFAULT_SIZE.height, area.height));
  return {
    x: area.x + Math.round((area.width - width) / 2),
    y: area.y + Math.round((area.height - height) / 2),
    width,
    height,
  };
}

/**
 * The state to open the window with: the saved one when it is readable and still on a
 * display, else the default centred on the primary display.
 */
export function loadWindowState(
  file: StateFile,
  path: string,
  workAreas: readonly Bounds[],
): WindowState {
  let text: string | undefined;
  try {
    text = file.readText(path);
  } catch {
    text = undefined; // An unreadable file is a first launch, not a failure to start.
  }
  const saved = text === undefined ? null : parseWindowState(text);
  if (!saved) return { bounds: centred(workAreas), maximized: false };
  const bounds = {
    ...saved.bounds,
    width: Math.max(MIN_SIZE.width, saved.bounds.width),
    height: Math.max(MIN_SIZE.height, saved.bounds.height),
  };
  return {
    bounds: isReachable(bounds, workAreas) ? bounds : centred(workAreas),
    maximized: saved.maximized,
  };
}

/** Writes the state; a failure (read-only folder, full disk) only costs the memory of it. */
export function saveWindowState(file: StateFile, path: string, state: WindowState): boolean {
  try {
    file.writeText(path, `${JSON.stringify(state, null, 2)}\n`);
    return true;
  } catch {
    return false;
  }
}
