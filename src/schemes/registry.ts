// The scheme registry (RFC 1738 section 4): "Any submission of a new URL scheme must include a
// definition of an algorithm for accessing of resources within that scheme and the syntax for
// representing such a scheme." Every scheme, the built-in ones included, is an entry here, and
// `parse()` reads URLs with the registry's table. The table starts from the built-in entries
// (a static list: importing this module registers nothing) and changes only by registerScheme
// and unregisterScheme; a record keeps the entry it was parsed with.

import type { Url } from '../core/url.js';
import type { Diagnostic } from '../core/errors.js';
import { LocatorError, defineCode } from '../core/errors.js';
import { SchemeTable, MAX_SCHEMES, RESERVED_NAMES, badSchemeChar } from '../core/scheme.js';
import { parseWith, tryParseWith, type ParseOptions } from '../core/parse.js';
import type { SchemeSpec } from './spec.js';
import { BUILTIN_SCHEMES } from './builtin.js';

export const INVALID_SCHEME_NAME = defineCode(
  'invalid-scheme-name',
  'error',
  'RFC 1738 2.1',
  'a scheme name is one or more of the letters a-z, digits, "+", "." and "-"',
);
export const SCHEME_CLASH = defineCode(
  'scheme-clash',
  'error',
  'RFC 1738 4',
  'a scheme of this name is registered already',
);

let table: SchemeTable<SchemeSpec> = new SchemeTable<SchemeSpec>(BUILTIN_SCHEMES);

/**
 * Parses an absolute URL with the registered schemes (RFC 1738 2.1, 3.1, 5; appendix for `URL:`
 * and `<...>`; the October 1993 draft for the fragment after "#"). Throws a LocatorError when no
 * structure can be read; rules broken in a readable structure are collected as `violations`.
 */
export function parse(input: string, options?: ParseOptions): Url {
  return parseWith(table, input, options);
}

/** Like parse(), but returns the LocatorError instead of throwing it (RFC 1738 2.1). */
export function tryParse(input: string, options?: ParseOptions): Url | LocatorError {
  return tryParseWith(table, input, options);
}

/** The registry's table as it is now (for the scanner of extract(), and for parseWith()). */
export function schemeTable(): SchemeTable<SchemeSpec> {
  return table;
}

/**
 * Registers a scheme (RFC 1738 4): its syntax and its access algorithm. A name that is not a
 * valid lower-case scheme name, or that is registered already, is refused with a LocatorError.
 * `replace: true` replaces an existing entry on purpose. URLs parsed before keep their entry.
 */
export function registerScheme<F extends object>(spec: SchemeSpec<F>, options?: { replace?: boolean }): void {
  if (spec === null || typeof spec !== 'object') throw new TypeError('registerScheme takes a scheme entry object');
  const name: unknown = spec.name;
  if (typeof name !== 'string') throw new TypeError('a scheme entry has a string name');
  const bad = badSchemeChar(name);
  if (bad >= 0) {
    throw new LocatorError(
      INVALID_SCHEME_NAME,
      bad,
      `"${name}" is not a scheme name: use lower-case letters, digits, "+", "." and "-"`,
      { section: 'RFC 1738 2.1' },
    );
  }
  if (table.get(name) !== undefined && !options?.replace) {
    throw new LocatorError(SCHEME_CLASH, 0, `the scheme "${name}" is registered already`);
  }
  if (spec.syntax !== 'internet' && spec.syntax !== 'opaque') {
    throw new RangeError(`scheme "${name}": syntax must be "internet" or "opaque"`);
  }
  if (table.get(name) === undefined && table.size >= MAX_SCHEMES) {
    throw new RangeError(`at most ${MAX_SCHEMES} schemes can be registered`);
  }
  // fieldsFrozen and usual are the built-in entries' promises: an entry given here has its
  // fields walked and its rules run.
  const { fieldsFrozen: _, usual: __, usualUser: ___, ...entry } = spec;
  table = new SchemeTable<SchemeSpec>([...table.list(), Object.freeze(entry) as unknown as SchemeSpec]);
}

/** Removes a registered scheme (a built-in one too); returns whether it was there (RFC 1738 4). */
export function unregisterScheme(name: string): boolean {
  if (table.get(name) === undefined) return false;
  table = new SchemeTable<SchemeSpec>(table.list().filter((s) => s.name !== name));
  return true;
}

/** The entry for a lower-case scheme name, or undefined (RFC 1738 4). */
export function getScheme(name: string): SchemeSpec | undefined {
  return table.get(name);
}

/** Every registered scheme, in registration order (RFC 1738 4). */
export function listSchemes(): SchemeSpec[] {
  return table.list();
}

/** The entry a record was parsed with (kept on the record: later registrations do not change it). */
export function entryOf(url: Url): SchemeSpec | undefined {
  return url.spec as SchemeSpec | undefined;
}

export { RESERVED_NAMES };
export type { SchemeSpec, Explanation, Report, NormalForm, WirePart, SchemeClient, LoginFields } from './spec.js';
export type { Diagnostic, ParseOptions };
