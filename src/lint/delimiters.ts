// Encoded delimiters, scheme by scheme (RFC 1738 6): "Care should be taken when URLs contain
// embedded encoded delimiters for a given protocol (for example, CR and LF characters for telnet
// protocols) that these are not unencoded before transmission. This would violate the protocol
// but could be used to simulate an extra operation or parameter".
//
// For each scheme this module knows which decoded parts the client sends, in which protocol
// line, and which octets delimit that line or its fields (the access algorithms of RFC 1738 3.x,
// as explain() shows them). An escape there that decodes to such an octet is `encoded-delimiter`
// (an error: the policy refuses the URL). Where the client sends the part still encoded (HTTP),
// or where locator does not know the protocol, an escape of CR, LF or NUL is `encoded-control`
// (a warning). Escapes are read at the octet level: "%C0%8D" is not CR.
//
//   scheme        part (what the client sends)                        delimiters
//   ftp           user (USER), password (PASS), each segment          CR LF NUL, FF (Telnet IAC:
//                 (CWD, RETR, NLST); the typecode takes no escapes    the control connection is Telnet)
//   file          local: the path (a C string to the file system)     NUL
//                 other host: as ftp (fetched by anonymous FTP)       CR LF NUL FF
//   gopher        selector, search (selector TAB search CR LF)        CR LF NUL (a TAB cannot stand
//                                                                     there: each %09 is the separator)
//                 gopher+ string                                      NUL; CR LF except in the
//                                                                     electronic form of 3.4.9
//   mailto        the address (RCPT TO:<address> CR LF)               CR LF NUL
//   news, nntp    group (GROUP g), message-id (ARTICLE <id>)          CR LF NUL, TAB and space
//                                                                     (NNTP argument separators)
//   telnet,       user, password (typed into the session, advisory)   CR LF NUL, FF (Telnet IAC)
//   tn3270
//   rlogin        user, password (the handshake's NUL-ended fields)   CR LF NUL
//   prospero      hsoname, field names and values (text lines)        CR LF; NUL in fields (in the
//                                                                     ppath "%00" is the 1993-10
//                                                                     draft's separator)
//   afs           the path (a file of the /afs name space)            NUL
//   http, https   path and search: sent encoded                       (encoded-control: CR LF NUL)
//   wais          database, wtype, search: length-prefixed Z39.50     (encoded-control: NUL, which
//                 fields (RFC 1625); the wpath is opaque DocID octets  servers read as a C string end)
//   mid, cid      nothing is sent (a lookup in the local mail store)  none
//   any other     the scheme-specific part                            (encoded-control: CR LF NUL)

import type { Url } from '../core/url.js';
import { diagnostic, type Diagnostic } from '../core/errors.js';
import { hexValue } from '../core/percent.js';
import { typeSuffixAt } from '../schemes/ftp.js';
import { isLocalHost } from '../schemes/file.js';
import { ENCODED_DELIMITER, ENCODED_CONTROL } from './codes.js';

const NUL = 0;
const TAB = 9;
const LF = 10;
const CR = 13;
const SP = 32;
const IAC = 255;

/** Bit sets of delimiter octets (one bit per octet of interest). */
const B_CR = 1;
const B_LF = 2;
const B_NUL = 4;
const B_TAB = 8;
const B_SP = 16;
const B_IAC = 32;
const LINE = B_CR | B_LF | B_NUL;
const TELNET_LINE = LINE | B_IAC;
const NNTP_ARG = LINE | B_TAB | B_SP;

function bitOf(octet: number): number {
  switch (octet) {
    case CR: return B_CR;
    case LF: return B_LF;
    case NUL: return B_NUL;
    case TAB: return B_TAB;
    case SP: return B_SP;
    case IAC: return B_IAC;
    default: return 0;
  }
}

function octetName(octet: number): string {
  switch (octet) {
    case CR: return 'CR';
    case LF: return 'LF';
    case NUL: return 'NUL';
    case TAB: return 'TAB';
    case SP: return 'a space';
    case IAC: return 'the octet FF (Telnet IAC)';
    default: return `the octet ${octet.toString(16).toUpperCase().padStart(2, '0')}`;
  }
}

/** What the octet does to the protocol line it lands in. */
function effect(octet: number): string {
  switch (octet) {
    case CR:
    case LF:
      return 'ends the line, and the rest would be read as another command';
    case NUL:
      return 'ends the string early (C strings, the field terminator) or breaks the protocol';
    case TAB:
      return 'separates the fields of the request, adding one the URL does not name';
    case SP:
      return 'separates the arguments of the command, adding one the URL does not name';
    case IAC:
      return 'starts a Telnet command (RFC 854) on the control connection';
    default:
      return 'breaks the protocol';
  }
}

/** Where findings go, with the offset of href in the input. */
interface Sink {
  out: { push(d: Diagnostic): unknown };
  base: number;
}

/**
 * Reports every escape in href[start, end) whose octet is in `mask`: `encoded-delimiter` with what
 * the octet would do in `line`, or `encoded-control` when `control` is set.
 */
function scan(url: Url, start: number, end: number, mask: number, what: string, line: string, sink: Sink, control = false): void {
  const h = url.href;
  for (let i = h.indexOf('%', start); i >= 0 && i + 2 < end; i = h.indexOf('%', i + 1)) {
    const hi = hexValue(h.charCodeAt(i + 1));
    const lo = hi < 0 ? -1 : hexValue(h.charCodeAt(i + 2));
    if (lo < 0) continue;
    const octet = (hi << 4) | lo;
    if ((bitOf(octet) & mask) === 0) continue;
    const esc = h.slice(i, i + 3);
    sink.out.push(control
      ? diagnostic(ENCODED_CONTROL, i + sink.base,
        `"${esc}" in ${what} decodes to ${octetName(octet)}; ${line} (RFC 1738 6)`)
      : diagnostic(ENCODED_DELIMITER, i + sink.base,
        `"${esc}" in ${what} decodes to ${octetName(octet)}, which ${effect(octet)}: the client sends ${what} decoded in ${line} (RFC 1738 6)`));
    i += 2;
  }
}

/** The user and password of a "//" login, when present. */
function loginParts(url: Url, mask: number, userLine: string, passwordLine: string, sink: Sink): void {
  if (url.userStart < 0) return;
  const c = url.components();
  if (c.user !== null) scan(url, c.user[0], c.user[1], mask, 'the user name', userLine, sink);
  if (c.password !== null) scan(url, c.password[0], c.password[1], mask, 'the password', passwordLine, sink);
}

/** The url-path range, or for a URL without "//" the scheme-specific part. */
function bodyRange(url: Url): [number, number] | null {
  if (url.hasLogin) return url.pathStart < 0 ? null : [url.pathStart, url.bodyEnd];
  return [url.schemePartStart, url.bodyEnd];
}

// RFC 1738 3.2.1, 3.2.2; RFC 959 4.1 (the control connection follows the Telnet protocol).
function ftp(url: Url, sink: Sink): void {
  loginParts(url, TELNET_LINE, 'the FTP command "USER <user>" CR LF', 'the FTP command "PASS <password>" CR LF', sink);
  const r = bodyRange(url);
  if (r === null) return;
  const semi = typeSuffixAt(url.href, r[0], r[1]);
  scan(url, r[0], semi >= 0 ? semi : r[1], TELNET_LINE, 'a path segment', 'the FTP command "CWD <segment>" or "RETR <name>" CR LF', sink);
}

// RFC 1738 3.10: a local path goes to the file system; another host's path is fetched by FTP.
function file(url: Url, sink: Sink): void {
  const r = bodyRange(url);
  if (r === null) return;
  if (isLocalHost(url.host)) scan(url, r[0], r[1], B_NUL, 'the path', 'the file name handed to the file system, where NUL ends the name', sink);
  else scan(url, r[0], r[1], TELNET_LINE, 'the path', 'the FTP commands "CWD <segment>" and "RETR <name>" (a file on another host is fetched by FTP)', sink);
}

/** True when href[i, i+3) is "%09" (the gopher separator; "9" has no case). */
function isTab(h: string, i: number, end: number): boolean {
  return i + 2 < end && h.charCodeAt(i) === 37 && h.charCodeAt(i + 1) === 48 && h.charCodeAt(i + 2) === 57;
}

// RFC 1738 3.4.1-3.4.9: gtype, selector, "%09" search, "%09" gopher+ string.
function gopher(url: Url, sink: Sink): void {
  const r = bodyRange(url);
  if (r === null || r[0] === r[1]) return;
  const h = url.href;
  const [s, e] = r;
  // The gtype is one character or one escape; it is not sent (the validator checks it).
  let g = s + 1;
  if (h.charCodeAt(s) === 37 && s + 2 < e && hexValue(h.charCodeAt(s + 1)) >= 0 && hexValue(h.charCodeAt(s + 2)) >= 0) g = s + 3;
  let selEnd = e;
  let searchEnd = -1;
  let plusStart = -1;
  for (let i = g; i < e; i++) {
    if (!isTab(h, i, e)) continue;
    if (selEnd === e) {
      selEnd = i;
      searchEnd = e;
      i += 2;
    } else {
      searchEnd = i;
      plusStart = i + 3;
      break;
    }
  }
  const line = 'the Gopher request "<selector> TAB <search>" CR LF';
  scan(url, g, selEnd, LINE, 'the selector', line, sink);
  if (searchEnd >= 0) scan(url, selEnd + 3, searchEnd, LINE, 'the search', line, sink);
  if (plusStart >= 0) gopherPlus(url, plusStart, e, sink);
}

/** The octets of href[start, end) with the href offset of each (an escape's "%"). */
function octetsAt(h: string, start: number, end: number): { octets: number[]; at: number[] } {
  const octets: number[] = [];
  const at: number[] = [];
  for (let i = start; i < end; i++) {
    const c = h.charCodeAt(i);
    if (c === 37 && i + 2 < end) {
      const hi = hexValue(h.charCodeAt(i + 1));
      const lo = hi < 0 ? -1 : hexValue(h.charCodeAt(i + 2));
      if (lo >= 0) {
        octets.push((hi << 4) | lo);
        at.push(i);
        i += 2;
        continue;
      }
    }
    octets.push(c);
    at.push(i);
  }
  return { octets, at };
}

/**
 * The Gopher+ string (RFC 1738 3.4.3-3.4.9). NUL never belongs there. CR and LF belong only to the
 * electronic form of 3.4.9, "a coded version of what the client sends":
 *   "+" [view [" " language]] TAB "1" CR LF  "+-1" CR LF  *(value CR LF)  "." CR LF
 * where no value is "." alone (that line ends the data block) and nothing follows the final line.
 * The first CR or LF outside that form is reported: from there on the client would send lines the
 * URL's form does not account for. A TAB is the Gopher+ request line's own field separator (the
 * TAB before the data flag "1" in 3.4.9) and is not reported.
 */
function gopherPlus(url: Url, start: number, end: number, sink: Sink): void {
  const { octets, at } = octetsAt(url.href, start, end);
  const n = octets.length;
  const what = 'the Gopher+ string';
  const line = 'the Gopher+ request: CR LF may stand there only in the electronic form of RFC 1738 3.4.9 ("+" TAB "1" CR LF "+-1" CR LF values CR LF "." CR LF)';
  const report = (k: number) => {
    const i = at[k];
    sink.out.push(diagnostic(ENCODED_DELIMITER, i + sink.base,
      `"${url.href.slice(i, i + 3)}" in ${what} decodes to ${octetName(octets[k])}, which ${effect(octets[k])}: ${line} (RFC 1738 6)`));
  };
  let firstBreak = -1;
  for (let k = 0; k < n; k++) {
    const o = octets[k];
    if (o === NUL) report(k);
    else if ((o === CR || o === LF) && firstBreak < 0) firstBreak = k;
  }
  if (firstBreak < 0) return;
  // Walk the form line by line; `k` is the start of the current line.
  const lineEnd = (k: number): number => {
    while (k < n && octets[k] !== CR && octets[k] !== LF) k++;
    return k;
  };
  const isCrLf = (k: number) => k + 1 < n && octets[k] === CR && octets[k + 1] === LF;
  const equals = (k: number, e: number, text: string) => {
    if (e - k !== text.length) return false;
    for (let j = 0; j < text.length; j++) if (octets[k + j] !== text.charCodeAt(j)) return false;
    return true;
  };
  // Line 1: "+" ... TAB "1"
  let e = lineEnd(0);
  if (!(octets[0] === 43 && e >= 3 && octets[e - 2] === TAB && octets[e - 1] === 49 && isCrLf(e))) {
    report(e);
    return;
  }
  let k = e + 2;
  // Line 2: "+-1"
  e = lineEnd(k);
  if (e === n) return; // no further line end: the block is unfinished, but nothing is smuggled
  if (!(equals(k, e, '+-1') && isCrLf(e))) {
    report(e);
    return;
  }
  k = e + 2;
  // Values, then ".".
  for (;;) {
    e = lineEnd(k);
    if (e === n) return;
    if (!isCrLf(e)) {
      report(e);
      return;
    }
    if (equals(k, e, '.')) {
      const after = lineEnd(e + 2);
      if (after < n) report(after);
      return;
    }
    k = e + 2;
  }
}

// RFC 1738 3.5; RFC 821 4.1.1: RCPT TO:<address> CR LF.
function mailto(url: Url, sink: Sink): void {
  scan(url, url.schemePartStart, url.bodyEnd, LINE, 'the address', 'the SMTP command "RCPT TO:<address>" CR LF', sink);
}

// RFC 1738 3.6; RFC 977 2.3 (arguments separated by spaces or tabs), 3.1.1, 3.2.1.
function news(url: Url, sink: Sink): void {
  const s = url.schemePartStart;
  const e = url.bodyEnd;
  const h = url.href;
  if (e - s === 1 && h.charCodeAt(s) === 42) return; // news:*
  const article = h.indexOf('@', s);
  if (article >= 0 && article < e) scan(url, s, e, NNTP_ARG, 'the message-id', 'the NNTP command "ARTICLE <message-id>" CR LF', sink);
  else scan(url, s, e, NNTP_ARG, 'the newsgroup name', 'the NNTP command "GROUP <group>" CR LF', sink);
}

// RFC 1738 3.7: nntp://host:port/group/article; the drafts' nntp:group/article.
function nntp(url: Url, sink: Sink): void {
  const r = bodyRange(url);
  if (r === null) return;
  let slash = url.href.indexOf('/', r[0]);
  if (slash < 0 || slash > r[1]) slash = r[1];
  scan(url, r[0], slash, NNTP_ARG, 'the newsgroup name', 'the NNTP command "GROUP <group>" CR LF', sink);
  // The article number is digits: an escape there makes it no number, and it is not sent.
}

// RFC 1738 3.8: the user name and password are advisory; a client that logs in types them.
function telnet(url: Url, sink: Sink): void {
  loginParts(url, TELNET_LINE, 'the Telnet session, typed at the login prompt followed by CR LF',
    'the Telnet session, typed at the password prompt followed by CR LF', sink);
}

// Drafts 1993-10, 1994-03; RFC 1282: the handshake's fields each end with NUL.
function rlogin(url: Url, sink: Sink): void {
  loginParts(url, LINE, 'the rlogin handshake ("<NUL>client-user<NUL>server-user<NUL>terminal/speed<NUL>")',
    'the rlogin session, typed at the password prompt followed by CR LF', sink);
}

// RFC 1738 3.9; RFC 1625: Z39.50 APDUs in BER, every field length-prefixed.
function wais(url: Url, sink: Sink): void {
  const r = bodyRange(url);
  if (r === null) return;
  const h = url.href;
  const [s, e] = r;
  let k = s;
  while (k < e && h.charCodeAt(k) !== 47 && h.charCodeAt(k) !== 63) k++;
  const note = 'WAIS fields are length-prefixed (RFC 1625), but servers such as freeWAIS read them as C strings, which NUL ends';
  scan(url, s, k, B_NUL, 'the database name', note, sink, true);
  if (k >= e) return;
  if (h.charCodeAt(k) === 63) {
    scan(url, k + 1, e, B_NUL, 'the search', note, sink, true);
    return;
  }
  let w = k + 1;
  while (w < e && h.charCodeAt(w) !== 47) w++;
  scan(url, k + 1, w, B_NUL, 'the wtype', note, sink, true);
  // The wpath is the DocID: octets the server issued, sent back unchanged.
}

// RFC 1738 3.11 and the Prospero protocol: text lines ("DIRECTORY ASCII <hsoname>").
function prospero(url: Url, sink: Sink): void {
  const r = bodyRange(url);
  if (r === null) return;
  let semi = url.href.indexOf(';', r[0]);
  if (semi < 0 || semi > r[1]) semi = r[1];
  const line = 'the Prospero request lines ("DIRECTORY ASCII <hsoname>")';
  scan(url, r[0], semi, B_CR | B_LF, 'the hsoname', line, sink);
  scan(url, semi, r[1], LINE, 'a field', line, sink);
}

// Draft 1993-07 afsaddress: the path names a file under /afs/<cell>.
function afs(url: Url, sink: Sink): void {
  const r = bodyRange(url);
  if (r !== null) scan(url, r[0], r[1], B_NUL, 'the path', 'the file name handed to the file system, where NUL ends the name', sink);
}

// RFC 1738 3.3 and the drafts: the client sends the path and search as written, still encoded.
function http(url: Url, sink: Sink): void {
  const r = bodyRange(url);
  if (r !== null) {
    scan(url, r[0], r[1], LINE, 'the path or search',
      'the HTTP client sends it encoded, so it ends nothing here; a server or gateway that decodes it may take it for a line end (header injection) or the end of a name', sink, true);
  }
}

function other(url: Url, sink: Sink): void {
  scan(url, url.schemePartStart, url.bodyEnd, LINE, 'the URL',
    `locator does not know the protocol of "${url.scheme}", so it cannot tell whether this is a delimiter there`, sink, true);
}

function none(): void {}

const RULES: ReadonlyMap<string, (url: Url, sink: Sink) => void> = new Map([
  ['ftp', ftp], ['file', file], ['gopher', gopher], ['mailto', mailto], ['news', news], ['nntp', nntp],
  ['telnet', telnet], ['tn3270', telnet], ['rlogin', rlogin], ['wais', wais], ['prospero', prospero],
  ['afs', afs], ['http', http], ['https', http], ['mid', none], ['cid', none],
]);

/** The schemes with rules of their own (any other scheme gets the `encoded-control` scan). */
export function delimiterSchemes(): string[] {
  return [...RULES.keys()];
}

/**
 * Finds the escapes of `url` that decode to a delimiter of its scheme's protocol where the client
 * sends them (RFC 1738 6), and pushes a diagnostic for each onto `out` (offsets into the input).
 */
export function encodedDelimiters(url: Url, out: { push(d: Diagnostic): unknown }): void {
  const rule = RULES.get(url.scheme) ?? other;
  rule(url, { out, base: url.inputOffset });
}
