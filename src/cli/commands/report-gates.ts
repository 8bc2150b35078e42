/**
 * CI gates for `report`: thresholds on the summary, each breach one clear line. A gate on a
 * rate that does not exist (no calls in scope) fails too — an empty capture proves nothing.
 */
import type { Summary } from '../../metrics/report.js';
import { UsageError } from '../io.js';

/** One gate and how it went. */
export interface GateResult {
  flag: string;
  what: string;
  threshold: number;
  value: number | null;
  passed: boolean;
  line: string;
}

/** Parses a rate: a fraction (`0.8`) or a percentage (`80%`). */
export function parseRate(flag: string, value: string): number {
  const pct = value.trim().endsWith('%');
  const n = Number(pct ? value.trim().slice(0, -1) : value);
  const r = pct ? n / 100 : n;
  if (value.trim() === '' || !Number.isFinite(r) || r < 0 || r > 1) {
    throw new UsageError(
      `${flag}: expected a fraction 0–1 (0.8) or a percentage (80%), received '${value}'`,
    );
  }
  return r;
}

function parseMs(flag: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) {
    throw new UsageError(`${flag}: expected milliseconds, received '${value}'`);
  }
  return n;
}

const pct = (r: number): string => `${(r * 100).toFixed(1)}%`;

/** The gate flags as parseArgs options. */
export const GATE_OPTIONS = {
  'fail-under-fcs': { type: 'string' },
  'fail-over-error-rate': { type: 'string' },
  'fail-over-empty-rate': { type: 'string' },
  'fail-over-p95-ms': { type: 'string' },
} as const;

type GateValues = Partial<Record<keyof typeof GATE_OPTIONS, string>>;

interface GateSpec {
  flag: keyof typeof GATE_OPTIONS;
  what: string;
  below: boolean;
  parse: (flag: string, v: string) => number;
  value: (s: Summary) => number | null;
  show: (n: number) => string;
}

const SPECS: GateSpec[] = [
  {
    flag: 'fail-under-fcs',
    what: 'first-call success',
    below: true,
    parse: parseRate,
    value: (s) => s.first_call_success.rate,
    show: pct,
  },
  {
    flag: 'fail-over-error-rate',
    what: 'error rate',
    below: false,
    parse: parseRate,
    value: (s) => s.error_rate,
    show: pct,
  },
  {
    flag: 'fail-over-empty-rate',
    what: 'empty rate',
    below: false,
    parse: parseRate,
    value: (s) => s.empty_rate,
    show: pct,
  },
  {
    flag: 'fail-over-p95-ms',
    what: 'p95 latency',
    below: false,
    parse: parseMs,
    value: (s) => s.latency.p95_ms,
    show: (n) => `${n} ms`,
  },
];

/** Parses the gate flags up front, so a typo fails before any work. */
export function parseGates(values: GateValues): { spec: GateSpec; threshold: number }[] {
  return SPECS.filter((spec) => values[spec.flag] !== undefined).map((spec) => ({
    spec,
    threshold: spec.parse(`--${spec.flag}`, values[spec.flag]!),
  }));
}

/** Checks every gate against the summary. */
export function checkGates(
  gates: { spec: GateSpec; threshold: number }[],
  summary: Summary,
): GateResult[] {
  return gates.map(({ spec, threshold }) => {
    const value = spec.value(summary);
    const flag = `--${spec.flag} ${threshold}`;
    if (value === null) {
      return {
        flag,
        what: spec.what,
        threshold,
        value,
        passed: false,
        line: `FAIL ${spec.what}: no calls in scope, nothing to measure (${flag})`,
      };
    }
    const passed = spec.below ? value >= threshold : value <= threshold;
    const relation = spec.below
      ? passed
        ? 'is at least'
        : 'is under'
      : passed
        ? 'is at most'
        : 'is over';
    return {
      flag,
      what: spec.what,
      threshold,
      value,
      passed,
      line: `${passed ? 'ok  ' : 'FAIL'} ${spec.what} ${spec.show(value)} ${relation} ${spec.show(threshold)} (${flag})`,
    };
  });
}
