/**
 * Insights about calls that failed outright — crashes, tool errors, bad arguments — at any
 * sample size. A tool that crashed on 14 of 14 calls is the worst news in the view whether or
 * not it reached the hosted thresholds' 20-call minimum, so these kinds say their confidence
 * ("14 of 14") instead of waiting for more calls.
 */
import type { Insight, InsightInput, Severity } from './insights.js';

/** The kinds this module draws. */
export type FailureInsightKind = 'crashes' | 'error_rate' | 'bad_args_streak';

/**
 * Severity of a failure share: half or more of at least 3 calls is high; a tenth or more of
 * at least 2 calls (or half of 1–2 calls) medium; any other failure low. A count floor keeps
 * "1 of 1" from outranking "40 of 200".
 */
export function failureSeverity(failed: number, calls: number): Severity {
  const r = failed / calls;
  if (r >= 0.5 && failed >= 3) return 'high';
  if (r >= 0.1 && failed >= 2) return 'medium';
  if (r >= 0.5) return 'medium';
  return 'low';
}

const share = (n: number, of: number): string =>
  n === of ? `${n} of ${n}` : `${n} of ${of} (${Math.round((n / of) * 100)}%)`;

const callsWord = (n: number): string => (n === 1 ? 'call' : 'calls');

/** The failure insights of one tool (none for a tool without failures). */
export function failureInsights(t: InsightInput): Omit<Insight, 'impact'>[] {
  const out: Omit<Insight, 'impact'>[] = [];
  if (t.calls === 0) return out;
  const crashed = t.crashed ?? 0;
  if (crashed > 0) {
    const severity = failureSeverity(crashed, t.calls);
    const all = crashed === t.calls;
    out.push({
      id: `crashes:${t.name}`,
      kind: 'crashes',
      severity,
      tool: t.name,
      value: crashed / t.calls,
      threshold: null,
      calls: t.calls,
      affected: crashed,
      size: crashed,
      title: `${t.name} crashed on ${share(crashed, t.calls)} ${callsWord(t.calls)}`,
      detail: all
        ? 'Every call threw inside the tool before it could answer.'
        : 'The tool threw instead of answering; the client got no result.',
      message: `${t.name} crashed on ${share(crashed, t.calls)} calls (the tool threw)`,
    });
  }
  const errors = t.tool_errors ?? 0;
  if (errors > 0) {
    const severity = failureSeverity(errors, t.calls);
    out.push({
      id: `error_rate:${t.name}`,
      kind: 'error_rate',
      severity,
      tool: t.name,
      value: errors / t.calls,
      threshold: null,
      calls: t.calls,
      affected: errors,
      size: errors,
      title: `${t.name} returned an error on ${share(errors, t.calls)} ${callsWord(t.calls)}`,
      detail: 'The tool answered with isError: the call ran but reported a failure.',
      message: `${t.name} returned an error on ${share(errors, t.calls)} calls`,
    });
  }
  const bad = t.bad_args ?? 0;
  if (bad > 0) {
    const severity = failureSeverity(bad, t.calls);
    const run = t.latest_bad_args_run ?? 0;
    out.push({
      id: `bad_args_streak:${t.name}`,
      kind: 'bad_args_streak',
      severity,
      tool: t.name,
      value: bad / t.calls,
      threshold: null,
      calls: t.calls,
      affected: bad,
      size: bad,
      title: `${t.name} got bad arguments on ${share(bad, t.calls)} ${callsWord(t.calls)}`,
      detail:
        run >= 2
          ? `The latest ${run} calls in a row were refused: the model keeps sending arguments the schema does not accept.`
          : 'Calls were refused for their arguments: the schema or its description may mislead the model.',
      message: `${t.name} got bad arguments on ${share(bad, t.calls)} calls${
        run >= 2 ? `, the latest ${run} in a row` : ''
      }`,
    });
  }
  return out;
}
