/**
 * Writes the generated part of docs/setup.md (the nine SDKs: table, snippets, notes) from the one
 * source of truth, renderer/src/pages/setup/sdk-snippets.ts: `npx tsx scripts/write-setup-docs.ts`.
 * test/docs/setup-docs.test.ts fails when the file and the snippets disagree. The README keeps a
 * short version that links there (issue 43: it led with the table before showing the product).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETUP_MARKERS, setupMarkdown } from '../renderer/src/pages/setup/setup-markdown.js';

const root = join(import.meta.dirname, '..');

/** `text` with the part between the setup markers replaced by `generated`. */
export function withSetup(text: string, generated: string): string {
  const start = text.indexOf(SETUP_MARKERS.start);
  const end = text.indexOf(SETUP_MARKERS.end);
  if (start === -1 || end === -1 || end < start)
    throw new Error(`the setup markers are missing: ${SETUP_MARKERS.start} … ${SETUP_MARKERS.end}`);
  return text.slice(0, start + SETUP_MARKERS.start.length) + '\n' + generated + text.slice(end);
}

for (const file of [join('docs', 'setup.md')]) {
  const path = join(root, file);
  writeFileSync(path, withSetup(readFileSync(path, 'utf8'), setupMarkdown()));
  console.log(`wrote ${file}`);
}
