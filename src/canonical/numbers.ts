/**
 * How each language writes a double. Every one of them (Java aside, see below) prints the same
 * shortest round-trip digits as ECMAScript — they differ only in layout: when to switch to an
 * exponent, how to write it, and whether an integral double keeps `.0`. So a number is split
 * once into digits and a decimal-point position, and each language lays them out its own way.
 *
 * The thresholds below are measured against the real encoders where this machine has them
 * (Python, Go, Ruby, PHP, Java) and taken from the runtime's documented source otherwise.
 */

/** `value = ±0.d₁d₂…dₙ × 10^point`, digits without leading or trailing zeros ("0" for zero). */
export interface Decimal {
  negative: boolean;
  digits: string;
  point: number;
}

/** Splits a finite double into its shortest round-trip digits (ECMAScript's) and exponent. */
export function decompose(value: number): Decimal {
  const negative = value < 0 || Object.is(value, -0);
  if (value === 0) return { negative, digits: '0', point: 1 };
  let decimal = recent.get(value);
  if (decimal === undefined) {
    // toExponential() with no argument gives exactly the shortest round-trip digits.
    const [mantissa, exponent] = Math.abs(value).toExponential().split('e') as [string, string];
    decimal = { negative, digits: mantissa.replace('.', ''), point: Number(exponent) + 1 };
    if (recent.size >= 4096) recent.clear();
    recent.set(value, decimal);
  }
  return decimal;
}

/** Six languages format each number of an input in turn: split it once. */
const recent = new Map<number, Decimal>();

/** The digits as a plain decimal; `fraction` adds `.0` to an integral value. */
export function fixed({ digits, point }: Decimal, fraction: boolean): string {
  if (point <= 0) return '0.' + '0'.repeat(-point) + digits;
  if (point >= digits.length)
    return digits + '0'.repeat(point - digits.length) + (fraction ? '.0' : '');
  return digits.slice(0, point) + '.' + digits.slice(point);
}

interface ExponentStyle {
  /** The exponent letter. */
  e: 'e' | 'E';
  /** Write `+` before a positive exponent. */
  plus: boolean;
  /** Pad the exponent to at least this many digits. */
  pad: number;
  /** Write `1.0e…` rather than `1e…` for a single digit. */
  fraction: boolean;
}

/** The digits in scientific notation, `d.ddd` + exponent, in the given style. */
export function scientific({ digits, point }: Decimal, style: ExponentStyle): string {
  const mantissa =
    digits.length > 1 ? digits[0] + '.' + digits.slice(1) : style.fraction ? digits + '.0' : digits;
  const exponent = point - 1;
  const sign = exponent < 0 ? '-' : style.plus ? '+' : '';
  return mantissa + style.e + sign + String(Math.abs(exponent)).padStart(style.pad, '0');
}

const sign = (d: Decimal, text: string) => (d.negative ? '-' + text : text);

/**
 * A double as each runtime writes it. `point` is the dtoa decimal-point position, so "plain
 * when -4 < point <= 15" reads directly as the runtime's own threshold.
 */
export const DOUBLE_FORMATS = {
  /** ECMAScript Number::toString, i.e. RFC 8785: plain for 1e-6 ≤ |x| < 1e21. */
  ecmascript: (x: number) => String(x),
  /** Python `repr(float)`: plain for 1e-4 ≤ |x| < 1e16, always with a fraction; `1e-07`. */
  python: (x: number) => {
    const d = decompose(x);
    const plain = d.point > -4 && d.point <= 16;
    return sign(
      d,
      plain ? fixed(d, true) : scientific(d, { e: 'e', plus: true, pad: 2, fraction: false }),
    );
  },
  /** Go `encoding/json`: ECMAScript's layout, except that -0 keeps its sign. */
  go: (x: number) => (Object.is(x, -0) ? '-0' : String(x)),
  /**
   * Ruby `Float#to_s`: plain for 1e-4 ≤ |x| < 1e15 — and up to 1e16 when all 17 digits are
   * needed (`2068220303802674.5`, but `1.234567890123456e+15`) — always `.0`; `1.0e-07`.
   */
  ruby: (x: number) => {
    const d = decompose(x);
    const plain = d.point > -4 && (d.point <= 15 || (d.point === 16 && d.digits.length > 16));
    return sign(
      d,
      plain ? fixed(d, true) : scientific(d, { e: 'e', plus: true, pad: 2, fraction: true }),
    );
  },
  /** PHP `json_encode` (serialize_precision -1): plain for 1e-4 ≤ |x| < 1e17, no `.0`; `1.0e-7`. */
  php: (x: number) => {
    const d = decompose(x);
    const plain = d.point >= -3 && d.point <= 17;
    return sign(
      d,
      plain ? fixed(d, false) : scientific(d, { e: 'e', plus: true, pad: 1, fraction: true }),
    );
  },
  /**
   * Java `Double.toString` (JDK 19+): plain for 1e-3 ≤ |x| < 1e7, always with a fraction;
   * `1.0E-7`, `1.0E21`. When the shortest digits are a single one, Java writes the closest
   * two-digit decimal instead (`4.9E-324`, not `5e-324`). JDK ≤ 18 sometimes wrote longer
   * digits than needed (JDK-4511638: `1e23` as `9.999999999999999E22`); not modelled.
   */
  java: (x: number) => {
    const d = decompose(x);
    if (d.point >= -2 && d.point <= 7) return sign(d, fixed(d, true));
    // Java never prints a one-digit significand: it takes the closest two-digit decimal, which
    // toExponential(1) rounds to (4.9E-324 for 5e-324; 1.0E21 for 1e21).
    let two = d;
    if (d.digits.length === 1 && x !== 0) {
      const [mantissa, exponent] = Math.abs(x).toExponential(1).split('e') as [string, string];
      two = { ...d, digits: mantissa.replace('.', ''), point: Number(exponent) + 1 };
    }
    return sign(d, scientific(two, { e: 'E', plus: false, pad: 1, fraction: true }));
  },
  /** .NET `double.ToString("R")` (Core 3.0+): plain for 1e-5 < |x| < 1e15, no `.0`; `1E+21`, `1E-07`. */
  dotnet: (x: number) => {
    const d = decompose(x);
    const plain = d.point >= -3 && d.point <= 15;
    return sign(
      d,
      plain ? fixed(d, false) : scientific(d, { e: 'E', plus: true, pad: 2, fraction: false }),
    );
  },
  /** Rust `serde_json` (ryu): plain for 1e-5 ≤ |x| < 1e16, always `.0`; `1e21`, `1e-7`. */
  rust: (x: number) => {
    const d = decompose(x);
    const plain = d.point > -5 && d.point <= 16;
    return sign(
      d,
      plain ? fixed(d, true) : scientific(d, { e: 'e', plus: false, pad: 1, fraction: false }),
    );
  },
} as const;

/** Exact integer text of an integer lexeme (`-0` is just 0 for an integer type). */
export function exactInteger(lexeme: string): string {
  return lexeme === '-0' ? '0' : lexeme;
}

/** Whether an integer lexeme fits a signed 64-bit integer. */
export function fitsInt64(lexeme: string): boolean {
  const n = BigInt(lexeme);
  return n >= -(2n ** 63n) && n < 2n ** 63n;
}

/** Whether an integer lexeme fits a signed or an unsigned 64-bit integer (Rust's i64/u64). */
export function fitsInt64OrUint64(lexeme: string): boolean {
  const n = BigInt(lexeme);
  return n >= -(2n ** 63n) && n < 2n ** 64n;
}
