// The characters that text from elsewhere (a server's menu, a file name, a header, a URL) must not
// carry into what locator shows, whatever shows it: a terminal (the CLI) or a web page (the
// gateway). RFC 1738 2.2: "the octets 00-1F and 7F hexadecimal represent control characters;
// these must be encoded". The C1 controls (80-9F) act on terminals as C0 ones do, and the
// bidirectional formatting characters reorder what is shown around them (U+202E shows the name
// "invoice\u202Efdp.exe" as "invoiceexe.pdf"; Unicode UAX #9 2.1-2.2). Browser-safe, no
// dependency: both the CLI and the gateway can use it (docs/layering.md: an operation).

/**
 * The unsafe code points, as inclusive ranges: C0 controls, DEL and C1 controls, and the
 * bidirectional formatting characters (UAX #9 2.1-2.2: ALM U+061C, LRM and RLM U+200E-200F,
 * LRE RLE PDF LRO RLO U+202A-202E, LRI RLI FSI PDI U+2066-2069).
 */
export const UNSAFE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x00, 0x1f],
  [0x7f, 0x9f],
  [0x061c, 0x061c],
  [0x200e, 0x200f],
  [0x202a, 0x202e],
  [0x2066, 0x2069],
];

/** True for a code point of UNSAFE_RANGES (RFC 1738 2.2; UAX #9 2.1-2.2). */
export function isUnsafeCodePoint(c: number): boolean {
  for (const [lo, hi] of UNSAFE_RANGES) if (c >= lo && c <= hi) return true;
  return false;
}

/**
 * One unsafe character (UNSAFE_RANGES; RFC 1738 2.2, UAX #9 2.1-2.2), for `String.replace`
 * (global: not for `test`, whose lastIndex it would keep).
 */
export const UNSAFE_TEXT = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The same but TAB, LF and CR, for text whose lines and tabs are kept (a page's `<pre>`). */
export const UNSAFE_TEXT_BUT_BREAKS =
  /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The name of a character as Unicode writes it, "U+202E" (The Unicode Standard, Appendix A). */
export function codePointName(ch: string): string {
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}
