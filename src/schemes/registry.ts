// The scheme registry (RFC 1738 section 4): "Any submission of a new URL scheme must include a
// definition of an algorithm for accessing of resources within that scheme and the syntax for
// representing such a scheme." Every scheme, the built-in ones included, is an entry here.

import type { Url } from '../core/url.js';
import type { Diagnostic } from '../core/errors.js';
import { CHAR_CLASS, SCHEME } from '../core/charclass.js';
import { LocatorError, defineCode } from '../core/errors.js';

export const INVALID_SCHEME_NAME = defineCode('invalid-scheme-name', 'error', 'RFC 1738 2.1',
  'a scheme name is one or more of the letters a-z, digits, "+", "." and "-"');
export const SCHEME_CLASH = defineCode('scheme-clash', 'error', 'RFC 1738 4',
  'a scheme of this name is registered already');

/** Collects the violations a scheme finds while its URL is parsed. */
export type Report = (code: string, offset: number, message?: string) => void;

/** The access algorithm of a URL, without the network (contract: `locator explain`). */
export interface Explanation {
  protocol: string;
  host: string | null;
  port: number | null;
  steps: string[];
  notes: string[];
}

/** A registry entry. */
export interface SchemeSpec {
  /** Lower-case scheme name. */
  readonly name: string;
  /** The port used when the URL gives none, or null. */
  readonly defaultPort: number | null;
  /**
   * `internet`: the common Internet scheme syntax of RFC 1738 3.1 is required ("//" login);
   * `opaque`: the scheme-specific part is read as *xchar, never as a login (mailto, news).
   */
  readonly syntax: 'internet' | 'opaque';
  /** Where the scheme is defined: the RFC, only the drafts, reserved without syntax, or later. */
  readonly status: 'rfc1738' | 'draft' | 'reserved' | 'later';
  /** True when an empty host is allowed (file: "localhost" or empty means this machine). */
  readonly emptyHost?: boolean;
  /** Scheme rules beyond the generic syntax; offsets are into the input as given. */
  validate?(url: Url, report: Report): void;
  /** The decoded scheme-specific fields (contract `fields`). */
  fields?(url: Url): Record<string, unknown>;
  /** Builds the URL text from decoded fields, encoding what must be encoded. */
  build?(fields: Record<string, unknown>): string;
  /** The access algorithm. */
  explain?(url: Url): Explanation;
  /** Lazily loads the client that dereferences URLs of this scheme. */
  client?: () => Promise<unknown>;
}

const registry = new Map<string, SchemeSpec>();

// For the scanner: the registered schemes in an open-addressed table keyed by a hash of the
// lower-cased name, so that a scheme is recognized from the input's char codes without slicing
// or hashing a new string (the way ada recognizes schemes without string compares).
const TABLE_SIZE = 256;
let table: Array<SchemeSpec | undefined> = new Array(TABLE_SIZE);

/** The hash the scanner computes while it reads the scheme: h = (h * 31 + lower(c)) mod 2^32. */
export function schemeHash(name: string): number {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (Math.imul(h, 31) + (name.charCodeAt(i) | 0)) >>> 0;
  return h;
}

function rebuildTable(): void {
  const t: Array<SchemeSpec | undefined> = new Array(TABLE_SIZE);
  for (const spec of registry.values()) {
    let slot = schemeHash(spec.name) & (TABLE_SIZE - 1);
    while (t[slot] !== undefined) slot = (slot + 1) & (TABLE_SIZE - 1);
    t[slot] = spec;
  }
  table = t;
}

/**
 * The entry whose name equals input[start, end) ignoring case, given the schemeHash of its
 * lower-cased text; undefined when none is registered.
 */
export function lookupScheme(input: string, start: number, end: number, hash: number): SchemeSpec | undefined {
  const len = end - start;
  for (let slot = hash & (TABLE_SIZE - 1); ; slot = (slot + 1) & (TABLE_SIZE - 1)) {
    const spec = table[slot];
    if (spec === undefined) return undefined;
    const name = spec.name;
    if (name.length !== len) continue;
    let i = 0;
    for (; i < len; i++) {
      let c = input.charCodeAt(start + i);
      if (c >= 65 && c <= 90) c |= 32;
      if (c !== name.charCodeAt(i)) break;
    }
    if (i === len) return spec;
  }
}

/** Checks a scheme name against RFC 1738 2.1; returns the offset of the first bad character, or -1. */
function badSchemeChar(name: string): number {
  if (name.length === 0) return 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 128 || (CHAR_CLASS[c] & SCHEME) === 0 || (c >= 65 && c <= 90)) return i;
  }
  return -1;
}

/**
 * Registers a scheme (RFC 1738 4): its syntax and its access algorithm. A name that is not a
 * valid lower-case scheme name, or that is registered already, is refused with a LocatorError.
 * `replace: true` replaces an existing entry on purpose.
 */
export function registerScheme(spec: SchemeSpec, options?: { replace?: boolean }): void {
  const bad = badSchemeChar(spec.name);
  if (bad >= 0) {
    throw new LocatorError(INVALID_SCHEME_NAME, bad,
      `"${spec.name}" is not a scheme name: use lower-case letters, digits, "+", "." and "-"`);
  }
  if (registry.has(spec.name) && !options?.replace) {
    throw new LocatorError(SCHEME_CLASH, 0, `the scheme "${spec.name}" is registered already`);
  }
  if (spec.syntax !== 'internet' && spec.syntax !== 'opaque') {
    throw new LocatorError(INVALID_SCHEME_NAME, -1, `scheme "${spec.name}": syntax must be "internet" or "opaque"`);
  }
  if (!registry.has(spec.name) && registry.size >= TABLE_SIZE / 2) {
    throw new LocatorError(SCHEME_CLASH, 0, `at most ${TABLE_SIZE / 2} schemes can be registered`);
  }
  registry.set(spec.name, Object.freeze({ ...spec }));
  rebuildTable();
}

/** Removes a registered scheme (a built-in one too); returns whether it was there. */
export function unregisterScheme(name: string): boolean {
  const had = registry.delete(name);
  rebuildTable();
  return had;
}

/** The entry for a lower-case scheme name, or undefined. */
export function getScheme(name: string): SchemeSpec | undefined {
  return registry.get(name);
}

/** Every registered scheme, in registration order. */
export function listSchemes(): SchemeSpec[] {
  return [...registry.values()];
}

/**
 * Names RFC 1738 section 4 reserves without defining them, and names reserved elsewhere.
 * (afs, mid, cid and tn3270 are in that list too, but the drafts define them, so they are
 * registered as draft schemes.)
 */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['nfs', 'mailserver', 'z39.50', 'urn']);

export type { Diagnostic };
