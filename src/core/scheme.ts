// What the scanner needs to know of a scheme (RFC 1738 2.1, 3.1, 4), and the table it looks
// schemes up in. The core defines the shape; the scheme modules (src/schemes/) fill it in, and
// the registry there builds the table. Nothing here knows any particular scheme.

import type { Url } from './url.js';
import { CHAR_CLASS, SCHEME } from './charclass.js';

/** Collects the violations a scheme finds while its URL is parsed (offsets into the input as given). */
export type Report = (code: string, offset: number, message?: string) => void;

/**
 * The part of a scheme entry the parser and the record use (RFC 1738 4: "the syntax for
 * representing such a scheme"). The full entry, with the access algorithm and the rules of the
 * operations, is `SchemeSpec` in src/schemes/spec.ts.
 */
export interface SchemeSyntax {
  /** Lower-case scheme name. */
  readonly name: string;
  /** The port used when the URL gives none, or null. */
  readonly defaultPort: number | null;
  /**
   * `internet`: the common Internet scheme syntax of RFC 1738 3.1 is required ("//" login);
   * `opaque`: the scheme-specific part is read as *xchar, never as a login (mailto, news).
   */
  readonly syntax: 'internet' | 'opaque';
  /** True when an empty host is allowed (file: "localhost" or empty means this machine). */
  readonly emptyHost?: boolean;
  /** Scheme rules beyond the generic syntax; offsets are into the input as given. */
  validate?(url: Url, report: Report): void;
  /**
   * The decoded scheme-specific fields (contract `fields`). The record freezes what this returns,
   * and every plain object and array in it, on first use; other objects (class instances, typed
   * arrays) are left as they are.
   */
  fields?(url: Url): object;
  /**
   * True when fields() returns its fields frozen through every part (each object frozen as it
   * was built): the record takes them as they are, without a walk or a look (a test checks every
   * built-in entry's branches). @internal The built-in entries set it; registerScheme() drops it
   * from an entry it is given, whose fields are then walked and frozen.
   */
  readonly fieldsFrozen?: boolean;
  /**
   * A sticky expression for the scheme's usual form without a user info, matched against the URL
   * from the start of its scheme part (usualLogin() in analyze.ts): when it matches to the end (and a written port
   * is within 0-65535), neither the generic rules nor validate() report anything, and the record
   * answers `valid` and `violations` without running them. @internal The built-in entries set
   * it; registerScheme() drops it from an entry it is given.
   */
  readonly usual?: RegExp;
  /** `usual` for a URL with a user info (none: such a URL is always analyzed). @internal */
  readonly usualUser?: RegExp;
}

/** The hash the scanner computes while it reads the scheme: h = (h * 31 + lower(c)) mod 2^32. */
export function schemeHash(name: string): number {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (Math.imul(h, 31) + (name.charCodeAt(i) | 0)) >>> 0;
  return h;
}

/** How many schemes one table holds at most (half its slots, so that probes stay short). */
export const MAX_SCHEMES = 128;
const TABLE_SIZE = MAX_SCHEMES * 2;

/**
 * An immutable table of schemes, for the scanner: open addressing keyed by schemeHash of the
 * lower-cased name, so that a scheme is recognized from the input's char codes without slicing
 * or hashing a new string (the way ada recognizes schemes without string compares).
 */
export class SchemeTable<S extends SchemeSyntax = SchemeSyntax> {
  readonly #slots: Array<S | undefined>;
  readonly #byName: ReadonlyMap<string, S>;

  /** Entries in order; a later entry of the same name replaces an earlier one. */
  constructor(entries: Iterable<S>) {
    const byName = new Map<string, S>();
    for (const e of entries) byName.set(e.name, e);
    if (byName.size > MAX_SCHEMES) throw new RangeError(`a scheme table holds at most ${MAX_SCHEMES} schemes`);
    const slots: Array<S | undefined> = new Array(TABLE_SIZE);
    for (const spec of byName.values()) {
      let slot = schemeHash(spec.name) & (TABLE_SIZE - 1);
      while (slots[slot] !== undefined) slot = (slot + 1) & (TABLE_SIZE - 1);
      slots[slot] = spec;
    }
    this.#slots = slots;
    this.#byName = byName;
  }

  /**
   * The entry whose name equals input[start, end) ignoring case, given the schemeHash of its
   * lower-cased text; undefined when there is none.
   */
  lookup(input: string, start: number, end: number, hash: number): S | undefined {
    const len = end - start;
    const slots = this.#slots;
    for (let slot = hash & (TABLE_SIZE - 1); ; slot = (slot + 1) & (TABLE_SIZE - 1)) {
      const spec = slots[slot];
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

  /** The entry of a lower-case name, or undefined. */
  get(name: string): S | undefined {
    return this.#byName.get(name);
  }

  /** Every entry, in the order given. */
  list(): S[] {
    return [...this.#byName.values()];
  }

  get size(): number {
    return this.#byName.size;
  }
}

/** Checks a scheme name against RFC 1738 2.1 in lower case; returns the offset of the first bad character, or -1. */
export function badSchemeChar(name: string): number {
  if (name.length === 0) return 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 128 || (CHAR_CLASS[c] & SCHEME) === 0 || (c >= 65 && c <= 90)) return i;
  }
  return -1;
}

/**
 * Names RFC 1738 section 4 reserves without defining them, and names reserved elsewhere.
 * (afs, mid, cid and tn3270 are in that list too, but the drafts define them, so they are
 * scheme entries of their own.)
 */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['nfs', 'mailserver', 'z39.50', 'urn']);
