// Text that is safe to show on a terminal. A URL, a file name or a server's reply may hold
// control characters (an ESC starts a terminal command: "\x1b]0;title\x07" retitles the window,
// "\x1b[2J" clears it) or bidirectional overrides (U+202E shows "moc.evil" for "live.com"). RFC
// 1738 2.2: "the octets 00-1F and 7F hexadecimal represent control characters; these must be
// encoded", so a URL written as the RFC asks holds none of them. What locator shows of them is an
// escape, never the character itself: in text output always (not only on a terminal: the same
// bytes whatever the output, and testable), and in JSON output as the \uXXXX escape JSON already
// allows, so that a terminal showing the JSON is safe too. fetch's data is never altered.
import { Transform, type Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/**
 * The characters shown escaped: C0 controls (but LF, which ends the lines of the output), DEL,
 * C1 controls, and the bidirectional formatting characters (U+061C, U+200E-200F, U+202A-202E,
 * U+2066-2069).
 */
const UNSAFE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** The same, LF included: for a single value, which has no line structure of its own. */
const UNSAFE_ALL = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function hex(c: number, width: number): string {
  return c.toString(16).padStart(width, '0');
}

/** `\xHH` for a control character (C0, DEL, C1), `\uHHHH` for a bidi formatting character. */
function textEscape(ch: string): string {
  const c = ch.charCodeAt(0);
  return c <= 0x9f ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`;
}

/** `\uHHHH`, valid inside a JSON string and read back as the same character. */
function jsonEscape(ch: string): string {
  return `\\u${hex(ch.charCodeAt(0), 4)}`;
}

/**
 * `text` with every control character (C0 but LF, DEL, C1) shown as `\xHH` and every bidi
 * formatting character as `\uHHHH` (RFC 1738 2.2: control characters must be encoded), for the lines
 * of a command's text output. `lineBreaks: false` escapes LF too (a single value).
 */
export function safeText(text: string, lineBreaks = true): string {
  const re = lineBreaks ? UNSAFE : UNSAFE_ALL;
  re.lastIndex = 0;
  if (!re.test(text)) return text;
  re.lastIndex = 0;
  return text.replace(re, textEscape);
}

/**
 * NDJSON text (JSON.stringify output, one value a line) with the characters JSON leaves raw that
 * a terminal would act on (DEL, C1, bidi formatting) written as `\uHHHH` escapes: the same JSON
 * values, read back unchanged (RFC 8259 7). Such characters only occur inside JSON strings.
 */
export function safeJson(text: string): string {
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
