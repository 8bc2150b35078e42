/** Statistics the benches share. */

/**
 * The median of `xs` (at least one value): the middle value, or the upper of the two middle
 * values when there is an even number of them — always a value that was measured.
 */
export const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
