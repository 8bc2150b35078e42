import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { EXPORT_FORMATS, exportBody, type ExportFormat } from '../../api/export-files.js';
import type { ExportCounts } from '../../store/export-jsonl.js';
import { parseFlags } from '../flags.js';
import { UsageError, type Command } from '../io.js';
import { DatabaseOpenError } from '../../host/open-db.js';
import { defaultDbPath } from '../../host/paths.js';
import { FILTER_OPTIONS, FILTER_USAGE, filterFromFlags, openExisting } from './export-filters.js';
import { prog } from '../invocation.js';

const USAGE = `usage: ${prog()} export [--format jsonl|csv|md] [--content] [filters] [--out FILE] [--db PATH]

Writes what the database holds, straight from the file (no server needed):
  jsonl  the raw accepted payloads — startups and calls — one per line, exactly in the wire
         format (unknown fields included), so '${prog()} import' or any MCPulse
         endpoint can replay them (default)
  csv    the per-tool summary, one row per tool
  md     the summary as a markdown report

  --format F         jsonl, csv or md (default jsonl)
  --content          jsonl only: also the proxy's captured content (JSON-RPC messages,
                     initialize facts, unanswered requests), one "proxy_content" line per
                     post after the payloads; never without this flag
  --out FILE         write to FILE instead of standard output
  --db PATH          database (default ~/.mcpulse-devtools/devtools.db, or $MCPULSE_DEVTOOLS_DB)
${FILTER_USAGE}

A jsonl export of a range or a tool carries the startups of the sessions it includes plus the
latest startup of each project (it defines the registered tools); of a session, that session's.
`;

async function writeAll(out: NodeJS.WritableStream, chunks: Iterable<string>): Promise<void> {
  for (const chunk of chunks) {
    if (!out.write(chunk)) await once(out, 'drain');
  }
}

export const command: Command = {
  summary: 'export payloads as replayable JSONL, or the summary as CSV or markdown',
  async run(argv, io) {
    const { values } = parseFlags(argv, {
      format: { type: 'string' },
      content: { type: 'boolean' },
      out: { type: 'string' },
      db: { type: 'string' },
      ...FILTER_OPTIONS,
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.stdout.write(USAGE);
      return 0;
    }
    const format = (values.format ?? 'jsonl') as ExportFormat;
    if (!EXPORT_FORMATS.includes(format)) {
      throw new UsageError(`--format: expected ${EXPORT_FORMATS.join(', ')}, received '${format}'`);
    }
    if (values.content && format !== 'jsonl')
      throw new UsageError(`--content: only a jsonl export carries content, not ${format}`);
    let store;
    try {
      store = openExisting(values.db ?? defaultDbPath(io.env), (l) => io.stderr.write(l));
    } catch (error) {
      if (!(error instanceof DatabaseOpenError)) throw error;
      io.stderr.write(`mcpulse-devtools export: ${error.message}\n`);
      return 1;
    }
    try {
      const filter = filterFromFlags(values, store);
      const counts: ExportCounts = { calls: 0, startups: 0, agreements: 0 };
      const contentCounts = { sessions: 0, messages: 0 };
      const { body } = exportBody(store, filter, format, counts, {
        content: values.content ?? false,
        contentCounts,
      });
      if (values.out) {
        const file = createWriteStream(values.out);
        await writeAll(file, body);
        file.end();
        await once(file, 'finish');
      } else {
        await writeAll(io.stdout, body);
      }
      if (format === 'jsonl') {
        io.stderr.write(
          `exported ${counts.calls} calls and ${counts.startups} startups${counts.agreements ? ` (and ${counts.agreements} agreements)` : ''}${values.content ? `, and ${contentCounts.messages} messages of ${contentCounts.sessions} proxied sessions` : ''}${values.out ? ` to ${values.out}` : ''}\n`,
        );
      }
      return 0;
    } finally {
      store.close();
    }
  },
};
