// Helpers shared by the scheme modules: reading components of a parsed record, checking their
// characters against a production of the RFC 1738 section 5 grammar, and building the login.

import type { Url } from '../core/url.js';
import type { Report } from './spec.js';
import { type EncodeSet, USER_SET, encode, decodeText, hexValue } from '../core/percent.js';
import { checkChars } from '../core/parse.js';
import { LocatorError, defineCode, type Diagnostic } from '../core/errors.js';

export const INVALID_FIELD = defineCode('invalid-field', 'error', 'RFC 1738 5',
  'this field value cannot be written in a URL of this scheme');
export const DRAFT_ONLY = defineCode('draft-only', 'warning', 'RFC 1738 (drafts)',
  'this form is defined only by a 1993-94 draft, not by RFC 1738');
export const UNEXPECTED_LOGIN = defineCode('unexpected-login', 'error', 'RFC 1738 5',
  'this scheme takes no user name or password');

/** A [start, end) range of `url.href`. */
export interface Range {
  start: number;
  end: number;
}

/** The url-path range of a record with a "//" login, or null when there is no "/" path. */
export function pathRange(url: Url): Range | null {
  const start = url.pathStart;
  return start < 0 ? null : { start, end: url.bodyEnd };
}

/** The scheme-specific part range (after "scheme:", before "#"). */
export function schemePartRange(url: Url): Range {
  return { start: url.schemePartStart, end: url.bodyEnd };
}

/**
 * Checks `url.href[start, end)` against an allowed set (a production of the section 5 grammar);
 * escapes are allowed when well formed. Reports with offsets into the input as given; a
 * reserved character outside the set is reported under `code`. Characters the scanner already
 * reported (unsafe, control, non-ASCII, bad escapes) are not reported twice.
 */
export function checkRange(url: Url, start: number, end: number, set: EncodeSet, report: Report, code: string, message?: string): void {
  const found = { v: null as Diagnostic[] | null, seen: 0, only: code };
  checkChars(url.href, start, end, set.allowed, found, code);
  if (found.v === null) return;
  for (const d of found.v) {
    if (d.code === code) report(code, d.offset + url.inputOffset, message ?? d.message);
  }
}

/** Splits [start, end) of `href` at every "/" into segment ranges (empty segments kept). */
export function splitRanges(href: string, start: number, end: number, sep = 47): Range[] {
  const out: Range[] = [];
  let s = start;
  for (let i = start; i <= end; i++) {
    if (i === end || href.charCodeAt(i) === sep) {
      out.push({ start: s, end: i });
      s = i + 1;
    }
  }
  return out;
}

/** Decodes a range of href as UTF-8 text (RFC 1738 2.2). */
export function text(url: Url, r: Range): string {
  return decodeText(url.href, { strict: false }, r.start, r.end);
}

/** The segments of href[start, end) between `sep` characters ("/" by default), each decoded. */
export function textSegments(url: Url, start: number, end: number, sep = 47): string[] {
  return splitRanges(url.href, start, end, sep).map((r) => text(url, r));
}

/** True when s[i] and s[i+1], before `end`, are a UTF-16 surrogate pair (one code point). */
export function isSurrogatePair(s: string, i: number, end: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < end && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
}

/** True when s[i, i+3) is a well-formed escape, "%" and two hex digits, before `end` (RFC 1738 2.2). */
export function isEscape(s: string, i: number, end: number): boolean {
  return s.charCodeAt(i) === 37 && i + 2 < end && hexValue(s.charCodeAt(i + 1)) >= 0 && hexValue(s.charCodeAt(i + 2)) >= 0;
}

/** Reports that a scheme takes no user or password (e.g. http, RFC 1738 3.3). */
export function refuseLogin(url: Url, report: Report, section: string): void {
  const at = url.userStart;
  if (at >= 0) report(UNEXPECTED_LOGIN, at + url.inputOffset, `${url.scheme} URLs take no user name or password (${section})`);
}

const LOGIN_FIELDS = ['user', 'password', 'host', 'port'] as const;

/**
 * Refuses the generic login fields for a scheme that has no login: "a <scheme> URL has no
 * <field>", followed by ": <why>" when given.
 */
export function refuseLoginFields(fields: Record<string, unknown>, scheme: string, why?: string): void {
  for (const k of LOGIN_FIELDS) {
    if (fields[k] !== undefined && fields[k] !== null) refuse(`a ${scheme} URL has no ${k}${why === undefined ? '' : `: ${why}`}`);
  }
}

/** Reports a port after the host under `code`, at its ":" (an empty port, "host:", is let be). */
export function refusePort(url: Url, report: Report, code: string): void {
  if (url.portStart >= 0 && url.loginEnd > url.portStart) report(code, url.portStart - 1 + url.inputOffset);
}

/** The generic fields any build() accepts. */
export interface LoginFields {
  user?: string | null;
  password?: string | null;
  host?: string | null;
  port?: number | null;
}

/** Refuses a build() input with an `invalid-field` LocatorError. */
export function refuse(message: string): never {
  throw new LocatorError(INVALID_FIELD, -1, message);
}

/** Reads an optional string field, refusing other types with a LocatorError. */
export function stringField(fields: Record<string, unknown>, name: string): string | null {
  const v = fields[name];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') refuse(`${name} must be a string`);
  return v;
}

/** Reads an optional field that is an array of strings, refusing anything else with a LocatorError. */
export function stringListField(fields: Record<string, unknown>, name: string): string[] | null {
  const v = fields[name];
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) refuse(`${name} must be an array of strings`);
  return v as string[];
}

/**
 * Builds "//" login for the common Internet scheme syntax (RFC 1738 3.1): user and password
 * encoded so that ":", "@" and "/" never stand unencoded; the host as given (it must be a host
 * name or number; it is not encoded because hosts take no escapes); the port when given and
 * different from `defaultPort` only if `omitDefaultPort`.
 */
export function buildLogin(fields: Record<string, unknown>, options?: { allowLogin?: boolean; defaultPort?: number | null }): string {
  const user = stringField(fields, 'user');
  const password = stringField(fields, 'password');
  const host = stringField(fields, 'host') ?? '';
  const port = fields.port;
  if (options?.allowLogin === false && (user !== null || password !== null)) {
    throw new LocatorError(INVALID_FIELD, -1, 'this scheme takes no user name or password');
  }
  if (password !== null && user === null) {
    throw new LocatorError(INVALID_FIELD, -1, 'a password needs a user name (RFC 1738 3.1)');
  }
  for (let i = 0; i < host.length; i++) {
    const c = host.charCodeAt(i);
    if (c === 47 || c === 64 || c === 58 || c === 35 || c === 63 || c === 37 || c <= 32 || c >= 127) {
      if (!(c === 58 && host.startsWith('['))) {
        throw new LocatorError(INVALID_FIELD, i, `the host ${JSON.stringify(host)} cannot be written in a URL`);
      }
    }
  }
  let out = '//';
  if (user !== null) {
    out += encode(user, USER_SET);
    if (password !== null) out += ':' + encode(password, USER_SET);
    out += '@';
  }
  out += host;
  if (port !== undefined && port !== null) {
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) {
      throw new LocatorError(INVALID_FIELD, -1, `the port must be an integer from 0 to 65535, not ${String(port)}`);
    }
    if (port !== options?.defaultPort) out += ':' + port;
  }
  return out;
}

/**
 * Shows TAB, CR and LF in an explain step as <TAB>, <CR>, <LF>; with `showNul`, NUL as <NUL>
 * too (the rlogin handshake fields end with NUL, RFC 1282).
 */
export function formatRequest(bytes: string, showNul = false): string {
  const out = bytes.replace(/\t/g, '<TAB>').replace(/\r\n/g, '<CR><LF>').replace(/\r/g, '<CR>').replace(/\n/g, '<LF>');
  return showNul ? out.replace(/\0/g, '<NUL>') : out;
}

/** How an explanation words one violation of its URL; null leaves it out. */
export type ViolationNote = (d: Diagnostic, url: Url) => string | null;

/** Appends the notes `note` words for the violations of the URL to `notes` (a new array by default). */
export function violationNotes(url: Url, note: ViolationNote, notes: string[] = []): string[] {
  for (const d of url.violations) {
    const n = note(d, url);
    if (n !== null) notes.push(n);
  }
  return notes;
}

// The wordings of those notes, one per family of schemes; each is part of the explain output.

/** ftp, file, afs: errors, the code first. */
export const NOT_VALID_CODE_FIRST: ViolationNote = (d) => (d.severity === 'error'
  ? `the URL is not valid (${d.code} at ${d.offset}, ${d.section}): ${d.message}` : null);
/** telnet, rlogin, tn3270, prospero, wais: errors. */
export const INVALID_URL: ViolationNote = (d) => (d.severity === 'error'
  ? `invalid URL: ${d.message} (${d.code} at offset ${d.offset}, ${d.section})` : null);
/** http, https, gopher: errors and warnings. */
export const NOT_VALID_OR_WARNING: ViolationNote = (d) => (d.severity === 'error'
  ? `not valid: ${d.message} (${d.code} at offset ${d.offset}, ${d.section})`
  : `warning: ${d.message} (${d.code} at offset ${d.offset})`);
/** mailto, news, nntp, mid, cid: errors, with the scheme name and the offset only. */
export const NOT_A_VALID_SCHEME_URL: ViolationNote = (d, url) => (d.severity === 'error'
  ? `not a valid ${url.scheme} URL: ${d.message} (offset ${d.offset})` : null);
