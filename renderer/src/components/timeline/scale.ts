/** Time-axis helpers for the session timeline: a nice tick step and relative labels. */
const STEPS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000,
  300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000,
];

export function tickStep(spanMs: number, maxTicks = 8): number {
  return STEPS.find((s) => spanMs / s <= maxTicks) ?? STEPS.at(-1)!;
}

export function ticks(from: number, to: number, origin: number, maxTicks = 8): number[] {
  const step = tickStep(to - from, maxTicks);
  const first = origin + Math.ceil((from - origin) / step) * step;
  const out: number[] = [];
  for (let t = first; t <= to && out.length < 50; t += step) out.push(t);
  return out;
}

/** `+0`, `+250 ms`, `+1.5 s`, `+2 min` relative to the session's first call. */
export function relLabel(ms: number): string {
  if (ms === 0) return '0';
  if (ms < 1000) return `+${ms} ms`;
  if (ms < 60_000) return `+${Number((ms / 1000).toFixed(2))} s`;
  if (ms < 3_600_000) return `+${Number((ms / 60_000).toFixed(1))} min`;
  return `+${Number((ms / 3_600_000).toFixed(1))} h`;
}
