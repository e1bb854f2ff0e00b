// Hiding passwords (RFC 1738 6: "The use of URLs containing passwords that should be secret is
// clearly unwise"; the 1993-10 and 1994-03 drafts say the same). Whatever locator writes to logs,
// error messages, progress output or --json output shows a URL's password as "****", unless the
// user asks for it (--show-secrets). The rest of the text is kept byte for byte.
//
// redactUrl() reads the URL with the parser, so the password is exactly what a client would send;
// where the parser finds no password (no structure can be read, or a scheme with no "//" login
// such as news://user:pass@host), a conservative scan masks anything written user:password@
// after "//". redactText() masks given secrets and every "//user:password@" in free text.

import { tryParse } from './schemes/registry.js';
import { Url } from './core/url.js';

/** What a password is replaced with. */
export const MASK = '****';

/** A [start, end) range of the input that holds a password. */
export type Span = readonly [number, number];

/** Characters that end a URL in free text (RFC 1738 appendix: white space, "<", ">", quotes). */
function endsUrl(c: number): boolean {
  return c <= 32 || c === 60 || c === 62 || c === 34 || c === 39 || c === 96 || c === 127;
}

/**
 * The password spans of every "//user:password@" in `text`, read conservatively: the user info
 * runs from "//" to the last "@" before the end of the URL (`loose`), or before the first "/",
 * "?" or "#" (strict, for free text); the password from the first ":" in it to that "@".
 */
function userinfoSpans(text: string, loose: boolean): Span[] {
  const out: Span[] = [];
  let from = 0;
  for (let i = text.indexOf('//'); i >= 0; i = text.indexOf('//', Math.max(i + 2, from))) {
    const r = userinfoAt(text, i, text.length, loose);
    if (r.at < 0) {
      // No "@" up to where this user info would end, so none for a "//" before that either:
      // look on from there (each character is scanned once, issue 10).
      from = r.stop;
      continue;
    }
    if (r.span !== null) out.push(r.span);
    i = r.at;
  }
  return out;
}

/**
 * The user info after the "//" at `i`: its last "@" (-1 when none), the password span (null when
 * no ":"), and where the scan stopped.
 */
function userinfoAt(text: string, i: number, end: number, loose: boolean): { at: number; span: Span | null; stop: number } {
  const start = i + 2;
  let at = -1;
  let colon = -1;
  let j = start;
  for (; j < end; j++) {
    const c = text.charCodeAt(j);
    if (endsUrl(c)) break;
    if (!loose && (c === 47 || c === 63 || c === 35)) break;
    if (c === 64) at = j;
    else if (c === 58 && colon < 0) colon = j;
  }
  return { at, span: at >= 0 && colon >= 0 && colon + 1 < at ? [colon + 1, at] : null, stop: j };
}

/** The password of a parsed URL as a span of the input it was read from, or null when absent or empty. */
function parsedSpan(url: Url): Span | null {
  const p = url.components().password;
  if (p === null || p[1] === p[0]) return null;
  return [p[0] + url.inputOffset, p[1] + url.inputOffset];
}

/**
 * The spans of `input` that hold a password, in order (RFC 1738 3.1: "//<user>:<password>@").
 * An empty password is no secret and is not a span. Input that cannot be parsed, or a URL with no
 * "//" login of its own, is scanned conservatively (see userinfoSpans).
 */
export function passwordSpans(input: string): Span[] {
  let url = tryParse(input);
  if (!(url instanceof Url)) url = tryParse(input, { trim: true });
  if (!(url instanceof Url)) return userinfoSpans(input, true);
  if (url.hasLogin) {
    const s = parsedSpan(url);
    return s === null ? [] : [s];
  }
  // An opaque scheme (news://user:pass@host is read as a scheme part): only a "//" right after
  // "scheme:" can start a login.
  const at = url.schemePartStart;
  if (url.href.charCodeAt(at) !== 47 || url.href.charCodeAt(at + 1) !== 47) return [];
  const r = userinfoAt(url.href, at, url.bodyEnd, true);
  if (r.span === null) return [];
  return [[r.span[0] + url.inputOffset, r.span[1] + url.inputOffset]];
}

/** `text` with each span (in order, not overlapping) replaced by the mask (RFC 1738 6: passwords are not shown). */
export function replaceSpans(text: string, spans: readonly Span[]): string {
  if (spans.length === 0) return text;
  let out = '';
  let last = 0;
  for (const [s, e] of spans) {
    out += text.slice(last, s) + MASK;
    last = e;
  }
  return out + text.slice(last);
}

/**
 * The URL with its password replaced by "****", everything else byte for byte: a `URL:` prefix,
 * `<...>` wrapper, white space and the user name stay as written (RFC 1738 3.1, appendix). Input
 * that no parse can read is scanned conservatively, so a password is hidden even then.
 */
export function redactUrl(href: string): string {
  return replaceSpans(href, passwordSpans(href));
}

/**
 * Where an offset of `input` lands in redactUrl(input): offsets inside a password move to the
 * start of the mask, offsets after it shift by the difference in length. For drawing a caret
 * under the redacted text at a diagnostic's offset (offsets count the input, errors.ts).
 */
export function redactedOffset(spans: readonly Span[], offset: number): number {
  let shift = 0;
  for (const [s, e] of spans) {
    if (offset < s) break;
    if (offset < e) return s + shift;
    shift += MASK.length - (e - s);
  }
  return offset + shift;
}

/**
 * `text` with every occurrence of each secret replaced by "****" (longest first, so that a secret
 * inside another is not left half shown), and the password of every "//user:password@" in it
 * masked as well (RFC 1738 3.1 login). Empty secrets are ignored. For error messages, logs and
 * progress lines that may quote a URL or a password; pass secretsOf(url) for the URLs at hand
 * (RFC 1738 6).
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  const list = secrets.filter((s) => s !== '').sort((a, b) => b.length - a.length);
  for (const s of list) out = out.split(s).join(MASK);
  // A password already masked ("****", or "*" one for one in a drawn view) is left as it is.
  const spans = userinfoSpans(out, false).filter(([a, b]) => !/^\*+$/.test(out.slice(a, b)));
  return replaceSpans(out, spans);
}

/**
 * The secrets of a URL, for redactText(): its password decoded and as written (with its escapes),
 * when present and not empty (RFC 1738 3.1).
 */
export function secretsOf(url: Url): string[] {
  const raw = url.rawPassword;
  if (raw === null || raw === '') return [];
  const decoded = url.password as string;
  return decoded === raw ? [raw] : [raw, decoded];
}

/**
 * A copy of a JSON-like value (objects, arrays, strings, numbers...) with every string passed
 * through redactText(string, secrets) (RFC 1738 6): for a record such as `locator parse --json`
 * prints, whose `input`, `href` and `password` hold the password. Numbers are unchanged.
 */
export function redactValue<T>(value: T, secrets: readonly string[]): T {
  if (typeof value === 'string') return redactText(value, secrets) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v, secrets);
    return out as T;
  }
  return value;
}
