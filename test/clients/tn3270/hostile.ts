// Hostile 3270 data streams for the tests (IBM GA23-0059), shared by the unit and session tests.
import { encodeChar } from '../../../src/clients/tn3270/ebcdic.js';

/**
 * A Write (W, WCC 0, "X" at the cursor) wrapped in `levels` Write Structured Fields, each an
 * Outbound 3270DS field (ID 0x40, partition 0) holding the next; `zero`: every length 0 ("to the
 * end of the record", GA23-0059), as a hostile host writes 50,000 of them in one record.
 */
export function nestedWsf(levels: number, zero = false): Uint8Array {
  let rec = [0xf1, 0x00, encodeChar('X')!];
  if (zero) {
    const out = new Uint8Array(5 * levels + rec.length);
    for (let k = 0; k < levels; k++) out.set([0xf3, 0x00, 0x00, 0x40, 0x00], 5 * k);
    out.set(rec, 5 * levels);
    return out;
  }
  for (let k = 0; k < levels; k++) {
    const len = 4 + rec.length; // the field's length counts itself (2), the ID, the partition and the record
    rec = [0xf3, len >> 8, len & 0xff, 0x40, 0x00, ...rec];
  }
  return Uint8Array.from(rec);
}

/** `record` as TN3270 sends it (RFC 1576): each 0xFF doubled, IAC EOR at the end. */
export function onWire(record: Uint8Array): Buffer {
  const out: number[] = [];
  for (const b of record) out.push(...(b === 0xff ? [0xff, 0xff] : [b]));
  return Buffer.from([...out, 0xff, 0xef]);
}
