// Fuzz target: the Gopher reply parsers (RFC 1436 3.8, 3.9, appendix; Gopher+ 2.3-2.6). The
// first byte picks the reader: menu, Gopher+ header, period-terminated data, attributes (with
// +ASK) or error text. Invariants: only LocatorError is thrown; each reader gives the same in
// any chunking (with its rest put before the next chunk); a menu item's URL, when it has one,
// parses, and for a gopher item names the item's type and selector again (RFC 1738 3.4).

import {
  parseMenu,
  parsePlusHeader,
  readDotData,
  parseAttributes,
  parseAsk,
  parseErrorText,
} from '../../src/clients/gopher/parser.js';
import { tryParse, LocatorError } from '../../src/index.js';
import type { MenuItem } from '../../src/clients/gopher/types.js';
import { check, chunksOf, concatAll, cuts, randomOf, show } from './lib.js';

const utf8 = new TextDecoder();

function checkItem(item: MenuItem): void {
  check(item.type.length === 1, `item type ${JSON.stringify(item.type)}`);
  check(
    item.port === null || (Number.isInteger(item.port) && item.port >= 0 && item.port <= 65535),
    `port ${item.port}`,
  );
  if (item.url === null) return;
  const u = tryParse(item.url);
  check(!(u instanceof LocatorError), `the item's URL ${JSON.stringify(item.url)} does not parse`);
  if (u.scheme === 'gopher' && item.type !== 'h' && !item.selector.includes('\uFFFD')) {
    const f = u.fields as { gophertype?: string; selector?: string };
    check(f.gophertype === item.type, `the URL ${item.url} has type ${f.gophertype}, not ${item.type}`);
    check(
      f.selector === item.selector,
      `the URL ${item.url} has selector ${JSON.stringify(f.selector)}, not ${JSON.stringify(item.selector)}`,
    );
  }
}

function menu(chunks: Uint8Array[]): unknown {
  const items: MenuItem[] = [];
  let rest: Uint8Array = new Uint8Array(0);
  for (let i = 0; i < chunks.length; i++) {
    const r = parseMenu(concatAll([rest, chunks[i]]), i === chunks.length - 1);
    items.push(...r.items);
    rest = r.rest;
    if (r.done) return { items, after: concatAll([rest, ...chunks.slice(i + 1)]), done: true };
  }
  return { items, rest, done: false };
}

function header(chunks: Uint8Array[]): unknown {
  let buf: Uint8Array = new Uint8Array(0);
  for (let i = 0; i < chunks.length; i++) {
    buf = concatAll([buf, chunks[i]]);
    const r = parsePlusHeader(buf);
    if (r.error !== null) return { error: true };
    if (r.header !== null) return { header: r.header, rest: concatAll([r.rest, ...chunks.slice(i + 1)]) };
  }
  return { incomplete: true };
}

function dots(chunks: Uint8Array[]): unknown {
  const state = { atLineStart: true };
  const data: Uint8Array[] = [];
  let rest: Uint8Array = new Uint8Array(0);
  for (let i = 0; i < chunks.length; i++) {
    const r = readDotData(concatAll([rest, chunks[i]]), state);
    data.push(r.data);
    rest = r.rest;
    if (r.done) return { data: concatAll(data), after: concatAll([rest, ...chunks.slice(i + 1)]), done: true };
  }
  return { data: concatAll(data), rest, done: false };
}

export function fuzz(bytes: Uint8Array): void {
  const mode = (bytes[0] ?? 0) % 5;
  const data = bytes.subarray(1);
  const chunks = chunksOf(data, cuts(data.length, randomOf(bytes)));
  if (mode === 0) {
    const whole = menu([data]);
    check(show(whole) === show(menu(chunks)), 'a menu read in chunks differs');
    for (const item of (whole as { items: MenuItem[] }).items) checkItem(item);
  } else if (mode === 1) {
    const whole = header([data]);
    check(
      show(whole) === show(header(chunks)),
      `a Gopher+ header read in chunks differs: ${show(whole)} ${show(header(chunks))}`,
    );
  } else if (mode === 2) {
    check(show(dots([data])) === show(dots(chunks)), 'period-terminated data read in chunks differs');
  } else if (mode === 3) {
    for (const set of parseAttributes(utf8.decode(data))) {
      if (set.info !== null) checkItem(set.info);
      if (set.blocks.ASK !== undefined)
        for (const q of parseAsk(set.blocks.ASK)) check(q.kind.length > 0, 'an +ASK question without a kind');
    }
  } else {
    const e = parseErrorText(utf8.decode(data));
    check(e.errorNumber === null || Number.isSafeInteger(e.errorNumber), `error number ${e.errorNumber}`);
  }
}
