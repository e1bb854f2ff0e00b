// The gopher probe (RFC 1738 3.4; RFC 1436 3.8, the Gopher+ document 2.3): the gopher client
// sends the request and reads the answer's start (a Gopher+ error header, an answer that is
// nothing but error items, or a menu none of whose first lines is a menu line fails there:
// menuStart() of ./parser.ts); the probe reads until the start decides and closes. A menu (type
// 1, or a type 7 search) must hold a well-formed menu line among its first MENU_LINE_LIMIT
// octets (an info or error line with a TAB is one), or be empty ("." or nothing). A "URL:" link is a redirect for probe()'s loop; a Telnet or tn3270
// item is probed as that session.

import type { Url } from '../../core/url.js';
import { isRedirect, PROTOCOL_ERROR, type Redirect } from '../types.js';
import { open, GopherError, GOPHER_ERROR } from './client.js';
import { MENU_LINE_LIMIT, concat, menuStart } from './parser.js';
import { LF } from '../framing/bytes.js';
import { fieldsOf } from '../../schemes/fields.js';
import { parse } from '../../schemes/registry.js';
import { result } from '../probe/result.js';
import type { ProbeOptions, ProbeResult } from '../probe/types.js';

/** Reads until the start decides whether the answer is a menu (menuStart(), which bounds what it waits for); then cancels the rest. */
async function answerStart(
  body: ReadableStream<Uint8Array>,
  menu: boolean,
): Promise<{ buf: Uint8Array; whole: boolean }> {
  const reader = body.getReader();
  let buf: Uint8Array = new Uint8Array(0);
  let whole = false;
  try {
    while (menu ? menuStart(buf, false).kind === 'more' : buf.indexOf(LF) < 0 && buf.length < MENU_LINE_LIMIT) {
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
  return { buf, whole };
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
  const menu = type === '1' || type === '7';
  const { buf, whole } = await answerStart(r.body, menu);
  if (!menu) {
    if (buf.length === 0 && whole) return result('ok', 'the server sent an empty answer');
    return result('ok', `the answer starts (type ${type})`);
  }
  // The client has tested the start already (menuStart(), the same test); asked again here for
  // what it found, and for a Gopher+ answer, whose data the client does not read ahead.
  const start = menuStart(buf, true);
  if (start.kind === 'empty' || start.kind === 'more') return result('ok', 'an empty menu');
  if (start.kind === 'malformed')
    return result('broken', `no line of the answer is a menu line (the first: ${start.problem})`, {
      code: PROTOCOL_ERROR,
    });
  return result('ok', `a menu, first item: ${start.item.type}${start.item.display}`);
}
