// The parts of a URL by name, read and changed one at a time (RFC 1738 3.1 names the generic
// parts; each scheme's section, through its entry's `fields` and `build`, names the rest). What
// `locator get`, `set` and `build` are made of.
//
// A change keeps every other character of the URL as written. A generic part (scheme, user,
// password, host, port, url-path, fragment) is cut out at its offsets and the new text put in
// its place. A field of the scheme is changed through the entry alone, with no knowledge of the
// scheme here: the URL's fields are built twice with build(), once as they are and once with
// the new value; the two built forms differ in one run of text, which is where the field is
// written. The built form and the URL as written are then aligned by the octets they stand for
// (an escape and the character it encodes are the same octet; letters compare without case),
// and only that run is replaced in the URL as written: an escape the author chose, a ";" the
// build would encode, stay as they are. When the two cannot be aligned (the URL writes the
// scheme's default port, or the change reaches into the login), the URL is written as build()
// writes it, with the fragment as written.

import { Url, expectUrl } from '../core/url.js';
import { LocatorError, defineCode } from '../core/errors.js';
import { USER_SET, UCHAR_SET, XCHAR_SET, decodeSlice, encode, hexValue } from '../core/percent.js';
import { parse, tryParse } from '../schemes/registry.js';
import { build } from './build.js';

export const UNKNOWN_PART = defineCode(
  'unknown-part',
  'error',
  'RFC 1738 3',
  'URLs of this scheme have no part of this name',
  'usage',
);
export const INVALID_PART = defineCode(
  'invalid-part',
  'error',
  'RFC 1738 5',
  'this value cannot stand in this part of a URL of this scheme',
);

/** The parts of the common Internet scheme syntax (RFC 1738 3.1), after the scheme. */
const LOGIN_PARTS = ['user', 'password', 'host', 'port', 'path'] as const;

/**
 * The names of the parts of `url` (RFC 1738 3.1 and the scheme's section): `scheme`; `user`,
 * `password`, `host`, `port` and `path` (the url-path) when the URL has the "//" login syntax;
 * `fragment`; then the fields of the scheme's entry. A field of the same name as a generic
 * part takes its place (the decoded `path` of file and afs, the finger `user` of x-finger).
 */
export function partNames(url: Url): string[] {
  const out: string[] = ['scheme'];
  if (url.hasLogin) out.push(...LOGIN_PARTS);
  out.push('fragment');
  for (const k of Object.keys(url.fields)) if (!out.includes(k)) out.push(k);
  return out;
}

/** True when `name` is a field of the URL's scheme (which then wins over a generic part). */
function isField(url: Url, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(url.fields, name);
}

/**
 * Every part of `url` by name, decoded (RFC 1738 2.2; octets that are not UTF-8 as U+FFFD): the
 * generic parts (null when absent; `port` the written port, else the scheme's default, null
 * over 65535; `path` the url-path after its "/") and the scheme's fields as its entry gives them.
 */
export function partsOf(url: Url): Record<string, unknown> {
  expectUrl(url, 'partsOf: the URL');
  const out: Record<string, unknown> = { scheme: url.scheme };
  if (url.hasLogin) {
    out.user = url.user;
    out.password = url.password;
    out.host = url.host;
    out.port = url.port;
    out.path = url.pathStart < 0 ? null : decodeSlice(url.href, url.pathStart, url.bodyEnd);
  }
  const frag = url.fragment;
  out.fragment = frag === null ? null : decodeSlice(url.href, url.bodyEnd + 1, url.href.length);
  return Object.assign(out, url.fields);
}

/**
 * The text of a part as written in `url` (escapes kept; RFC 1738 2.2), or null when the URL has
 * no such part. For a field of the scheme, the run of the URL that writes it, found by building
 * the fields with and without it (see the head of this file); undefined when that run cannot
 * be told (the field is not a string, or the URL is not in a form its build can be aligned with).
 */
export function rawPartOf(url: Url, name: string): string | null | undefined {
  if (isField(url, name)) return rawField(url, name);
  const c = url.components();
  switch (name) {
    case 'scheme':
      return url.href.slice(0, url.schemePartStart - 1);
    case 'user':
      return url.rawUser;
    case 'password':
      return url.rawPassword;
    case 'host':
      return url.host;
    case 'port':
      return c.port === null ? null : url.href.slice(c.port[0], c.port[1]);
    case 'path':
      return url.path;
    case 'fragment':
      return url.fragment;
    default:
      return undefined;
  }
}

function rawField(url: Url, name: string): string | null | undefined {
  const value = url.fields[name];
  if (value === null) return null;
  if (typeof value !== 'string') return undefined;
  if (value === '') return '';
  // Another value of the same length that differs in every character, so that the run that
  // changes covers the whole field; else the empty value.
  let other = '';
  for (const ch of value) other += ch === 'a' ? 'b' : 'a';
  for (const o of [other, '']) {
    try {
      const span = fieldSpan(url, name, o);
      if (span !== null && span[1] > span[0]) return url.href.slice(span[0], span[1]);
    } catch {
      // this value cannot be built: the next one
    }
  }
  return undefined;
}

/** The span in url.href of the run that changes when the field `name` becomes `other`; null when unaligned. */
function fieldSpan(url: Url, name: string, other: unknown): readonly [number, number] | null {
  const base = baseFields(url);
  const b = build(url.scheme, base);
  const b2 = buildChanged(url, base, name, other);
  if (b2 instanceof LocatorError) return null;
  const edit = alignedEdit(url, b, b2);
  return edit === null ? null : [edit.start, edit.end];
}

/** The options of withPart() and withParts(). */
export interface PartOptions {
  /**
   * The value is the text as written (escapes and all) rather than decoded text to encode: for
   * the generic parts only (a field is always given decoded, as its entry's build takes it).
   */
  raw?: boolean;
}

/**
 * `url` with the part `name` set to `value` (decoded text, or for a field the value its entry's
 * fields hold: a string, a number, a list ...; null clears an optional part), every other
 * character kept as written (RFC 1738 3.1 for the generic parts, the scheme's section for its
 * fields, whose build() encodes the value). Throws a LocatorError: `unknown-part` (kind usage)
 * for a name that is no part of the URL's scheme, `invalid-part` for a value that cannot stand
 * there or a result that cannot be parsed. The result may hold violations: withParts() checks
 * that it is valid.
 */
export function withPart(url: string | Url, name: string, value: unknown, options?: PartOptions): string {
  expectUrl(url, 'withPart: the URL');
  const u = typeof url === 'string' ? parse(url) : url;
  if (isField(u, name)) {
    if (options?.raw === true) {
      throw new LocatorError(
        INVALID_PART,
        -1,
        `${name} is a field of ${u.scheme} URLs, given decoded: its build writes it (a raw value is for the generic parts)`,
      );
    }
    return withField(u, name, value);
  }
  const generic: readonly string[] = u.hasLogin ? ['scheme', ...LOGIN_PARTS, 'fragment'] : ['scheme', 'fragment'];
  if (!generic.includes(name)) {
    throw new LocatorError(
      UNKNOWN_PART,
      -1,
      `${u.scheme} URLs have no part "${name}"; their parts: ${partNames(u).join(', ')}`,
    );
  }
  return withGeneric(u, name, value, options?.raw === true);
}

/**
 * `url` with each part of `changes` set in turn (withPart()), the result checked to be valid:
 * an error of the result is an `invalid-part` LocatorError naming the part whose change made
 * the URL invalid (RFC 1738 5 and the scheme's section).
 */
export function withParts(
  url: string | Url,
  changes: Readonly<Record<string, unknown>> | ReadonlyArray<readonly [string, unknown]>,
  options?: PartOptions,
): string {
  expectUrl(url, 'withParts: the URL');
  let u = typeof url === 'string' ? parse(url) : url;
  const list = Array.isArray(changes) ? changes : Object.entries(changes);
  let blame: string | null = null;
  for (const [name, value] of list as ReadonlyArray<readonly [string, unknown]>) {
    const wasValid = u.valid;
    u = parse(withPart(u, name, value, options));
    if (wasValid && !u.valid) blame = name;
    else if (u.valid) blame = null;
  }
  assertValidResult(u, blame);
  return u.href;
}

/** Throws `invalid-part` when `u` is not valid, naming `blame` (the part whose change broke it). */
export function assertValidResult(u: Url, blame: string | null): void {
  if (u.valid) return;
  const v = u.violations.find((d) => d.severity === 'error')!;
  const what = blame === null ? '' : `the ${blame} set makes `;
  throw new LocatorError(
    INVALID_PART,
    v.offset,
    `${what}${JSON.stringify(u.href)} not valid: ${v.message} (${v.code}, ${v.section ?? 'no section'})`,
    { section: v.section },
  );
}

// ---------------------------------------------------------------------------------------------
// Generic parts: cut and put back at the record's offsets (RFC 1738 3.1).

/** The url-path's characters: uchar and the reserved ";" ":" "@" "&" "=" "/" (RFC 1738 5); "?" is encoded. */
const PATH_OUT = UCHAR_SET.with(';:@&=/');

function refuse(name: string, message: string): never {
  throw new LocatorError(INVALID_PART, -1, `${name}: ${message}`);
}

function textValue(name: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' && name === 'port') return String(value);
  if (typeof value !== 'string') refuse(name, `the value must be a string, not ${typeof value}`);
  return value;
}

function withGeneric(u: Url, name: string, value: unknown, raw: boolean): string {
  const h = u.href;
  const v = textValue(name, value);
  // The value the part has already (decoded, or as written): the URL as it is, escapes and all.
  // A port is compared as written, so that one the URL leaves to its default is written out.
  const now = raw ? rawPartOf(u, name) : name === 'port' ? u.portDigits : partsOf(u)[name];
  if (now === v && (name !== 'port' || v === rawPartOf(u, 'port'))) return h;
  const put = (start: number, end: number, text: string) => h.slice(0, start) + text + h.slice(end);
  let out: string;
  let expect: (n: Url) => string | null;
  switch (name) {
    case 'scheme': {
      if (v === null || !/^[A-Za-z][A-Za-z0-9+.-]*$/.test(v))
        refuse(
          name,
          `a scheme is a letter and then letters, digits, "+", "." or "-" (RFC 1738 2.1), not ${JSON.stringify(v)}`,
        );
      out = put(0, u.schemePartStart - 1, v);
      expect = (n) => n.href.slice(0, n.schemePartStart - 1);
      return checked(out, name, v, expect);
    }
    case 'user': {
      const text = v === null ? null : raw ? v : encode(v, USER_SET);
      if (text === null) out = u.userStart < 0 ? h : put(u.userStart, u.hostStart, '');
      else if (u.userStart >= 0) {
        const end = u.rawPassword !== null ? u.userStart + u.rawUser!.length : u.hostStart - 1;
        out = put(u.userStart, end, text);
      } else out = put(u.hostStart, u.hostStart, text + '@');
      return checked(out, name, text, (n) => n.rawUser);
    }
    case 'password': {
      const text = v === null ? null : raw ? v : encode(v, USER_SET);
      const pw = u.rawPassword;
      if (text === null) out = pw === null ? h : put(u.hostStart - 2 - pw.length, u.hostStart - 1, '');
      else if (pw !== null) out = put(u.hostStart - 1 - pw.length, u.hostStart - 1, text);
      else if (u.userStart < 0)
        refuse(name, 'a password needs a user name before it (RFC 1738 3.1: <user>:<password>@<host>)');
      else out = put(u.hostStart - 1, u.hostStart - 1, ':' + text);
      return checked(out, name, text, (n) => n.rawPassword);
    }
    case 'host': {
      const text = v ?? '';
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (
          c === 47 ||
          c === 64 ||
          c === 35 ||
          c === 63 ||
          c === 37 ||
          c <= 32 ||
          c >= 127 ||
          (c === 58 && !text.startsWith('['))
        )
          refuse(
            name,
            `${JSON.stringify(text)} holds ${JSON.stringify(text[i])}: a host is a name or a number, with no escapes (RFC 1738 3.1)`,
          );
      }
      return checked(put(u.hostStart, u.hostEnd, text), name, text, (n) => n.host);
    }
    case 'port': {
      const c = u.components().port;
      if (v === null || v === '') {
        out = c === null ? h : put(c[0] - 1, c[1], '');
        return checked(out, name, null, (n) => (n.components().port === null ? null : ''));
      }
      if (!/^[0-9]+$/.test(v) || (!raw && Number(v) > 65535))
        refuse(name, `a port is decimal digits from 0 to 65535 (RFC 1738 3.1), not ${JSON.stringify(v)}`);
      out = c === null ? put(u.hostEnd, u.hostEnd, ':' + v) : put(c[0], c[1], v);
      return checked(out, name, v, (n) => {
        const p = n.components().port;
        return p === null ? null : n.href.slice(p[0], p[1]);
      });
    }
    case 'path': {
      const text = v === null ? null : raw ? v : encode(v, PATH_OUT);
      out = put(u.loginEnd, u.bodyEnd, text === null ? '' : '/' + text);
      return checked(out, name, text, (n) => n.path);
    }
    default: {
      // fragment
      const text = v === null ? null : raw ? v : encode(v, XCHAR_SET);
      out = put(u.bodyEnd, h.length, text === null ? '' : '#' + text);
      return checked(out, name, text, (n) => n.fragment);
    }
  }
}

/**
 * `out` when it parses and its part reads back as `text` (the value did not run into the parts
 * around it: an "@" in a raw user, a "/" in a host); else an `invalid-part` error naming it.
 */
function checked(out: string, name: string, text: string | null, read: (n: Url) => string | null): string {
  const n = tryParse(out);
  if (n instanceof LocatorError) refuse(name, `${JSON.stringify(out)} cannot be read: ${n.detail}`);
  if (read(n) !== text)
    refuse(name, `${JSON.stringify(text)} does not stay in the ${name}: ${JSON.stringify(out)} reads it otherwise`);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Fields: through the entry's build() (RFC 1738 4: a scheme brings its syntax).

/** The URL's fields and login as build() takes them (RFC 1738 3.1: the login is decoded). */
function baseFields(u: Url): Record<string, unknown> {
  const f: Record<string, unknown> = { ...u.fields };
  if (u.hasLogin) {
    if (!isField(u, 'user')) f.user = u.user;
    if (!isField(u, 'password')) f.password = u.password;
    if (!isField(u, 'host')) f.host = u.host;
    if (!isField(u, 'port')) f.port = u.explicitPort ? u.port : null;
  }
  return f;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** tryBuild()'s `was` when only the value itself, read back, shows that the change took effect. */
const EXACT = Symbol('exact');

/** The built URL with the field set, or the build's error; null when it builds but the field does not take effect. */
function tryBuild(
  u: Url,
  fields: Record<string, unknown>,
  name: string,
  value: unknown,
  was: unknown | typeof EXACT,
): string | LocatorError | null {
  let b: string;
  try {
    b = build(u.scheme, fields);
  } catch (e) {
    if (e instanceof LocatorError) return e;
    if (e instanceof TypeError) return new LocatorError(INVALID_PART, -1, e.message);
    throw e;
  }
  const back = parse(b).fields[name];
  return same(back, value) || (was !== EXACT && !same(back, was)) ? b : null;
}

/** What the field `name` reads as once the URL's fields are built as they are (or as the URL has it). */
function builtValue(u: Url, base: Record<string, unknown>, name: string): unknown {
  try {
    return parse(build(u.scheme, base)).fields[name];
  } catch (e) {
    if (!(e instanceof LocatorError)) throw e;
    return u.fields[name];
  }
}

/**
 * The URL built from its fields with `name` set to `value`, or the error of the build. The
 * change took effect when the field reads back as `value`, or otherwise than it reads when built
 * as it is (a built form may write a field otherwise than the URL does: http's hpath with ";"
 * encoded). When it did not, the entry writes this field from others too (http's segments
 * before its raw hpath, the kind of a news URL from its group or message id): one other field is
 * left out, then two, for the build to infer them, until the field reads back as `value`
 * exactly (a field the build never writes, as Gopher's `request`, never does).
 */
function buildChanged(u: Url, base: Record<string, unknown>, name: string, value: unknown): string | LocatorError {
  const was = builtValue(u, base, name);
  const first = tryBuild(u, { ...base, [name]: value }, name, value, was);
  if (typeof first === 'string') return first;
  let error = first;
  const others = Object.keys(u.fields).filter((k) => k !== name);
  const sets: string[][] = others.map((k) => [k]);
  for (let i = 0; i < others.length; i++) for (let j = i + 1; j < others.length; j++) sets.push([others[i], others[j]]);
  for (const drop of sets) {
    const f: Record<string, unknown> = { ...base, [name]: value };
    for (const k of drop) delete f[k];
    const b = tryBuild(u, f, name, value, EXACT);
    if (typeof b === 'string') return b;
    error ??= b;
  }
  const why = error === null ? `the ${u.scheme} build does not write it` : error.detail;
  return new LocatorError(INVALID_PART, -1, `${name}: ${JSON.stringify(value)} cannot be set: ${why}`);
}

function withField(u: Url, name: string, value: unknown): string {
  if (same(u.fields[name], value)) return u.href;
  const base = baseFields(u);
  const changed = buildChanged(u, base, name, value);
  if (changed instanceof LocatorError) throw changed;
  let before: string;
  try {
    before = build(u.scheme, base);
  } catch (e) {
    if (!(e instanceof LocatorError)) throw e;
    return rebuilt(u, changed);
  }
  const edit = alignedEdit(u, before, changed);
  if (edit === null) return rebuilt(u, changed);
  const out = u.href.slice(0, edit.start) + edit.text + u.href.slice(edit.end);
  const n = tryParse(out);
  if (n instanceof LocatorError || !same(n.fields[name], parse(changed).fields[name])) return rebuilt(u, changed);
  return out;
}

/** The built form `b` with the URL's fragment as written (RFC 1738 3.1: the fragment is no part of the object). */
function rebuilt(u: Url, b: string): string {
  const f = u.fragment;
  return f === null ? b : `${b}#${f}`;
}

/** One unit of a URL's text: an escape, or one character (a surrogate pair is one). */
interface Units {
  /** Offsets of the unit boundaries, from start to end (length n + 1). */
  at: number[];
  /** The octets the text stands for, letters in lower case (for alignment only). */
  octets: number[];
  /** The count of octets before each boundary (length n + 1). */
  before: number[];
}

function unitsOf(s: string, start: number, end: number): Units {
  const at: number[] = [start];
  const octets: number[] = [];
  const before: number[] = [0];
  for (let i = start; i < end;) {
    const c = s.charCodeAt(i);
    let len = 1;
    if (c === 37 && i + 2 < end + 0 && hexValue(s.charCodeAt(i + 1)) >= 0 && hexValue(s.charCodeAt(i + 2)) >= 0) {
      octets.push(fold((hexValue(s.charCodeAt(i + 1)) << 4) | hexValue(s.charCodeAt(i + 2))));
      len = 3;
    } else if (c < 0x80) octets.push(fold(c));
    else {
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) len = 2;
      for (const b of new TextEncoder().encode(s.slice(i, i + len))) octets.push(b);
    }
    i += len;
    at.push(i);
    before.push(octets.length);
  }
  return { at, octets, before };
}

function fold(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

/** Where the scheme-specific text after the login starts in a record (RFC 1738 3.1). */
function bodyStart(u: Url): number {
  return u.hasLogin ? u.loginEnd : u.schemePartStart;
}

/**
 * The one run of `u.href` to replace so that it says what `after` says where `before` differs
 * from it: `before` and `after` are built forms of the URL, and `before` stands for the same
 * octets as the URL after their logins (else null: not aligned).
 */
function alignedEdit(u: Url, before: string, after: string): { start: number; end: number; text: string } | null {
  const b = parse(before);
  const a = parse(after);
  const bs = bodyStart(b);
  const as = bodyStart(a);
  // The login (and the scheme) must be the same text in both: a change that reaches it is
  // written as build writes it.
  if (before.slice(0, bs) !== after.slice(0, as)) return null;
  const bb = before.slice(0, b.bodyEnd);
  const ab = after.slice(0, a.bodyEnd);
  const B = unitsOf(bb, bs, bb.length);
  const A = unitsOf(ab, as, ab.length);
  const H = unitsOf(u.href, bodyStart(u), u.bodyEnd);
  if (H.octets.length !== B.octets.length) return null;
  for (let i = 0; i < H.octets.length; i++) if (H.octets[i] !== B.octets[i]) return null;
  const nb = B.at.length - 1;
  const na = A.at.length - 1;
  const unit = (s: string, x: Units, k: number) => s.slice(x.at[k], x.at[k + 1]);
  let p = 0;
  while (p < nb && p < na && unit(bb, B, p) === unit(ab, A, p)) p++;
  let q = 0;
  while (q < nb - p && q < na - p && unit(bb, B, nb - 1 - q) === unit(ab, A, na - 1 - q)) q++;
  const startOctet = B.before[p];
  const endOctet = B.before[nb - q];
  const hs = H.before.indexOf(startOctet);
  const he = H.before.lastIndexOf(endOctet);
  if (hs < 0 || he < 0 || he < hs) return null;
  return { start: H.at[hs], end: H.at[he], text: ab.slice(A.at[p], A.at[na - q]) };
}
