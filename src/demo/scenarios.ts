/**
 * What a model does with the demo server, scripted: each process is one MCP server process
 * (one producer, so one `session_id`), driven by one or more clients in turn. The scripts
 * include what real traffic has — reworded retries, paging repeats, chains that resolve and
 * chains that do not, a hallucinated tool name, several clients — and each step says what it
 * should come back as, so every number the dashboard shows can be derived by hand (see
 * docs/cli.md, "What the demo sends").
 */

import type { OutcomeClass } from '../shared/outcomes.js';

/** How a step should end, as the dashboard classifies it: one of the five outcome classes. */
export type Expect = OutcomeClass;

/** One `tools/call`. */
export interface DemoStep {
  tool: string;
  args?: Record<string, unknown>;
  expect: Expect;
}

/** One client connection (`clientInfo.name`) and what it calls, in order. */
export interface DemoClient {
  name: string;
  version: string;
  steps: DemoStep[];
}

/** One server process: one session, one or more clients one after another. */
export interface DemoProcess {
  label: string;
  clients: DemoClient[];
}

const search = (query: string, expect: Expect): DemoStep => ({
  tool: 'search_issues',
  args: { query },
  expect,
});

/** A short morning routine: four searches (three reworded retries) around one lookup. */
function routine(
  client: string,
  version: string,
  queries: [string, Expect][],
  issue: string,
): DemoProcess {
  const [q1, q2, q3, q4] = queries as [
    [string, Expect],
    [string, Expect],
    [string, Expect],
    [string, Expect],
  ];
  return {
    label: `standup (${client})`,
    clients: [
      {
        name: client,
        version,
        steps: [
          { tool: 'list_projects', expect: 'ok' },
          search(...q1),
          search(...q2),
          { tool: 'get_issue', args: { id: issue }, expect: 'ok' },
          search(...q3),
          search(...q4),
        ],
      },
    ],
  };
}

/** Every process the demo runs (concurrently, as separate server processes would). */
export const DEMO_PROCESSES: readonly DemoProcess[] = [
  {
    label: 'triage a login bug',
    clients: [
      {
        name: 'claude-ai',
        version: '0.1.0',
        steps: [
          // Reworded retry that resolves: the first wording finds nothing.
          search('login crash', 'empty'),
          search('login error on Safari', 'ok'),
          // Validation failure, then the corrected id: a bad_args chain that resolves.
          { tool: 'get_issue', args: { id: 42 }, expect: 'bad_args' },
          { tool: 'get_issue', args: { id: 'ISS-42' }, expect: 'ok' },
          // Paging: the same arguments four times — repeats, not retries — until the feed is empty.
          { tool: 'read_activity', args: { issue: 'ISS-42' }, expect: 'ok' },
          { tool: 'read_activity', args: { issue: 'ISS-42' }, expect: 'ok' },
          { tool: 'read_activity', args: { issue: 'ISS-42' }, expect: 'ok' },
          { tool: 'read_activity', args: { issue: 'ISS-42' }, expect: 'empty' },
          { tool: 'generate_report', args: { project: 'web', period: 'week' }, expect: 'ok' },
        ],
      },
    ],
  },
  {
    label: 'quarterly numbers',
    clients: [
      {
        name: 'cursor-vscode',
        version: '1.0.0',
        steps: [
          // A tool error, fixed on the next try.
          { tool: 'run_query', args: { sql: 'SELEC count(*) FROM issues' }, expect: 'tool_error' },
          { tool: 'run_query', args: { sql: 'SELECT count(*) FROM issues' }, expect: 'ok' },
          { tool: 'generate_report', args: { project: 'api', period: 'quarter' }, expect: 'ok' },
          // A crash, tried again with the same (empty) arguments: a repeat, and still a crash.
          { tool: 'sync_calendar', args: {}, expect: 'crashed' },
          { tool: 'sync_calendar', args: {}, expect: 'crashed' },
          // The model guesses a tool name that does not exist.
          { tool: 'search_tickets', args: { query: 'calendar' }, expect: 'bad_args' },
          search('calendar sync', 'ok'),
        ],
      },
    ],
  },
  {
    label: 'SSO outage (two clients, one server process)',
    clients: [
      {
        name: 'claude-code',
        version: '2.0.14',
        steps: [
          // A chain that never resolves: three wordings, nothing found.
          search('sso timeout', 'empty'),
          search('single sign-on timeout', 'empty'),
          search('saml assertion expired', 'empty'),
          // Far more than the model needed: a heavy response.
          { tool: 'export_board', args: { project: 'web' }, expect: 'ok' },
        ],
      },
      {
        name: 'Visual Studio Code',
        version: '1.105.0',
        steps: [
          { tool: 'list_projects', expect: 'ok' },
          { tool: 'get_issue', args: { id: 'ISS-7' }, expect: 'ok' },
        ],
      },
    ],
  },
  routine(
    'claude-ai',
    '0.1.0',
    [
      ['dark mode', 'ok'],
      ['rate limiter', 'ok'],
      ['webhook unicode', 'ok'],
      ['billing cents', 'ok'],
    ],
    'ISS-12',
  ),
  routine(
    'cursor-vscode',
    '1.0.0',
    [
      ['push notifications', 'ok'],
      ['offline drafts', 'ok'],
      ['export timeout', 'empty'],
      ['export large boards', 'ok'],
    ],
    'ISS-23',
  ),
  routine(
    'windsurf',
    '1.12.0',
    [
      ['accented search', 'ok'],
      ['café', 'ok'],
      ['calendar utc', 'ok'],
      ['android push', 'ok'],
    ],
    'ISS-19',
  ),
  routine(
    'claude-code',
    '2.0.14',
    [
      ['crash rotating', 'ok'],
      ['login unstyled', 'ok'],
      ['drafts', 'ok'],
      ['pull request', 'empty'],
    ],
    'ISS-77',
  ),
];
