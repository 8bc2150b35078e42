/**
 * `started_at` → UTC epoch milliseconds.
 *
 * SDKs send 0–9 fraction digits and any offset (wire-format §2). `Date.parse` is not used: it
 * is implementation-defined past 3 fraction digits. Sub-millisecond digits are truncated, so
 * `…43.5449Z` and `…43.544Z` land on the same millisecond and arrival order breaks the tie.
 */
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

/** Returns epoch milliseconds, or `null` when the text is not an ISO 8601 instant with offset. */
export function parseTimestamp(text: string): number | null {
  const m = ISO.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac = '', , sign, oh = '0', om = '0'] = m;
  const ms = Number(frac.slice(0, 3).padEnd(3, '0'));
  const base = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  if (Number.isNaN(base)) return null;
  const offsetMin = sign ? (Number(oh) * 60 + Number(om)) * (sign === '-' ? -1 : 1) : 0;
  return base - offsetMin * 60_000;
}
