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
  registry.set(spec.name, Object.freeze({ ...spec }));
}

/** Removes a scheme that was registered; built-in schemes can be replaced but stay known. */
export function unregisterScheme(name: string): boolean {
  return registry.delete(name);
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
