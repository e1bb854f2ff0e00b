// JSON text for the batch rows, written by code that knows each row's shape (parse.ts,
// normalize.ts) instead of JSON.stringify() of a record and a pass of safeJson() over the line:
// the same bytes (test/cli/rows.test.ts compares both over the corpora and hostile lines), in
// about a third of the time, because a string of printable ASCII (nearly every value of nearly
// every row) is quoted as it is, and no line is scanned a second time.
import { safeJson } from './safe-text.js';

/**
 * Anything in a string that JSON.stringify() escapes ('"', backslash, C0 controls, lone
 * surrogates) or that safeJson() escapes (DEL, C1, format characters), and more (every
 * character past ASCII): a string without one is its own JSON text between quotes.
 */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * The JSON string literal of `s` (RFC 8259 7) as a terminal may show it: equal to
 * safeJson(JSON.stringify(s)).
 */
export function jsonString(s: string): string {
  return PLAIN.test(s) ? `"${s}"` : safeJson(JSON.stringify(s));
}

/** jsonString(s), or `null` for null. */
export function jsonNullable(s: string | null): string {
  return s === null ? 'null' : jsonString(s);
}

/**
 * The JSON text of a value made of plain data (null, booleans, numbers, strings, arrays and
 * plain objects), as a terminal may show it: equal to safeJson(JSON.stringify(v)) for such a
 * value (RFC 8259). For the parts of a row whose shape the scheme decides (`fields`) and the
 * diagnostics; an object with a toJSON() method is given to JSON.stringify() as it is.
 */
export function jsonValue(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return jsonString(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      break;
    default:
      // undefined, functions and symbols are left out of objects and are null in arrays; a
      // bigint throws, as in JSON.stringify(): the caller's row shows the failure.
      return safeJson(JSON.stringify(v) ?? 'null');
  }
  if (v === null) return 'null';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    let out = '[';
    for (let i = 0; i < v.length; i++) {
      const e = v[i] as unknown;
      const t = typeof e;
      out += (i === 0 ? '' : ',') + (t === 'undefined' || t === 'function' || t === 'symbol' ? 'null' : jsonValue(e));
    }
    return out + ']';
  }
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function' || !isPlain(v)) return safeJson(JSON.stringify(v));
  let out = '{';
  let first = true;
  for (const k of Object.keys(v)) {
    const e = (v as Record<string, unknown>)[k];
    const t = typeof e;
    if (t === 'undefined' || t === 'function' || t === 'symbol') continue;
    out += (first ? '' : ',') + jsonString(k) + ':' + jsonValue(e);
    first = false;
  }
  return out + '}';
}

function isPlain(v: object): boolean {
  const p = Object.getPrototypeOf(v) as unknown;
  return p === Object.prototype || p === null;
}

/**
 * A diagnostic's JSON text (src/core/errors.ts, Diagnostic: code, severity, offset, message,
 * section, in that order), as jsonValue() writes it; any other shape goes to jsonValue().
 */
export function jsonDiagnostic(d: unknown): string {
  const o = d as { code: unknown; severity: unknown; offset: unknown; message: unknown; section: unknown };
  const keys = Object.keys(o);
  if (
    keys.length === 5 &&
    keys[0] === 'code' &&
    keys[1] === 'severity' &&
    keys[2] === 'offset' &&
    keys[3] === 'message' &&
    keys[4] === 'section' &&
    typeof o.code === 'string' &&
    typeof o.severity === 'string' &&
    typeof o.offset === 'number' &&
    Number.isFinite(o.offset) &&
    typeof o.message === 'string' &&
    (o.section === null || typeof o.section === 'string') &&
    isPlain(o as object)
  ) {
    return `{"code":${jsonString(o.code)},"severity":${jsonString(o.severity)},"offset":${o.offset},"message":${jsonString(o.message)},"section":${jsonNullable(o.section)}}`;
  }
  return jsonValue(d);
}

/** A list of diagnostics as JSON text (jsonDiagnostic() each). */
export function jsonDiagnostics(list: readonly unknown[]): string {
  if (list.length === 0) return '[]';
  let out = '[';
  for (let i = 0; i < list.length; i++) out += (i === 0 ? '' : ',') + jsonDiagnostic(list[i]);
  return out + ']';
}
