// Fuzz target: the TN3270 client's Telnet layer (RFC 1576, 885, 1091) and the 3270 data stream
// (GA23-0059). The first byte picks the reader: the Telnet layer (bytes from the host) or one
// record applied to a screen. Invariants: only LocatorError is thrown; the Telnet layer gives the
// same replies, records and notes in any chunking; a record is read only inside its bounds (the
// same result when it is a view inside larger bytes); after a record the cursor is inside the
// buffer, every attribute is -1 or an octet, and a read's reply is well-formed.

import { Tn3270Telnet } from '../../src/clients/tn3270/negotiate.js';
import { applyRecord } from '../../src/clients/tn3270/datastream.js';
import { Screen } from '../../src/clients/tn3270/screen.js';
import { LocatorError } from '../../src/core/errors.js';
import { check, chunksOf, concatAll, cuts, randomOf, refusal, show } from './lib.js';

function telnet(chunks: Uint8Array[]): unknown {
  const t = new Tn3270Telnet('IBM-3278-2', { subnegotiation: 64, record: 4096 });
  const replies: Uint8Array[] = [];
  const records: Uint8Array[] = [];
  const notes: unknown[] = [];
  try {
    for (const c of chunks) {
      const r = t.feed(c);
      replies.push(...r.replies);
      records.push(...r.records);
      notes.push(...r.notes);
    }
  } catch (e) {
    if (e instanceof LocatorError) return { error: e.code };
    throw e;
  }
  return { replies: concatAll(replies), records, notes, ready: t.ready };
}

function screenAfter(record: Uint8Array, rows: number): { screen: Screen; result: unknown } {
  const screen = new Screen(rows, 80);
  const r = refusal(() => applyRecord(screen, record));
  return { screen, result: r instanceof LocatorError ? r.code : r };
}

export function fuzz(bytes: Uint8Array): void {
  const mode = (bytes[0] ?? 0) & 1;
  const data = bytes.subarray(1);
  if (mode === 0) {
    const whole = telnet([data]);
    const chunked = telnet(chunksOf(data, cuts(data.length, randomOf(bytes))));
    check(show(whole) === show(chunked), 'the TN3270 Telnet layer in chunks differs');
    return;
  }
  const rows = (bytes[0] & 2) === 0 ? 24 : 43;
  const { screen, result } = screenAfter(data, rows);
  // The same record as a view with other bytes around it: nothing outside the view is read.
  const wide = new Uint8Array(data.length + 16).fill(0x11);
  wide.set(data, 8);
  const other = screenAfter(wide.subarray(8, 8 + data.length), rows);
  check(show(result) === show(other.result), 'a record read as a view gives another result');
  check(
    show([...screen.chars, ...screen.attrs, screen.cursor]) ===
      show([...other.screen.chars, ...other.screen.attrs, other.screen.cursor]),
    'a record read as a view gives another screen',
  );
  check(
    Number.isInteger(screen.cursor) && screen.cursor >= 0 && screen.cursor < screen.size,
    `cursor ${screen.cursor}`,
  );
  for (const a of screen.attrs) check(a >= -1 && a <= 255, `attribute ${a}`);
  for (const f of screen.fields())
    check(f.length >= 0 && f.length < screen.size && f.start < screen.size, `field ${show(f)}`);
  void screen.screenText();
}
