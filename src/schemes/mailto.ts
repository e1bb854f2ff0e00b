// The mailto scheme (RFC 1738 3.5; section 5 mailtourl), and the RFC 822 addr-spec check that
// mailto, mid and cid share.
//
//   mailtourl      = "mailto:" encoded822addr
//   encoded822addr = 1*xchar               ; further defined in RFC822
//
// "Within mailto URLs, there are no reserved characters. Note that the percent sign ("%") is
// commonly used within RFC 822 addresses and must be encoded." (3.5) So every xchar stands for
// itself, the address is the decoded scheme-specific part, and a "%" of the address is %25.

import { normalizeEscapes, DECODE_ALL_GRAPHIC_SAFE } from '../core/escapes.js';
import type { Url } from '../core/url.js';
import type { Report, SchemeSpec, Explanation, WirePart } from './spec.js';
import { LINE, wirePart } from './wire.js';
import { CHAR_CLASS, XCHAR } from '../core/charclass.js';
import { LocatorError, defineCode } from '../core/errors.js';
import { XCHAR_SET, decodeSlice, encode, hexValue } from '../core/percent.js';
import { INVALID_FIELD } from './codes.js';
import { isEscape, schemePartRange } from './ranges.js';
import { text } from './read.js';
import { bodySet, usualPart } from '../core/analyze.js';
import { refuseLoginFields } from './login.js';
import { formatRequest, violationNotes } from './notes.js';

export const INVALID_ADDR_SPEC = defineCode(
  'invalid-addr-spec',
  'error',
  'RFC 1738 3.5',
  'a mailto URL holds an RFC 822 addr-spec: local-part "@" domain',
);
export const MAILTO_SLASHES = defineCode(
  'mailto-slashes',
  'error',
  'RFC 1738 3.5',
  'a mailto URL has no "//": it is mailto:<rfc822-addr-spec>',
);
export const MAILTO_QUERY = defineCode(
  'mailto-query',
  'warning',
  'RFC 1738 3.5',
  'RFC 1738 gives mailto URLs no "?" header fields (RFC 2368 added them later): here "?" is part of the address',
);

// ---------------------------------------------------------------------------------------------
// RFC 822 addr-spec (RFC 822 6.1, 3.3), read over the octets of an encoded range of a URL.
//
//   addr-spec      = local-part "@" domain
//   local-part     = word *("." word)
//   word           = atom / quoted-string
//   domain         = sub-domain *("." sub-domain)
//   sub-domain     = domain-ref / domain-literal
//   domain-ref     = atom
//   atom           = 1*<any CHAR except specials, SPACE and CTLs>
//   specials       = "(" / ")" / "<" / ">" / "@" / "," / ";" / ":" / "\" / <"> / "." / "[" / "]"
//   quoted-string  = <"> *(qtext/quoted-pair) <">
//   qtext          = <any CHAR excepting <">, "\" & CR, and including linear-white-space>
//   domain-literal = "[" *(dtext / quoted-pair) "]"
//   dtext          = <any CHAR excluding "[", "]", "\", & CR, & including linear-white-space>
//   quoted-pair    = "\" CHAR
//   CHAR           = <any ASCII character>  (octets 0-127)
//
// DEVIATION: RFC 822 3.1.4 lets white space and comments stand between the lexical tokens of a
// header field ("joe @ example.com"); they are not part of the address itself, so an address in
// a URL is read without them, and a space or "(" between tokens is reported.
// ---------------------------------------------------------------------------------------------

/** A finding of the addr-spec check: an offset into href and what is wrong there. */
export interface AddrSpecProblem {
  offset: number;
  message: string;
}

/** The octet a URL writes at `i` (RFC 1738 2.2): the value of a %XX escape, else the code unit itself. */
export function octetAt(s: string, i: number, end: number): number {
  const c = s.charCodeAt(i);
  if (c === 37 && i + 2 < end) {
    const h = hexValue(s.charCodeAt(i + 1));
    const l = h >= 0 ? hexValue(s.charCodeAt(i + 2)) : -1;
    if (l >= 0) return (h << 4) | l;
  }
  return c;
}

/** How many code units the octet at `i` takes (RFC 1738 2.2): 3 for an escape, else 1. */
export function widthAt(s: string, i: number, end: number): number {
  return isEscape(s, i, end) ? 3 : 1;
}

/** RFC 822 3.3 specials, SPACE, CTLs and DEL: not atom characters. */
function isAtomOctet(o: number): boolean {
  if (o <= 32 || o >= 127) return false;
  switch (o) {
    case 40:
    case 41:
    case 60:
    case 62:
    case 64:
    case 44:
    case 59:
    case 58:
    case 92:
    case 34:
    case 46:
    case 91:
    case 93:
      return false;
    default:
      return true;
  }
}

/** Names an octet in a message: a space, a printable character in quotes, else its hex value. */
export function describeOctet(o: number): string {
  if (o === 32) return 'a space';
  if (o > 32 && o < 127) return `"${String.fromCharCode(o)}"`;
  return `the octet ${o.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** What to say about an octet that cannot stand where it is. */
function notAllowed(s: string, i: number, end: number, where: string): string {
  const o = octetAt(s, i, end);
  if (o >= 128) {
    const escaped = widthAt(s, i, end) === 3;
    return `${describeOctet(o)} is not US-ASCII: an RFC 822 address is ASCII${
      escaped ? ` (if "%" is part of the address, write it as %25, RFC 1738 3.5)` : ''
    }`;
  }
  if (o === 64)
    return `a second "@": only one "@" separates local-part and domain (quote an "@" of the local part: "...", written %22...%22)`;
  if (o === 44) return `"," lists addresses, but a mailto URL names one address (RFC 1738 3.5)`;
  if (o === 32 || o === 9 || o === 40) {
    return `${describeOctet(o)} cannot stand ${where}: RFC 822 white space and comments between tokens are not part of an address`;
  }
  return `${describeOctet(o)} cannot stand ${where} (RFC 822 specials, space and controls are not atom characters; quote the word as "...", written %22...%22)`;
}

/**
 * Checks that href[start, end), decoded, is an RFC 822 addr-spec (RFC 822 6.1). Escapes are read
 * as the octets they encode; other code units as themselves. Returns the first problem with its
 * href offset, or null. A char-code scan: no substring, no regular expression.
 */
export function checkAddrSpec(s: string, start: number, end: number): AddrSpecProblem | null {
  if (start >= end)
    return { offset: start, message: 'it is empty, and an addr-spec is local-part "@" domain (RFC 822 6.1)' };
  let i = start;
  // local-part = word *("." word)
  for (;;) {
    const r = word(s, i, end, 'in the local-part');
    if (typeof r !== 'number') return r;
    i = r;
    if (i >= end) return { offset: end, message: 'no "@": an addr-spec is local-part "@" domain (RFC 822 6.1)' };
    const o = octetAt(s, i, end);
    if (o === 46) {
      i += widthAt(s, i, end);
      continue;
    }
    if (o === 64) {
      i += widthAt(s, i, end);
      break;
    }
    if (o === 34 || isAtomOctet(o)) {
      return { offset: i, message: 'the words of a local-part are separated by "." (RFC 822 6.1)' };
    }
    return { offset: i, message: notAllowed(s, i, end, 'in the local-part') };
  }
  // domain = sub-domain *("." sub-domain)
  for (;;) {
    if (i >= end) return { offset: end, message: 'the domain after "@" is missing or ends with "." (RFC 822 6.1)' };
    const r = octetAt(s, i, end) === 91 ? domainLiteral(s, i, end) : atom(s, i, end, 'in the domain', 'a sub-domain');
    if (typeof r !== 'number') return r;
    i = r;
    if (i >= end) return null;
    const o = octetAt(s, i, end);
    if (o === 46) {
      i += widthAt(s, i, end);
      continue;
    }
    if (o === 91 || isAtomOctet(o)) {
      return { offset: i, message: 'the sub-domains of a domain are separated by "." (RFC 822 6.1)' };
    }
    return { offset: i, message: notAllowed(s, i, end, 'in the domain') };
  }
}

/**
 * An escape of an atom octet (RFC 822 3.3: printing US-ASCII less the specials), as a pattern
 * (the hex digits in either case).
 */
function atomEscape(): string {
  const alts: string[] = [];
  for (let o = 33; o < 127; o++) {
    if (!isAtomOctet(o)) continue;
    const d = (n: number) => (n < 10 ? String(n) : `[${n.toString(16)}${n.toString(16).toUpperCase()}]`);
    alts.push(d(o >> 4) + d(o & 15));
  }
  return `%(?:${alts.join('|')})`;
}

/**
 * The usual mailto URL, which neither the generic rules nor validate() report anything in (RFC
 * 1738 3.5, 5; RFC 822 6.1): no "//", then atoms separated by "." (of characters that stand as
 * they are, less "?", and escapes of atom octets), "@", and atoms separated by ".".
 */
const ATOM = /* @__PURE__ */ (() => `(?:[${bodySet('()<>@,;:\\".[]?')}]|${atomEscape()})+`)();
const USUAL = /* @__PURE__ */ usualPart(`(?!//)${ATOM}(?:\\.${ATOM})*@${ATOM}(?:\\.${ATOM})*`);

/** word = atom / quoted-string; returns the index after it, or a problem. */
function word(s: string, i: number, end: number, where: string): number | AddrSpecProblem {
  if (i < end && octetAt(s, i, end) === 34) return quoted(s, i, end, 34, 'quoted string', '<">');
  return atom(s, i, end, where, 'a word');
}

/** atom = 1*<any CHAR except specials, SPACE and CTLs>. */
function atom(s: string, i: number, end: number, where: string, what: string): number | AddrSpecProblem {
  const from = i;
  while (i < end && isAtomOctet(octetAt(s, i, end))) i += widthAt(s, i, end);
  if (i > from) return i;
  if (i >= end) return { offset: i, message: `${what} is missing at the end ${where} (RFC 822 6.1)` };
  const o = octetAt(s, i, end);
  if (o === 46)
    return { offset: i, message: `${what} is missing before "." ${where}: "." only separates (RFC 822 6.1)` };
  if (o === 64) return { offset: i, message: `${what} is missing before "@" (RFC 822 6.1)` };
  return { offset: i, message: notAllowed(s, i, end, where) };
}

/** domain-literal = "[" *(dtext / quoted-pair) "]". */
function domainLiteral(s: string, i: number, end: number): number | AddrSpecProblem {
  return quoted(s, i, end, 93, 'domain literal', '"]"');
}

/**
 * The body of a quoted-string (close = <">) or a domain-literal (close = "]"), opened at `i`:
 * any CHAR but the closer, "\" and CR; "\" CHAR is a quoted-pair; CR only as the start of
 * folding white space (CR LF followed by SPACE or HTAB); a domain literal holds no "[".
 */
function quoted(
  s: string,
  i: number,
  end: number,
  close: number,
  what: string,
  closer: string,
): number | AddrSpecProblem {
  const open = i;
  i += widthAt(s, i, end);
  while (i < end) {
    const o = octetAt(s, i, end);
    const w = widthAt(s, i, end);
    if (o === close) return i + w;
    if (o >= 128) return { offset: i, message: notAllowed(s, i, end, `in a ${what}`) };
    if (o === 92) {
      i += w;
      if (i >= end) break;
      if (octetAt(s, i, end) >= 128) return { offset: i, message: notAllowed(s, i, end, `in a ${what}`) };
      i += widthAt(s, i, end);
      continue;
    }
    if (o === 13) {
      const j = i + w;
      const k = j < end && octetAt(s, j, end) === 10 ? j + widthAt(s, j, end) : -1;
      const f = k >= 0 && k < end ? octetAt(s, k, end) : -1;
      if (f !== 32 && f !== 9) {
        return {
          offset: i,
          message: `a CR in a ${what} must be quoted as "\\" CR or begin folding white space (CR LF SPACE), RFC 822 3.3`,
        };
      }
      i = k;
      continue;
    }
    if (close === 93 && o === 91)
      return { offset: i, message: `"[" cannot stand inside a domain literal unquoted (RFC 822 6.2.3 dtext)` };
    i += w;
  }
  return { offset: open, message: `the ${what} opened here is not closed by ${closer} (RFC 822 3.3)` };
}

/**
 * True when the scanner reported the code unit at `i` already (RFC 1738 2.2, 5: it is not an
 * xchar and does not start a well-formed escape), so a scheme check does not report it again.
 * A problem at `end`, the end of the part checked, is no code unit of it: there the addr-spec
 * stops short (no "@", no domain), and what follows (the "#" of a fragment) is not the fault.
 */
export function flaggedByScanner(s: string, i: number, end = s.length): boolean {
  if (i >= end) return false;
  const c = s.charCodeAt(i);
  if (c === 37) return widthAt(s, i, s.length) !== 3;
  return c >= 128 || (CHAR_CLASS[c] & XCHAR) === 0;
}

// ---------------------------------------------------------------------------------------------
// The scheme
// ---------------------------------------------------------------------------------------------

/** mailto rules (RFC 1738 3.5; section 5 mailtourl; RFC 822 6.1 addr-spec). */
function validate(url: Url, report: Report): void {
  const { start, end } = schemePartRange(url);
  const s = url.href;
  // 3.5: mailto:<rfc822-addr-spec>, with no "//" of the common Internet syntax (3.1).
  if (end - start >= 2 && s.charCodeAt(start) === 47 && s.charCodeAt(start + 1) === 47) {
    report(
      MAILTO_SLASHES,
      start + url.inputOffset,
      'a mailto URL has no "//" (RFC 1738 3.5: mailto:<rfc822-addr-spec>, not the common Internet syntax); write mailto:user@host',
    );
    return;
  }
  if (start === end) {
    report(
      INVALID_ADDR_SPEC,
      start + url.inputOffset,
      'the address is empty: mailto:<rfc822-addr-spec> (RFC 1738 3.5)',
    );
    return;
  }
  const problem = checkAddrSpec(s, start, end);
  if (problem !== null && !flaggedByScanner(s, problem.offset, end)) {
    report(INVALID_ADDR_SPEC, problem.offset + url.inputOffset, problem.message);
  }
  // RFC 2368 (later) made "?" start header fields; in RFC 1738 it is part of the address.
  for (let i = start; i < end; i++) {
    if (s.charCodeAt(i) === 63) {
      report(MAILTO_QUERY, i + url.inputOffset);
      break;
    }
  }
}

/** mailto (RFC 1738 3.5): the RFC 822 addr-spec. */
export interface MailtoFields {
  address: string;
}

/** The decoded address (RFC 1738 3.5: the scheme-specific part is the encoded addr-spec). */
function fields(url: Url): MailtoFields {
  return Object.freeze({ address: decodeSlice(url.href, url.schemePartStart, url.bodyEnd) });
}

/**
 * Writes the address (RFC 1738 3.5, 2.2): no character is reserved, so only what is never safe
 * is encoded ("%" as %25, space, unsafe characters, controls, non-ASCII as UTF-8 octets), and
 * a leading "/" when a second follows, so that the URL never starts with "//".
 * An address RFC 822 does not accept is still written (encoded822addr = 1*xchar carries any
 * octets); parse() reports it. Only a missing or empty address is refused.
 */
function build(f: Record<string, unknown>): string {
  const address = f.address;
  if (typeof address !== 'string') throw new LocatorError(INVALID_FIELD, -1, 'mailto needs an address (a string)');
  if (address === '')
    throw new LocatorError(INVALID_FIELD, -1, 'the mailto address is empty (RFC 1738 5: encoded822addr = 1*xchar)');
  refuseLoginFields(f, 'mailto', 'the address is the whole URL (RFC 1738 3.5)');
  const out = encode(address, XCHAR_SET);
  return out.startsWith('//') ? '%2F' + out.slice(1) : out;
}

/**
 * The access algorithm (RFC 1738 3.5, draft 1993-10 MAILTO): nothing is retrieved; a client
 * sends a message to the address by SMTP (RFC 821) through the mail server it is configured
 * with. The URL gives only the RCPT TO address.
 */
function explain(url: Url): Explanation {
  const address = text(url, schemePartRange(url));
  const notes = [
    'the URL names no server: the client submits the message through its configured SMTP server (or relay: locator send --smtp host:port, or SMTP_RELAY), which delivers it toward the domain of the address',
    'the message (header fields such as Subject, and the body) comes from the user; a mailto URL carries only the address (RFC 1738 3.5)',
    'nothing is retrieved: a mailto URL does not designate a data object (RFC 1738 3.5); SMTP can only add a message to those sent to the address (draft 1993-10)',
    'EHLO is the greeting of the SMTP service extensions (RFC 1869, later RFC 5321); a server that refuses it is greeted with the RFC 821 HELO',
    'STARTTLS (RFC 3207) when the server offers it, then EHLO again; AUTH PLAIN or LOGIN (RFC 4954) only when credentials are configured, and only over TLS',
  ];
  if (address.includes('%')) {
    notes.push(
      'the "%" in the address is part of the address (a gatewayed address): the relay that receives it interprets it, not the client',
    );
  }
  violationNotes(url, notes);
  return {
    protocol: 'smtp',
    host: null,
    port: null,
    steps: [
      'EHLO <your host name>',
      '[if offered] STARTTLS, the TLS handshake, EHLO <your host name>',
      '[if credentials are configured] AUTH PLAIN or AUTH LOGIN',
      'MAIL FROM:<your address>',
      formatRequest(`RCPT TO:<${address}>`),
      'DATA',
      '<the message: header fields and body, from the user>',
      '.',
      'QUIT',
    ],
    notes,
  };
}

/**
 * The offset of the last "@" in `s` when what follows it is a domain of letters, digits, "-" and
 * "." only that holds an upper-case letter (RFC 822 3.4.7: it compares without regard to case),
 * else -1. Speed: one loop back from the end over the domain alone (no lastIndexOf(), a call
 * into the runtime).
 */
function upperDomainAt(s: string): number {
  let upper = false;
  for (let i = s.length - 1; i >= 0; i--) {
    const c = s.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 46) continue;
    if (c >= 65 && c <= 90) {
      upper = true;
      continue;
    }
    return c === 64 && upper ? i : -1;
  }
  return -1;
}

/** What the client sends (RFC 1738 3.5, 6; RFC 821 4.1.1): the address, in RCPT TO:<address> CR LF. */
function wire(url: Url): WirePart[] {
  return [
    wirePart('the address', url.schemePartStart, url.bodyEnd, 'the SMTP command "RCPT TO:<address>" CR LF', LINE),
  ];
}

/** mailto: an Internet mail address (RFC 1738 3.5). */
export const mailto: SchemeSpec<MailtoFields> = {
  name: 'mailto',
  defaultPort: null,
  syntax: 'opaque',
  status: 'rfc1738',
  hierarchical: false, // opaque: no "//", no path
  normal: {
    section: 'RFC 1738 3.5; RFC 822 3.4.7',
    // "Within mailto URLs, there are no reserved characters": escapes of reserved characters
    // are decoded as well. The domain after the last "@" compares without regard to case (RFC
    // 822 3.4.7: only the local-part keeps its case): in lower case when it is a plain domain.
    part(raw, clean) {
      const p = clean ? raw : normalizeEscapes(raw, DECODE_ALL_GRAPHIC_SAFE);
      // Speed: a domain already in lower case is returned as it stands (no slices, no copy).
      const at = upperDomainAt(p);
      return at >= 0 ? p.slice(0, at + 1) + p.slice(at + 1).toLowerCase() : p;
    },
  },
  validate,
  fields,
  fieldsFrozen: true,
  usual: USUAL,
  build,
  explain,
  wire,
};
