// Gopher menus (RFC 1436 3.8 and appendix; the answer to a type 1 item and to a type 7 search):
// read from a body stream into items that carry their own URLs, and rendered as text.
//
//   const { meta, items } = await openMenu('gopher://127.0.0.1:7070/1/files');
//   for await (const item of items) console.log(renderItem(item));

import { parse } from '../../schemes/registry.js';
import type { Url } from '../../core/url.js';
import { LocatorError } from '../../core/errors.js';
import type { GopherPlus } from '../../schemes/gopher.js';
import { open } from '../open.js';
import type { Meta } from '../types.js';
import { concat, parseMenu } from './parser.js';
import { GOPHER_NOT_MENU, type GopherOpenOptions, type MenuItem } from './types.js';

/** A menu being read: what is known of it, and its items as they arrive. */
export interface Menu {
  meta: Meta;
  /** The items in order; breaking out of the loop closes the connection. */
  items: AsyncGenerator<MenuItem, void, undefined>;
}

/**
 * Reads a menu from a body stream (RFC 1436 appendix): items are yielded as their lines arrive;
 * the menu ends at a "." line (the rest of the stream is then cancelled, which closes the
 * connection) or at the end of the stream (servers such as pygopherd send no "." line).
 * Stream errors (timeout, cut reply) are thrown from the loop.
 */
export async function* readMenu(body: ReadableStream<Uint8Array>): AsyncGenerator<MenuItem, void, undefined> {
  const reader = body.getReader();
  let rest: Uint8Array = new Uint8Array(0);
  let ended = false;
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) {
        ended = true;
        yield* parseMenu(rest, true).items;
        return;
      }
      const m = parseMenu(concat(rest, r.value));
      rest = m.rest;
      yield* m.items;
      if (m.done) return;
    }
  } finally {
    if (!ended) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/**
 * Opens a gopher URL of type 1 (a menu) or 7 (a search, whose answer is a menu; RFC 1436 3.7)
 * with open() (policy, gateways, transcript as for any URL) and reads its answer as a menu.
 * Gopher+ "+" requests are allowed (the header is stripped by the client); "!", "$" and "?"
 * answers are not menus and are refused with `gopher-not-menu`, as are other item types.
 */
export async function openMenu(url: string | Url, options: GopherOpenOptions = {}): Promise<Menu> {
  const u = typeof url === 'string' ? parse(url) : url;
  const f = u.fields as { gophertype?: string; plus?: GopherPlus | null };
  if (u.scheme !== 'gopher' || (f.gophertype !== '1' && f.gophertype !== '7')) {
    throw new LocatorError(GOPHER_NOT_MENU, -1,
      `${u.scheme === 'gopher' ? `the gophertype is "${f.gophertype}"` : `a ${u.scheme}: URL is not a Gopher item`}: only types 1 (menu) and 7 (search) answer with a menu (RFC 1436 3.8)`);
  }
  const kind = f.plus?.kind;
  if (kind === 'attributes' || kind === 'directory-attributes' || kind === 'ask') {
    throw new LocatorError(GOPHER_NOT_MENU, -1, `a Gopher+ "${u.fields.gopherPlus}" request is answered with attributes or a form, not a menu (RFC 1738 3.4.5-3.4.7)`);
  }
  const r = await open(u, options);
  return { meta: r.meta, items: readMenu(r.body) };
}

/** Short names of the item types (RFC 1436 3.8, and the common "g", "I", "h", "s", "d", "i"). */
const LABELS: Record<string, string> = {
  0: 'TXT', 1: 'DIR', 2: 'CSO', 3: 'ERR', 4: 'HQX', 5: 'DOS', 6: 'UUE', 7: 'SEARCH', 8: 'TELNET', 9: 'BIN',
  '+': 'MIRROR', T: 'TN3270', g: 'GIF', I: 'IMAGE', h: 'HTML', s: 'SOUND', d: 'DOC',
};
const WIDTH = 9;

/** The display string with control characters shown as U+FFFD (a menu must not drive the terminal). */
function printable(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f]/g, '\uFFFD');
}

/**
 * One item as a line of text: its type in parentheses, the display string, and its URL in the
 * `<URL:...>` form of RFC 1738 (appendix); info lines ("i") show their text alone.
 */
export function renderItem(item: MenuItem): string {
  if (item.type === 'i') return (' '.repeat(WIDTH) + printable(item.display)).trimEnd();
  const label = `(${LABELS[item.type] ?? printable(item.type)})`;
  let line = (label.padEnd(WIDTH - 1) + ' ' + printable(item.display)).trimEnd();
  if (item.url !== null) line += `  <URL:${item.url}>`;
  return line;
}

/** A whole menu as text, one line per item (RFC 1436 appendix; see renderItem). */
export function renderMenu(items: Iterable<MenuItem>): string {
  let out = '';
  for (const item of items) out += renderItem(item) + '\n';
  return out;
}
