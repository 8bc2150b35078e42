/**
 * Whether an SDK's host parser refuses a request before the SDK sees a call — so nothing is
 * sent, not a 000000000000 hash. Ruby's JSON.parse is the case that needs care: it refuses a
 * lone *high* surrogate ("incomplete surrogate pair") but accepts a lone *low* one as three bytes
 * that are not UTF-8, and only the SDK's canonical writer then fails on them (`char.ord` raises,
 * `Hashing.args_hash` rescues it as 000000000000) — measured with json 2.6.1.
 */
import type { JsonNode } from '../ast.js';
import type { SdkModel } from './catalogue.js';

/** Why nothing is sent where only a lone high surrogate is refused by the parser (Ruby). */
export const HIGH_SURROGATE_REFUSAL =
  'not sent: JSON.parse refuses a lone high surrogate ("incomplete surrogate pair"), so the request never parses and no call is recorded';

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Whether `text` holds a high surrogate with no low surrogate after it. */
export function hasLoneHighSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isHigh(c)) continue;
    if (!isLow(text.charCodeAt(i + 1))) return true;
    i++;
  }
  return false;
}

/** Whether any string of `ast`, key or value, holds a lone high surrogate (walked without recursion). */
export function astHasLoneHighSurrogate(ast: JsonNode): boolean {
  const stack: JsonNode[] = [ast];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'string') {
      if (hasLoneHighSurrogate(node.value)) return true;
    } else if (node.kind === 'array') stack.push(...node.items);
    else if (node.kind === 'object')
      for (const member of node.members) {
        if (hasLoneHighSurrogate(member.key.value)) return true;
        stack.push(member.value);
      }
  }
  return false;
}

/**
 * Whether `model`'s host parser refuses a text with a lone surrogate; `loneHigh` says whether
 * one of them is a high surrogate (the only kind Ruby's parser refuses).
 */
export function parserRefusesLoneSurrogate(
  refused: SdkModel['refusedByParser'],
  loneHigh: boolean,
): boolean {
  return (
    !!refused?.includes('lone-surrogate') ||
    (loneHigh && !!refused?.includes('lone-high-surrogate'))
  );
}
