/**
 * Size fields on the wire (`response_bytes`, `schema_bytes`) count UTF-16 code units of the
 * compact JSON, which is what JavaScript's `.length` already measures: `"café"` is 4, an emoji
 * is 2. Spelled out here so every caller counts the same way, and so the browser can too.
 */

/** UTF-16 code units in `text` (`"café"` = 4, `"🚀"` = 2). */
export function utf16Length(text: string): number {
  return text.length;
}

/** Bytes `text` takes as UTF-8 (a lone surrogate counts as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && isLow(text.charCodeAt(i + 1))) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
