/**
 * The bookkeeping shared by the encoders: which traps fired (with the first example of each),
 * and the failure an encoder raises when its runtime would refuse the input outright.
 */
import type { TrapHit, TrapId } from './catalogue.js';

/** Raised when a runtime would refuse the input (parse error, encode error, depth limit). */
export class EncodeFailure extends Error {
  override name = 'EncodeFailure';
  constructor(
    message: string,
    /** What failed, so a model can tell its parser's refusal from its own writer's. */
    readonly failed?: 'depth' | 'lone-surrogate' | 'number',
  ) {
    super(message);
  }
}

/** Collects trap hits while one variant encodes one input; keeps the first example of each. */
export class TrapNotes {
  // Most inputs hit no trap in most languages: the map is made on the first hit only.
  private seen: Map<TrapId, string> | undefined;

  /** Records that `trap` changed the output, with a short example of how. */
  hit(trap: TrapId, example: string): void {
    this.seen ??= new Map();
    if (!this.seen.has(trap)) this.seen.set(trap, example);
  }

  /** The traps hit so far, in the order they first fired. */
  list(): TrapHit[] {
    return this.seen === undefined
      ? []
      : [...this.seen].map(([trap, example]) => ({ trap, example }));
  }
}
