// build() and explain(): the registry's per-scheme syntax and access algorithm behind one call
// each (RFC 1738 section 4: a scheme brings "the syntax for representing such a scheme" and "an
// algorithm for accessing of resources within that scheme").

import { entryOf, getScheme, parse, type Explanation, type ParseOptions } from '../schemes/registry.js';
import { Url, expectUrl } from '../core/url.js';
import { LocatorError, defineCode } from '../core/errors.js';
import { XCHAR_SET, encode, describeValue, expectString } from '../core/percent.js';
import { INVALID_FIELD } from '../schemes/codes.js';
import type { BuildFields, SchemeFields } from '../schemes/fields.js';

export const NO_ACCESS_ALGORITHM = defineCode(
  'no-access-algorithm',
  'error',
  'RFC 1738 4',
  'no access algorithm is registered for this scheme',
);

/**
 * Builds a URL from decoded fields (RFC 1738 2.2: encodes exactly what must be encoded). The
 * fields are those of `parse(url).fields` plus the generic `user`, `password`, `host`, `port`
 * and `fragment`. For a scheme with no build of its own, `schemePart` is written as given. For
 * the schemes of the specs the fields are typed (SchemeFields in src/schemes/fields.ts).
 */
export function build<S extends keyof SchemeFields>(scheme: S, fields: BuildFields<S>): string;
export function build<S extends string>(
  scheme: S extends keyof SchemeFields ? never : S,
  fields: Record<string, unknown>,
): string;
export function build(scheme: string, fields: Record<string, unknown>): string {
  // API misuse is a TypeError naming the argument.
  expectString(scheme, 'build: the scheme name');
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) {
    throw new TypeError(`build: the fields must be an object, not ${describeValue(fields)}`);
  }
  const name = scheme.toLowerCase();
  const spec = getScheme(name);
  let part: string;
  if (spec?.build) part = spec.build(fields);
  else if (typeof fields.schemePart === 'string') part = fields.schemePart;
  else throw new LocatorError(INVALID_FIELD, -1, `the scheme "${name}" has no build; give schemePart`);
  const fragment = fields.fragment;
  const frag = typeof fragment === 'string' ? '#' + encode(fragment, XCHAR_SET) : '';
  const href = `${name}:${part}${frag}`;
  parse(href); // refuses what no parse could read (throws LocatorError)
  return href;
}

/** The access algorithm of a URL, without the network (contract: `locator explain`). */
export function explain(url: string | Url, options?: ParseOptions): Explanation {
  expectUrl(url, 'explain: the URL');
  const u = typeof url === 'string' ? parse(url, options) : url;
  // The entry the record was parsed with (a URL parsed before its scheme was unregistered keeps it).
  const spec = entryOf(u);
  if (!spec?.explain) {
    throw new LocatorError(NO_ACCESS_ALGORITHM, 0, `no access algorithm is registered for the scheme "${u.scheme}"`);
  }
  return spec.explain(u);
}
