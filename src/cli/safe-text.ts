// Text that is safe to show on a terminal. A URL, a file name or a server's reply may hold
// control characters (an ESC starts a terminal command: "\x1b]0;title\x07" retitles the window,
// "\x1b[2J" clears it) or bidirectional overrides (U+202E shows "moc.evil" for "live.com"). RFC
// 1738 2.2: "the octets 00-1F and 7F hexadecimal represent control characters; these must be
// encoded", so a URL written as the RFC asks holds none of them. What locator shows of them is an
// escape, never the character itself: in text output always (not only on a terminal: the same
// bytes whatever the output, and testable), and in JSON output as the \uXXXX escape JSON already
// allows, so that a terminal showing the JSON is safe too. fetch's data is never altered.
import type { Writable } from 'node:stream';
import { nodeModule } from './node-modules.js';
import { StringDecoder } from 'node:string_decoder';
import { UNSAFE_BEYOND_C0 } from '../operations/unsafe-text.js';

/**
 * The characters shown escaped, the set of src/operations/unsafe-text.ts (the gateway's too): C0 controls
 * (but LF, which ends the lines of the output), DEL, C1 controls, the bidirectional formatting
 * characters and every other format character (general category Cf: zero width spaces and
 * joiners, U+FEFF, the soft hyphen, the tag characters U+E0000-E007F ...).
 */
const UNSAFE = new RegExp(`[\\x00-\\x09\\x0b-\\x1f${UNSAFE_BEYOND_C0}]`, 'gu');
/** The same, LF included: for a single value, which has no line structure of its own. */
const UNSAFE_ALL = new RegExp(`[\\x00-\\x1f${UNSAFE_BEYOND_C0}]`, 'gu');
// Speed: a `u` pattern with \p{Cf} costs about 6x a plain class per line, and nearly every line
// is printable ASCII: these plain classes (a control, or anything past ASCII) let such a line
// through at once, and only the others are read by the exact patterns above.
const MAYBE = /[\x00-\x09\x0b-\x1f\x7f-\uffff]/;
const MAYBE_ALL = /[\x00-\x1f\x7f-\uffff]/;

function hex(c: number, width: number): string {
  return c.toString(16).padStart(width, '0');
}

/**
 * `\xHH` for a control character (C0, DEL, C1), `\uHHHH` for a format character of the BMP,
 * `\u{HHHHH}` for one past it (a tag character: one escape for the one character, as in JavaScript).
 */
function textEscape(ch: string): string {
  const c = ch.codePointAt(0) ?? 0;
  return c <= 0x9f ? `\\x${hex(c, 2)}` : c <= 0xffff ? `\\u${hex(c, 4)}` : `\\u{${hex(c, 5)}}`;
}

/**
 * `\uHHHH`, valid inside a JSON string and read back as the same character; a character past the
 * BMP as its surrogate pair, `\udb40\udc41` (RFC 8259 7).
 */
function jsonEscape(ch: string): string {
  const first = `\\u${hex(ch.charCodeAt(0), 4)}`;
  return ch.length === 1 ? first : `${first}\\u${hex(ch.charCodeAt(1), 4)}`;
}

/**
 * `text` with every control character (C0 but LF, DEL, C1) shown as `\xHH` and every format
 * character as `\uHHHH` or `\u{HHHHH}` (RFC 1738 2.2: control characters must be encoded), for the lines
 * of a command's text output. `lineBreaks: false` escapes LF too (a single value).
 */
export function safeText(text: string, lineBreaks = true): string {
  if (!(lineBreaks ? MAYBE : MAYBE_ALL).test(text)) return text;
  const re = lineBreaks ? UNSAFE : UNSAFE_ALL;
  re.lastIndex = 0;
  if (!re.test(text)) return text;
  re.lastIndex = 0;
  return text.replace(re, textEscape);
}

/**
 * NDJSON text (JSON.stringify output, one value a line) with the characters JSON leaves raw that
 * a terminal would act on or not show (DEL, C1, format characters) written as `\uHHHH` escapes: the same JSON
 * values, read back unchanged (RFC 8259 7). Such characters only occur inside JSON strings.
 */
export function safeJson(text: string): string {
  if (!MAYBE.test(text)) return text;
  UNSAFE.lastIndex = 0;
  if (!UNSAFE.test(text)) return text;
  UNSAFE.lastIndex = 0;
  return text.replace(UNSAFE, jsonEscape);
}

/**
 * A text stream that writes to `out` what is written to it through safeText(), or safeJson()
 * for NDJSON output (RFC 1738 2.2). Each write is a whole line or message, so no character is
 * split. Every command's standard output and error go through one (main.ts), except fetch's data.
 */
export function escaping(out: Writable, json: boolean): Writable {
  // Bytes are decoded as a stream: a UTF-8 sequence cut between two chunks is joined, not
  // replaced by U+FFFD in each (chunk.toString() would).
  const decoder = new StringDecoder('utf8');
  const escape = escaper(json);
  const { Transform } = nodeModule<typeof import('node:stream')>('node:stream');
  const t = new Transform({
    decodeStrings: false,
    transform(chunk: Buffer | string, _enc, done) {
      const s = typeof chunk === 'string' ? chunk : decoder.write(chunk);
      done(null, s === '' ? undefined : escape(s));
    },
    flush(done) {
      const rest = decoder.end();
      done(null, rest === '' ? undefined : escape(rest));
    },
  });
  t.pipe(out);
  ESCAPING.set(t, { out, json });
  return t;
}

/** What an escaping() stream does to its text: safeJson(), or safeText() keeping line breaks. */
export function escaper(json: boolean): (text: string) => string {
  return json ? safeJson : (text) => safeText(text);
}

const ESCAPING = new WeakMap<Writable, { out: Writable; json: boolean }>();

/**
 * The stream an escaping() stream writes to, and whether it escapes as safeJson() (else as
 * safeText()); null for any other stream. Batch workers (batch.ts) escape their own output with
 * the same function, line by line, and write past the escaping stream: the escapes are of single
 * characters, so where the text is cut makes no difference.
 */
export function escapingTarget(s: Writable): { out: Writable; json: boolean } | null {
  return ESCAPING.get(s) ?? null;
}

/** A line of a protocol exchange as -v shows it, as curl marks them: "> " sent, "< " received, "* " a note. */
export function transcriptLine(direction: string, text: string): string {
  return `${direction === 'send' ? '> ' : direction === 'receive' ? '< ' : '* '}${text}\n`;
}
