// The gopher probe (RFC 1738 3.4; RFC 1436 3.8, the Gopher+ document 2.3): the gopher client
// sends the request and reads the answer's start (a Gopher+ error header, or an answer that is
// nothing but error items, fails there); the probe reads the first line and closes. A menu
// (type 1, or a type 7 search) must start with a well-formed menu line that is not an error
// item (type 3), or be empty ("." or nothing). A "URL:" link is a redirect for probe()'s loop; a
// Telnet or tn3270 item is probed as that session.

import type { Url } from '../../core/url.js';
import { isRedirect, PROTOCOL_ERROR, type Redirect } from '../types.js';
import { open, GopherError, GOPHER_ERROR } from './client.js';
import { parseMenuLine, concat } from './parser.js';
import { fieldsOf } from '../../schemes/fields.js';
import { parse } from '../../schemes/registry.js';
import { result } from '../probe/result.js';
import type { ProbeOptions, ProbeResult } from '../probe/types.js';

/** How many octets are read, at most, to find the first line. */
const FIRST_LINE_LIMIT = 4096;

const LF = 10;
const CR = 13;

/** Reads until the first LF, the end, or FIRST_LINE_LIMIT octets; then cancels the rest. */
async function firstLine(
  body: ReadableStream<Uint8Array>,
): Promise<{ line: Uint8Array; whole: boolean; octets: number }> {
  const reader = body.getReader();
  let buf: Uint8Array = new Uint8Array(0);
  let whole = false;
  try {
    for (;;) {
      const lf = buf.indexOf(LF);
      if (lf >= 0) {
        buf = buf.subarray(0, lf > 0 && buf[lf - 1] === CR ? lf - 1 : lf);
        break;
      }
      if (buf.length >= FIRST_LINE_LIMIT) break;
      const { done, value } = await reader.read();
      if (done) {
        whole = true;
        break;
      }
      buf = concat(buf, value);
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return { line: buf, whole, octets: buf.length };
}

/** Probes a gopher URL (RFC 1738 3.4): the steps of gopherSteps(url). */
export async function probe(url: Url, options: ProbeOptions): Promise<ProbeResult | Redirect> {
  const type = fieldsOf(url, 'gopher').gophertype;
  if (type === '8' || type === 'T') {
    // RFC 1436 3.8: a Telnet (8) or tn3270 (T) session at the item's host and port: probed as one.
    const session = parse(`${type === '8' ? 'telnet' : 'tn3270'}://${url.host}:${url.port ?? 23}/`);
    return (await import('../probe/session.js')).probe(session, options);
  }
  // A type 7 search with no search string in the URL is asked with an empty one (RFC 1436 3.7).
  let r;
  try {
    r = await open(url, { ...options, search: options.search ?? '' });
  } catch (e) {
    // An answer of error items only (RFC 1436 3.8), or a Gopher+ error header ("-" and its number).
    if (!(e instanceof GopherError)) throw e;
    const reply = e.errorNumber === null ? '3' : String(e.errorNumber);
    return result('broken', e.text === '' ? e.message : e.text, { code: GOPHER_ERROR, reply });
  }
  if (isRedirect(r)) return r;
  const { line, whole } = await firstLine(r.body);
  const menu = type === '1' || type === '7';
  if (!menu) {
    if (line.length === 0 && whole) return result('ok', 'the server sent an empty answer');
    return result('ok', `the answer starts (type ${type})`);
  }
  if (line.length === 0 || (line.length === 1 && line[0] === 0x2e)) return result('ok', 'an empty menu');
  const item = parseMenuLine(line);
  if (item.type === '3') return result('broken', item.display, { code: GOPHER_ERROR, reply: '3' });
  if (item.problem !== null)
    return result('broken', `the first line is not a menu line: ${item.problem}`, { code: PROTOCOL_ERROR });
  return result('ok', `a menu, first item: ${item.type}${item.display}`);
}
