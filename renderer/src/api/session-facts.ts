/** Small helpers over a session's calls and chains (the API already explains each call). */
import type { CallView, Chain } from './types';

/** Chain membership by call id. */
export function chainOfCall(chains: Chain[]): Map<number, Chain> {
  const out = new Map<number, Chain>();
  for (const ch of chains) for (const id of ch.call_ids) out.set(id, ch);
  return out;
}

/**
 * The API's reason without its verdict prefix ("First-call success: …", "Not a first-call
 * success: …"): the row shows the verdict as a mark, the sentence says why.
 */
export function reasonText(reason: string): string {
  return reason.replace(/^(Not a first-call success|First-call success):\s*/, '');
}

export const isUnhashable = (c: Pick<CallView, 'args_hash'>): boolean =>
  c.args_hash === '000000000000';
