// Gopher menus (RFC 1436 3.8 and appendix; the answer to a type 1 item and to a type 7 search):
// read from a body stream into items that carry their own URLs, and rendered as text.
//
//   const { meta, items } = await openMenu('gopher://127.0.0.1:7070/1/files');
//   for await (const item of items) console.log(renderItem(item));

import { parse } from '../../schemes/registry.js';
import type { Url } from '../../core/url.js';
import { LocatorError, defineCode } from '../../core/errors.js';
import type { GopherPlus } from '../../schemes/gopher.js';
import { open } from '../open.js';
import type { Meta } from '../types.js';
import { parseMenu } from './parser.js';
import { GOPHER_NOT_MENU, type GopherOpenOptions, type MenuItem } from './types.js';

/** A menu being read: what is known of it, and its items as they arrive. */
export interface Menu {
  meta: Meta;
  /** The items in order; breaking out of the loop closes the connection. */
  items: AsyncGenerator<MenuItem, void, undefined>;
}

/**
 * The longest menu line read (octets, line end included). RFC 1436 3.8 asks for display strings
 * under 70 characters and selectors of at most 255; 64 KiB leaves room for any real server and
 * bounds what a server that never sends a line end can make a client buffer (issue 10).
 */
export const MAX_MENU_LINE = 65536;

export const GOPHER_LINE_TOO_LONG = defineCode(
  'gopher-line-too-long',
  'error',
  'RFC 1436 3.8',
  'a menu line is longer than any Gopher server sends',
);

/**
 * Reads a menu from a body stream (RFC 1436 appendix): items are yielded as their lines arrive;
 * the menu ends at a "." line (the rest of the stream is then cancelled, which closes the
 * connection) or at the end of the stream (servers such as pygopherd send no "." line).
 * Stream errors (timeout, cut reply) are thrown from the loop, and `gopher-line-too-long` for a
 * line over MAX_MENU_LINE. Each octet is searched for the line end once: the chunks of a
 * partial line are kept apart and joined when its line end comes.
 */
export async function* readMenu(body: ReadableStream<Uint8Array>): AsyncGenerator<MenuItem, void, undefined> {
  const reader = body.getReader();
  let pending: Uint8Array[] = [];
  let pendingLength = 0;
  let ended = false;
  const tooLong = () =>
    new LocatorError(
      GOPHER_LINE_TOO_LONG,
      -1,
      `a menu line runs past ${MAX_MENU_LINE} octets with no line end: not a Gopher menu (RFC 1436 3.8)`,
    );
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) {
        ended = true;
        yield* parseMenu(joinChunks(pending, pendingLength), true).items;
        return;
      }
      const chunk = r.value;
      if (chunk.indexOf(LF) < 0) {
        pending.push(chunk);
        pendingLength += chunk.length;
        if (pendingLength > MAX_MENU_LINE) throw tooLong();
        continue;
      }
      pending.push(chunk);
      const m = parseMenu(joinChunks(pending, pendingLength + chunk.length));
      pending = m.rest.length > 0 ? [m.rest] : [];
      pendingLength = m.rest.length;
      if (pendingLength > MAX_MENU_LINE && !m.done) throw tooLong();
      yield* m.items;
      if (m.done) return;
    }
  } finally {
    if (!ended) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

const LF = 10;

/** The chunks as one array of `length` octets. */
function joinChunks(chunks: Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(length);
  let n = 0;
  for (const c of chunks) {
    out.set(c, n);
    n += c.length;
  }
  return out;
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
    throw new LocatorError(
      GOPHER_NOT_MENU,
      -1,
      `${u.scheme === 'gopher' ? `the gophertype is "${f.gophertype}"` : `a ${u.scheme}: URL is not a Gopher item`}: only types 1 (menu) and 7 (search) answer with a menu (RFC 1436 3.8)`,
    );
  }
  const kind = f.plus?.kind;
  if (kind === 'attributes' || kind === 'directory-attributes' || kind === 'ask') {
    throw new LocatorError(
      GOPHER_NOT_MENU,
      -1,
      `a Gopher+ "${u.fields.gopherPlus}" request is answered with attributes or a form, not a menu (RFC 1738 3.4.5-3.4.7)`,
    );
  }
  const r = await open(u, options);
  return { meta: r.meta, items: readMenu(r.body) };
}

/** Short names of the item types (RFC 1436 3.8, and the common "g", "I", "h", "s", "d", "i"). */
const LABELS: Record<string, string> = {
  0: 'TXT',
  1: 'DIR',
  2: 'CSO',
  3: 'ERR',
  4: 'HQX',
  5: 'DOS',
  6: 'UUE',
  7: 'SEARCH',
  8: 'TELNET',
  9: 'BIN',
  '+': 'MIRROR',
  T: 'TN3270',
  g: 'GIF',
  I: 'IMAGE',
  h: 'HTML',
  s: 'SOUND',
  d: 'DOC',
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
