// The gopher probe (RFC 1738 3.4; RFC 1436 3.8, the Gopher+ document 2.3): the gopher client
// sends the request and reads the answer's start (a Gopher+ error header, an answer that is
// nothing but error items, or a menu none of whose first lines is a menu line fails there:
// menuStart() of ./parser.ts); the probe reads until the start decides and closes. A menu (type
// 1, or a type 7 search) must hold a well-formed menu line among its first MENU_LINE_LIMIT
// octets (an info or error line with a TAB is one), or be empty ("." or nothing). A "URL:" link is a redirect for probe()'s loop; a Telnet or tn3270
// item is probed as that session. Any other document's answer is read whole when it is short (at
// most SAMPLE_LIMIT octets, ended within SAMPLE_WAIT ms of its first octets): an error item
// (type 3) followed by info lines only is an error, as Lynx shows it; any other short answer is
// given to the caller (ProbeResult.sample) to compare with the server's answer to a selector that
// cannot exist (`locator check`'s soft errors, src/check/gopher-soft.ts).

import type { Url } from '../../core/url.js';
import { isRedirect, PROTOCOL_ERROR, type Redirect } from '../types.js';
import { open, GopherError, GOPHER_ERROR } from './client.js';
import { concat, menuStart, parseMenu } from './parser.js';
import { startTimer } from '../timers.js';
import { fieldsOf } from '../../schemes/fields.js';
import { parse } from '../../schemes/registry.js';
import { result } from '../probe/result.js';
import type { ProbeOptions, ProbeResult } from '../probe/types.js';

/** Item types that are no document of their own: menus, searches, CSO, sessions, a redundant server. */
const NOT_DOCUMENTS = new Set(['1', '7', '2', '8', 'T', '+']);

/** The most of a document's answer read to keep it whole (ProbeResult.sample). */
export const SAMPLE_LIMIT = 4096;
/** How long after a document's first octets its end is waited for (a server that holds the connection open). */
export const SAMPLE_WAIT = 2000;

/**
 * Reads until the start decides whether the answer is a menu (menuStart(), which bounds what it
 * waits for), or a document's answer to its end when that comes within SAMPLE_LIMIT octets and
 * SAMPLE_WAIT ms of its first octets (a failure or silence after the first octets only leaves it
 * not whole); then cancels the rest.
 */
async function answerStart(
  body: ReadableStream<Uint8Array>,
  menu: boolean,
): Promise<{ buf: Uint8Array; whole: boolean }> {
  const reader = body.getReader();
  let buf: Uint8Array = new Uint8Array(0);
  let whole = false;
  let timer: { clear(): void } | null = null;
  let late: Promise<null> | null = null;
  try {
    while (menu ? menuStart(buf, false).kind === 'more' : buf.length <= SAMPLE_LIMIT) {
      if (!menu && buf.length > 0) {
        // The first octets prove the document; its end is only waited for a while.
        late ??= new Promise<null>((resolve) => (timer = startTimer(SAMPLE_WAIT, () => resolve(null))));
        const next = await Promise.race([reader.read(), late]).catch(() => null);
        if (next === null) break;
        if (next.done) {
          whole = true;
          break;
        }
        buf = concat(buf, next.value);
        continue;
      }
      const { done, value } = await reader.read();
      if (done) {
        whole = true;
        break;
      }
      buf = concat(buf, value);
    }
  } finally {
    (timer as { clear(): void } | null)?.clear();
    await reader.cancel().catch(() => {});
  }
  return { buf, whole };
}

/**
 * True for an answer that is an error item (type 3, RFC 1436 3.8) followed by info lines only
 * (and an optional "." line): gophernicus's answer for a missing menu, which Lynx shows as the
 * error. A lone error item (or several) never gets here: the client throws it as a GopherError.
 */
function errorItemAnswer(buf: Uint8Array): string | null {
  if (buf[0] !== 0x33) return null;
  const { items } = parseMenu(buf, true);
  if (items.length === 0 || items[0].type !== '3' || items[0].problem !== null) return null;
  return items.slice(1).every((i) => i.type === 'i' && i.problem === null) ? items[0].display : null;
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
    const error = whole ? errorItemAnswer(buf) : null;
    if (error !== null)
      return result(
        'broken',
        `${error} (the answer is an error item, type 3, followed by info lines only: an error, as Lynx shows it)`,
        { code: GOPHER_ERROR, reply: '3' },
      );
    const r = result('ok', `the answer starts (type ${type})`);
    const f = fieldsOf(url, 'gopher');
    if (!whole || NOT_DOCUMENTS.has(type) || f.gopherPlus !== null) return r;
    // A selector that cannot exist asked of the same server as a text (type 0), with a leading "/"
    // when this one has one (gophernicus's selectors are paths).
    const origin = `gopher://${url.host ?? ''}:${url.portDigits ?? url.port ?? 70}/0${f.selector.startsWith('/') ? '/' : ''}`;
    return { ...r, sample: { bytes: buf, echo: f.selector, missing: (name: string) => origin + name } };
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
