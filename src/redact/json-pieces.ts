/**
 * A JSON text as the pieces redaction works on: its string literals (decoded, with the key
 * they are the value of) and the raw text between them. One loop, no recursion and no
 * JSON.parse of the whole, so any depth and any size go through, and so does broken or cut
 * JSON (a truncated body ends inside a string, an imported body may not be JSON at all):
 * everything is a piece, so nothing escapes the rules.
 */

/** One piece of the text. */
export interface Piece {
  /** Where it is in the original text ([start, end)). */
  start: number;
  end: number;
  /** A string literal (decoded in `value`), or raw text between literals (`value` = as is). */
  literal: boolean;
  /** A literal closed by its quote (a cut body's last literal may not be). */
  closed: boolean;
  /** Its text as the rules see it: a literal decoded, raw text as is. */
  value: string;
  /** For a literal: it is an object key. */
  isKey: boolean;
  /** For a literal that is the value right after `"key":` — that key (decoded); else null. */
  keyOf: string | null;
}

/** The decoded text of a literal's inside, tolerating a cut one (a dangling escape is dropped). */
function decode(inside: string, closed: boolean): string {
  let body = inside;
  if (!closed) body = body.replace(/\\(?:u[0-9a-fA-F]{0,3})?$/, '');
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    // Not a valid literal (raw control characters, a bad escape): the rules read it as it is.
    return body;
  }
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The pieces of `text`, covering it whole and in order. */
export function piecesOf(text: string): Piece[] {
  const pieces: Piece[] = [];
  let rawStart = 0;
  // The key whose value comes next (`"key":` just seen), and the literal before, if a key.
  let pendingKey: string | null = null;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c !== 0x22) {
      // Any token other than a string ends a pending key's chance of a string value.
      if (!isSpace(c) && c !== 0x3a) pendingKey = null;
      i++;
      continue;
    }
    if (i > rawStart) pieces.push(raw(text, rawStart, i));
    const start = i;
    i++;
    while (i < n) {
      const d = text.charCodeAt(i);
      if (d === 0x5c) i += 2;
      else if (d === 0x22) break;
      else i++;
    }
    const closed = i < n;
    const end = closed ? i + 1 : n;
    const value = decode(text.slice(start + 1, closed ? i : n), closed);
    let j = end;
    while (j < n && isSpace(text.charCodeAt(j))) j++;
    const isKey = j < n && text.charCodeAt(j) === 0x3a;
    pieces.push({
      start,
      end,
      literal: true,
      closed,
      value,
      isKey,
      keyOf: isKey ? null : pendingKey,
    });
    pendingKey = isKey ? value : null;
    i = end;
    rawStart = end;
  }
  if (rawStart < n) pieces.push(raw(text, rawStart, n));
  return pieces;
}

function raw(text: string, start: number, end: number): Piece {
  const value = text.slice(start, end);
  return { start, end, literal: false, closed: true, value, isKey: false, keyOf: null };
}

/** A piece's new text: a literal re-encoded (left open if it was cut), raw text as given. */
export function encodePiece(piece: Piece, value: string): string {
  if (!piece.literal) return value;
  const encoded = JSON.stringify(value);
  return piece.closed ? encoded : encoded.slice(0, -1);
}
