/**
 * Runs the demo: every scripted process gets its own demo server, its own producer (so its own
 * session) and real MCP clients over in-memory transports; telemetry goes to a real ingest
 * endpoint. The processes run concurrently, like separate servers would.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createProducer, isEmptyResult, type DeliveryStats } from '../producer/index.js';
import { DEMO_PROCESSES, type DemoProcess, type DemoStep, type Expect } from './scenarios.js';
import { createDemoServer } from './server.js';

/** Options for {@link runDemo}. */
export interface DemoOptions {
  /** The MCPulse endpoint, e.g. `http://localhost:7857`. */
  endpoint: string;
  /** Ingest key; one key is one project. Default `mp_live_demo`. */
  key?: string;
  /**
   * Compress the slow tool (150 ms instead of 2.4 s) and skip the pauses between steps.
   * Timestamps stay real either way.
   */
  fast?: boolean;
  /** Progress lines (one per session). */
  log?: (line: string) => void;
  /** The scripts to run; default {@link DEMO_PROCESSES}. */
  processes?: readonly DemoProcess[];
  /** `fetch` for the producers (tests). */
  fetch?: typeof fetch;
}

/** What a demo run did. */
export interface DemoResult {
  sessions: string[];
  calls: number;
  startups: number;
  delivery: DeliveryStats;
  /** Steps whose result did not look like the script said (should be empty). */
  mismatches: string[];
}

/** The default demo key; its first 12 characters name the project in the dashboard. */
export const DEMO_KEY = 'mp_live_demo';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** How the client sees a result: it cannot tell bad_args, tool_error and crashed apart. */
function looksLike(result: unknown): 'ok' | 'empty' | 'error' {
  if ((result as { isError?: unknown }).isError === true) return 'error';
  return isEmptyResult(result) ? 'empty' : 'ok';
}

const asSeen = (expect: Expect): 'ok' | 'empty' | 'error' =>
  expect === 'ok' || expect === 'empty' ? expect : 'error';

async function runProcess(
  proc: DemoProcess,
  options: DemoOptions,
  tally: { calls: number; startups: number; mismatches: string[] },
): Promise<{ sessionId: string; stats: DeliveryStats }> {
  const fast = options.fast ?? false;
  const producer = createProducer({
    endpoint: options.endpoint,
    key: options.key ?? DEMO_KEY,
    // Flush more often than the 5 s default so the dashboard fills in while you watch.
    flushEveryMs: fast ? 200 : 1000,
    fetch: options.fetch,
    userAgent: 'mcpulse-devtools-demo/1',
    // Each scenario names its session: searchable ("quarterly") and shown as its title.
    sessionLabel: proc.label,
    onPayload: (p) => {
      if (p.type === 'call') tally.calls++;
      else tally.startups++;
    },
  });
  // One server process: its paging state is shared by every client it serves.
  const state = new Map<string, number>();
  for (const spec of proc.clients) {
    const server = producer.watch(createDemoServer({ slowMs: fast ? 150 : 2400 }, state));
    const client = new Client({ name: spec.name, version: spec.version });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    // A model reads the tool list before it calls anything.
    await client.listTools();
    for (const step of spec.steps) {
      if (!fast) await sleep(150 + Math.floor(Math.random() * 250));
      await callStep(client, step, `${proc.label} / ${spec.name}`, tally.mismatches);
    }
    await client.close();
    await server.close();
  }
  await producer.close();
  options.log?.(`  ${producer.sessionId}  ${proc.label}`);
  return { sessionId: producer.sessionId, stats: producer.stats() };
}

async function callStep(
  client: Client,
  step: DemoStep,
  where: string,
  mismatches: string[],
): Promise<void> {
  try {
    const result = await client.callTool({ name: step.tool, arguments: step.args ?? {} });
    const seen = looksLike(result);
    if (seen !== asSeen(step.expect))
      mismatches.push(`${where}: ${step.tool} came back ${seen}, expected ${step.expect}`);
  } catch (error) {
    mismatches.push(
      `${where}: ${step.tool} failed at the protocol level: ${(error as Error).message}`,
    );
  }
}

/** Runs every scripted process against `options.endpoint`; resolves once all is sent. */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const tally = { calls: 0, startups: 0, mismatches: [] as string[] };
  const processes = options.processes ?? DEMO_PROCESSES;
  const done = await Promise.all(
    processes.map(async (proc, i) => {
      // Staggered starts, so a watching dashboard sees sessions arrive one after another.
      if (!options.fast) await sleep(i * 400);
      return runProcess(proc, options, tally);
    }),
  );
  const delivery: DeliveryStats = {
    sent: 0,
    dropped: 0,
    batches: 0,
    failedBatches: 0,
    buffered: 0,
  };
  for (const { stats } of done) {
    for (const k of Object.keys(delivery) as (keyof DeliveryStats)[]) delivery[k] += stats[k];
  }
  return {
    sessions: done.map((d) => d.sessionId),
    calls: tally.calls,
    startups: tally.startups,
    delivery,
    mismatches: tally.mismatches,
  };
}
