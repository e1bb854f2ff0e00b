// Hiding passwords (RFC 1738 6: "The use of URLs containing passwords that should be secret is
// clearly unwise"; the 1993-10 and 1994-03 drafts say the same). Whatever locator writes to logs,
// error messages, progress output or --json output shows a URL's password as "****", unless the
// user asks for it (--show-secrets). The rest of the text is kept byte for byte.
//
// Passwords are hidden where a record is written out, from the offsets of the parsed URL(s) the
// command prints (passwordSpans, urlPasswordSpans, redactUrl, redactPartial): the password is
// exactly what a client would send, whatever characters RFC 1738 3.1 allows in it ("?", "'",
// ";", "&", "=", escapes). Where the parser finds no password (no structure can be read, or a
// scheme with no "//" login such as news://user:pass@host), a conservative scan of that one URL
// masks anything written user:password@ after "//". Text that may echo a secret in other forms
// (a server's error reply) is masked with every known form of it: maskSecrets(text,
// secretsOf(url)), the password as written, decoded and JSON-escaped. redactText() also scans
// free text for "//user:password@"; it is a last net for messages, not the way records are masked.

import { tryParse } from '../schemes/registry.js';
import { Url } from '../core/url.js';
import { decodeText } from '../core/percent.js';

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
 * runs from "//" to the last "@" before the end of the URL (`line`), or before the first "/",
 * "?" or "#" (`text`, for free text); the password from the first ":" in it to that "@".
 */
function userinfoSpans(text: string, scan: Scan): Span[] {
  const out: Span[] = [];
  for (let i = text.indexOf('//'); i >= 0; i = text.indexOf('//', i + 2)) {
    const r = userinfoAt(text, i, text.length, scan);
    if (r.span !== null) out.push(r.span);
    // A "//" before the "@" is inside this user info; one before the stop, with no "@", would
    // stop there too: the next search starts right after the "@" (a "//" may follow it at once,
    // as in "//u:p@//v:w@h"), or at the stop (one pass over the text).
    i = r.at >= 0 ? r.at - 1 : r.stop - 2;
  }
  return out;
}

/**
 * How far a scan for the user info runs: `text` (free text: a URL ends at white space, "<", ">",
 * quotes; the user info at "/", "?" or "#"), `line` (one URL that no parse can read: it ends
 * at white space, "<" or ">" only, since a password may hold "'", "?" or an invalid '"'), or
 * `url` (the parsed body of one URL: to its end).
 */
type Scan = 'text' | 'line' | 'url';

/**
 * The user info after the "//" at `i`: its last "@" (-1 when none), where the scan stopped, and
 * the password span, from the first ":" to that "@" (null when no ":" before it).
 */
function userinfoAt(text: string, i: number, end: number, scan: Scan): { at: number; stop: number; span: Span | null } {
  const start = i + 2;
  let at = -1;
  let colon = -1;
  let j = start;
  for (; j < end; j++) {
    const c = text.charCodeAt(j);
    if (scan === 'text' && (endsUrl(c) || c === 47 || c === 63 || c === 35)) break;
    if (scan === 'line' && (c <= 32 || c === 60 || c === 62 || c === 127)) break;
    if (c === 64) at = j;
    else if (c === 58 && colon < 0) colon = j;
  }
  return { at, stop: j, span: at >= 0 && colon >= 0 && colon + 1 < at ? [colon + 1, at] : null };
}

/**
 * The password spans of a parsed URL, as offsets of its `href` (RFC 1738 3.1:
 * "//<user>:<password>@"): the parsed password when the scheme has a login, else (an opaque
 * scheme such as news://user:pass@host) the conservative reading of a "//" login right after
 * "scheme:", to the end of the URL's body. An empty password is no secret and is not a span.
 */
export function urlPasswordSpans(url: Url): Span[] {
  if (url.hasLogin) {
    const p = url.components().password;
    return p === null || p[1] === p[0] ? [] : [[p[0], p[1]]];
  }
  const at = url.schemePartStart;
  if (url.href.charCodeAt(at) !== 47 || url.href.charCodeAt(at + 1) !== 47) return [];
  const r = userinfoAt(url.href, at, url.bodyEnd, 'url');
  return r.span === null ? [] : [r.span];
}

/**
 * The spans of `input` that hold a password, in order (RFC 1738 3.1: "//<user>:<password>@"),
 * from the parsed offsets (urlPasswordSpans). Input that cannot be parsed is scanned
 * conservatively, to white space or "<" ">" (a password may hold "'", "?" and, invalid, '"').
 */
export function passwordSpans(input: string): Span[] {
  // A password ends at an "@" (RFC 1738 3.1), in a parsed login as in the scan: without one there
  // is none, and the input need not be parsed (an HTTP request target, a path, is not a URL).
  if (!input.includes('@')) return [];
  let url = tryParse(input);
  if (!(url instanceof Url)) url = tryParse(input, { trim: true });
  if (!(url instanceof Url)) return userinfoSpans(input, 'line');
  const off = url.inputOffset;
  return urlPasswordSpans(url).map(([s, e]) => [s + off, e + off] as const);
}

/**
 * The password spans of a partial form read against a base of scheme `scheme` (RFC 1808 2.4.3:
 * a partial form that starts with "//" carries a net_loc, login included): an absolute URL is
 * read as itself, a "//" form as `scheme:` + it; other partial forms hold no login.
 */
export function partialPasswordSpans(partial: string, scheme: string | null): Span[] {
  const u = tryParse(partial);
  if (u instanceof Url) return passwordSpans(partial);
  const lead = partial.length - partial.trimStart().length;
  if (scheme !== null && partial.startsWith('//', lead)) {
    const prefix = `${scheme}:`;
    const v = tryParse(prefix + partial.slice(lead));
    if (v instanceof Url) {
      const shift = v.inputOffset + lead - prefix.length;
      return urlPasswordSpans(v).map(([s, e]) => [s + shift, e + shift] as const);
    }
  }
  return userinfoSpans(partial, 'line');
}

/** The partial form with its password masked (partialPasswordSpans; RFC 1738 6). */
export function redactPartial(partial: string, scheme: string | null): string {
  return replaceSpans(partial, partialPasswordSpans(partial, scheme));
}

/**
 * `text` with each span (in order, not overlapping) replaced by the mask, "****" whatever the
 * password's length, so that the output does not tell the length (RFC 1738 6: passwords are not
 * shown). A drawing under the masked text places its marks with redactedOffset().
 */
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
 * The URL (text, or a parsed record) with its password replaced by "****", everything else byte for byte: a `URL:` prefix,
 * `<...>` wrapper, white space and the user name stay as written (RFC 1738 3.1, appendix). Input
 * that no parse can read is scanned conservatively, so a password is hidden even then.
 */
export function redactUrl(url: string | Url): string {
  // A parsed record: its own offsets say where the password is; nothing is parsed again.
  if (typeof url !== 'string') return replaceSpans(url.href, urlPasswordSpans(url));
  return replaceSpans(url, passwordSpans(url));
}

/**
 * redactUrl(input) for an input already parsed: `url` is tryParse(input) (no other options), so
 * the spans come from its offsets and the input is not parsed a second time (RFC 1738 3.1, 6).
 */
export function redactParsed(input: string, url: Url): string {
  const spans = urlPasswordSpans(url);
  if (spans.length === 0) return input;
  const off = url.inputOffset;
  return replaceSpans(
    input,
    spans.map(([s, e]) => [s + off, e + off] as const),
  );
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
 * `text` with every occurrence of each secret replaced by "****", longest first, so that a
 * secret inside another is not left half shown; nothing else is changed (RFC 1738 6). For text
 * that may echo a password in any form (a server's reply): pass secretsOf(url) for each URL in
 * play, and secretForms() of a password given apart from a URL.
 */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  const list = [...new Set(secrets)].filter((s) => s !== '').sort((a, b) => b.length - a.length);
  for (const s of list) if (out.includes(s)) out = out.split(s).join(MASK);
  return out;
}

/**
 * `text` with every occurrence of each secret replaced by "****" (maskSecrets), and the password
 * of every "//user:password@" in it masked as well (RFC 1738 3.1 login). Empty secrets are
 * ignored. A last net for free-text messages; records are masked from their parsed offsets.
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  const out = maskSecrets(text, secrets);
  // A password already masked ("****") is left as it is.
  const spans = userinfoSpans(out, 'text').filter(([a, b]) => !/^\*+$/.test(out.slice(a, b)));
  return replaceSpans(out, spans);
}

/**
 * The forms in which a secret may be echoed (RFC 1738 6): as given, and JSON-escaped (as a message that quotes
 * a server's reply with JSON.stringify shows it: a '"' as backslash and '"', a backslash as two).
 */
export function secretForms(secret: string): string[] {
  if (secret === '') return [];
  const json = JSON.stringify(secret).slice(1, -1);
  return json === secret ? [secret] : [secret, json];
}

/**
 * The secrets held in the given password spans of `text`: each as written, decoded, and the
 * JSON-escaped form of each (RFC 1738 3.1: a password may be written with escapes).
 */
export function spanSecrets(text: string, spans: readonly Span[]): string[] {
  const out: string[] = [];
  for (const [s, e] of spans) {
    const raw = text.slice(s, e);
    const decoded = decodeText(text, { strict: false }, s, e);
    for (const f of [...secretForms(raw), ...secretForms(decoded)]) if (!out.includes(f)) out.push(f);
  }
  return out;
}

/**
 * The secrets of a URL, for maskSecrets() and redactText(): each password (urlPasswordSpans) as
 * written, decoded, and the JSON-escaped form of each, when present and not empty (RFC 1738 3.1).
 */
export function secretsOf(url: Url): string[] {
  return spanSecrets(url.href, urlPasswordSpans(url));
}

/**
 * A copy of a JSON-like value with every string passed through maskSecrets(string, secrets)
 * (RFC 1738 6): for text derived from a URL that holds a password where no offset says so (the
 * steps of an access algorithm, the fields of an opaque scheme, a diagnostic's message).
 */
export function maskValue<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return maskSecrets(value, secrets) as T;
  if (Array.isArray(value)) return value.map((v) => maskValue(v, secrets)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskValue(v, secrets);
    return out as T;
  }
  return value;
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
