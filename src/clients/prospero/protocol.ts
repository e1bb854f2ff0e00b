// The Prospero protocol's text ("The Prospero Protocol, version 5", Neuman and Augart, ISI;
// cited "Prospero v5" with its chapter and section numbers): the request this client sends (a
// VERSION line and GET-OBJECT-INFO ACCESS-METHOD), the reading of the reply (ATTRIBUTE lines,
// NONE-FOUND, FORWARDED, FAILURE, ERROR, WARNING), and the access methods (appendix A.1.1) made
// into URLs of their own schemes (RFC 1738 3.11). Pure: no I/O.

import { LocatorError, defineCode } from '../../core/errors.js';
import { build } from '../../operations/build.js';
import { tryParse } from '../../schemes/registry.js';
import type { Url } from '../../core/url.js';
import { NOT_FOUND, PROTOCOL_ERROR } from '../types.js';

export const PROSPERO_FAILURE = defineCode(
  'prospero-failure',
  'error',
  'Prospero v5 4.3, 4.4',
  'the Prospero server answered FAILURE or ERROR',
  'protocol',
);
export const PROSPERO_NO_ACCESS = defineCode(
  'prospero-no-access-method',
  'error',
  'RFC 1738 3.11',
  'the Prospero server names no access method this client can follow',
  'protocol',
);
export const PROSPERO_UNSENDABLE = defineCode(
  'prospero-unsendable',
  'error',
  'Prospero v5 2.1',
  'the hsoname or version holds a NUL, which no Prospero token can carry',
  'usage',
);

/** The protocol version this client speaks (Prospero v5 3.1: "VERSION <version-number>"). */
export const PROTOCOL_VERSION = 5;

/**
 * The characters the historic library quotes (lib/pfs/vqsprintf.c): white space, and "/", "'",
 * "+" and "," which the protocol treats specially (Prospero v5 2.1, 2.2).
 */
const NEEDS_QUOTING = /[ \t\f\v\n\r/'+,]/;

/**
 * One token as sent (Prospero v5 2.1): as it is, or in single quotes with a quote doubled when it
 * is empty ("null tokens") or holds a character that needs quoting. A NUL "cannot be quoted": a
 * RangeError.
 */
export function quoteToken(s: string): string {
  if (s.includes('\0')) throw new RangeError('a Prospero token cannot hold NUL (Prospero v5 2.1)');
  if (s !== '' && !NEEDS_QUOTING.test(s)) return s;
  return `'${s.replace(/'/g, "''")}'`;
}

/**
 * Splits a line into tokens (Prospero v5 2.1): separated by unquoted spaces and tabs; a quote
 * starts and ends quoting anywhere in a token (the historic library quotes from the first
 * character that needs it: AFTP'/pub' is "AFTP/pub"), and inside quotes '' is one quote.
 * Throws protocol-error for a quote left open.
 */
export function tokenize(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inToken = false;
  let quoting = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoting) {
      if (c === "'") {
        if (line[i + 1] === "'") {
          cur += "'";
          i++;
        } else quoting = false;
      } else cur += c;
    } else if (c === "'") {
      quoting = true;
      inToken = true;
    } else if (c === ' ' || c === '\t') {
      if (inToken) out.push(cur);
      cur = '';
      inToken = false;
    } else {
      cur += c;
      inToken = true;
    }
  }
  if (quoting)
    throw new LocatorError(
      PROTOCOL_ERROR,
      -1,
      `a quote is left open in the Prospero reply line ${JSON.stringify(line)}`,
    );
  if (inToken) out.push(cur);
  return out;
}

/** What to ask: the object named by its hsoname on one server (RFC 1738 3.11). */
export interface ObjectQuery {
  hsoname: string;
  /** The object version (Prospero v5 1.4.3): "0" for the current one. */
  version: string;
  /** Prospero v5 1.4.4: a REMOTE id, from a FORWARDED reply. */
  remoteId?: string;
}

/** Fails unless every token of `q` can be sent (Prospero v5 2.2: a token holds no NUL). */
export function assertSendable(q: ObjectQuery): void {
  if (q.hsoname.includes('\0') || q.version.includes('\0')) {
    throw new LocatorError(
      PROSPERO_UNSENDABLE,
      -1,
      'the hsoname or version holds NUL, which no Prospero token can carry',
    );
  }
}

/**
 * The request (Prospero v5 3.1, 3.7), lines ended by LF:
 *   VERSION 5
 *   GET-OBJECT-INFO ACCESS-METHOD ASCII <hsoname> <object-version>
 * as the historic client's pget_at() sends it (after its VERSION and AUTHENTICATE lines), and,
 * for an object known by a REMOTE id, "SELECT OBJECT FIELD ID REMOTE <n>".
 * DEVIATION: no AUTHENTICATE line. Prospero v5 3.2 would send the local user name as
 * UNAUTHENTICATED data; RFC 1738 3.11 allows no user name in the URL, and this client does not
 * tell a remote server who runs it. Access is then that of an unauthenticated principal.
 */
export function buildRequest(q: ObjectQuery): string {
  assertSendable(q);
  let text = `VERSION ${PROTOCOL_VERSION}\n`;
  text += `GET-OBJECT-INFO ACCESS-METHOD ASCII ${quoteToken(q.hsoname)} ${quoteToken(q.version)}\n`;
  if (q.remoteId !== undefined) text += `SELECT OBJECT FIELD ID REMOTE ${quoteToken(q.remoteId)}\n`;
  return text;
}

/** Where a FORWARDED reply sends the client (Prospero v5 4.2). */
export interface Forwarded {
  hostType: string;
  /** The host, "name" or "name(port)". */
  host: string;
  hsonameType: string;
  hsoname: string;
  version: string;
  remoteId?: string;
}

/** A reply to GET-OBJECT-INFO, read. */
export interface ObjectReply {
  /** The ACCESS-METHOD values in order, each a tuple of tokens (Prospero v5 A.1.1). */
  accessMethods: string[][];
  /** Other attributes, the whole line's tokens. */
  otherAttributes: string[][];
  noneFound: boolean;
  forwarded: Forwarded | null;
  /** WARNING lines (Prospero v5 4.5), to show. */
  warnings: string[];
}

/** The lines of a reply: split at LF, a CR before it dropped (Prospero v5 2.1), empty lines skipped. */
export function replyLines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
    .filter((l) => l.trim() !== '');
}

/**
 * Reads a reply to GET-OBJECT-INFO (Prospero v5 3.7, 1.5.4 "Link Attributes", 4): ATTRIBUTE
 * lines, "ATTRIBUTE <applies-to> FIELD <name> <value>..." (the old form, which the historic
 * server sends for a known field) or with a value type after the name ("SEQUENCE", which it
 * reads as well: lib/pfs/in_atrs.c); NONE-FOUND; FORWARDED; WARNING; a VERSION line. Throws
 * not-found for FAILURE NOT-FOUND, prospero-failure for another FAILURE, for ERROR and
 * VERSION-NOT-SUPPORTED, and protocol-error for a line the protocol does not allow here.
 */
export function parseReply(text: string): ObjectReply {
  const r: ObjectReply = { accessMethods: [], otherAttributes: [], noneFound: false, forwarded: null, warnings: [] };
  for (const line of replyLines(text)) {
    const t = tokenize(line);
    const word = t[0] ?? '';
    if (/^ATTRIBUTE>*$/.test(word)) {
      if (t.length < 4)
        throw new LocatorError(PROTOCOL_ERROR, -1, `a malformed ATTRIBUTE line: ${JSON.stringify(line)}`);
      // "ATTRIBUTE FIELD ACCESS-METHOD ...", without <applies-to>, is the form of the examples
      // in Prospero v5 A.1.1; it is read too.
      const at = t[1] === 'FIELD' ? 2 : t[2] === 'FIELD' ? 3 : -1;
      if (word === 'ATTRIBUTE' && at > 0 && t[at].toUpperCase() === 'ACCESS-METHOD') {
        let value = t.slice(at + 1);
        if (value[0] === 'SEQUENCE' && value.length > 1) value = value.slice(1);
        r.accessMethods.push(value);
      } else r.otherAttributes.push(t);
    } else if (word === 'NONE-FOUND') {
      r.noneFound = true;
    } else if (word === 'FORWARDED') {
      if (t.length < 6)
        throw new LocatorError(PROTOCOL_ERROR, -1, `a malformed FORWARDED line: ${JSON.stringify(line)}`);
      const f: Forwarded = { hostType: t[1], host: t[2], hsonameType: t[3], hsoname: t[4], version: t[5] };
      for (let i = 6; i + 2 < t.length; i++) {
        if (t[i] === 'ID' && t[i + 1] === 'REMOTE' && t[i + 2] !== undefined) f.remoteId = t[i + 2];
      }
      r.forwarded = f;
    } else if (word === 'WARNING') {
      r.warnings.push(t.slice(1).join(' '));
    } else if (word === 'VERSION') {
      // The server's own VERSION line (Prospero v5 3.1): nothing to do.
    } else if (word === 'FAILURE') {
      throw new LocatorError(
        t[1] === 'NOT-FOUND' ? NOT_FOUND : PROSPERO_FAILURE,
        -1,
        `the Prospero server answered ${JSON.stringify(line)} (Prospero v5 4.4)`,
      );
    } else if (word === 'ERROR' || word === 'VERSION-NOT-SUPPORTED') {
      throw new LocatorError(
        PROSPERO_FAILURE,
        -1,
        `the Prospero server answered ${JSON.stringify(line)} (Prospero v5 ${word === 'ERROR' ? '4.3' : '3.1'})`,
      );
    } else {
      throw new LocatorError(
        PROTOCOL_ERROR,
        -1,
        `the Prospero server answered a line GET-OBJECT-INFO does not allow: ${JSON.stringify(line)}`,
      );
    }
  }
  return r;
}

/** The link an access method's empty tokens default to (Prospero v5 A.1.1): the object asked about. */
export interface LinkDefaults {
  hostType: string;
  /** "name" or "name(port)". */
  host: string;
  hsonameType: string;
  hsoname: string;
}

/** One access method, and the URL it comes to (null when no URL scheme expresses it). */
export interface AccessUrl {
  /** The tuple with empty tokens filled from the link (Prospero v5 A.1.1). */
  method: string[];
  /** The URL to retrieve the object by, absolute. */
  url: Url | null;
  /** Why there is no URL, when there is none. */
  why: string | null;
}

/** "name(port)" (the protocol's way to give a port, Prospero v5 A.1.1) split; the port null when absent. */
export function splitHost(host: string): { name: string; port: number | null } | null {
  const m = /^([^()]*)(?:\((\d{1,5})\))?$/.exec(host);
  if (m === null || m[1] === '') return null;
  const port = m[2] === undefined ? null : Number(m[2]);
  if (port !== null && (port < 1 || port > 65535)) return null;
  return { name: m[1], port };
}

function none(method: string[], why: string): AccessUrl {
  return { method, url: null, why };
}

function made(method: string[], href: string): AccessUrl {
  const u = tryParse(href);
  if (u instanceof Error || u.violations.some((d) => d.severity === 'error'))
    return none(method, `the access method comes to ${JSON.stringify(href)}, which is not a valid URL`);
  return { method, url: u, why: null };
}

/**
 * An access method as a URL (Prospero v5 A.1.1; RFC 1738 3.11: access methods "might themselves
 * be represented as different URLs"). The tuple is <method> <host-type> <host-name>
 * <hsoname-type> <hsoname> [...]; empty tokens take the link's values. Made into URLs:
 *   AFTP INTERNET-D host[(port)] ASCII <path> TEXT|BINARY  ftp://host[:port]/<path>;type=a|i
 *     (anonymous FTP, the path relative to the anonymous area; RFC 1738 3.2.2)
 *   GOPHER INTERNET-D host[(port)] ASCII <selector> [type]  gopher://host[:port]/<type><selector>
 *     (the item type is the sixth token, else the selector's first character; RFC 1738 3.4)
 *   TELNET INTERNET-D host[(port)] ...                       telnet://host[:port]/
 * Not URLs here: FTP (it needs a user and a password), LOCAL, NFS, AFS, RCP, PROSPERO-CONTENTS
 * (local file systems and Prospero's own data), WAIS (its record locator is not a wpath), and
 * host types other than INTERNET-D.
 */
export function accessUrl(tuple: string[], link: LinkDefaults): AccessUrl {
  if (tuple.length < 5)
    return none(tuple, `an access method has at least 5 elements (Prospero v5 A.1.1), this one ${tuple.length}`);
  const m = [...tuple];
  if (m[1] === '') m[1] = link.hostType;
  if (m[2] === '') m[2] = link.host;
  if (m[3] === '') m[3] = link.hsonameType;
  if (m[4] === '') m[4] = link.hsoname;
  const name = m[0].toUpperCase();
  if (!['AFTP', 'GOPHER', 'TELNET'].includes(name)) {
    const why: Record<string, string> = {
      FTP: 'the FTP access method needs a user name and a password the link does not give',
      LOCAL: 'the LOCAL access method names a file on the server host itself',
      NFS: 'the NFS access method needs a mount of the server file system',
      AFS: 'the AFS access method needs an AFS client',
      WAIS: 'the WAIS record locator has no URL form here',
    };
    return none(m, why[name] ?? `no URL scheme for the ${m[0]} access method`);
  }
  if (m[1] !== 'INTERNET-D') return none(m, `the host type ${JSON.stringify(m[1])} is not an Internet domain name`);
  const h = splitHost(m[2]);
  if (h === null) return none(m, `the host ${JSON.stringify(m[2])} is not "name" or "name(port)"`);
  const host = h.name.includes(':') ? `[${h.name}]` : h.name;
  try {
    if (name === 'AFTP') {
      if (m.length !== 6) return none(m, 'the AFTP access method has 6 elements (Prospero v5 A.1.1)');
      const mode = m[5].toUpperCase();
      if (mode !== 'TEXT' && mode !== 'BINARY')
        return none(m, `the sixth element of AFTP is TEXT or BINARY, not ${JSON.stringify(m[5])}`);
      const segments = m[4].replace(/^\/+/, '').split('/');
      return made(
        m,
        build('ftp', { host, port: h.port ?? undefined, segments, ftptype: mode === 'TEXT' ? 'a' : 'i' } as never),
      );
    }
    if (name === 'GOPHER') {
      if (m.length > 6) return none(m, 'the GOPHER access method has 5 or 6 elements (Prospero v5 A.1.1)');
      const type = m.length === 6 ? m[5] : m[4].slice(0, 1);
      if (type.length !== 1) return none(m, 'the Gopher item type is one character');
      return made(m, build('gopher', { host, port: h.port ?? undefined, gophertype: type, selector: m[4] } as never));
    }
    return made(m, build('telnet', { host, port: h.port ?? undefined } as never));
  } catch (e) {
    return none(m, e instanceof Error ? e.message : String(e));
  }
}

/**
 * The access methods as a text/uri-list (RFC 2483 5): CR LF lines, "#" comment lines first naming
 * what was asked, then each method's URL, or a comment with the method and why it has none.
 */
export function uriList(asked: string, methods: AccessUrl[]): string {
  const lines = [`# the access methods of ${asked} (RFC 1738 3.11)`];
  for (const a of methods) {
    if (a.url !== null) lines.push(a.url.href);
    else lines.push(`# ${a.method.map(quoteToken).join(' ')}: ${a.why}`);
  }
  return lines.map((l) => l.replace(/[\r\n]/g, ' ') + '\r\n').join('');
}
