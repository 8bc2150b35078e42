/**
 * A plain SVG sparkline: cheaper than a chart library for a 120×28 trend, and it scales with
 * its box. Null points (no calls in that bucket, so no rate) are stepped over: the line joins
 * the buckets that have a value, so a rate measured in three scattered hours reads as a line,
 * not as stray ticks. The last value gets a dot. A constant series is drawn across the middle,
 * not along the bottom edge (where it would read as zero). With `labels`, each bucket answers a
 * hover with its time and value.
 */
export function Sparkline({
  values,
  className = '',
  label,
  min,
  max,
  labels,
  format = String,
}: {
  values: (number | null)[];
  className?: string;
  label: string;
  min?: number;
  max?: number;
  /** Each bucket's name (its time), for the hover values. */
  labels?: string[];
  /** How a value reads in a hover. */
  format?: (v: number) => string;
}) {
  const W = 120;
  const H = 28;
  const nums = values.filter((v): v is number => v !== null);
  if (values.length < 2 || nums.length === 0) {
    return (
      <svg
        className={`spark ${className}`}
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`${label}: no trend yet`}
      />
    );
  }
  const lo = min ?? Math.min(...nums);
  const hi = max ?? Math.max(...nums);
  const flat = hi === lo;
  const span = hi - lo || 1;
  const x = (i: number): number => (i / (values.length - 1)) * W;
  const y = (v: number): number => (flat ? H / 2 : H - 2 - ((v - lo) / span) * (H - 4));
  let d = '';
  let last: [number, number] | null = null;
  values.forEach((v, i) => {
    if (v === null) return;
    d += `${last ? 'L' : 'M'}${x(i).toFixed(1)} ${y(v).toFixed(1)}`;
    last = [x(i), y(v)];
  });
  const end = last as [number, number] | null;
  const area = values.every((v) => v !== null) ? `${d}L${W} ${H}L0 ${H}Z` : '';
  return (
    <svg
      className={`spark ${className}`}
      viewBox={`0 0 ${W} ${H}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
    >
      {area && <path className="spark-area" d={area} />}
      <path className="spark-line" d={d} vectorEffect="non-scaling-stroke" />
      {end && <circle className="spark-end" cx={end[0]} cy={end[1]} r={1.6} />}
      {labels &&
        values.map((v, i) => (
          <rect
            key={i}
            className="spark-hit"
            x={x(i) - W / (values.length - 1) / 2}
            y={0}
            width={W / (values.length - 1)}
            height={H}
            data-spark-value={v ?? ''}
          >
            <title>{`${labels[i] ?? ''}: ${v === null ? 'no calls' : format(v)}`}</title>
          </rect>
        ))}
    </svg>
  );
}
