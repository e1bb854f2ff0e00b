// The human view of `locator parse`: the URL with the offsets of each component drawn under it
// (in the manner of ada's CLI), then the fields and the violations, each pointing at its offset.
import type { Url } from '../core/url.js';
import type { Diagnostic } from '../core/errors.js';
import { starSpans, urlPasswordSpans } from '../redact.js';

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

/** Draws the spans of the record under its href. */
export function drawRecord(url: Url, input: string, hidePassword = false): string[] {
  const out: string[] = [];
  const href = hidePassword ? starSpans(url.href, urlPasswordSpans(url)) : url.href;
  const shown = visible(href);
  const pad = '  ';
  out.push(pad + shown);
  const comps = url.components();
  const colOf = (offset: number) => [...url.href.slice(0, offset)].length;
  for (const name of ORDER) {
    const span = comps[name];
    if (span === null) continue;
    if (name === 'schemePart' && comps.host !== null) continue;
    const a = colOf(span[0]);
    const b = colOf(span[1]);
    const bar = b > a ? '^'.repeat(b - a) : '|';
    const value = JSON.stringify(href.slice(span[0], span[1]));
    out.push(`${pad}${' '.repeat(a)}${bar}${' '.repeat(Math.max(1, shown.length - a - bar.length + 2))}${name} ${span[0]}..${span[1]} ${value}`);
  }
  if (input.length !== url.href.length) out.push(`${pad}(the input had ${url.inputOffset} character(s) of wrapper or prefix before the URL; offsets below count the input)`);
  return out;
}

/** One line per diagnostic, with a caret under the input. */
export function drawDiagnostics(input: string, list: readonly Diagnostic[]): string[] {
  const out: string[] = [];
  if (list.length === 0) return out;
  const shown = visible(input);
  out.push('  ' + shown);
  const marks = new Array(shown.length + 1).fill(' ');
  const colOf = (offset: number) => [...input.slice(0, offset)].length;
  for (const d of list) marks[Math.min(colOf(d.offset), shown.length)] = d.severity === 'error' ? '^' : '~';
  out.push('  ' + marks.join('').trimEnd());
  for (const d of list) {
    out.push(`  ${d.severity} ${d.code} at ${d.offset} (${d.section}): ${d.message}`);
  }
  return out;
}
