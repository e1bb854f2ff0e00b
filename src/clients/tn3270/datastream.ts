// The outbound 3270 data stream (IBM GA23-0059 "3270 Data Stream Programmer's Reference",
// chapters 3-5; RFC 1576: a TN3270 record is one such stream): the commands Write, Erase/Write,
// Erase/Write Alternate, Erase All Unprotected, Read Buffer, Read Modified (All) and Write
// Structured Field, and the orders SF, SFE, SBA, SA, MF, IC, PT, RA, EUA and GE, applied to a
// Screen. Anything else - an unknown command or order, an order cut short, an address outside
// the buffer - is a `protocol-error`, and the screen keeps what the record had written so far.
// Pure.

import { LocatorError } from '../../core/errors.js';
import { PROTOCOL_ERROR } from '../types.js';
import { AID, decodeAddress, encodeAddress, FA, Screen, XA } from './screen.js';

/** Command codes (GA23-0059 "Commands"): each has a CCW code and an SNA code. */
export const COMMAND = {
  W: [0x01, 0xf1],
  EW: [0x05, 0xf5],
  EWA: [0x0d, 0x7e],
  EAU: [0x0f, 0x6f],
  RB: [0x02, 0xf2],
  RM: [0x06, 0xf6],
  RMA: [0x0e, 0x6e],
  WSF: [0x11, 0xf3],
} as const;

/** Order codes (GA23-0059 "Orders"). */
export const ORDER = {
  PT: 0x05,
  GE: 0x08,
  SBA: 0x11,
  EUA: 0x12,
  IC: 0x13,
  SF: 0x1d,
  SA: 0x28,
  SFE: 0x29,
  MF: 0x2c,
  RA: 0x3c,
} as const;

/** Control characters that are data in a write (GA23-0059 "Character Sets": NUL, FF, CR, NL, EM, DUP, FM, SUB). */
const DATA_CONTROLS = new Set([0x00, 0x0c, 0x0d, 0x15, 0x19, 0x1c, 0x1e, 0x3f]);

/** Write control character bits (GA23-0059 "WCC"). */
const WCC = { ALARM: 0x04, RESTORE: 0x02, RESET_MDT: 0x01 } as const;

/** What one record did: the command's name, an inbound record to send back (a read), and notes. */
export interface Applied {
  command: string;
  reply: Uint8Array | null;
  notes: string[];
}

function fail(what: string, offset: number): never {
  throw new LocatorError(PROTOCOL_ERROR, -1, `the 3270 data stream ${what} at octet ${offset} (GA23-0059)`);
}

function commandOf(code: number): keyof typeof COMMAND | null {
  for (const [name, codes] of Object.entries(COMMAND))
    if ((codes as readonly number[]).includes(code)) return name as keyof typeof COMMAND;
  return null;
}

/**
 * Applies the orders and data of a write (GA23-0059 "Write Operation") from `data[from]` on:
 * writes start at `address`; IC's address, if any, becomes the cursor at the end.
 */
function applyOrders(screen: Screen, data: Uint8Array, from: number, address: number, base: number): void {
  const size = screen.size;
  let a = address;
  let cursor = -1;
  const need = (i: number, n: number, what: string) => {
    if (i + n > data.length) fail(`ends inside ${what}`, base + i);
  };
  const addressAt = (i: number, what: string) => {
    need(i, 2, what);
    const v = decodeAddress(data[i], data[i + 1]);
    if (v >= size) fail(`gives the address ${v} outside the ${size}-position buffer in ${what}`, base + i);
    return v;
  };
  const put = (c: number) => {
    screen.chars[a] = c;
    screen.attrs[a] = -1;
    screen.color[a] = screen.pen.color;
    screen.highlight[a] = screen.pen.highlight;
    a = (a + 1) % size;
  };
  let i = from;
  while (i < data.length) {
    const b = data[i];
    switch (b) {
      case ORDER.SF:
        need(i + 1, 1, 'SF');
        screen.attrs[a] = data[i + 1];
        screen.chars[a] = 0;
        screen.color[a] = 0;
        screen.highlight[a] = 0;
        a = (a + 1) % size;
        i += 2;
        break;
      case ORDER.SFE:
      case ORDER.MF: {
        need(i + 1, 1, b === ORDER.SFE ? 'SFE' : 'MF');
        const n = data[i + 1];
        need(i + 2, 2 * n, b === ORDER.SFE ? 'SFE' : 'MF');
        const sfe = b === ORDER.SFE;
        if (sfe || screen.attrs[a] >= 0) {
          // SFE starts a field with no extended attributes; MF changes only those it names.
          let fa = sfe ? 0 : screen.attrs[a];
          let color = sfe ? 0 : screen.color[a];
          let highlight = sfe ? 0 : screen.highlight[a];
          for (let k = 0; k < n; k++) {
            const [type, value] = [data[i + 2 + 2 * k], data[i + 3 + 2 * k]];
            if (type === 0xc0) fa = value;
            else if (type === XA.COLOR) color = value;
            else if (type === XA.HIGHLIGHT) highlight = value;
            else if (type === XA.ALL) color = highlight = 0;
          }
          screen.attrs[a] = fa;
          screen.chars[a] = 0;
          screen.color[a] = color;
          screen.highlight[a] = highlight;
        }
        a = (a + 1) % size;
        i += 2 + 2 * n;
        break;
      }
      case ORDER.SBA:
        a = addressAt(i + 1, 'SBA');
        i += 3;
        break;
      case ORDER.SA:
        need(i + 1, 2, 'SA');
        // The character attributes of what this write puts next (GA23-0059 "Set Attribute").
        if (data[i + 1] === XA.COLOR) screen.pen.color = data[i + 2];
        else if (data[i + 1] === XA.HIGHLIGHT) screen.pen.highlight = data[i + 2];
        else if (data[i + 1] === XA.ALL) screen.pen = { color: 0, highlight: 0 };
        i += 3;
        break;
      case ORDER.IC:
        cursor = a;
        i += 1;
        break;
      case ORDER.PT: {
        // To the first position of the next unprotected field (address 0 when there is none).
        const next = screen.nextInput((a - 1 + size) % size);
        a = next === (a - 1 + size) % size ? 0 : next;
        i += 1;
        break;
      }
      case ORDER.RA: {
        const stop = addressAt(i + 1, 'RA');
        let j = i + 3;
        need(j, 1, 'RA');
        if (data[j] === ORDER.GE) {
          j++;
          need(j, 1, 'RA');
        }
        const c = data[j];
        let n = (stop - a + size) % size;
        if (n === 0) n = size;
        for (let k = 0; k < n; k++) put(c);
        i = j + 1;
        break;
      }
      case ORDER.EUA: {
        const stop = addressAt(i + 1, 'EUA');
        let n = (stop - a + size) % size;
        if (n === 0) n = size;
        // One pass for the whole order: isInput() per position searches back for the field
        // attribute each time, which made a record of EUA orders quadratic in the buffer size.
        const input = screen.inputMap();
        for (let k = 0; k < n; k++) {
          const p = (a + k) % size;
          if (input[p] === 1) screen.chars[p] = 0;
        }
        a = stop;
        i += 3;
        break;
      }
      case ORDER.GE:
        need(i + 1, 1, 'GE');
        put(data[i + 1]);
        i += 2;
        break;
      default:
        if (b < 0x40 && !DATA_CONTROLS.has(b))
          fail(`holds the unknown order 0x${b.toString(16).padStart(2, '0')}`, base + i);
        put(b);
        i += 1;
    }
  }
  if (cursor >= 0) screen.cursor = cursor;
}

/** Structured field IDs (GA23-0059 chapter 5) that this terminal acts on. */
const SF_READ_PARTITION = 0x01;
const SF_ERASE_RESET = 0x03;
const SF_OUTBOUND_3270DS = 0x40;

/**
 * How deep a Write Structured Field may sit inside the Outbound 3270DS fields of others: the
 * outermost WSF is level 1. GA23-0059 ("Outbound 3270DS") has the field carry a Write, Erase/Write,
 * Erase/Write Alternate or Erase All Unprotected, so a real host nests no WSF at all; a deeper
 * record is refused (`protocol-error`) before it can exhaust the stack.
 * DEVIATION: a WSF inside Outbound 3270DS is taken, up to this depth, rather than refused at once.
 */
export const MAX_WSF_NESTING = 16;

/** Two octets, high first (the query replies' lengths and sizes). */
const u16 = (n: number) => [(n >> 8) & 0xff, n & 0xff];

/**
 * The Query Reply a terminal sends to Read Partition Query (GA23-0059 chapter 6): Summary, Usable
 * Area (the largest screen: the alternate size), Color (the seven colours; default green),
 * Highlighting (blink, reverse, underscore) and Implicit Partition (the default and the
 * alternate size, as Erase/Write and Erase/Write Alternate use them).
 */
export function queryReply(screen: Screen): Uint8Array {
  const cols = screen.alternateCols;
  const rows = screen.alternateRows;
  const summary = [0x00, 0x09, 0x81, 0x80, 0x80, 0x81, 0x86, 0x87, 0xa6];
  const usable = [
    ...[0x00, 0x17, 0x81, 0x81, 0x01, 0x00],
    ...u16(cols),
    ...u16(rows),
    ...[0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01, 0x09, 0x0c],
    ...u16(cols * rows),
  ];
  const colors = [0x00, 0x16, 0x81, 0x86, 0x00, 0x08, 0x00, 0xf4];
  for (let c = 0xf1; c <= 0xf7; c++) colors.push(c, c);
  const highlight = [0x00, 0x0f, 0x81, 0x87, 0x05, 0x00, 0xf0, 0xf1, 0xf1, 0xf2, 0xf2, 0xf4, 0xf4, 0xf0, 0xf0];
  const implicit = [
    ...[0x00, 0x11, 0x81, 0xa6, 0x00, 0x00, 0x0b, 0x01, 0x00],
    ...u16(screen.defaultCols),
    ...u16(screen.defaultRows),
    ...u16(cols),
    ...u16(rows),
  ];
  return Uint8Array.from([0x88, ...summary, ...usable, ...colors, ...highlight, ...implicit]);
}

function applyStructuredFields(screen: Screen, data: Uint8Array, result: Applied, level: number, base: number): void {
  if (level > MAX_WSF_NESTING)
    fail(`nests Write Structured Field ${level} levels deep, past the limit of ${MAX_WSF_NESTING},`, base);
  let i = 1;
  while (i < data.length) {
    if (i + 3 > data.length) fail('ends inside a structured field header', base + i);
    let len = (data[i] << 8) | data[i + 1];
    if (len === 0) len = data.length - i;
    if (len < 3 || i + len > data.length) fail(`has a structured field of length ${len} that does not fit`, base + i);
    const id = data[i + 2];
    const body = data.subarray(i + 3, i + len);
    if (id === SF_READ_PARTITION && body.length >= 2 && (body[1] === 0x02 || body[1] === 0x03)) {
      result.reply = queryReply(screen);
      result.notes.push(
        'Read Partition Query: answered with Summary, Usable Area, Color, Highlighting and Implicit Partition',
      );
    } else if (id === SF_ERASE_RESET) {
      screen.erase(body.length > 0 && (body[0] & 0x80) !== 0); // 0x80: the alternate size
    } else if (id === SF_OUTBOUND_3270DS && body.length >= 2) {
      const inner = applyAt(screen, body.subarray(1), level, base + i + 4);
      result.notes.push(...inner.notes);
      if (inner.reply !== null) result.reply = inner.reply;
    } else {
      result.notes.push(`structured field 0x${id.toString(16)} ignored`);
    }
    i += len;
  }
}

/**
 * Applies one record of the host (GA23-0059 chapter 3; RFC 1576) to `screen`. A write moves the
 * buffer and the cursor and, per its WCC, sounds the alarm, restores the keyboard and resets the
 * modified tags; a read returns the inbound record to send (Read Buffer: every position; Read
 * Modified: the modified fields, with no AID); WSF Read Partition Query returns a Query Reply.
 * Fails with `protocol-error` on an empty record, an unknown command or order, an order cut
 * short or addressing outside the buffer, or a Write Structured Field nested in Outbound 3270DS
 * fields more than MAX_WSF_NESTING levels deep.
 */
export function applyRecord(screen: Screen, record: Uint8Array): Applied {
  return applyAt(screen, record, 0, 0);
}

/**
 * applyRecord() of a record found `level` Write Structured Fields deep (0: the host's record),
 * starting at octet `base` of the host's record (for the offsets in the errors).
 */
function applyAt(screen: Screen, record: Uint8Array, level: number, base: number): Applied {
  if (record.length === 0) fail('is an empty record', base);
  const name = commandOf(record[0]);
  if (name === null) fail(`starts with the unknown command 0x${record[0].toString(16).padStart(2, '0')}`, base);
  const result: Applied = { command: name, reply: null, notes: [] };
  screen.alarm = false;
  switch (name) {
    case 'RB':
      result.reply = screen.readBuffer(AID.NONE);
      return result;
    case 'RM':
    case 'RMA':
      result.reply = screen.readModified(AID.NONE);
      return result;
    case 'EAU':
      {
        const input = screen.inputMap();
        for (let p = 0; p < screen.size; p++) if (input[p] === 1) screen.chars[p] = 0;
      }
      screen.resetModified();
      screen.cursor = screen.nextInput(screen.size - 1);
      screen.restore();
      return result;
    case 'WSF':
      applyStructuredFields(screen, record, result, level + 1, base);
      return result;
    default: {
      if (record.length < 2) fail('ends before the write control character', base + 1);
      const wcc = record[1];
      if (name !== 'W') screen.erase(name === 'EWA');
      else screen.pen = { color: 0, highlight: 0 }; // SA's attributes last one write
      if (wcc & WCC.RESET_MDT) screen.resetModified();
      applyOrders(screen, record, 2, name === 'W' ? screen.cursor : 0, base);
      if (wcc & WCC.ALARM) screen.alarm = true;
      if (wcc & WCC.RESTORE) screen.restore();
      return result;
    }
  }
}

export { encodeAddress, decodeAddress, FA };
