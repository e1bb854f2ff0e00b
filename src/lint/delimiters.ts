// Encoded delimiters, scheme by scheme (RFC 1738 6): "Care should be taken when URLs contain
// embedded encoded delimiters for a given protocol (for example, CR and LF characters for telnet
// protocols) that these are not unencoded before transmission. This would violate the protocol
// but could be used to simulate an extra operation or parameter".
//
// Each scheme entry says which parts its client sends, in which protocol line, and which octets
// delimit that line or its fields (its `wire` hook, src/schemes/spec.ts WirePart: the access
// algorithms of RFC 1738 3.x, as explain() shows them); this module holds no table by scheme.
// An escape there that decodes to such an octet is `encoded-delimiter` (an error: the policy
// refuses the URL). Where the client sends the part still encoded (HTTP), or where locator does
// not know the protocol, an escape of CR, LF or NUL is `encoded-control` (a warning). Escapes are
// read at the octet level: "%C0%8D" is not CR.
//
// What the built-in entries' `wire` hooks say (src/schemes/*.ts; also in docs/security.md):
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
//   (no `wire`)
//
// A part may carry several lines by design (`dataBlockAt`: the data block of a filled-in Gopher+
// form, RFC 1738 3.4.9): to any other port than the scheme's default it is `gopher-plus-data-block`
// (an error; the policy allows it only on a port it allows explicitly that is registered to no
// other protocol, never after a redirect). See docs/security.md.

import type { Url } from '../core/url.js';
import { diagnostic, type Diagnostic } from '../core/errors.js';
import { hexValue } from '../core/percent.js';
import { entryOf } from '../schemes/registry.js';
import type { WirePart } from '../schemes/spec.js';
import { ENCODED_DELIMITER, ENCODED_CONTROL, GOPHER_PLUS_DATA_BLOCK } from './codes.js';

const NUL = 0;
const TAB = 9;
const LF = 10;
const CR = 13;
const SP = 32;
const IAC = 255;

function octetName(octet: number): string {
  switch (octet) {
    case CR:
      return 'CR';
    case LF:
      return 'LF';
    case NUL:
      return 'NUL';
    case TAB:
      return 'TAB';
    case SP:
      return 'a space';
    case IAC:
      return 'the octet FF (Telnet IAC)';
    default:
      return `the octet ${octet.toString(16).toUpperCase().padStart(2, '0')}`;
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

/** The octet at href[i]: the one an escape stands for, else the character's own code. */
function octetAt(h: string, i: number): number {
  if (h.charCodeAt(i) === 37) {
    const hi = hexValue(h.charCodeAt(i + 1));
    const lo = hi < 0 ? -1 : hexValue(h.charCodeAt(i + 2));
    if (lo >= 0) return (hi << 4) | lo;
  }
  return h.charCodeAt(i);
}

/** The text at href[i]: an escape's three characters, or the one character. */
function escapeAt(h: string, i: number): string {
  return h.charCodeAt(i) === 37 ? h.slice(i, i + 3) : h.charAt(i);
}

/**
 * Reports every escape in the part whose octet is one of its delimiters: `encoded-delimiter` with
 * what the octet would do in the part's line, or `encoded-control` when the part is sent encoded.
 */
function scan(url: Url, part: WirePart, out: { push(d: Diagnostic): unknown }, base: number): void {
  const h = url.href;
  const { start, end, what, line, delimiters } = part;
  const control = part.sent === 'encoded';
  for (let i = h.indexOf('%', start); i >= 0 && i + 2 < end; i = h.indexOf('%', i + 1)) {
    const hi = hexValue(h.charCodeAt(i + 1));
    const lo = hi < 0 ? -1 : hexValue(h.charCodeAt(i + 2));
    if (lo < 0) continue;
    const octet = (hi << 4) | lo;
    if (!delimiters.includes(octet)) continue;
    const esc = h.slice(i, i + 3);
    out.push(
      control
        ? diagnostic(
            ENCODED_CONTROL,
            i + base,
            `"${esc}" in ${what} decodes to ${octetName(octet)}; ${line} (RFC 1738 6)`,
          )
        : diagnostic(
            ENCODED_DELIMITER,
            i + base,
            `"${esc}" in ${what} decodes to ${octetName(octet)}, which ${effect(octet)}: the client sends ${what} decoded in ${line} (RFC 1738 6)`,
          ),
    );
    i += 2;
  }
}

/** A part with a check of its own: each offset it returns is an escape that smuggles a delimiter. */
function checked(url: Url, part: WirePart, out: { push(d: Diagnostic): unknown }, base: number): void {
  const h = url.href;
  for (const i of part.check!(url, part)) {
    const octet = octetAt(h, i);
    out.push(
      diagnostic(
        ENCODED_DELIMITER,
        i + base,
        `"${escapeAt(h, i)}" in ${part.what} decodes to ${octetName(octet)}, which ${effect(octet)}: ${part.line} (RFC 1738 6)`,
      ),
    );
  }
}

/** An unknown protocol: every escape of CR, LF or NUL in the scheme-specific part is a warning. */
function unknown(url: Url): WirePart {
  return {
    what: 'the URL',
    start: url.schemePartStart,
    end: url.bodyEnd,
    delimiters: [CR, LF, NUL],
    sent: 'encoded',
    line: `locator does not know the protocol of "${url.scheme}", so it cannot tell whether this is a delimiter there`,
  };
}

/**
 * The parts of `url` its scheme's client puts on the wire (RFC 1738 6): the entry's `wire`, or for
 * a scheme with none (or none registered) the whole scheme-specific part, sent encoded.
 */
export function wireParts(url: Url): WirePart[] {
  const wire = entryOf(url)?.wire;
  return typeof wire === 'function' ? wire(url) : [unknown(url)];
}

/**
 * Finds the escapes of `url` that decode to a delimiter of its scheme's protocol where the client
 * sends them (RFC 1738 6), and pushes a diagnostic for each onto `out` (offsets into the input).
 */
export function encodedDelimiters(
  url: Url,
  out: { push(d: Diagnostic): unknown },
  parts: readonly WirePart[] = wireParts(url),
): void {
  const base = url.inputOffset;
  for (const part of parts) {
    if (part.check !== undefined) checked(url, part, out, base);
    else scan(url, part, out, base);
  }
}

/**
 * A part that carries several protocol lines by design (`dataBlockAt`: the data block of a
 * filled-in Gopher+ form, RFC 1738 3.4.9) sent to any other port than the scheme's default:
 * `gopher-plus-data-block` at the data block's first line end (RFC 1738 6: a server of another
 * protocol there reads each line as a command). On the default port the lines go to a server of
 * the scheme's own protocol, and nothing is reported.
 */
export function dataBlocks(url: Url, out: Diagnostic[], parts: readonly WirePart[] = wireParts(url)): void {
  const defaultPort = entryOf(url)?.defaultPort ?? null;
  if (url.port === defaultPort && defaultPort !== null) return;
  for (const part of parts) {
    if (part.dataBlockAt === undefined) continue;
    const port = url.port === null ? 'no port' : `port ${url.port}`;
    out.push(
      diagnostic(
        GOPHER_PLUS_DATA_BLOCK,
        part.dataBlockAt + url.inputOffset,
        `${part.what} carries a data block of several lines (the filled-in form of RFC 1738 3.4.9) to ${port}, not the default port ${defaultPort ?? '(none)'} of ${url.scheme}: a server of another protocol there would read each line as a command (RFC 1738 6); only a port the policy allows explicitly may receive one`,
      ),
    );
  }
}
