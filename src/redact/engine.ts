/**
 * The redaction engine: secrets in a JSON text (or any text) replaced by `[redacted: KIND]`
 * markers, by three kinds of rule — key names at any depth (their string values go whole),
 * secretlint's recommended preset, and the supplementary and user patterns of rules.ts. JSON
 * stays valid: only the insides of string literals change (re-encoded), never the shape.
 * Redacting twice is redacting once: nothing overlapping a marker is found again.
 */
import { marker, markersIn, NO_USER_RULES, type UserRedactionRules } from '../shared/redaction.js';
import { stringifyJson } from '../shared/deep-json.js';
import { DEFAULT_SECRET_KEYS } from '../shared/proxy-content.js';
import { encodePiece, piecesOf, type Piece } from './json-pieces.js';
import { checkUserKeys, compileUserPattern, SUPPLEMENTARY_RULES, type ValueRule } from './rules.js';
import { mayHoldPresetSecret, presetFindings, type Finding } from './secretlint.js';

/**
 * Keys the protocol itself uses that contain a secret-looking word but never hold a secret:
 * MCP's `_meta.progressToken` (a counter or id the client picks), redacting which would only
 * hide which progress notification belongs to which request.
 */
const PROTOCOL_KEYS = new Set(['progresstoken']);

/** What one text became. */
export interface Redacted {
  text: string;
  /** Values newly redacted, by kind (empty when nothing was). */
  found: Record<string, number>;
  /** Their total. */
  count: number;
}

/** JSON inside a string value is redacted as JSON up to this many levels down. */
const MAX_EMBEDDED = 3;
const EMBEDDED_JSON = /^\s*[[{][\s\S]*[\]}]\s*$/;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const SEPARATOR = '\n';

/** Finds and replaces secrets by the built-in rules plus one set of user rules. */
export class Redactor {
  private readonly keys: string[];
  private readonly keyHint: RegExp;
  private readonly rules: ValueRule[];

  /** Throws a RuleError for a user rule that cannot be used (a bad regex, an empty key). */
  constructor(user: UserRedactionRules = NO_USER_RULES) {
    const all = new Set<string>([...DEFAULT_SECRET_KEYS, ...checkUserKeys(user.keys)]);
    this.keys = [...all];
    // A protocol key that ends in a secret word (`progressToken`) is no hint: every progress
    // notification would be walked for nothing.
    const hint = (k: string) =>
      [...PROTOCOL_KEYS]
        .filter((p) => p.endsWith(k) && p !== k)
        .map((p) => `(?<!${escapeRe(p.slice(0, -k.length))})`)
        .join('') + escapeRe(k);
    this.keyHint = new RegExp(this.keys.map(hint).join('|'), 'i');
    this.rules = [...SUPPLEMENTARY_RULES, ...user.patterns.map(compileUserPattern)];
  }

  /** Whether a key's string value is redacted whole. */
  isSecretKey(key: string): boolean {
    const lower = key.toLowerCase();
    if (PROTOCOL_KEYS.has(lower)) return false;
    return this.keys.some((k) => lower.includes(k));
  }

  /**
   * Whether `text` may hold anything to redact (cheap, synchronous): no key hint, no rule
   * match, no preset hint, and no escape that could hide one — then nothing is walked or copied.
   */
  mayHold(text: string): boolean {
    if (text.includes('\\u') || text.includes('\\/')) return true;
    if (this.keyHint.test(text) || mayHoldPresetSecret(text)) return true;
    return this.rules.some((r) => {
      r.pattern.lastIndex = 0;
      return r.pattern.test(text);
    });
  }

  /** A JSON text (whole, cut, or not JSON at all) with its secrets replaced. */
  async redactJson(text: string): Promise<Redacted> {
    return this.json(text, 0);
  }

  private json(text: string, depth: number): Promise<Redacted> | Redacted {
    if (!this.mayHold(text)) return { text, found: {}, count: 0 };
    return this.redactPieces(text, piecesOf(text), false, depth);
  }

  /** Plain text (an error message, instructions) with its secrets replaced. */
  async redactText(text: string): Promise<Redacted> {
    if (!this.mayHold(text)) return { text, found: {}, count: 0 };
    const piece: Piece = {
      start: 0,
      end: text.length,
      literal: false,
      closed: true,
      value: text,
      isKey: false,
      keyOf: null,
    };
    return this.redactPieces(text, [piece], true, 0);
  }

  /** A parsed JSON value with its secrets replaced (through its text, so the same rules). */
  async redactValue<T>(value: T): Promise<{ value: T; count: number }> {
    if (value === null || value === undefined) return { value, count: 0 };
    let text: string;
    try {
      // Written without recursion: a hostile 10,000-deep value is redacted, not a stack overflow.
      text = stringifyJson(value);
    } catch {
      // Not JSON at all (a cycle): nothing here can store it either; leave it as is.
      return { value, count: 0 };
    }
    const r = await this.redactJson(text);
    return { value: r.count === 0 ? value : (JSON.parse(r.text) as T), count: r.count };
  }

  /**
   * `plain`: the text is not JSON, so markers go in as they are. `depth`: how many JSON texts
   * inside string values this one is nested in.
   */
  private async redactPieces(
    text: string,
    pieces: Piece[],
    plain: boolean,
    depth: number,
  ): Promise<Redacted> {
    const found: Record<string, number> = {};
    const replaced = new Map<Piece, Finding[]>();
    const rewritten = new Map<Piece, Redacted>();
    const scanned: Piece[] = [];
    for (const p of pieces) {
      if (p.keyOf !== null && this.isSecretKey(p.keyOf) && !isMarker(p.value)) {
        if (p.value !== '') replaced.set(p, [{ start: 0, end: p.value.length, kind: 'key-name' }]);
      } else if (p.literal && !p.isKey && depth < MAX_EMBEDDED && EMBEDDED_JSON.test(p.value)) {
        // JSON inside a string (a tool's text answer, `get-env`'s environment): its key names
        // count too, so it is redacted as JSON of its own.
        const inner = await this.json(p.value, depth + 1);
        if (inner.count > 0) rewritten.set(p, inner);
      } else scanned.push(p);
    }
    // The rules run once over every other piece's text, joined, and their ranges are mapped
    // back to the pieces (a range across two pieces redacts its part of each).
    const joined = scanned.map((p) => p.value).join(SEPARATOR);
    const findings = this.findSync(joined);
    if (mayHoldPresetSecret(joined)) findings.push(...(await presetFindings(joined)));
    if (findings.length > 0) {
      const shielded = markersIn(joined);
      let offset = 0;
      for (const p of scanned) {
        const from = offset;
        const to = offset + p.value.length;
        offset = to + SEPARATOR.length;
        const local: Finding[] = [];
        for (const f of findings) {
          if (f.end <= from || f.start >= to) continue;
          if (shielded.some((m) => f.start < m.end && m.start < f.end)) continue;
          local.push({
            start: Math.max(f.start, from) - from,
            end: Math.min(f.end, to) - from,
            kind: f.kind,
          });
        }
        // In raw JSON (between literals) a match widens to its whole bare token, so a number a
        // user pattern matched becomes one string, and the JSON stays valid.
        if (local.length > 0)
          replaced.set(p, merge(p.literal || plain ? local : widen(local, p.value)));
      }
    }
    if (replaced.size === 0 && rewritten.size === 0) return { text, found, count: 0 };
    let out = '';
    let at = 0;
    let count = 0;
    for (const p of pieces) {
      const inner = rewritten.get(p);
      if (inner) {
        for (const [kind, n] of Object.entries(inner.found)) found[kind] = (found[kind] ?? 0) + n;
        count += inner.count;
        out += text.slice(at, p.start) + encodePiece(p, inner.text);
        at = p.end;
        continue;
      }
      const ranges = replaced.get(p);
      if (!ranges) continue;
      let value = '';
      let last = 0;
      for (const r of ranges) {
        value += p.value.slice(last, r.start) + marker(r.kind);
        last = r.end;
        found[r.kind] = (found[r.kind] ?? 0) + 1;
        count++;
      }
      value += p.value.slice(last);
      // Raw text (not inside a literal) gets its marker as a string, so a redacted bare token
      // (a number a user pattern matched) leaves valid JSON.
      const encoded = p.literal
        ? encodePiece(p, value)
        : plain
          ? value
          : quoteMarkers(p.value, ranges);
      out += text.slice(at, p.start) + encoded;
      at = p.end;
    }
    out += text.slice(at);
    return { text: out, found, count };
  }

  /** The supplementary and user rules' ranges in `text`. */
  private findSync(text: string): Finding[] {
    const out: Finding[] = [];
    for (const rule of this.rules) {
      rule.pattern.lastIndex = 0;
      for (const m of text.matchAll(rule.pattern)) {
        if (m[0] === '') continue;
        const secret = m.groups?.secret;
        const start = secret === undefined ? m.index : m.index + m[0].lastIndexOf(secret);
        const end = start + (secret ?? m[0]).length;
        if (end > start) out.push({ start, end, kind: rule.kind });
      }
    }
    return out;
  }
}

/** Whether `value` is exactly one marker (a value redacted before, by key). */
const isMarker = (value: string): boolean => {
  const m = markersIn(value);
  return m.length === 1 && m[0]!.start === 0 && m[0]!.end === value.length;
};

/** Ranges sorted and overlapping ones joined (the first's kind wins). */
function merge(ranges: Finding[]): Finding[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Finding[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start < last.end) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

const BARE = /[0-9A-Za-z+\-.]/;

/** Ranges widened to the bare JSON tokens (numbers, literals) they touch. */
function widen(ranges: Finding[], text: string): Finding[] {
  return ranges.map((r) => {
    let { start, end } = r;
    while (start > 0 && BARE.test(text[start - 1]!)) start--;
    while (end < text.length && BARE.test(text[end]!)) end++;
    return { ...r, start, end };
  });
}

/** Raw text with its new markers wrapped in quotes. */
function quoteMarkers(original: string, ranges: Finding[]): string {
  let out = '';
  let last = 0;
  for (const r of ranges) {
    out += original.slice(last, r.start) + JSON.stringify(marker(r.kind));
    last = r.end;
  }
  return out + original.slice(last);
}
