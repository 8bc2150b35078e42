/**
 * Cutting a redacted body to its byte cap so that the cut never leaves half a marker or the
 * first part of a secret: the cut lands on a character boundary, an unclosed marker at the end
 * goes, and so does the run of token characters the cut ended in (it may be the start of a
 * value a rule would have matched whole — the cut body's tail is lost anyway).
 */

/** `text` cut to at most `cap` UTF-8 bytes, never inside a character. */
export function cutUtf8(text: string, cap: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= cap) return text;
  let end = cap;
  // Back off continuation bytes (10xxxxxx) so the cut lands on a character's first byte.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/** A marker's beginning at the end of a text, cut before its `]`. */
const OPEN_MARKER = /\[(?:r(?:e(?:d(?:a(?:c(?:t(?:e(?:d(?::(?: [a-z0-9:._-]*)?)?)?)?)?)?)?)?)?)?$/;
/** The token characters a secret is made of, at the end of a cut text (at most 1 KB looked at). */
const TOKEN_TAIL = /[A-Za-z0-9_\-+/=.~%:@]{1,1024}$/;

/** The end of a cut text made safe: no half marker, no partial token. */
export function trimCutTail(text: string): string {
  const open = OPEN_MARKER.exec(text);
  if (open) return text.slice(0, open.index);
  const tail = TOKEN_TAIL.exec(text);
  return tail ? text.slice(0, tail.index) : text;
}

/** `text` cut to `cap` bytes (see the file's comment); `cut` says whether it was. */
export function cutBody(text: string, cap: number): { text: string; cut: boolean } {
  if (Buffer.byteLength(text, 'utf8') <= cap) return { text, cut: false };
  return { text: trimCutTail(cutUtf8(text, cap)), cut: true };
}
