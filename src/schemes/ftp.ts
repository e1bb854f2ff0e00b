// ftp: (RFC 1738 3.2; section 5: ftpurl, fpath, fsegment, ftptype; the 1994-03 draft's full
// FTP TYPE codes).
//
//   ftp://<user>:<password>@<host>:<port>/<cwd1>/<cwd2>/.../<cwdN>/<name>;type=<typecode>
//                                        |<------------- url-path ------------------------->|
//
// The url-path is split at every unencoded "/" into segments, and each segment is decoded on
// its own, so "%2F" stays inside one segment (RFC 1738 3.2.2: "/" and ";" are reserved within a
// name or CWD component). Empty segments are kept: each one is a CWD with an empty argument.
// A final ";type=" (RFC 822 literal: case-insensitive) introduces the typecode.

import { normalizeEscapes } from '../core/escapes.js';
import { bodyRun, usualLogin } from '../core/analyze.js';
import type { Url } from '../core/url.js';
import type { Explanation, Report, SchemeSpec, WirePart } from './spec.js';
import { TELNET_LINE, bodyRange, loginWire, wirePart } from './wire.js';
import { LocatorError, defineCode } from '../core/errors.js';
import { type EncodeSet, SEGMENT_SET, encode } from '../core/percent.js';
import { DRAFT_ONLY, INVALID_FIELD } from './codes.js';
import { isSurrogatePair, pathRange } from './ranges.js';
import { NONE, segmentList, stringField, stringListField, textSegments } from './read.js';
import { buildLogin } from './login.js';
import { formatRequest, violationNotes } from './notes.js';

export const FTP_RESERVED_CHAR = defineCode(
  'ftp-reserved-char',
  'error',
  'RFC 1738 3.2.2',
  'within a name or CWD component ";" is reserved and must be encoded as %3B',
);
export const FTP_INVALID_TYPE = defineCode(
  'ftp-invalid-type',
  'error',
  'RFC 1738 5 (ftptype)',
  'the typecode after ";type=" must be "a", "i" or "d" (the 1994-03 draft adds "A" or "E" with a form code "N", "T" or "C", and "L" with a byte size)',
);

const SEMICOLON = 59;
const SLASH = 47;

/**
 * The offset of the ";" of a final ";type=" in href[start, end), or -1 (RFC 1738 5:
 * ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]). Only the last ";" of the last
 * segment can start it; the literal is matched without regard to case (RFC 822 conventions).
 */
export function typeSuffixAt(href: string, start: number, end: number): number {
  for (let i = end - 1; i >= start; i--) {
    const c = href.charCodeAt(i);
    if (c === SLASH) return -1;
    if (c !== SEMICOLON) continue;
    if (i + 6 > end) return -1;
    return (href.charCodeAt(i + 1) | 32) === 116 &&
      (href.charCodeAt(i + 2) | 32) === 121 &&
      (href.charCodeAt(i + 3) | 32) === 112 &&
      (href.charCodeAt(i + 4) | 32) === 101 &&
      href.charCodeAt(i + 5) === 61
      ? i
      : -1;
  }
  return -1;
}

/** What a typecode is: not one (0), RFC 1738 (1), or only the 1994-03 draft's (2). */
type TypeKind = 0 | 1 | 2;

/**
 * Classifies the typecode in s[start, end).
 * RFC 1738 5: ftptype = "A" | "I" | "D" | "a" | "i" | "d".
 * draft 1994-03: ftptype = A formcode | E formcode | I | L digits; formcode = N | T | C
 * ("in the format defined in RFC959 except that the space is omitted").
 */
function typeKind(s: string, start: number, end: number): TypeKind {
  const n = end - start;
  if (n === 0) return 0;
  const c = s.charCodeAt(start) | 32;
  if (n === 1) return c === 97 || c === 105 || c === 100 ? 1 : 0;
  if (c === 97 || c === 101) {
    if (n !== 2) return 0;
    const f = s.charCodeAt(start + 1) | 32;
    return f === 110 || f === 116 || f === 99 ? 2 : 0;
  }
  if (c === 108) {
    for (let i = start + 1; i < end; i++) {
      const d = s.charCodeAt(i);
      if (d < 48 || d > 57) return 0;
    }
    return 2;
  }
  return 0;
}

/** The fpath of an ftp URL: every "/" segment, decoded (RFC 1738 3.2.2), and the typecode. */
export interface FtpPath {
  segments: readonly string[];
  /** Lower case, as written (raw: a typecode takes no escapes); null when there is no ";type=". */
  ftptype: string | null;
}

/** Reads segments and typecode of the url-path of a parsed URL; no path gives no segments. */
export function readFtpPath(url: Url, withType = true): FtpPath {
  const start = url.pathStart;
  if (start < 0) return { segments: NONE, ftptype: null };
  const end = url.bodyEnd;
  // No ";" in the path (the scanner noted none): no ";type=" to look for.
  const semi = withType && url.mayContain(SEMICOLON) ? typeSuffixAt(url.href, start, end) : -1;
  const fpathEnd = semi >= 0 ? semi : end;
  const segments = textSegments(url, start, fpathEnd);
  // The typecode is literal (no escapes in ftptype), so it is read raw: "%41" is not "a".
  const ftptype = semi >= 0 ? url.href.slice(semi + 6, end).toLowerCase() : null;
  return { segments, ftptype };
}

/**
 * RFC 1738 3.2.2 and 5: an unencoded ";" inside a CWD or name component is a violation (the
 * final ";type=" excepted); the typecode must be one of the ftptype forms, and the 1994-03
 * draft's forms are accepted with a `draft-only` warning. The scanner has checked the rest.
 */
function validate(url: Url, report: Report): void {
  const r = pathRange(url);
  if (r === null || !url.mayContain(SEMICOLON)) return; // the scanner saw no ";" in the path
  const href = url.href;
  const semi = typeSuffixAt(href, r.start, r.end);
  const fpathEnd = semi >= 0 ? semi : r.end;
  for (let i = r.start; i < fpathEnd; i++) {
    if (href.charCodeAt(i) === SEMICOLON) {
      report(
        FTP_RESERVED_CHAR,
        i + url.inputOffset,
        '";" is reserved within an FTP name or CWD component and must be encoded as %3B; only a final ";type=" may follow the name (RFC 1738 3.2.2)',
      );
    }
  }
  if (semi < 0) return;
  const codeStart = semi + 6;
  const kind = typeKind(href, codeStart, r.end);
  if (kind === 0) {
    const written = href.slice(codeStart, r.end);
    report(
      FTP_INVALID_TYPE,
      codeStart + url.inputOffset,
      written === ''
        ? '";type=" must be followed by a typecode: "a", "i" or "d" (RFC 1738 5)'
        : `${JSON.stringify(written)} is not an FTP typecode: RFC 1738 allows "a", "i" or "d"; the 1994-03 draft adds "an", "at", "ac", "en", "et", "ec" and "l" with a byte size`,
    );
  } else if (kind === 2) {
    report(
      DRAFT_ONLY,
      codeStart + url.inputOffset,
      `the typecode ${JSON.stringify(href.slice(codeStart, r.end))} is defined only by the 1994-03 draft (RFC 959 TYPE with the space omitted); RFC 1738 allows "a", "i" or "d"`,
    );
  }
}

/**
 * The usual ftp URL, which neither the generic rules nor validate() report anything in (RFC
 * 1738 3.2.2, 5): a user info, host and port, then an fpath without ";" and at most a final
 * ";type=" with an RFC 1738 typecode.
 */
const FPATH = `${/* @__PURE__ */ bodyRun(';')}(?:;[Tt][Yy][Pp][Ee]=[AaIiDd])?`;
const USUAL = /* @__PURE__ */ usualLogin(FPATH);
const USUAL_USER = /* @__PURE__ */ usualLogin(FPATH, { user: true });

/** The fields of an ftp URL without a url-path. */
const NO_PATH = Object.freeze({ segments: NONE, cwd: NONE, name: null, ftptype: null });

/** ftp (RFC 1738 3.2): the decoded path segments, the CWD list, the name, the typecode. */
export interface FtpFields {
  segments: readonly string[];
  cwd: readonly string[];
  name: string | null;
  ftptype: string | null;
}

/** The contract fields (RFC 1738 3.2.2): segments, cwd (all but the last), name (the last), ftptype. */
function fields(url: Url): FtpFields {
  // Speed: as readFtpPath(), on offsets; cwd sliced from the list before it is frozen (a slice
  // of a frozen array takes the engine's slow path), every part frozen as it is made.
  const start = url.pathStart;
  if (start < 0) return NO_PATH;
  const h = url.href;
  const end = url.bodyEnd;
  const sc = h.indexOf(';', start);
  const semi = sc >= 0 && sc < end ? typeSuffixAt(h, start, end) : -1;
  const fpathEnd = semi >= 0 ? semi : end;
  const segments = segmentList(h, start, fpathEnd, SLASH, h.indexOf('%', start));
  const n = segments.length;
  const cwd = n === 1 ? NONE : Object.freeze(segments.slice(0, n - 1));
  return Object.freeze({
    segments: Object.freeze(segments),
    cwd,
    name: segments[n - 1],
    ftptype: semi >= 0 ? h.slice(semi + 6, end).toLowerCase() : null,
  });
}

/**
 * The segments to write, from `segments`, or else from `cwd` and `name`; null for no url-path.
 * When both are given they must agree.
 */
function segmentsOf(fields: Record<string, unknown>): string[] | null {
  const segments = stringListField(fields, 'segments');
  const cwd = stringListField(fields, 'cwd');
  const name = stringField(fields, 'name');
  if (segments !== null) {
    const n = segments.length;
    const cwdOk = cwd === null || (cwd.length === Math.max(0, n - 1) && cwd.every((s, i) => s === segments[i]));
    const nameOk = n === 0 ? name === null : name === null || name === segments[n - 1];
    if (!cwdOk || !nameOk) {
      throw new LocatorError(
        INVALID_FIELD,
        -1,
        'segments disagree with cwd and name (cwd is all segments but the last, name the last)',
      );
    }
    return segments;
  }
  if (name !== null) return [...(cwd ?? []), name];
  if (cwd !== null && cwd.length > 0) return [...cwd, ''];
  return null;
}

/**
 * Encodes one fpath segment (RFC 1738 5: fsegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]):
 * "/", ";", "%" and everything unsafe become %XX of the UTF-8 octets. A lone surrogate has no
 * UTF-8 form and is refused. `set` is what may stand unencoded (default: fsegment).
 */
export function encodeSegment(segment: string, what: string, set: EncodeSet = SEGMENT_SET): string {
  for (let i = 0; i < segment.length; i++) {
    const c = segment.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      if (!isSurrogatePair(segment, i, segment.length)) {
        throw new LocatorError(INVALID_FIELD, -1, `${what} holds a lone surrogate at ${i}, which has no UTF-8 form`);
      }
      i++;
    }
  }
  return encode(segment, set);
}

/** Encodes a path that begins with "/": each segment after that "/" as encodeSegment does. */
export function encodePath(path: string, set: EncodeSet = SEGMENT_SET): string {
  return path
    .slice(1)
    .split('/')
    .map((s, i) => encodeSegment(s, `path segment ${i}`, set))
    .join('/');
}

/**
 * Builds "//login/fpath;type=code" (RFC 1738 3.2, 5). The login takes user and password
 * (RFC 1738 3.2.1); port 21 is left out. A typecode is written in lower case.
 */
function build(f: Record<string, unknown>): string {
  const login = buildLogin(f, { defaultPort: 21 });
  const type = stringField(f, 'ftptype');
  let code: string | null = null;
  if (type !== null) {
    if (typeKind(type, 0, type.length) === 0) {
      throw new LocatorError(
        INVALID_FIELD,
        -1,
        `${JSON.stringify(type)} is not an FTP typecode ("a", "i", "d"; draft: "an", "at", "ac", "en", "et", "ec", "l<digits>")`,
      );
    }
    code = type.toLowerCase();
  }
  let segments = segmentsOf(f);
  if (segments === null) {
    if (code === null) return login;
    segments = [''];
  } else if (segments.length === 0) {
    if (code !== null)
      throw new LocatorError(
        INVALID_FIELD,
        -1,
        'a typecode needs a url-path: give at least one (possibly empty) segment',
      );
    return login;
  }
  let out = login + '/';
  for (let i = 0; i < segments.length; i++) {
    if (i > 0) out += '/';
    out += encodeSegment(segments[i], `segment ${i}`);
  }
  return code === null ? out : `${out};type=${code}`;
}

/**
 * The name suffixes the client reads as text when a URL gives no typecode (RFC 1738 3.2.3: "the
 * client program interpreting the URL must guess the appropriate mode to use ... from the suffix
 * of the name"). Everything else is transferred as TYPE I (image: the octets as stored), which
 * never damages a file; TYPE A converts line ends, which is the point for text and ruin for
 * anything else. The rule looks at the last suffix only, so "http-spec.txt.Z" is binary.
 * PostScript (.ps) is left out: it is text by design, but files often carry binary sections.
 */
export const TEXT_SUFFIXES: readonly string[] = Object.freeze(['txt', 'text', 'asc', 'htm', 'html', 'c', 'h', 'md']);

/** The TYPE the client guesses for a name (RFC 1738 3.2.3; rule above): "A" or "I". */
export function guessType(name: string): 'A' | 'I' {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return 'I';
  return TEXT_SUFFIXES.includes(name.slice(dot + 1).toLowerCase()) ? 'A' : 'I';
}

/** The TYPE command argument of a typecode: RFC 959 form with the space put back (draft 1994-03). */
function typeArgument(code: string): string {
  const up = code.toUpperCase();
  return up.length === 1 ? up : `${up[0]} ${up.slice(1)}`;
}

function hasLineBreak(s: string): boolean {
  return s.includes('\r') || s.includes('\n');
}

/** The login of an FTP session and the objects to reach, as explainFtp reads them. */
export interface FtpAccess {
  user: string | null;
  password: string | null;
  segments: readonly string[];
  ftptype: string | null;
}

/**
 * The FTP command sequence of RFC 1738 3.2.1 and 3.2.2, as the client sends it on a fresh
 * control connection: USER/PASS, one CWD per cwd segment, TYPE (from the typecode, or the
 * guess of 3.2.3), EPSV for the data connection, RETR or NLST, QUIT. Returns steps and notes.
 */
export function ftpSteps(a: FtpAccess): { steps: string[]; notes: string[] } {
  const steps: string[] = [];
  const notes: string[] = [];
  const show = formatRequest;
  let lineBreak = false;

  // RFC 1738 3.2.1: name and password, or the anonymous convention.
  if (a.user === null) {
    steps.push('USER anonymous', 'PASS <your e-mail address>');
    notes.push(
      'no user name in the URL: the anonymous FTP convention is used (RFC 1738 3.2.1): the user name "anonymous" and, as password, the Internet e-mail address of the user',
    );
  } else {
    steps.push(`USER ${show(a.user)}`);
    lineBreak ||= hasLineBreak(a.user);
    if (a.user === '')
      notes.push('the user name is present but empty (RFC 1738 3.1): USER is sent with an empty argument');
    if (a.password !== null) {
      steps.push('PASS <password from the URL>');
      notes.push(
        'the password is taken from the URL and not shown here; a URL holding a secret password is unwise (RFC 1738 6)',
      );
      lineBreak ||= hasLineBreak(a.password);
    } else {
      steps.push('PASS <password the user is asked for>');
      notes.push(
        'the URL gives a user name but no password: if the server asks for one, the client prompts the user for it (RFC 1738 3.2.1)',
      );
      if (a.user.toLowerCase() === 'anonymous')
        notes.push('for the user "anonymous" the customary answer is the user\'s e-mail address');
    }
  }
  notes.push('PASS is sent only if the server asks for a password after USER (reply 331, RFC 959)');

  // RFC 1738 3.2.2: each cwd element, in order, as the argument of a CWD.
  const n = a.segments.length;
  const cwd = a.segments.slice(0, Math.max(0, n - 1));
  const name = n === 0 ? '' : a.segments[n - 1];
  for (const seg of cwd) {
    steps.push(`CWD ${show(seg)}`);
    lineBreak ||= hasLineBreak(seg);
  }
  lineBreak ||= hasLineBreak(name);
  if (cwd.length > 0 && !cwd[0].startsWith('/')) {
    notes.push('the first CWD is relative to the directory the server starts this user in (RFC 1738 3.2.2)');
  }
  if (cwd.some((s) => s === '')) {
    notes.push(
      'an empty segment is sent as "CWD " with an empty argument (RFC 1738 3.2.2); servers differ in what they do with it',
    );
  }
  if (a.segments.some((s) => s.includes('/'))) {
    notes.push(
      'a segment holds an encoded "/" (%2F): it is sent as part of one CWD or RETR argument, not split (RFC 1738 3.2.2)',
    );
  }

  const type = a.ftptype;
  const valid = type === null || typeKind(type, 0, type.length) !== 0;
  if (!valid)
    notes.push(
      `the typecode ${JSON.stringify(type)} is not valid, so the client ignores it and guesses as if there were none`,
    );
  const code = valid ? type : null;
  if (code === 'd') {
    // RFC 1738 3.2.2: "If the typecode is "d", perform a NLST command with <name> as the argument".
    steps.push('EPSV', name === '' ? 'NLST' : `NLST ${show(name)}`);
    notes.push(
      name === ''
        ? ';type=d: the directory is listed with NLST (RFC 1738 3.2.2); no TYPE is sent, so the listing comes in the default type, ASCII'
        : `;type=d: NLST with the name lists ${JSON.stringify(name)} as a directory (RFC 1738 3.2.2); no TYPE is sent, so the listing comes in the default type, ASCII`,
    );
  } else if (name === '') {
    // draft 1994-03 (FTP): a URL ending in "/" means "use FTP directory list commands".
    if (code !== null) steps.push(`TYPE ${typeArgument(code)}`);
    steps.push('EPSV', 'NLST');
    notes.push(
      n === 0
        ? 'the URL has no url-path: the client lists the directory the server starts in (NLST)'
        : 'the name is empty (the URL ends in "/"): the client lists the directory with NLST (draft 1994-03: a final "/" means a directory listing)',
    );
  } else {
    if (code !== null) {
      steps.push(`TYPE ${typeArgument(code)}`);
      if (code.length > 1)
        notes.push(
          `the typecode ${JSON.stringify(code)} is a full RFC 959 TYPE of the 1994-03 draft, sent with its space put back`,
        );
    } else {
      const guess = guessType(name);
      steps.push(`TYPE ${guess}`);
      notes.push(
        `no ";type=" in the URL, so the client guesses the transfer type from the name (RFC 1738 3.2.3): TYPE A (ASCII) for the suffixes ${TEXT_SUFFIXES.map((s) => '.' + s).join(' ')}, TYPE I (image) for anything else; here ${guess === 'A' ? 'A' : 'I'}`,
      );
    }
    steps.push('EPSV', `RETR ${show(name)}`);
    notes.push(
      `if RETR fails because ${JSON.stringify(name)} is a directory, a client may send CWD with the name and list it with NLST (a client heuristic, not RFC 1738)`,
    );
  }
  steps.push('QUIT');
  notes.push(
    'EPSV (RFC 2428) opens the data connection; if the server refuses it the client sends PASV (RFC 959) instead',
  );
  notes.push(
    'RFC 1738 3.2.5: the client may keep the control connection open for another URL on the same server, but after CWD it cannot in general find its way to a different path; the only reliable algorithm is to disconnect and reconnect',
  );
  if (lineBreak) {
    notes.push(
      'a decoded user name, password or segment holds CR or LF: sent as is it would end the FTP command early and start another one; a careful client refuses such a URL (RFC 1738 6)',
    );
  }
  return { steps, notes };
}

/** The access algorithm of RFC 1738 3.2.1-3.2.5 (contract: `locator explain`). */
function explain(url: Url): Explanation {
  const { segments, ftptype } = readFtpPath(url);
  const { steps, notes } = ftpSteps({ user: url.user, password: url.password, segments, ftptype });
  if (url.host === null) notes.unshift('the URL has no "//" host, so there is no server to connect to');
  return {
    protocol: 'ftp',
    host: url.host,
    port: url.explicitPort ? url.port : 21,
    steps,
    notes: [...violationNotes(url), ...notes],
  };
}

/**
 * What the client sends (RFC 1738 3.2.1, 3.2.2, 6; RFC 959 4.1: the control connection follows
 * the Telnet protocol, so FF is IAC there): the user (USER), the password (PASS), each segment
 * (CWD, RETR, NLST); the typecode takes no escapes and is not sent as written. The path is one
 * part: a "/" is not sent, and no escape spans one.
 */
function wire(url: Url): WirePart[] {
  const out = loginWire(
    url,
    TELNET_LINE,
    'the FTP command "USER <user>" CR LF',
    'the FTP command "PASS <password>" CR LF',
  );
  const r = bodyRange(url);
  if (r === null) return out;
  const semi = typeSuffixAt(url.href, r[0], r[1]);
  out.push(
    wirePart(
      'a path segment',
      r[0],
      semi >= 0 ? semi : r[1],
      'the FTP command "CWD <segment>" or "RETR <name>" CR LF',
      TELNET_LINE,
    ),
  );
  return out;
}

/** ftp: File Transfer Protocol (RFC 1738 3.2; RFC 959). */
export const ftp: SchemeSpec<FtpFields> = {
  name: 'ftp',
  defaultPort: 21,
  // The data connection's port (RFC 959 3.2: L-1, the port below the control connection's).
  otherPorts: [20],
  syntax: 'internet',
  status: 'rfc1738',
  // RFC 1738 2.3 names ftp among the schemes with a hierarchical name space.
  hierarchical: true,
  normal: {
    section: 'RFC 1738 3.2.2, 5 (ftptype)',
    // ";type=" is an RFC 822 literal (case-insensitive) and the typecode is "A" | "I" | "D" |
    // "a" | "i" | "d": both in lower case. (The 1994-03 draft's codes such as "AN" and "L8"
    // likewise: RFC 959 TYPE arguments are case-insensitive.)
    path(raw, clean) {
      if (raw === null) return null;
      const p = clean ? raw : normalizeEscapes(raw);
      const semi = typeSuffixAt(p, 0, p.length);
      return semi < 0 ? p : p.slice(0, semi) + p.slice(semi).toLowerCase();
    },
  },
  validate,
  fields,
  fieldsFrozen: true,
  usual: USUAL,
  usualUser: USUAL_USER,
  build,
  explain,
  wire,
};
