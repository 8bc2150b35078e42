/**
 * String escaping as each encoder does it, described as data (which characters get which
 * escape), so one loop writes every language and notes, character by character, where the
 * result parts from RFC 8785 and why.
 */
import { isPlain } from '../ast.js';
import type { TrapId } from './catalogue.js';
import { EncodeFailure, type TrapNotes } from './notes.js';

/** How one encoder escapes strings. */
export interface StringRules {
  /** Controls written as a two-character escape; the other C0 controls become `\u00XX`. */
  short: string;
  /** Hex digits in `\u` escapes are uppercase. */
  upperHex?: boolean;
  /** `"` is written `\u0022` rather than `\"`. */
  quoteAsHex?: boolean;
  /** `/` is written `\/`. */
  slash?: boolean;
  /** Other characters written as `\uXXXX`, by the trap each belongs to. */
  extra?: (code: number) => TrapId | undefined;
  /**
   * A lone surrogate is: written as a `\u` escape (`escape`, as the TypeScript SDK does),
   * turned into U+FFFD while parsing (`replace`), turned into `?` when the text is encoded to
   * UTF-8 (`question-mark`: Java's `String.getBytes(UTF_8)`), or the end of the road, while
   * parsing or while encoding to UTF-8 (`fail`).
   */
  loneSurrogate: 'escape' | 'replace' | 'question-mark' | 'fail';
  /** Why a lone surrogate fails, in this runtime's terms (with `fail`). */
  loneSurrogateFailure?: string;
}

const ALL_SHORT = '\b\t\n\f\r';
const SHORT_NAMES: Record<string, string> = {
  '\b': 'b',
  '\t': 't',
  '\n': 'n',
  '\f': 'f',
  '\r': 'r',
};

/** The canonical form itself (RFC 8785, lone surrogates as the TypeScript SDK writes them). */
export const CANONICAL_RULES: StringRules = { short: ALL_SHORT, loneSurrogate: 'escape' };

/** Whether a code unit is a surrogate; `isHigh` a leading one. */
const isSurrogate = (c: number) => c >= 0xd800 && c <= 0xdfff;
const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

function hex(code: number, upper = false): string {
  const digits = code.toString(16).padStart(4, '0');
  return '\\u' + (upper ? digits.toUpperCase() : digits);
}

/** How RFC 8785 writes one BMP code unit (surrogates aside). */
function canonicalUnit(c: number): string {
  if (c === 0x22) return '\\"';
  if (c === 0x5c) return '\\\\';
  if (c < 0x20) {
    const ch = String.fromCharCode(c);
    return ch in SHORT_NAMES ? '\\' + SHORT_NAMES[ch] : hex(c);
  }
  return String.fromCharCode(c);
}

/** How an encoder with `rules` writes one BMP code unit, and the trap if that differs. */
function unit(c: number, rules: StringRules): [string, TrapId | undefined] {
  if (c === 0x22)
    return rules.quoteAsHex ? [hex(c, rules.upperHex), 'quote-as-hex'] : ['\\"', undefined];
  if (c === 0x5c) return ['\\\\', undefined];
  if (c < 0x20) {
    const ch = String.fromCharCode(c);
    if (rules.short.includes(ch)) return ['\\' + SHORT_NAMES[ch], undefined];
    return [
      hex(c, rules.upperHex),
      ch in SHORT_NAMES ? 'hex-escapes-b-f' : rules.upperHex ? 'uppercase-hex' : undefined,
    ];
  }
  if (c === 0x2f && rules.slash) return ['\\/', 'escapes-slash'];
  const trap = rules.extra?.(c);
  if (trap !== undefined) return [hex(c, rules.upperHex), trap];
  return [String.fromCharCode(c), undefined];
}

/**
 * The string as parsed by an encoder's runtime: lone surrogates replaced or refused there.
 * @throws {EncodeFailure} when the runtime's parser refuses a lone surrogate.
 */
export function decodeAs(value: string, rules: StringRules, notes: TrapNotes): string {
  if (rules.loneSurrogate === 'escape' || isPlain(value)) return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (isHigh(c) && isLow(value.charCodeAt(i + 1))) {
      out += value.slice(i, ++i + 1);
    } else if (isSurrogate(c)) {
      if (rules.loneSurrogate === 'fail')
        throw new EncodeFailure(
          rules.loneSurrogateFailure ?? `a lone surrogate (${hex(c)}) cannot be parsed or encoded`,
          'lone-surrogate',
        );
      if (rules.loneSurrogate === 'question-mark') {
        notes.hit('lone-surrogate-question-mark', `${hex(c)} → ?`);
        out += '?';
      } else {
        notes.hit('lone-surrogate-replaced', `${hex(c)} → \\ufffd`);
        out += '\ufffd';
      }
    } else out += value[i];
  }
  return out;
}

/** `value` quoted and escaped per `rules`; notes each trap that made it differ from RFC 8785. */
export function quoteAs(value: string, rules: StringRules, notes: TrapNotes): string {
  if (isPlain(value)) return '"' + value + '"';
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (isSurrogate(c)) {
      const pair = isHigh(c) && isLow(value.charCodeAt(i + 1));
      const text = pair ? value.slice(i, i + 2) : value[i]!;
      if (pair) i++;
      if (!pair && rules.loneSurrogate !== 'escape')
        throw new EncodeFailure(
          rules.loneSurrogateFailure ?? `a lone surrogate (${hex(c)}) cannot be encoded as UTF-8`,
          'lone-surrogate',
        );
      // Escaped in lowercase, a lone surrogate is what the canonical form writes too: no trap.
      if (!pair && rules.upperHex) notes.hit('uppercase-hex', `${hex(c)} → ${hex(c, true)}`);
      // A lone surrogate here is escaped (the rule is `escape`); a pair only if `extra` says so.
      const escapeAs: TrapId | 'lone' | undefined = pair ? rules.extra?.(0x10000) : 'lone';
      if (escapeAs === undefined) {
        out += text;
        continue;
      }
      const escaped =
        hex(c, rules.upperHex) + (pair ? hex(text.charCodeAt(1), rules.upperHex) : '');
      if (escapeAs !== 'lone') notes.hit(escapeAs, `${text} → ${escaped}`);
      out += escaped;
      continue;
    }
    const [written, trap] = unit(c, rules);
    if (trap !== undefined && written !== canonicalUnit(c)) {
      notes.hit(trap, `${JSON.stringify(String.fromCharCode(c)).slice(1, -1) || ' '} → ${written}`);
    }
    out += written;
  }
  return out + '"';
}
