/**
 * Writes docs/schema.md from the migrations (scripts/schema-doc.ts):
 * `node --import tsx scripts/write-schema-doc.ts`. test/docs/schema-doc.test.ts fails when the
 * file and the migrations disagree.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemaMarkdown } from './schema-doc.js';

const file = join('docs', 'schema.md');
writeFileSync(join(import.meta.dirname, '..', file), schemaMarkdown());
console.log(`wrote ${file}`);
