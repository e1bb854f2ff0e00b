// The http scheme (RFC 1738 3.3 and the section 5 productions httpurl, hpath, hsegment and
// search; the 1993 drafts for the search as "+"-separated keywords and for what HTTP sends), and
// https, which no text of 1993-94 defines: it is read with the same syntax.
//
//   http://<host>:<port>/<hpath>?<search>
//
//   httpurl  = "http://" hostport [ "/" hpath [ "?" search ]]
//   hpath    = hsegment *[ "/" hsegment ]
//   hsegment = *[ uchar | ";" | ":" | "@" | "&" | "=" ]
//   search   = *[ uchar | ";" | ":" | "@" | "&" | "=" ]

import { normalizeEscapes, DECODE_UNRESERVED, DECODE_BUT_PLUS } from '../core/escapes.js';
import type { Url } from '../core/url.js';
import type { Explanation, NormalForm, Report, SchemeSpec, WirePart } from './spec.js';
import { LINE, bodyRange, wirePart } from './wire.js';
import { defineCode, LocatorError } from '../core/errors.js';
import { CHAR_CLASS, XCHAR } from '../core/charclass.js';
import { bodyRun, usualLogin } from '../core/analyze.js';
import { HSEGMENT_SET, EncodeSet, encode } from '../core/percent.js';
import { DRAFT_ONLY, INVALID_FIELD } from './codes.js';
import { isEscape, isSurrogatePair, pathRange, type Range } from './ranges.js';
import { NONE, splitSegments, stringField, stringListField } from './read.js';
import { buildLogin, refuseLogin } from './login.js';
import { violationNotes } from './notes.js';

export const HTTP_RESERVED_IN_SEARCH = defineCode(
  'http-reserved-in-search',
  'error',
  'RFC 1738 5 (httpurl)',
  'within the search of an http URL, "/" and "?" are reserved and must be encoded (search = *[ uchar | ";" | ":" | "@" | "&" | "=" ])',
);

/**
 * What build() may leave unencoded in an hsegment or a keyword: the hsegment set of section 5
 * less ";" (RFC 1738 3.3 names "/", ";" and "?" as reserved in path and search, so a ";" that is
 * data is written %3B), and for keywords less "+" (draft 1993-07: search = xalphas [ + search ]).
 */
const SEGMENT_OUT = HSEGMENT_SET.without(';');
const KEYWORD_OUT = HSEGMENT_SET.without(';+');
/** The characters a raw hpath may hold as they stand: hsegment characters and "/". */
const HPATH_RAW = HSEGMENT_SET.with('/');
/** Encodes every octet (a character that may not stand in a URL at all). */
const ENCODE_ALL = EncodeSet.of(0);

/** Where the parts of an http url-path lie in href: [hpath) and, after "?", [search). */
interface HttpParts {
  hpath: Range;
  search: Range | null;
}

/** Splits the url-path at the first "?" (RFC 1738 5 httpurl: "/" hpath [ "?" search ]). */
function parts(url: Url): HttpParts | null {
  const r = pathRange(url);
  if (r === null) return null;
  const h = url.href;
  for (let i = r.start; i < r.end; i++) {
    if (h.charCodeAt(i) === 63) return { hpath: { start: r.start, end: i }, search: { start: i + 1, end: r.end } };
  }
  return { hpath: r, search: null };
}

/**
 * The http rules beyond the generic syntax (RFC 1738 3.3, 5): no user or password; "?" only
 * once, to start the search; no "/" or "?" inside the search. Every character of the hpath is
 * allowed by hpath = hsegment *[ "/" hsegment ] once the first "?" ends it, so the hpath needs
 * no check of its own here (the scanner has checked it against xchar).
 */
function validate(url: Url, report: Report): void {
  if (url.userStart >= 0) refuseLogin(url, report, 'RFC 1738 3.3');
  const h = url.href;
  const hs = url.hostStart;
  if (hs < 0) return;
  // The first "?" from the host on: none, and there is nothing more to look at.
  const end = url.bodyEnd;
  let i = h.indexOf('?', hs);
  if (i < 0 || i >= end) return;
  // The drafts' httpaddress is hostport [ / path ] [ ? search ]; RFC 1738 5 requires the "/".
  // The scanner has read "host?search" as the host and reported the "?" there already, so a
  // valid host needs no look.
  if (i < url.hostEnd && url.violations.length > 0) {
    report(
      DRAFT_ONLY,
      i + url.inputOffset,
      'http://host?search without "/" is the drafts\' httpaddress form (draft 1994-03 BNF); RFC 1738 3.3 needs http://host/?search',
    );
  }
  // Only a "?" starts a search; a search with no "/" or "?" after it breaks no rule here.
  const ps = url.pathStart;
  if (ps < 0) return;
  if (i < ps) {
    i = h.indexOf('?', ps);
    if (i < 0 || i >= end) return;
  }
  const slash = h.indexOf('/', i + 1);
  if (slash < 0 || slash >= end) {
    const q = h.indexOf('?', i + 1);
    if (q < 0 || q >= end) return;
  }
  for (i++; i < end; i++) {
    const ch = h.charCodeAt(i);
    if (ch === 63)
      report(
        HTTP_RESERVED_IN_SEARCH,
        i + url.inputOffset,
        'a second "?" is part of the search, where "?" is reserved: write %3F (RFC 1738 3.3, 5)',
      );
    else if (ch === 47)
      report(
        HTTP_RESERVED_IN_SEARCH,
        i + url.inputOffset,
        'a "/" in the search is reserved: write %2F (RFC 1738 3.3, 5)',
      );
  }
}

/**
 * The usual http URL, which neither the generic rules nor validate() report anything in (RFC
 * 1738 3.3, 5): host, port, an hpath without "?", then at most one "?" and a search without "/"
 * or "?" (no user or password: http has none).
 */
const USUAL = /* @__PURE__ */ usualLogin(`${/* @__PURE__ */ bodyRun('?')}(?:\\?${/* @__PURE__ */ bodyRun('/?')})?`);

/**
 * The decoded fields (contract: hpath raw, segments, search raw, keywords). `segments` are the
 * decoded hsegments ([] when there is no hpath); `keywords` the search split at "+" and decoded
 * (draft 1993-07 search = xalphas [ + search ]; [] when there is no search).
 */
const NO_HPATH = Object.freeze({ hpath: null, segments: NONE, search: null, keywords: NONE });

/** http and https (RFC 1738 3.3): hpath and search raw, segments and keywords decoded. */
export interface HttpFields {
  hpath: string | null;
  segments: readonly string[];
  search: string | null;
  keywords: readonly string[];
}

function fields(url: Url): HttpFields {
  // Speed: offsets, not parts(): no range objects per URL; one search for "?" and one for "%".
  const start = url.pathStart;
  if (start < 0) return NO_HPATH;
  const h = url.href;
  const end = url.bodyEnd;
  let q = h.indexOf('?', start);
  if (q < 0 || q > end) q = end;
  let pc = h.indexOf('%', start);
  if (pc < 0 || pc > end) pc = end;
  const hpath = h.slice(start, q);
  return Object.freeze({
    hpath,
    segments: splitSegments(h, start, q, 47, pc, hpath),
    search: q === end ? null : h.slice(q + 1, end),
    keywords: q === end ? NONE : splitSegments(h, q + 1, end, 43, pc < q ? h.indexOf('%', q + 1) : pc, null),
  });
}

/** Reads the raw hpath or search given to build(): only `set`, "/" where allowed, and escapes. */
function checkRaw(f: Record<string, unknown>, name: 'hpath' | 'search', set: EncodeSet): string | null {
  const raw = stringField(f, name);
  if (raw === null) return null;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 128 && set.allowed[c] === 1) continue;
    if (isEscape(raw, i, raw.length)) {
      i += 2;
      continue;
    }
    throw new LocatorError(
      INVALID_FIELD,
      i,
      `the raw ${name} ${JSON.stringify(raw)} holds ${JSON.stringify(raw[i])}, which cannot stand there (RFC 1738 5 httpurl); give the decoded ${name === 'hpath' ? 'segments' : 'keywords'} instead`,
    );
  }
  return raw;
}

/**
 * Builds "//host[:port]" [ "/" hpath [ "?" search ]] (RFC 1738 5 httpurl) from `segments` and
 * `keywords` (decoded; each encoded so that "/", ";", "?" and, in keywords, "+" are data), or,
 * when those are absent, from the raw `hpath` and `search` as given (checked, not encoded).
 * A search needs the "/" hpath before it: segments [] with a search is refused; give [""].
 */
function build(f: Record<string, unknown>, defaultPort: number): string {
  let out = buildLogin(f, { allowLogin: false, defaultPort });
  const segments = stringListField(f, 'segments');
  const keywords = stringListField(f, 'keywords');
  let hpath: string | null;
  if (segments !== null) hpath = segments.length === 0 ? null : segments.map((s) => encode(s, SEGMENT_OUT)).join('/');
  else hpath = checkRaw(f, 'hpath', HPATH_RAW);
  let search: string | null;
  if (keywords !== null) search = keywords.length === 0 ? null : keywords.map((k) => encode(k, KEYWORD_OUT)).join('+');
  else search = checkRaw(f, 'search', HSEGMENT_SET);
  if (search !== null && hpath === null) {
    throw new LocatorError(
      INVALID_FIELD,
      -1,
      'an http search needs the "/" before it (RFC 1738 5: "/" hpath [ "?" search ]): give segments [""] for http://host/?search',
    );
  }
  if (hpath !== null) out += '/' + hpath;
  if (search !== null) out += '?' + search;
  return out;
}

/**
 * The request-target as sent: "/" hpath [ "?" search ], with characters that may not stand in a
 * URL (spaces, controls, non-ASCII, a "%" that starts no escape) escaped for transmission
 * (draft 1994-03 HTTP: "Spaces and control characters in URLs must be escaped for transmission").
 */
function requestTarget(url: Url, p: HttpParts | null): { target: string; escaped: boolean } {
  if (p === null) return { target: '/', escaped: false };
  const h = url.href;
  const end = p.search === null ? p.hpath.end : p.search.end;
  let target = '/';
  let escaped = false;
  let run = p.hpath.start;
  for (let i = p.hpath.start; i < end; i++) {
    const c = h.charCodeAt(i);
    if (c < 128 && (CHAR_CLASS[c] & XCHAR) !== 0) continue;
    if (isEscape(h, i, end)) {
      i += 2;
      continue;
    }
    const pair = isSurrogatePair(h, i, end);
    target += h.slice(run, i) + encode(h.slice(i, pair ? i + 2 : i + 1), ENCODE_ALL);
    if (pair) i++;
    run = i + 1;
    escaped = true;
  }
  return { target: target + h.slice(run, end), escaped };
}

/**
 * The access algorithm (RFC 1738 3.3 leaves HTTP "specified elsewhere"; the drafts say what is
 * sent): connect to host:port, send the request line with the path and search as written, never
 * the fragment. The client uses Node's HTTP/1.1 stack, so the request line says HTTP/1.1 and a
 * Host header follows (host, and ":port" when not the default, as Node writes it).
 */
function explain(url: Url, secure: boolean): Explanation {
  const defaultPort = secure ? 443 : 80;
  const notes: string[] = [];
  const steps: string[] = [];
  if (secure)
    notes.push(
      'https is not defined by RFC 1738 or its drafts (it came later, RFC 2818): it is read with the http syntax, port 443, and the request is sent inside a TLS connection',
    );
  violationNotes(url, notes);
  const host = url.host;
  if (host === null || host === '') {
    notes.push(
      `no host to connect to: an ${url.scheme} URL is ${url.scheme}://<host>:<port>/<path>?<searchpart> (RFC 1738 3.3)`,
    );
    return { protocol: url.scheme, host, port: url.port, steps, notes };
  }
  const p = parts(url);
  const { target, escaped } = requestTarget(url, p);
  steps.push(`GET ${target} HTTP/1.1`);
  const port = url.port;
  // The port as written (less leading zeros), never through a number (RFC 1738 3.1: port = digits).
  const digits = url.portDigits;
  steps.push(`Host: ${host}${digits !== null && digits !== String(defaultPort) ? ':' + digits : ''}`);
  if (p === null)
    notes.push(
      'the URL has no path: the client asks for "/" (RFC 1738 3.3: with neither path nor search the "/" may be omitted)',
    );
  if (escaped) notes.push('characters that may not stand in a URL were escaped for transmission (draft 1994-03 HTTP)');
  if (p?.search) {
    const f = url.fields;
    const kw = (f.keywords as string[]).map((k) => JSON.stringify(k)).join(', ');
    notes.push(
      `the search is sent after "?" as written (draft 1993-10 HTTP: "The search part, if present, is sent"); read as "+"-separated keywords (draft 1993-07) it is ${kw}`,
    );
  }
  if (url.fragment !== null) {
    notes.push(
      `the fragment "#${url.fragment}" is never sent: the client applies it to what it retrieves (draft 1993-10 HTTP, draft 1994-03 HTTP)`,
    );
  }
  notes.push(
    'RFC 1738 3.3 leaves the protocol to the HTTP specification: this client speaks HTTP/1.1 (Node\'s http stack) and sends the Host header; a 1994 HTTP/1.0 client sent "GET ' +
      target +
      ' HTTP/1.0" alone',
  );
  const authority = `${host}${digits !== null ? ':' + digits : ''}`;
  if (secure)
    notes.push(
      `through a proxy the client first sends "CONNECT ${host}:${digits ?? port} HTTP/1.1" and then the same request inside the tunnel`,
    );
  else
    notes.push(
      `through a proxy the request line carries the whole URL instead: "GET ${url.scheme}://${authority}${target} HTTP/1.1" (draft 1994-03 HTTP)`,
    );
  return { protocol: url.scheme, host, port, steps, notes };
}

/**
 * The normal form of http (RFC 1738 3.3): "If neither <path> nor <searchpart> is present, the
 * "/" may also be omitted": the normal form writes it. "/", ";" and "?" are reserved in <path>
 * and <searchpart>, and "+" separates the keywords of a search (draft 1993-07: search = xalphas
 * [ + search ]), so "%2B" is kept encoded there.
 */
const httpNormal: NormalForm = {
  section: 'RFC 1738 3.3',
  keepsCleanPath: true,
  path(raw, clean) {
    if (raw === null) return '';
    if (clean) return raw;
    const q = raw.indexOf('?');
    if (q < 0) return normalizeEscapes(raw);
    return normalizeEscapes(raw, DECODE_UNRESERVED, 0, q) + '?' + normalizeEscapes(raw, DECODE_BUT_PLUS, q + 1);
  },
};

/**
 * What the client sends (RFC 1738 3.3, 6): the path and search as written, still encoded, so an
 * escaped CR, LF or NUL ends nothing here (encoded-control, a warning).
 */
function wire(url: Url): WirePart[] {
  const r = bodyRange(url);
  return r === null
    ? []
    : [
        wirePart(
          'the path or search',
          r[0],
          r[1],
          'the HTTP client sends it encoded, so it ends nothing here; a server or gateway that decodes it may take it for a line end (header injection) or the end of a name',
          LINE,
          'encoded',
        ),
      ];
}

/** http (RFC 1738 3.3): port 80. */
export const http: SchemeSpec<HttpFields> = {
  name: 'http',
  defaultPort: 80,
  syntax: 'internet',
  status: 'rfc1738',
  hierarchical: true, // RFC 1738 2.3
  normal: httpNormal,
  validate,
  fields,
  fieldsFrozen: true,
  usual: USUAL,
  build: (f: Record<string, unknown>) => build(f, 80),
  explain: (url) => explain(url, false),
  wire,
};

/** https: not in RFC 1738 or its drafts (status "later"); the http syntax with port 443. */
export const https: SchemeSpec<HttpFields> = {
  name: 'https',
  defaultPort: 443,
  syntax: 'internet',
  status: 'later',
  hierarchical: true,
  normal: { ...httpNormal, section: 'RFC 1738 3.3 (https: the http syntax)' },
  // Redirects between http and https are counted as one scheme: the same protocol, with or without TLS.
  family: 'http',
  validate,
  fields,
  fieldsFrozen: true,
  usual: USUAL,
  build: (f: Record<string, unknown>) => build(f, 443),
  explain: (url) => explain(url, true),
  wire,
};
