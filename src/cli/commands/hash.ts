/**
 * `mcpulse-devtools hash [JSON]`: the canonical form and args_hash of a tool call's arguments,
 * the diagnostics, what each MCPulse SDK sends, and what each language's default encoder would.
 */
import { parseArgs } from 'node:util';
import { analyze, JsonSyntaxError, nodeSha256Hex } from '../../canonical/node.js';
import { readAll, UsageError, type CliIO, type Command } from '../io.js';
import { formatReport, toReport } from './hash-report.js';
import { prog } from '../invocation.js';

const USAGE = `usage: ${prog()} hash [JSON] [--json | --jsonl]

Prints the canonical form of JSON arguments (RFC 8785 as the TypeScript SDK writes it), their
args_hash, diagnostics for anything SDKs disagree on, what each MCPulse SDK sends (as its
published code hashes), and what each language's default encoder would send if you hashed the
arguments yourself. JSON comes from the argument, or from stdin when there is none.

  --json    one JSON object: {"canonical","args_hash","diagnostics","sdks","languages"}
  --jsonl   stdin holds one JSON text per line; prints one such object per line, in
            order, or {"error": …} for a line that is not JSON
  --help    this text
`;

/** The `hash` command. */
export const command: Command = {
  summary:
    "canonical form, args_hash, each SDK's hash and cross-SDK diagnostics for JSON arguments",
  async run(argv, io) {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        allowPositionals: true,
        options: {
          json: { type: 'boolean' },
          jsonl: { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
        },
      });
    } catch (error) {
      throw new UsageError(`${(error as Error).message}\n${USAGE}`);
    }
    const { values, positionals } = parsed;
    if (values.help) {
      io.stdout.write(USAGE);
      return 0;
    }
    if (values.json && values.jsonl) throw new UsageError('--json and --jsonl are exclusive');
    if (values.jsonl) {
      if (positionals.length > 0)
        throw new UsageError('--jsonl reads stdin; it takes no JSON argument');
      return hashLines(io);
    }

    let text: string;
    if (positionals.length > 0) text = positionals.join(' ');
    else if ((io.stdin as { isTTY?: boolean }).isTTY)
      throw new UsageError(`give JSON as an argument or on stdin\n${USAGE}`);
    else text = await readAll(io.stdin);

    let analysis;
    try {
      analysis = analyze(text, nodeSha256Hex);
    } catch (error) {
      if (!(error instanceof JsonSyntaxError)) throw error;
      if (values.json)
        io.stdout.write(JSON.stringify({ error: `not JSON: ${error.message}` }) + '\n');
      else io.stderr.write(`mcpulse-devtools hash: not JSON: ${error.message}\n`);
      return 1;
    }
    io.stdout.write(
      values.json ? JSON.stringify(toReport(analysis)) + '\n' : formatReport(analysis),
    );
    return 0;
  },
};

/** One line in, one JSON line out, streamed: memory stays flat however long stdin is. */
async function hashLines(io: CliIO): Promise<number> {
  let pending = '';
  let out = '';
  const flush = async () => {
    if (out === '') return;
    const chunk = out;
    out = '';
    if (!io.stdout.write(chunk))
      await new Promise<void>((resolve) => io.stdout.once('drain', resolve));
  };
  const handle = (line: string) => {
    out += JSON.stringify(hashLine(line.endsWith('\r') ? line.slice(0, -1) : line)) + '\n';
  };

  (io.stdin as NodeJS.ReadableStream & { setEncoding?: (e: string) => void }).setEncoding?.('utf8');
  for await (const chunk of io.stdin) {
    pending += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
    let newline = pending.indexOf('\n');
    let from = 0;
    while (newline !== -1) {
      handle(pending.slice(from, newline));
      from = newline + 1;
      newline = pending.indexOf('\n', from);
    }
    pending = pending.slice(from);
    if (out.length >= 1 << 16) await flush();
  }
  if (pending !== '') handle(pending);
  await flush();
  return 0;
}

function hashLine(line: string): object {
  if (line.trim() === '') return { error: 'empty line' };
  try {
    return toReport(analyze(line, nodeSha256Hex));
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { error: `not JSON: ${error.message}` };
    throw error;
  }
}
