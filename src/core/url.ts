// The parsed URL: one immutable record, the `href` string plus integer offsets into it.
//
//   href:  ftp://user:pass@host.com:2121/pub/file.txt;type=i#frag
//          |  | |   |    |       |    |                     |
//          0  | |   |    |       |    pathStart             fragmentStart
//       schemeEnd (":")  |       portStart (-1: none)
//            |  |   passwordStart (-1: none)
//            |  userStart (-1: no user)
//            hostStart (-1: no "//" login)
//
// Each part runs from its start to the start of the next delimiter; a part that is present but
// empty has start == end; an absent part has start -1. Getters slice and decode on demand and
// cache nothing but what they computed (RFC 1738 3.1 defines the parts; 2.2 the decoding).

import type { Diagnostic } from './errors.js';
import { decodeSlice, decodeText, describeValue, type Charset } from './percent.js';
import type { SchemeSyntax } from './scheme.js';
import { RESERVED_BIT, hex, mustEncode } from './chars.js';
import { listed, noted } from './violations.js';
import { analyze, cleanAtOnce, hostNotPlain, releaseFindings } from './analyze.js';

const NO_VIOLATIONS: readonly Diagnostic[] = Object.freeze([]);

export { RESERVED_BIT } from './chars.js';

/**
 * Freezes a record's fields and every plain object and array in them that is not frozen yet, so
 * that the fields (of a registered scheme too) cannot be changed through any of their parts: the
 * record is immutable (contract `fields`). Each object is frozen before its children are walked,
 * so a cycle ends where it started. An object that is frozen already is taken as its author froze
 * it (a scheme module freezes what it shares between records) and not walked again. Objects that
 * are not plain (class instances, typed arrays, maps, dates) are a registered scheme's own: they
 * are left as they are (a typed array cannot be frozen), and their insides are not walked.
 */
function deepFreeze<T extends object>(o: T): T {
  Object.freeze(o);
  if (Array.isArray(o)) for (let i = 0; i < o.length; i++) freezePart(o[i]);
  else if (isPlain(o)) for (const k in o) freezePart(o[k]);
  return o;
}

/** deepFreeze() of a value in the fields that is a plain object or array not frozen yet. */
function freezePart(v: unknown): void {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v) && isPlain(v)) deepFreeze(v);
}

/** An array, or an object whose prototype is Object.prototype or null. */
function isPlain(v: object): boolean {
  if (Array.isArray(v)) return true;
  const p: unknown = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
}

// The bits of Url's #known: what hostIsPlain() and charsClean() found, once found.
const HOST_PLAIN_KNOWN = 1;
const HOST_PLAIN = 2;
const CLEAN_KNOWN = 4;
const CLEAN = 8;
// `valid` found an error without the list (the list is made when `violations` is read).
const INVALID = 16;

/** Freezes a list of violations and each violation in it. */
function freezeList(v: Diagnostic[]): readonly Diagnostic[] {
  for (let i = 0; i < v.length; i++) Object.freeze(v[i]);
  return Object.freeze(v);
}

/** Offsets of one component in `href`: [start, end), or null when absent. */
export type Span = readonly [number, number] | null;

/** Component offsets for drawing and slicing. */
export interface Components {
  scheme: Span;
  user: Span;
  password: Span;
  host: Span;
  port: Span;
  path: Span;
  schemePart: Span;
  fragment: Span;
}

/**
 * API misuse is a TypeError naming the argument: a URL is a string or a parsed Url record
 * (RFC 1738 2.1: a URL is a string).
 */
export function expectUrl(url: unknown, name: string): asserts url is string | Url {
  if (typeof url !== 'string' && !(url instanceof Url)) {
    throw new TypeError(`${name} must be a string or a Url record, not ${describeValue(url)}`);
  }
}

/**
 * The offsets of one URL's parts in its `href`, as the scanner finds them (RFC 1738 3.1 defines
 * the parts; the drawing at the head of this file shows them): the one record the scanner fills
 * and the Url record's constructor reads. -1 marks an absent part; `port` is the written port's
 * value (over 65535: some value over 65535), -1 when none is written. @internal
 */
export class Offsets {
  inputOffset = 0;
  schemeEnd = -1;
  userStart = -1;
  passwordStart = -1;
  hostStart = -1;
  hostEnd = -1;
  portStart = -1;
  port = -1;
  loginEnd = -1;
  pathStart = -1;
  bodyEnd = -1;
  fragmentStart = -1;
}

export class Url {
  readonly #href: string;
  readonly #scheme: string;
  readonly #spec: SchemeSyntax | undefined;
  readonly #inputOffset: number;
  readonly #schemeEnd: number;
  readonly #userStart: number;
  readonly #passwordStart: number;
  readonly #hostStart: number;
  readonly #hostEnd: number;
  readonly #portStart: number;
  readonly #port: number;
  readonly #loginEnd: number;
  readonly #pathStart: number;
  readonly #bodyEnd: number;
  readonly #fragmentStart: number;
  readonly #input: string;
  readonly #trim: boolean;
  // undefined until the first read of the violations (or of what depends on them): analyze()
  // and the scheme's rules run then, once; null for none.
  #violations: readonly Diagnostic[] | null | undefined;
  #known: number; // bits of what is known: HOST_PLAIN_KNOWN, HOST_PLAIN, CLEAN_KNOWN, CLEAN
  #fields: Record<string, unknown> | undefined;

  /**
   * @internal Use parse(). `o` holds the offsets into `href` (they must satisfy
   * assertInvariants()); the record copies them, so the scanner may fill the same Offsets again.
   */
  constructor(href: string, scheme: string, spec: SchemeSyntax | undefined, o: Offsets, input: string, trim: boolean) {
    this.#href = href;
    this.#scheme = scheme;
    this.#spec = spec;
    this.#inputOffset = o.inputOffset;
    this.#schemeEnd = o.schemeEnd;
    this.#userStart = o.userStart;
    this.#passwordStart = o.passwordStart;
    this.#hostStart = o.hostStart;
    this.#hostEnd = o.hostEnd;
    this.#portStart = o.portStart;
    this.#port = o.port;
    this.#loginEnd = o.loginEnd;
    this.#pathStart = o.pathStart;
    this.#bodyEnd = o.bodyEnd;
    this.#fragmentStart = o.fragmentStart;
    this.#input = input;
    this.#trim = trim;
    this.#violations = undefined;
    this.#known = 0;
    this.#fields = undefined;
  }

  /**
   * The violations, found on first use (RFC 1738 2.2, 3.1, 5 and the scheme's section): the
   * generic rules (analyze()), then the scheme's own, which read the record and see the generic
   * list as its `violations`. The list and each violation are frozen: the record is immutable.
   */
  #found(): readonly Diagnostic[] | null {
    const known = this.#violations;
    if (known !== undefined) return known;
    // The scheme's usual form, found in one search: nothing to report, no analysis to run. Not
    // searched again when `valid` settled the record as invalid (its usual form stops short).
    const n = this.#href.length;
    if ((this.#known & INVALID) === 0 && this.#port <= 65535 && n === this.#input.length && this.usualEnd() === n) {
      this.#violations = null;
      return null;
    }
    return this.#analyzed();
  }

  /** #found() past the usual form's search: the generic rules, then the scheme's. */
  #analyzed(): readonly Diagnostic[] | null {
    const spec = this.#spec;
    const list = analyze(this, this.#input, this.#trim, spec);
    let v = list.v === null ? null : freezeList(listed(list)!);
    if (spec?.validate !== undefined) {
      this.#violations = v;
      const before = noted(list);
      try {
        spec.validate(this, list.report);
      } catch (e) {
        this.#violations = undefined;
        throw e;
      }
      if (noted(list) !== before) v = freezeList(listed(list)!);
    }
    releaseFindings(list);
    this.#violations = v;
    return v;
  }

  /** The URL as written, with a `URL:` prefix and `<...>` wrapper removed; not normalized. */
  get href(): string {
    return this.#href;
  }

  /** The scheme name in lower case (RFC 1738 2.1: interpreters treat case as equivalent). */
  get scheme(): string {
    return this.#scheme;
  }

  /** Where `href` starts in the input as given (the length of a stripped `<URL:` prefix). */
  get inputOffset(): number {
    return this.#inputOffset;
  }

  /** Always true: a Url is a successful parse (tryParse returns a LocatorError otherwise). */
  get ok(): true {
    return true;
  }

  /**
   * True when no violation has severity "error" (RFC 1738 2.2, 3.1, 5 and the scheme's section).
   * Where an error is certain without the list, the list is not made: a port over 65535, a
   * missing "//" where the scheme has a login, or a character where the scheme's usual form
   * stops that the generic rules report wherever it stands in a url-path, scheme part or fragment
   * (one that must always be encoded, or a "%" not followed by two hexadecimal digits). The list
   * is made, and agrees, when `violations` is read.
   */
  get valid(): boolean {
    let v = this.#violations;
    if (v === undefined) {
      if ((this.#known & INVALID) !== 0) return false;
      // Speed (issue 38): a tenth of kasztp.txt's lines have a "~" in their path, and making
      // their list cost 3x parse + `valid` of a clean line (809 against 271 ns).
      // A port over 65535 (RFC 1738 3.1), a "//" missing before a login (3.1): always reported.
      if (this.#port > 65535 || (this.#hostStart < 0 && this.#spec?.syntax === 'internet')) {
        this.#known |= INVALID;
        return false;
      }
      const h = this.#href;
      const n = h.length;
      if (n === this.#input.length) {
        const k = this.usualEnd();
        if (k === n) {
          this.#violations = null;
          return true;
        }
        if (k > this.#loginEnd && this.#errorAt(k)) {
          this.#known |= INVALID;
          return false;
        }
      }
      v = this.#analyzed();
    }
    if (v === null) return true;
    for (let i = 0; i < v.length; i++) if (v[i].severity === 'error') return false;
    return true;
  }

  /**
   * True when the character at `k` (past the login, where the scheme's usual form stopped) is one
   * that analyze() reports as an error wherever it stands in a url-path, scheme part or fragment
   * (RFC 1738 2.2: badChar() of each character no run passes). A "#" at the body's end starts
   * the fragment: not judged here.
   */
  #errorAt(k: number): boolean {
    const h = this.#href;
    const n = h.length; // k < n: valid() answered k === n itself
    const c = h.charCodeAt(k);
    if (c === 37) return !(k + 2 < n && hex(h.charCodeAt(k + 1)) && hex(h.charCodeAt(k + 2)));
    return mustEncode(c) && k !== this.#bodyEnd;
  }

  /** Non-fatal findings in offset order (offsets into the input as given). */
  get violations(): readonly Diagnostic[] {
    return this.#found() ?? NO_VIOLATIONS;
  }

  /**
   * The entry of the scheme this URL was parsed with, or undefined for an unknown scheme. Kept
   * from the parse: registering or removing schemes later does not change this record.
   */
  get spec(): SchemeSyntax | undefined {
    return this.#spec;
  }

  /** True when the URL uses the common Internet scheme syntax ("//" login, RFC 1738 3.1). */
  get hasLogin(): boolean {
    return this.#hostStart >= 0;
  }

  /** The user, raw (escapes kept); null when absent, "" when present but empty (RFC 1738 3.1). */
  get rawUser(): string | null {
    if (this.#userStart < 0) return null;
    const end = this.#passwordStart >= 0 ? this.#passwordStart - 1 : this.#hostStart - 1;
    return this.href.slice(this.#userStart, end);
  }

  /** The user, decoded as UTF-8 (RFC 1738 3.1, 2.2). */
  get user(): string | null {
    if (this.#userStart < 0) return null;
    const end = this.#passwordStart >= 0 ? this.#passwordStart - 1 : this.#hostStart - 1;
    return decodeSlice(this.#href, this.#userStart, end);
  }

  /** The password, raw; null when absent, "" when present but empty (RFC 1738 3.1). */
  get rawPassword(): string | null {
    if (this.#passwordStart < 0) return null;
    return this.href.slice(this.#passwordStart, this.#hostStart - 1);
  }

  /** The password, decoded as UTF-8 (RFC 1738 3.1, 2.2). */
  get password(): string | null {
    if (this.#passwordStart < 0) return null;
    return decodeSlice(this.#href, this.#passwordStart, this.#hostStart - 1);
  }

  /** The host as written (RFC 1738 3.1); null without a "//" login. */
  get host(): string | null {
    return this.#hostStart < 0 ? null : this.href.slice(this.#hostStart, this.#hostEnd);
  }

  /** True when the URL writes a port. */
  get explicitPort(): boolean {
    return this.#portStart >= 0 && this.#port >= 0;
  }

  /**
   * The effective port (RFC 1738 3.1): as written, else the scheme's default, else null. A
   * written port over 65535 (port-out-of-range) is no TCP port and no number a double holds
   * exactly: it is null here, never the default, and its digits are in `portDigits`.
   */
  get port(): number | null {
    if (this.#portStart >= 0 && this.#port >= 0) return this.#port <= 65535 ? this.#port : null;
    if (this.#hostStart < 0) return null;
    return this.#spec?.defaultPort ?? null;
  }

  /**
   * The written port as decimal digits, leading zeros removed ("0" for zeros only), exact at any
   * length (RFC 1738 3.1: port = digits); null when no port is written. Normal forms and
   * comparisons use these digits, not `port`.
   */
  get portDigits(): string | null {
    if (this.#portStart < 0 || this.#port < 0) return null;
    const h = this.href;
    let i = this.#portStart;
    const end = this.#loginEnd;
    while (i < end - 1 && h.charCodeAt(i) === 48) i++;
    return h.slice(i, end);
  }

  /** The raw url-path after the "/" that follows host[:port]; null when there is no "/" (RFC 1738 3.1). */
  get path(): string | null {
    if (this.#hostStart < 0 || this.#pathStart < 0) return null;
    return this.href.slice(this.#pathStart, this.#bodyEnd);
  }

  /** The raw scheme-specific part: everything after "scheme:" up to "#" (RFC 1738 2.1). */
  get schemePart(): string {
    return this.href.slice(this.#schemeEnd + 1, this.#bodyEnd);
  }

  /** The raw fragment identifier without "#", or null (October 1993 draft, fragment-id). */
  get fragment(): string | null {
    return this.#fragmentStart < 0 ? null : this.href.slice(this.#fragmentStart);
  }

  /** The URL without its fragment. */
  get withoutFragment(): string {
    return this.#fragmentStart < 0 ? this.href : this.href.slice(0, this.#fragmentStart - 1);
  }

  /**
   * False when the url-path (or opaque scheme part) surely does not hold the character `c`
   * unencoded; true when it may. Exact for ";" "?" ":" "@" "&" "=", which the scanner notes as
   * it passes (so that scheme rules skip a second look); true for any other character.
   */
  mayContain(c: number): boolean {
    if (c >= 128 || RESERVED_BIT[c] === 0) return true;
    let start = this.#schemeEnd + 1;
    if (this.#hostStart >= 0) {
      if (this.#pathStart < 0) return false;
      start = this.#pathStart;
    }
    const i = this.#href.indexOf(String.fromCharCode(c), start);
    return i >= 0 && i < this.#bodyEnd;
  }

  /**
   * True when the host surely holds only lower-case letters, digits, "." and "-" (so it is its
   * own normal form: RFC 1738 3.1), as the scanner noted on its way; false when it may hold
   * more. @internal
   */
  hostIsPlain(): boolean {
    let k = this.#known;
    if ((k & HOST_PLAIN_KNOWN) === 0) {
      const plain = this.#hostStart < 0 || !hostNotPlain(this.#href, this.#schemeEnd + 3, this.#loginEnd);
      k |= HOST_PLAIN_KNOWN | (plain ? HOST_PLAIN : 0);
      this.#known = k;
    }
    return (k & HOST_PLAIN) !== 0;
  }

  /**
   * True when the generic rules surely report nothing about the characters of the URL (RFC
   * 1738 2.2, 5), as one search over it found; false when they may (then read `violations`).
   * @internal
   */
  charsClean(): boolean {
    let k = this.#known;
    if ((k & CLEAN_KNOWN) === 0) {
      k |= CLEAN_KNOWN | (cleanAtOnce(this, this.#input, this.#spec) ? CLEAN : 0);
      this.#known = k;
    }
    return (k & CLEAN) !== 0;
  }

  /**
   * Where the scheme's usual form (`SchemeSyntax.usual`, `usualUser`) stops when read from the
   * scheme part: href's length when the whole URL is of that form, -1 when it does not match at
   * all. What lies before that offset is in the usual form (RFC 1738 2.2, 3.1, 5 and the scheme's
   * section). @internal
   */
  usualEnd(): number {
    const usual = this.#userStart < 0 ? this.#spec?.usual : this.#spec?.usualUser;
    if (usual === undefined) return -1;
    usual.lastIndex = this.#schemeEnd + 1;
    return usual.test(this.#href) ? usual.lastIndex : -1;
  }

  /** Offset in href where the host starts, or -1 when there is no "//" login. */
  get hostStart(): number {
    return this.#hostStart;
  }

  /** Offset in href where the host ends. */
  get hostEnd(): number {
    return this.#hostEnd;
  }

  /** Offset in href of the port digits (after ":"), or -1 when no ":" follows the host. */
  get portStart(): number {
    return this.#portStart;
  }

  /** Offset in href where the login ends (at its "/", "#" or the end). */
  get loginEnd(): number {
    return this.#loginEnd;
  }

  /** Offset in href where the url-path starts (after its "/"), or -1: no login or no "/" path. */
  get pathStart(): number {
    return this.#hostStart < 0 ? -1 : this.#pathStart;
  }

  /** Offset in href where the body ends: the "#" of the fragment, or href.length. */
  get bodyEnd(): number {
    return this.#bodyEnd;
  }

  /** Offset in href where the scheme-specific part starts (after "scheme:"). */
  get schemePartStart(): number {
    return this.#schemeEnd + 1;
  }

  /** Offset in href where the user starts, or -1 when there is no user. */
  get userStart(): number {
    return this.#userStart;
  }

  /** The scheme-specific fields, decoded (contract `fields`); computed on first use. */
  get fields(): Record<string, unknown> {
    let f = this.#fields;
    if (f !== undefined) return f;
    const spec = this.#spec;
    if (spec?.fields === undefined) f = Object.freeze({ schemePart: this.schemePart });
    else {
      f = spec.fields(this) as Record<string, unknown>;
      // A built-in entry freezes every part as it builds it (fieldsFrozen): nothing to walk.
      if (spec.fieldsFrozen !== true) f = deepFreeze(f);
    }
    this.#fields = f;
    return f;
  }

  /** Decodes a raw slice of `href` in the given charset (RFC 1738 2.2). */
  decode(start: number, end: number, charset: Charset = 'utf-8'): string {
    return decodeText(this.href, { strict: false, charset }, start, end);
  }

  /** The offsets of every component (absent: null). */
  components(): Components {
    const login = this.#hostStart >= 0;
    const userEnd = this.#passwordStart >= 0 ? this.#passwordStart - 1 : this.#hostStart - 1;
    return {
      scheme: [0, this.#schemeEnd],
      user: this.#userStart >= 0 ? [this.#userStart, userEnd] : null,
      password: this.#passwordStart >= 0 ? [this.#passwordStart, this.#hostStart - 1] : null,
      host: login ? [this.#hostStart, this.#hostEnd] : null,
      port: this.#portStart >= 0 ? [this.#portStart, this.#loginEnd] : null,
      path: login && this.#pathStart >= 0 ? [this.#pathStart, this.#bodyEnd] : null,
      schemePart: [this.#schemeEnd + 1, this.#bodyEnd],
      fragment: this.#fragmentStart >= 0 ? [this.#fragmentStart, this.href.length] : null,
    };
  }

  /**
   * Checks the offsets against each other and against the delimiters in `href`; throws an Error
   * naming the first broken invariant. Run after every parse in the tests.
   */
  assertInvariants(): void {
    const h = this.href;
    const fail = (what: string): never => {
      throw new Error(`invariant broken: ${what} in ${JSON.stringify(h)}`);
    };
    const se = this.#schemeEnd;
    if (!(se > 0 && h.charCodeAt(se) === 58)) fail('scheme ends at ":"');
    if (h.slice(0, se).toLowerCase() !== this.scheme) fail('scheme is the lower-cased text before ":"');
    const be = this.#bodyEnd;
    const fs = this.#fragmentStart;
    if (fs >= 0) {
      if (fs !== be + 1 || h.charCodeAt(be) !== 35) fail('fragment starts after "#" at bodyEnd');
      if (h.indexOf('#', se) !== be) fail('the first "#" starts the fragment');
    } else if (be !== h.length || h.indexOf('#', se) >= 0)
      fail('without a fragment the body runs to the end and holds no "#"');
    const hs = this.#hostStart;
    if (hs < 0) {
      if (this.#userStart >= 0 || this.#passwordStart >= 0 || this.#portStart >= 0 || this.#pathStart >= 0)
        fail('no login, so no user, password, port or path');
      return;
    }
    if (h.charCodeAt(se + 1) !== 47 || h.charCodeAt(se + 2) !== 47) fail('a login starts with "//"');
    const us = this.#userStart;
    const ps = this.#passwordStart;
    if (us >= 0) {
      if (us !== se + 3) fail('user starts right after "//"');
      if (h.charCodeAt(hs - 1) !== 64) fail('user and password end with "@"');
      if (ps >= 0 && (ps <= us || h.charCodeAt(ps - 1) !== 58 || ps > hs - 1))
        fail('password follows ":" inside the user info');
      if (h.slice(us, ps >= 0 ? ps - 1 : hs - 1).includes(':')) fail('the user holds no ":"');
    } else {
      if (ps >= 0) fail('no password without a user');
      if (hs !== se + 3) fail('host starts right after "//" when there is no user');
    }
    const he = this.#hostEnd;
    const le = this.#loginEnd;
    if (!(he >= hs && he <= le && le <= be)) fail('hostStart <= hostEnd <= loginEnd <= bodyEnd');
    if (this.#portStart >= 0) {
      if (this.#portStart !== he + 1 || h.charCodeAt(he) !== 58) fail('port follows ":" after the host');
      const digits = h.slice(this.#portStart, le);
      if (!/^\d*$/.test(digits)) fail('port is digits');
      const value = digits === '' ? -1 : Number(digits);
      if (value <= 65535 ? value !== this.#port : this.#port <= 65535)
        fail('port value matches its digits (or both are over 65535)');
      if (digits !== '' && this.portDigits !== digits.replace(/^0+(?=\d)/, ''))
        fail('portDigits are the digits less leading zeros');
    } else if (he !== le) fail('without a port the host ends the login');
    if (h.slice(se + 3, le).includes('/')) fail('the login holds no "/"');
    const pst = this.#pathStart;
    if (pst >= 0) {
      if (pst !== le + 1 || h.charCodeAt(le) !== 47) fail('url-path follows the "/" after the login');
    } else if (le !== be) fail('without a path the login runs to the end of the body');
  }

  /** The contract JSON of `locator parse --json`, less `input` and `error`. */
  toJSON(): Record<string, unknown> {
    return {
      ok: true,
      valid: this.valid,
      href: this.href,
      scheme: this.scheme,
      user: this.user,
      password: this.password,
      host: this.host,
      port: this.port,
      portDigits: this.portDigits,
      explicitPort: this.explicitPort,
      path: this.path,
      fragment: this.fragment,
      fields: this.fields,
      violations: this.violations,
    };
  }

  toString(): string {
    return this.href;
  }
}
