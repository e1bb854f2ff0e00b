// Pure parsers for what a Gopher or Gopher+ server sends (RFC 1436, the Gopher+ protocol
// document). No I/O: each takes bytes (or text) and returns what it read plus the `rest` it could
// not yet use, so input split across chunks resumes where it stopped (the basic-ftp model).
//
//   Gopher+ reply   = ("+" | "-") length CR LF data      length: n >= 0, -1 (ends with "."), -2 (to close)
//   menu line       = type display TAB selector TAB host TAB port [TAB gopher+] CR LF
//   end of menu     = "." CR LF (optional: pygopherd omits it, gophernicus sends it)

import { build } from '../../operations/build.js';
import { tryParse } from '../../schemes/registry.js';
import { Url } from '../../core/url.js';
import { XCHAR_SET, encode } from '../../core/percent.js';
import type { AskQuestion, MenuItem } from './types.js';
import { CR, DOT, LF, TAB, concat } from '../framing/bytes.js';
import { undot, type DotState } from '../framing/dot.js';

const PLUS = 43;
const MINUS = 45;
const EMPTY = new Uint8Array(0);

const utf8 = new TextDecoder('utf-8');
const utf8Strict = new TextDecoder('utf-8', { fatal: true });

/** Joins two byte arrays (the framing core's, ../framing/bytes.ts). */
export { concat };

// ---------------------------------------------------------------------------------------------
// Gopher+ reply header (Gopher+ 2.3)

/** A Gopher+ reply header: `ok` ("+") or an error ("-"), and the length token. */
export interface PlusHeader {
  ok: boolean;
  /** n >= 0: n octets follow; -1: the data ends with a "." line; -2: the data ends when the server closes. */
  length: number;
  /** The header line as received, without its line end. */
  line: string;
}

/** The longest header line accepted ("+" or "-", a number of at most 18 digits, spaces, CR LF). */
const MAX_HEADER = 40;

/**
 * Reads the Gopher+ reply header (Gopher+ 2.3): "+" or "-", then a decimal length (n >= 0, -1
 * or -2), then CR LF (a bare LF is accepted). Returns `header: null` while the line is
 * incomplete, `error` for anything else (the first octet is checked at once, so a reply that is
 * not Gopher+ is refused without waiting for its first line).
 */
export function parsePlusHeader(
  buf: Uint8Array,
): { header: PlusHeader; rest: Uint8Array; error: null } | { header: null; rest: Uint8Array; error: string | null } {
  if (buf.length === 0) return { header: null, rest: buf, error: null };
  const first = buf[0];
  if (first !== PLUS && first !== MINUS) {
    return {
      header: null,
      rest: buf,
      error: `the reply does not start with a Gopher+ header ("+<length>" or "-<length>"): ${preview(buf)}`,
    };
  }
  const lf = buf.indexOf(LF);
  if (lf < 0) {
    if (buf.length > MAX_HEADER)
      return { header: null, rest: buf, error: `the Gopher+ header line is too long: ${preview(buf)}` };
    return { header: null, rest: buf, error: null };
  }
  let end = lf;
  if (end > 0 && buf[end - 1] === CR) end--;
  while (end > 1 && buf[end - 1] === 32) end--;
  let i = 1;
  const negative = buf[i] === MINUS;
  if (negative) i++;
  const digits = i;
  let n = 0;
  while (i < end && buf[i] >= 48 && buf[i] <= 57 && i - digits < 18) n = n * 10 + (buf[i++] - 48);
  const line = latin1(buf, 0, lf > 0 && buf[lf - 1] === CR ? lf - 1 : lf);
  if (i === digits || i !== end || (negative && n !== 1 && n !== 2)) {
    return {
      header: null,
      rest: buf,
      error: `not a Gopher+ header line (expected "+<length>", "+-1" or "+-2"): ${JSON.stringify(line)}`,
    };
  }
  return { header: { ok: first === PLUS, length: negative ? -n : n, line }, rest: buf.subarray(lf + 1), error: null };
}

/** The first octets of a reply, shown safely in a message. */
function preview(buf: Uint8Array): string {
  const n = Math.min(buf.length, 40);
  return JSON.stringify(latin1(buf, 0, n)) + (buf.length > n ? '...' : '');
}

function latin1(buf: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(buf[i]);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Period-terminated data (RFC 1436 3.9 text; Gopher+ 2.3 length -1)

export type { DotState };

/**
 * Reads data that ends with a line holding only "." (RFC 1436: "a period on a line by itself";
 * Gopher+ 2.3: length -1). A line that starts with ".." loses its first "." (RFC 1436 3.9: lines
 * beginning with a period are sent with an extra one). The line end before the "." line is data.
 * Returns the data read, the octets kept for the next call (a "." or ".\r" at a line start that
 * may still be the end), and `done` once the "." line was read (`rest` is then what followed it).
 * The framing core's decoder (../framing/dot.ts), a lone "." of an unstuffed line kept.
 */
export function readDotData(buf: Uint8Array, state: DotState): { data: Uint8Array; rest: Uint8Array; done: boolean } {
  const r = undot(buf, state, 'double');
  return { data: r.data, rest: r.done ? r.rest : r.pending, done: r.done };
}

// ---------------------------------------------------------------------------------------------
// Gopher+ error text (Gopher+ 2.3)

/**
 * Reads the text of a Gopher+ error reply: "The first token on the first line of the error text
 * contains an error-code (an integer)"; the rest of that line is usually the administrator's
 * address; the following lines are the message. A final "." line is dropped.
 */
export function parseErrorText(text: string): { errorNumber: number | null; contact: string | null; message: string } {
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && (lines[lines.length - 1] === '' || lines[lines.length - 1] === '.')) lines.pop();
  const first = (lines.shift() ?? '').trim();
  const sp = first.search(/\s/);
  const token = sp < 0 ? first : first.slice(0, sp);
  const errorNumber = /^-?\d{1,9}$/.test(token) ? Number(token) : null;
  const contactText = errorNumber === null ? '' : sp < 0 ? '' : first.slice(sp + 1).trim();
  if (errorNumber === null && first !== '') lines.unshift(first);
  return { errorNumber, contact: contactText === '' ? null : contactText, message: lines.join('\n').trim() };
}

// ---------------------------------------------------------------------------------------------
// Menus (RFC 1436 3.8 item types, appendix DirEntity)

/**
 * Reads menu lines (RFC 1436 appendix: DirEntity = type display TAB selector TAB host TAB port
 * CR LF; Gopher+ adds a fifth field "+" or "?"). Lines may end with CR LF or a bare LF; the
 * menu ends with a "." line or, when the server omits it, at the end of the data: pass
 * `final: true` with the last bytes so that a last line without a line end is read. Empty lines
 * are skipped. Returns the items of the complete lines, the rest (a partial line), and `done`
 * once the "." line was read (then `rest` is whatever followed it, which is not part of the menu).
 */
export function parseMenu(buf: Uint8Array, final = false): { items: MenuItem[]; rest: Uint8Array; done: boolean } {
  const items: MenuItem[] = [];
  let i = 0;
  while (i < buf.length) {
    const lf = buf.indexOf(LF, i);
    if (lf < 0 && !final) break;
    const lineEnd = lf < 0 ? buf.length : lf;
    const next = lf < 0 ? buf.length : lf + 1;
    const end = lineEnd > i && buf[lineEnd - 1] === CR ? lineEnd - 1 : lineEnd;
    if (end === i + 1 && buf[i] === DOT) return { items, rest: buf.subarray(next), done: true };
    if (end > i) items.push(parseMenuLine(buf.subarray(i, end)));
    i = next;
  }
  return { items, rest: buf.subarray(i), done: false };
}

/**
 * How far into a menu's answer a menu line is looked for (the client and the probe): the lines
 * that start within these first octets, each read to its end.
 */
export const MENU_LINE_LIMIT = 4096;

/** The longest line read to decide (as MAX_MENU_LINE of ./menu.ts bounds a menu's lines). */
export const MENU_LINE_MAX = 65536;

/**
 * The first line of a menu's answer, without its line end (CR LF, or a bare LF), from the octets
 * read so far: up to the first LF, else all of them (the answer ended, or MENU_LINE_LIMIT was reached).
 */
export function firstLineOf(buf: Uint8Array): Uint8Array {
  const lf = buf.indexOf(LF);
  if (lf < 0) return buf;
  return buf.subarray(0, lf > 0 && buf[lf - 1] === CR ? lf - 1 : lf);
}

/**
 * Whether the start of an answer to a menu request is a menu (RFC 1436 3.8), as leniently as
 * Lynx reads one: `item` (its first well-formed line, wherever it stands among the first
 * MENU_LINE_LIMIT octets: a hand-made gophermap may open with a line of plain text), `empty`
 * (nothing, or the "." line before any line), `malformed` (no line of it is a menu line: a
 * plain-text error page, as gophernicus sends for a missing selector), or `more` while the
 * octets read so far cannot tell (pass `ended` once the answer is complete). The one test of a
 * menu's start: the client's open() and the probe both ask it.
 */
export function menuStart(
  buf: Uint8Array,
  ended: boolean,
): { kind: 'empty' } | { kind: 'malformed'; problem: string } | { kind: 'item'; item: MenuItem } | { kind: 'more' } {
  let first: string | null = null;
  let lines = 0;
  let dot = false;
  let i = 0;
  // Lines that start within the first MENU_LINE_LIMIT octets are read, each to its end (at most
  // MENU_LINE_MAX octets: a longer one is judged by what was read of it).
  while (i < buf.length && i < MENU_LINE_LIMIT) {
    const lf = buf.indexOf(LF, i);
    if (lf < 0 && !ended && buf.length - i < MENU_LINE_MAX) return { kind: 'more' };
    const lineEnd = lf < 0 ? buf.length : lf;
    const end = lineEnd > i && buf[lineEnd - 1] === CR ? lineEnd - 1 : lineEnd;
    if (end === i + 1 && buf[i] === DOT) {
      dot = true;
      break;
    }
    if (end > i) {
      lines++;
      const item = parseMenuLine(buf.subarray(i, Math.min(end, i + MENU_LINE_MAX)));
      if (item.problem === null) return { kind: 'item', item };
      first ??= item.problem;
    }
    if (lf < 0) {
      // A line with no end (the answer ended, or it is longer than MENU_LINE_MAX): all read.
      i = buf.length;
      break;
    }
    i = lf + 1;
  }
  if (lines === 0 && (ended || dot)) return { kind: 'empty' };
  if (!ended && !dot && i < MENU_LINE_LIMIT) return { kind: 'more' };
  return { kind: 'malformed', problem: first ?? 'it holds no line' };
}

/** Reads one menu line (without its line end) into an item with its URL (RFC 1436 appendix). */
export function parseMenuLine(line: Uint8Array): MenuItem {
  const type = line[0] < 0x80 ? String.fromCharCode(line[0]) : '\uFFFD';
  const fields: Uint8Array[] = [];
  let start = 1;
  for (;;) {
    const tab = line.indexOf(TAB, start);
    if (tab < 0) {
      fields.push(line.subarray(start));
      break;
    }
    fields.push(line.subarray(start, tab));
    start = tab + 1;
  }
  const display = utf8.decode(fields[0]);
  const selectorOctets = fields[1] ?? EMPTY;
  const item: MenuItem = {
    type,
    display,
    selector: utf8.decode(selectorOctets),
    host: fields[2] === undefined ? '' : utf8.decode(fields[2]),
    port: null,
    gopherPlus: fields[4] === undefined ? null : utf8.decode(fields[4]),
    url: null,
    problem: null,
  };
  if (line[0] >= 0x80) {
    item.problem = 'the item type is not a US-ASCII character (RFC 1436 3.8)';
    return item;
  }
  // DEVIATION: RFC 1436 gives every line four fields. An info line ("i", not in RFC 1436 but
  // written by every server) or an error line ("3") names no item, and hand-made gophermaps
  // write them with empty or missing fields ("iWelcome<TAB><TAB><TAB>", "iText<TAB>fake<TAB>
  // (NULL)<TAB>0"): read as Lynx reads them, by their display text, once the line has a TAB (a
  // line with none is plain text, not a menu line).
  if ((type === 'i' || type === '3') && fields.length > 1) {
    const port = fields.length >= 4 ? utf8.decode(fields[3]).trim() : '';
    if (/^\d{1,5}$/.test(port) && Number(port) <= 65535) item.port = Number(port);
    return item;
  }
  if (fields.length === 1) {
    item.problem =
      'a line with no TAB is plain text, not a menu line (RFC 1436 3.8: display, selector, host and port are TAB-separated)';
    return item;
  }
  if (fields.length < 4) {
    item.problem = `a menu line has four TAB-separated fields after the type (display, selector, host, port); this one has ${fields.length}`;
    return item;
  }
  const port = utf8.decode(fields[3]).trim();
  if (/^\d{1,5}$/.test(port) && Number(port) <= 65535) item.port = Number(port);
  else item.problem = `the port field ${JSON.stringify(port)} is not a port number`;
  if (type === 'i' || type === '3' || item.port === null) return item;
  setItemUrl(item, selectorOctets);
  return item;
}

/** True for an "h" item whose selector names a URL ("URL:<url>", also "/URL:<url>"). */
function linkedUrl(selector: string): string | null {
  if (selector.startsWith('URL:')) return selector.slice(4);
  if (selector.startsWith('/URL:')) return selector.slice(5);
  return null;
}

/**
 * The URL of a menu item: for "h" items with a "URL:" selector the URL it names (the Gopher
 * "URL:" convention, not RFC 1436); for types 8 and T a telnet: or tn3270: URL of host and port
 * with the selector as the user (RFC 1436 3.8: "the selector, if any, names the account"); for
 * every other type the gopher URL (RFC 1738 3.4.1) of type, selector, host and port, built with
 * build() so that it is exactly encoded. A selector that is not UTF-8 keeps its octets (%XX).
 */
function setItemUrl(item: MenuItem, selectorOctets: Uint8Array): void {
  const target = item.type === 'h' ? linkedUrl(item.selector) : null;
  try {
    if (target !== null) {
      const u = tryParse(target);
      if (!(u instanceof Url)) {
        item.problem = `the "URL:" selector does not hold a URL: ${u.detail}`;
        return;
      }
      item.url = u.href;
      noteViolation(item, u);
      return;
    }
    if (item.type === '8' || item.type === 'T') {
      item.url = build(item.type === '8' ? 'telnet' : 'tn3270', {
        user: item.selector === '' ? null : item.selector,
        host: item.host,
        port: item.port === 0 ? null : item.port,
      });
    } else {
      let selectorIsText = true;
      try {
        utf8Strict.decode(selectorOctets);
      } catch {
        selectorIsText = false;
      }
      const fields = {
        host: item.host,
        port: item.port,
        gophertype: item.type,
        selector: selectorIsText ? item.selector : '',
      };
      item.url = build('gopher', fields) + (selectorIsText ? '' : encode(selectorOctets, XCHAR_SET));
    }
    const u = tryParse(item.url);
    if (u instanceof Url) noteViolation(item, u);
  } catch (e) {
    item.url = null;
    item.problem = `no URL can be written for this item: ${(e as Error).message}`;
  }
}

function noteViolation(item: MenuItem, u: Url): void {
  const bad = u.violations.find((d) => d.severity === 'error');
  if (bad) item.problem = `the item's URL is not valid: ${bad.message} (${bad.code})`;
}

// ---------------------------------------------------------------------------------------------
// Gopher+ attributes ("!" and "$" replies) and +ASK forms

/** The attribute blocks of one item: `INFO` holds its menu line, the others their text. */
export interface AttributeSet {
  /** The item's +INFO line read as a menu line, or null when the set has no +INFO. */
  info: MenuItem | null;
  /** Block name (without "+" and ":") to its text: the rest of the header line and the lines
   * that follow it, each without its leading space, joined with "\n". */
  blocks: Record<string, string>;
}

/**
 * Reads a Gopher+ attribute reply (Gopher+ 2.4-2.6; the answer to "!" for one item, to "$" for
 * every item of a directory): blocks start with "+NAME:" at the start of a line; the lines of a
 * block start with a space; each "+INFO" block starts the attributes of the next item.
 */
export function parseAttributes(text: string): AttributeSet[] {
  const sets: AttributeSet[] = [];
  let current: AttributeSet | null = null;
  let block: string | null = null;
  let lines: string[] = [];
  const flush = () => {
    if (current !== null && block !== null) current.blocks[block] = lines.join('\n');
    block = null;
    lines = [];
  };
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.startsWith('+') && line.indexOf(':') > 1) {
      flush();
      const colon = line.indexOf(':');
      const name = line.slice(1, colon);
      const value = line.slice(colon + 1).replace(/^ /, '');
      if (name === 'INFO' || current === null) {
        current = { info: null, blocks: {} };
        sets.push(current);
      }
      if (name === 'INFO') current.info = value === '' ? null : parseMenuLine(new TextEncoder().encode(value));
      block = name;
      if (value !== '') lines.push(value);
    } else if (block !== null && line !== '' && line !== '.') {
      lines.push(line.startsWith(' ') ? line.slice(1) : line);
    }
  }
  flush();
  return sets;
}

/**
 * Reads the lines of a +ASK block (Gopher+ +ASK): "Kind: prompt" then TAB-separated values
 * (the default answer, or the choices of Choose and Select).
 */
export function parseAsk(block: string): AskQuestion[] {
  const out: AskQuestion[] = [];
  for (const line of block.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const kind = line.slice(0, colon).trim();
    const [prompt, ...values] = line
      .slice(colon + 1)
      .replace(/^ /, '')
      .split('\t');
    out.push({ kind, prompt: prompt ?? '', values });
  }
  return out;
}
