// The characters that text from elsewhere (a server's menu, a file name, a header, a URL) must not
// carry into what locator shows, whatever shows it: a terminal (the CLI) or a web page (the
// gateway). RFC 1738 2.2: "the octets 00-1F and 7F hexadecimal represent control characters;
// these must be encoded". The C1 controls (80-9F) act on terminals as C0 ones do, and the
// bidirectional formatting characters reorder what is shown around them (U+202E shows the name
// "invoice\u202Efdp.exe" as "invoiceexe.pdf"; Unicode UAX #9 2.1-2.2). The other format
// characters (general category Cf) are invisible: a zero width space, joiner or no-break
// (U+200B-200D, U+2060), a byte order mark (U+FEFF), a soft hyphen (U+00AD), interlinear
// annotation (U+FFF9-FFFB), the tag characters (U+E0000-E007F) make two different names look the
// same, or hide text. Browser-safe, no dependency: both the CLI and the gateway can use it
// (docs/layering.md: an operation).

/**
 * The unsafe characters: C0 controls, DEL and C1 controls, the bidirectional formatting
 * characters (UAX #9 2.1-2.2: ALM U+061C, LRM and RLM U+200E-200F, LRE RLE PDF LRO RLO
 * U+202A-202E, LRI RLI FSI PDI U+2066-2069), the whole tag block (U+E0000-E007F, unassigned code
 * points included), and every character of general category Cf (The Unicode Standard 4.5),
 * whatever the Unicode version of the runtime lists there.
 *
 * All but the C0 controls, as the source of a RegExp character class for the
 * `u` flag (astral code points are one match, never half a surrogate pair): for patterns that
 * keep some C0 controls (the CLI keeps LF), built as `new RegExp(`[...${UNSAFE_BEYOND_C0}]`, 'gu')`.
 */
export const UNSAFE_BEYOND_C0 = String.raw`\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u{e0000}-\u{e007f}\p{Cf}`;

/**
 * One unsafe character (UNSAFE_BEYOND_C0 and C0; RFC 1738 2.2, UAX #9 2.1-2.2), for
 * `String.replace` (global: not for `test`, whose lastIndex it would keep). An astral character
 * is one match (the `u` flag).
 */
export const UNSAFE_TEXT = new RegExp(`[\\x00-\\x1f${UNSAFE_BEYOND_C0}]`, 'gu');

/** The same but TAB, LF and CR, for text whose lines and tabs are kept (a page's `<pre>`). */
export const UNSAFE_TEXT_BUT_BREAKS = new RegExp(`[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f${UNSAFE_BEYOND_C0}]`, 'gu');

/** The name of a character as Unicode writes it, "U+202E", "U+E0041" (The Unicode Standard, Appendix A). */
export function codePointName(ch: string): string {
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}
