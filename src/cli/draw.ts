// The human view of `locator parse`: the URL with the offsets of each component drawn under it
// (in the manner of ada's CLI), then the fields and the violations, each pointing at its offset.
import type { Url } from '../core/url.js';
import type { Diagnostic } from '../core/errors.js';
import { redactedOffset, replaceSpans, urlPasswordSpans, type Span } from '../operations/redact.js';

const ORDER = ['scheme', 'user', 'password', 'host', 'port', 'path', 'schemePart', 'fragment'] as const;

/** Escapes control and non-ASCII characters so that columns line up (one column each). */
export function visible(s: string): string {
  let o = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    o += c < 32 || c === 127 ? '\u00b7' : c > 126 ? '\u00b7' : ch;
  }
  return o;
}

/**
 * The column of each UTF-16 offset of `s` (0 to s.length) when every code point takes one
 * column, as in visible(): one pass, so that pointing at n offsets costs O(length + n), not
 * O(length * n).
 */
export function columns(s: string): Int32Array {
  const col = new Int32Array(s.length + 1);
  let c = 0;
  for (let i = 0; i < s.length; i++) {
    col[i] = c;
    const u = s.charCodeAt(i);
    if (u >= 0xd800 && u <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) col[++i] = c;
    c++;
  }
  col[s.length] = c;
  return col;
}

/** Draws the spans of the record under its href. */
export function drawRecord(url: Url, input: string, hidePassword = false): string[] {
  const out: string[] = [];
  // The password shown as "****" whatever its length (RFC 1738 6): the marks are drawn at each
  // offset's place in the masked text, and name the offsets of the URL as parsed.
  const spans = hidePassword ? urlPasswordSpans(url) : [];
  const href = replaceSpans(url.href, spans);
  const shown = visible(href);
  const pad = '  ';
  out.push(pad + shown);
  const comps = url.components();
  const cols = columns(href);
  const at = (offset: number) => Math.min(redactedOffset(spans, Math.max(offset, 0)), href.length);
  for (const name of ORDER) {
    const span = comps[name];
    if (span === null) continue;
    if (name === 'schemePart' && comps.host !== null) continue;
    const a = cols[at(span[0])];
    const b = cols[at(span[1])];
    const bar = b > a ? '^'.repeat(b - a) : '|';
    const value = JSON.stringify(href.slice(at(span[0]), at(span[1])));
    out.push(
      `${pad}${' '.repeat(a)}${bar}${' '.repeat(Math.max(1, shown.length - a - bar.length + 2))}${name} ${span[0]}..${span[1]} ${value}`,
    );
  }
  if (input.length !== href.length)
    out.push(
      `${pad}(the input had ${url.inputOffset} character(s) of wrapper or prefix before the URL; offsets below count the input)`,
    );
  return out;
}

/**
 * One line per diagnostic, with a caret under the input. `spans` are the password spans that
 * `input` shows masked (replaceSpans()): a caret goes where its offset of the input as given
 * lands in the masked text; the line names the offset as given.
 */
export function drawDiagnostics(input: string, list: readonly Diagnostic[], spans: readonly Span[] = []): string[] {
  const out: string[] = [];
  if (list.length === 0) return out;
  const shown = visible(input);
  out.push('  ' + shown);
  const marks = new Array(shown.length + 1).fill(' ');
  const cols = columns(input);
  const colOf = (offset: number) => cols[Math.min(redactedOffset(spans, Math.max(offset, 0)), input.length)];
  for (const d of list) marks[Math.min(colOf(d.offset), shown.length)] = d.severity === 'error' ? '^' : '~';
  out.push('  ' + marks.join('').trimEnd());
  for (const d of list) {
    out.push(`  ${d.severity} ${d.code} at ${d.offset} (${d.section}): ${d.message}`);
  }
  return out;
}
