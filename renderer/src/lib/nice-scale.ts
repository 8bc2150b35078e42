/**
 * Round axis ticks, Grafana-style: a step of 1, 2 or 5 × 10ⁿ and a top that is a whole number
 * of steps, so a count axis reads 0/100/200/300/400 — never 0/85/170/255/340.
 */

/** The smallest 1-2-5 step at least `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return Math.max(1, m * p);
  return 10 * p;
}

/** Ticks from 0 covering `max` in at most `count` intervals of a nice whole step. */
export function niceTicks(max: number, count = 4): number[] {
  const step = niceStep(Math.max(max, 1) / count);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const out: number[] = [];
  for (let v = 0; v <= top + step / 2; v += step) out.push(v);
  return out;
}
