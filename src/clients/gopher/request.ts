// Gopher requests (RFC 1738 3.4.2-3.4.9, RFC 1436 2): the octets sent, plain or Gopher+.

import type { Url } from '../../core/url.js';
import { LocatorError } from '../../core/errors.js';
import { decode } from '../../core/percent.js';
import { INVALID_FIELD } from '../../schemes/codes.js';
import { formatRequest } from '../../schemes/notes.js';
import { gopherParts } from '../../schemes/gopher.js';
import { fieldsOf, type GopherFields } from '../../schemes/fields.js';
import { redactUrl as redactHref } from '../../operations/redact.js';
import { NEEDS_INPUT } from '../types.js';
import { CRLF, TAB, concatBytes } from '../framing/bytes.js';
import type { GopherOpenOptions } from './types.js';

/** One request to send: its octets, how the transcript shows it, and whether a Gopher+ header answers it. */
export interface Exchange {
  request: Uint8Array;
  shown: string;
  plus: boolean;
  secrets: string[];
}

export const EMPTY = new Uint8Array(0);
export const TAB_OCTET = Uint8Array.of(TAB);
export const utf8 = new TextEncoder();

/**
 * The octets of the selector, search and Gopher+ string (RFC 1738 2.2: an escape stands for its
 * octet), cut where the scheme entry cuts them (gopherParts: the fields and lint's delimiter
 * check read the same ranges). The gophertype is not sent.
 */
export function octetParts(url: Url): {
  selector: Uint8Array;
  search: Uint8Array | null;
  gopherPlus: Uint8Array | null;
} {
  const p = gopherParts(url);
  if (p === null) return { selector: EMPTY, search: null, gopherPlus: null };
  const octets = (r: { start: number; end: number } | null) =>
    r === null ? null : decode(url.href, { strict: false }, r.start, r.end);
  return { selector: octets(p.selector)!, search: octets(p.search), gopherPlus: octets(p.gopherPlus) };
}

/**
 * The octets of `fields.request` (RFC 1738 3.4.2-3.4.9): its UTF-8 form, except when the URL
 * escapes octets that are not UTF-8 (the fields show them as U+FFFD): then the same request is
 * composed from the URL's own octets, as explain() notes ("the client sends the octets themselves").
 */
export function requestOctets(url: Url): Uint8Array {
  const f = fieldsOf(url, 'gopher');
  return f.request.includes('\uFFFD') ? requestFromOctets(url) : utf8.encode(f.request);
}

/**
 * The request of src/schemes/gopher.ts (RFC 1738 3.4.2-3.4.9, with its DEVIATION: an empty
 * search or Gopher+ string is not sent), composed from the URL's octets instead of its text.
 */
export function requestFromOctets(url: Url): Uint8Array {
  const f = fieldsOf(url, 'gopher');
  const p = octetParts(url);
  if (f.plus?.kind === 'ask') return concatBytes([p.selector, utf8.encode('\t!+ASK\r\n')]);
  let out = p.selector;
  if (p.search !== null && p.search.length > 0) out = concatBytes([out, TAB_OCTET, p.search]);
  if (p.gopherPlus !== null && p.gopherPlus.length > 0) {
    out = concatBytes([out, TAB_OCTET, p.gopherPlus]);
    if (f.gopherPlus!.includes('\r\n')) return out;
  }
  return concatBytes([out, CRLF]);
}

/** True when the server answers with a Gopher+ header (RFC 1738 3.4.4-3.4.9: "+", "!", "$"). */
function isPlusRequest(f: GopherFields): boolean {
  const g = f.gopherPlus;
  return g !== null && g !== '' && (g[0] === '+' || g[0] === '!' || g[0] === '$');
}

/**
 * Type 7 with no search in the URL (RFC 1738 3.4.2, RFC 1436 3.7): the client asks for the
 * search string (options.search, a string or a prompt) and sends selector TAB search CR LF.
 */
async function searchExchange(url: Url, f: GopherFields, options: GopherOpenOptions): Promise<Exchange> {
  const given = options.search;
  if (given === undefined) {
    throw new LocatorError(
      NEEDS_INPUT,
      -1,
      `${redactHref(url)} is a type 7 search and gives no search string: pass the search option (RFC 1738 3.4.2)`,
    );
  }
  let search: unknown;
  try {
    search = typeof given === 'string' ? given : await given();
  } catch (e) {
    // A prompt that fails (closed terminal, a bug in the caller's callback) is a typed error.
    if (e instanceof LocatorError) throw e;
    throw new LocatorError(
      NEEDS_INPUT,
      -1,
      `asking for the search string failed: ${(e as Error)?.message ?? String(e)}`,
      { cause: e },
    );
  }
  if (typeof search !== 'string') {
    throw new LocatorError(
      NEEDS_INPUT,
      -1,
      `the search prompt gave no search string (${search === null ? 'null' : typeof search}) (RFC 1738 3.4.2)`,
    );
  }
  const bad = search.search(/[\t\r\n]/);
  if (bad >= 0) {
    throw new LocatorError(
      INVALID_FIELD,
      bad,
      'a search string cannot hold a TAB, CR or LF: they end the Gopher request (RFC 1436)',
    );
  }
  const request = concatBytes([octetParts(url).selector, TAB_OCTET, utf8.encode(search), CRLF]);
  return { request, shown: formatRequest(`${f.selector}\t${search}\r\n`), plus: false, secrets: [] };
}

/** The one exchange of every URL but "?" forms (RFC 1738 3.4.2-3.4.9). */
export async function plainExchange(url: Url, f: GopherFields, options: GopherOpenOptions): Promise<Exchange> {
  const noSearch = f.search === null || f.search === '';
  if (f.gophertype === '7' && noSearch && f.gopherPlus === null) return searchExchange(url, f, options);
  return { request: requestOctets(url), shown: formatRequest(f.request), plus: isPlusRequest(f), secrets: [] };
}
