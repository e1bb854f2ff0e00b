// Gopher menus (RFC 1436 3.8 and appendix; the answer to a type 1 item and to a type 7 search):
// read from a body stream into items that carry their own URLs, and rendered as text.
//
//   for await (const item of readMenu(body)) console.log(renderItem(item));
//
// openMenu() (../index.ts, with ./open-menu.ts) opens a URL and reads it here; this module does not import open(),
// so the gopher face (./index.ts) can read menus without an import cycle.

import { LocatorError, defineCode } from '../../core/errors.js';
import { parseMenu } from './parser.js';
import type { MenuItem } from './types.js';
import { LF, concatBytes } from '../framing/bytes.js';

/**
 * The longest menu line read (octets, line end included). RFC 1436 3.8 asks for display strings
 * under 70 characters and selectors of at most 255; 64 KiB leaves room for any real server and
 * bounds what a server that never sends a line end can make a client buffer.
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
        yield* parseMenu(concatBytes(pending), true).items;
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
      const m = parseMenu(concatBytes(pending));
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
