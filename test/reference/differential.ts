// The differential of the parser: the record parse() makes now (violations and fields found on
// demand) against the eager reference kept in this folder (see README.md), read through every
// getter, `fields`, `valid`, `violations`, `toJSON()`, the offsets, mayContain() and
// hostIsPlain(), and normalize(). Frozen-ness is part of what is compared. Used by
// test/differential.test.ts and fuzz/targets/differential.ts.

import { tryParse, normalize, LocatorError, type Url, type ParseOptions } from '../../src/index.js';
import { normalForm } from '../../src/operations/normalize.js';
import { tryParse as refTryParse } from './schemes/registry.js';
import { LocatorError as RefLocatorError } from './core/errors.js';
import type { Url as RefUrl } from './core/url.js';
import { normalize as refNormalize, normalForm as refNormalForm } from './normalize.js';

type AnyUrl = Url | RefUrl;

/**
 * A picture of a value as one string: objects carry their frozen-ness ("!" frozen, "~" not) and
 * their prototype's kind, keys in their order; strings are quoted.
 */
export function picture(v: unknown, seen = new Set<object>()): string {
  if (v === undefined) return 'undefined';
  if (v === null || typeof v !== 'object') return typeof v === 'string' ? JSON.stringify(v) : String(v);
  if (seen.has(v)) return '<cycle>';
  seen.add(v);
  let out = Object.isFrozen(v) ? '!' : '~';
  if (Array.isArray(v)) {
    out += '[';
    for (let i = 0; i < v.length; i++) out += (i > 0 ? ',' : '') + picture(v[i], seen);
    out += ']';
  } else {
    const proto: unknown = Object.getPrototypeOf(v);
    out += proto === Object.prototype ? '{' : proto === null ? 'null{' : 'other{';
    let first = true;
    for (const k of Object.keys(v)) {
      out += (first ? '' : ',') + JSON.stringify(k) + ':' + picture((v as Record<string, unknown>)[k], seen);
      first = false;
    }
    out += '}';
  }
  seen.delete(v);
  return out;
}

function errorPicture(e: unknown): string {
  if (e instanceof LocatorError || e instanceof RefLocatorError) {
    return `LocatorError ${e.name} ${JSON.stringify(e.message)} ${picture({ ...e })}`;
  }
  if (e instanceof Error) return `thrown ${e.name} ${JSON.stringify(e.message)}`;
  return `thrown ${String(e)}`;
}

/** Reads `fn`, giving the error it throws as a picture. */
function read(fn: () => unknown): string {
  try {
    return picture(fn());
  } catch (e) {
    return `error ${errorPicture(e)}`;
  }
}

const RESERVED = [59, 63, 58, 64, 38, 61, 47, 35];

/**
 * Everything a caller can read of a record. `order` picks which of the lazy parts is read first
 * (the answers must not depend on it): 0 violations first, 1 fields first, 2 valid first, 3
 * toJSON() first.
 */
export function recordPicture(u: AnyUrl, order: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const lazy: Array<[string, () => unknown]> = [
    ['violations', () => u.violations],
    ['fields', () => u.fields],
    ['valid', () => u.valid],
    ['toJSON', () => JSON.stringify(u.toJSON())],
  ];
  for (let i = 0; i < lazy.length; i++) {
    const [name, fn] = lazy[(i + order) % lazy.length];
    out[name] = read(fn);
  }
  out.sameViolations = u.violations === u.violations;
  out.sameFields = read(() => u.fields === u.fields);
  out.toJSONShares = read(() => {
    const j = u.toJSON();
    return j.fields === u.fields && j.violations === u.violations && !Object.isFrozen(j);
  });
  for (const name of [
    'href',
    'scheme',
    'inputOffset',
    'ok',
    'hasLogin',
    'rawUser',
    'user',
    'rawPassword',
    'password',
    'host',
    'explicitPort',
    'port',
    'portDigits',
    'path',
    'schemePart',
    'fragment',
    'withoutFragment',
    'hostStart',
    'hostEnd',
    'portStart',
    'loginEnd',
    'pathStart',
    'bodyEnd',
    'schemePartStart',
    'userStart',
  ] as const) {
    out[name] = read(() => u[name]);
  }
  out.spec = u.spec?.name ?? null;
  out.components = read(() => u.components());
  out.mayContain = RESERVED.map((c) => u.mayContain(c));
  out.hostIsPlain = u.hostIsPlain();
  out.string = u.toString();
  out.frozenRecord = Object.isFrozen(u);
  out.invariants = read(() => u.assertInvariants());
  return out;
}

/** What parse() and normalize() give for one input, from either implementation. */
function whole(
  tryParseFn: (s: string, o?: ParseOptions) => unknown,
  normalizeFn: (u: never, o?: ParseOptions) => string,
  normalFormFn: (u: never, shortcut: boolean) => string,
  input: string,
  options: ParseOptions | undefined,
  order: number,
): Record<string, unknown> {
  let r: unknown;
  try {
    r = tryParseFn(input, options);
  } catch (e) {
    return { threw: errorPicture(e) };
  }
  if (r instanceof LocatorError || r instanceof RefLocatorError) return { error: errorPicture(r) };
  const u = r as AnyUrl;
  const out = recordPicture(u, order);
  out.normalize = read(() => normalizeFn(u as never, options));
  out.normalFormLong = read(() => normalFormFn(u as never, false));
  return out;
}

/**
 * Compares the two parsers on one input; returns null when they agree, else the first
 * difference as text (the key and both values).
 */
export function differ(input: string, options?: ParseOptions, order = 0): string | null {
  const now = whole(tryParse, normalize, normalForm as never, input, options, order);
  const ref = whole(refTryParse, refNormalize, refNormalForm as never, input, options, order);
  const keys = new Set([...Object.keys(now), ...Object.keys(ref)]);
  for (const k of keys) {
    const a = String(now[k]);
    const b = String(ref[k]);
    if (a !== b) {
      return `${JSON.stringify(input)}${options?.trim ? ' (trim)' : ''} order ${order}: ${k}\n  now: ${a?.slice(0, 2000)}\n  ref: ${b?.slice(0, 2000)}`;
    }
  }
  return null;
}
