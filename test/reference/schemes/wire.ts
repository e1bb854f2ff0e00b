// Building blocks of the scheme entries' `wire` hooks (RFC 1738 6): the delimiter octets of the
// protocols, and the parts every scheme with a "//" login shares. Each scheme module says, in its
// own `wire`, which parts of its URLs its client sends and in which protocol line; lint's
// delimiter check (src/lint/delimiters.ts) and the policy read that list, never a table of their own.

import type { Url } from '../core/url.js';
import type { WirePart } from './spec.js';

export const NUL = 0;
export const TAB = 9;
export const LF = 10;
export const CR = 13;
export const SP = 32;
/** The octet FF: the Telnet "interpret as command" (RFC 854), on every Telnet-based connection. */
export const IAC = 255;

/** The octets that end a text protocol's line or string (RFC 1738 6: "CR and LF characters"). */
export const LINE: readonly number[] = Object.freeze([CR, LF, NUL]);
/** A line of a Telnet-based connection (FTP's control connection, RFC 959 4.1; Telnet itself). */
export const TELNET_LINE: readonly number[] = Object.freeze([CR, LF, NUL, IAC]);
/** An NNTP command argument (RFC 977 2.3: arguments are separated by spaces or tabs). */
export const NNTP_ARG: readonly number[] = Object.freeze([CR, LF, NUL, TAB, SP]);
/** A C string handed to the file system. */
export const C_STRING: readonly number[] = Object.freeze([NUL]);

/** A WirePart for href[start, end) (RFC 1738 6). */
export function wirePart(
  what: string,
  start: number,
  end: number,
  line: string,
  delimiters: readonly number[],
  sent: 'decoded' | 'encoded' = 'decoded',
): WirePart {
  return { what, start, end, line, delimiters, sent };
}

/**
 * The user and password of a "//" login (RFC 1738 3.1), when present, as the parts a client sends
 * in `userLine` and `passwordLine`.
 */
export function loginWire(url: Url, delimiters: readonly number[], userLine: string, passwordLine: string): WirePart[] {
  if (url.userStart < 0) return [];
  const c = url.components();
  const out: WirePart[] = [];
  if (c.user !== null) out.push(wirePart('the user name', c.user[0], c.user[1], userLine, delimiters));
  if (c.password !== null) out.push(wirePart('the password', c.password[0], c.password[1], passwordLine, delimiters));
  return out;
}

/** The url-path range (RFC 1738 3.1), or for a URL without "//" the scheme-specific part. */
export function bodyRange(url: Url): [number, number] | null {
  if (url.hasLogin) return url.pathStart < 0 ? null : [url.pathStart, url.bodyEnd];
  return [url.schemePartStart, url.bodyEnd];
}
