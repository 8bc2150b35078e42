import { loadSummary, summaryMarkdown } from '../../api/export-summary.js';
import { parseFlags } from '../flags.js';
import { UsageError, type Command } from '../io.js';
import { DatabaseOpenError } from '../../host/open-db.js';
import { defaultDbPath } from '../../host/paths.js';
import { FILTER_OPTIONS, FILTER_USAGE, filterFromFlags, openExisting } from './export-filters.js';
import { checkGates, GATE_OPTIONS, parseGates } from './report-gates.js';
import { prog } from '../invocation.js';

const USAGE = `usage: ${prog()} report [--md | --json] [filters] [gates] [--db PATH]

The summary — calls, first-call success, retries, outcomes, latency, tools, insights — read
straight from the database (no server needed), computed by the same code as the dashboard's
/api/summary. With gates, exits 1 and prints one line per breach, so a CI job can fail a build
on a capture.

  --md               markdown (default)
  --json             JSON: { summary, insights, gates }
  --db PATH          database (default ~/.mcpulse-devtools/devtools.db, or $MCPULSE_DEVTOOLS_DB)
${FILTER_USAGE}

gates (a rate is a fraction, 0.8, or a percentage, 80%):
  --fail-under-fcs R         first-call success below R
  --fail-over-error-rate R   error rate (bad_args + tool_error + crashed) above R
  --fail-over-empty-rate R   empty rate above R
  --fail-over-p95-ms N       p95 latency above N milliseconds
A gate with no calls in scope fails: an empty capture proves nothing.
`;

export const command: Command = {
  summary: 'print the summary from the database as markdown or JSON, with CI gates',
  async run(argv, io) {
    const { values } = parseFlags(argv, {
      md: { type: 'boolean' },
      json: { type: 'boolean' },
      db: { type: 'string' },
      ...FILTER_OPTIONS,
      ...GATE_OPTIONS,
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.stdout.write(USAGE);
      return 0;
    }
    if (values.md && values.json) throw new UsageError('pass --md or --json, not both');
    const gates = parseGates(values);
    let store;
    try {
      store = openExisting(values.db ?? defaultDbPath(io.env), (l) => io.stderr.write(l));
    } catch (error) {
      if (!(error instanceof DatabaseOpenError)) throw error;
      io.stderr.write(`mcpulse-devtools report: ${error.message}\n`);
      return 1;
    }
    try {
      const filter = filterFromFlags(values, store);
      const report = loadSummary(store, filter);
      const results = checkGates(gates, report.summary);
      if (values.json) {
        io.stdout.write(
          `${JSON.stringify({ summary: report.summary, insights: report.insights, gates: results }, null, 2)}\n`,
        );
      } else {
        io.stdout.write(summaryMarkdown(report));
      }
      // With --json, stdout stays one JSON document: every gate line goes to stderr.
      for (const r of results) {
        (r.passed && !values.json ? io.stdout : io.stderr).write(`report: ${r.line}\n`);
      }
      return results.every((r) => r.passed) ? 0 : 1;
    } finally {
      store.close();
    }
  },
};
