/**
 * The lock folder's rules (src/store/private-files.ts), on a temp folder so the real one is
 * never touched: created 0700, a group/other-writable one of ours tightened, someone else's
 * (or a symlink) refused with one sentence saying what to do.
 */
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import {
  UnsafeFolderError,
  createPrivateFile,
  ensurePrivateFolder,
} from '../../src/store/private-files.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpulse-private-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mode = (path: string): number => statSync(path).mode & 0o777;

it('creates folders 0700 and files 0600, and never truncates an existing file', () => {
  const folder = join(dir, 'a', 'b');
  ensurePrivateFolder(folder, { create: true, tighten: true });
  expect(mode(join(dir, 'a'))).toBe(0o700);
  expect(mode(folder)).toBe(0o700);
  const file = join(folder, 'f');
  createPrivateFile(file);
  expect(mode(file)).toBe(0o600);
  createPrivateFile(file);
  expect(statSync(file).size).toBe(0);
});

it('tightens a group- or other-writable folder of ours', () => {
  const folder = join(dir, 'loose');
  mkdirSync(folder);
  chmodSync(folder, 0o777);
  ensurePrivateFolder(folder, { create: true, tighten: true });
  expect(mode(folder)).toBe(0o700);
});

it('refuses a symlink in place of the folder', () => {
  const target = join(dir, 'target');
  mkdirSync(target);
  const link = join(dir, 'link');
  symlinkSync(target, link);
  expect(() => ensurePrivateFolder(link, { create: true, tighten: true })).toThrow(
    new UnsafeFolderError(
      `${link} is not a folder owned by this user — remove it so mcpulse-devtools can recreate it`,
    ),
  );
});

it.skipIf(process.getuid?.() !== 0)('refuses a folder another user owns', () => {
  const folder = join(dir, 'theirs');
  mkdirSync(folder, { mode: 0o700 });
  chownSync(folder, 65534, 65534);
  expect(() => ensurePrivateFolder(folder, { create: true, tighten: true })).toThrow(
    UnsafeFolderError,
  );
});
