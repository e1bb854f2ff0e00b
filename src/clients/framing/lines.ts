// The one line splitter of the line-based protocols (RFC 3977 3.1.1, RFC 1436, RFC 959 4.2): bytes
// in any chunking, whole lines out, an unfinished line kept bounded. Pure: no I/O.

import { LocatorError } from '../../core/errors.js';
import { PROTOCOL_ERROR } from '../types.js';
import { LF, concat, lineEnd } from './bytes.js';

const EMPTY = new Uint8Array(0);

/**
 * Splits data into whole lines (their CR LF, or a lone LF, cut off; RFC 5321 2.3.8 and the DEVIATION
 * every client makes for a bare LF), keeping an unfinished last line for the next push. A line
 * longer than `max` octets is a protocol error made by `tooLong` (a bound, not a memory sink).
 */
export class LineSplitter {
  #carry: Uint8Array = EMPTY;
  readonly #max: number;
  readonly #tooLong: (max: number) => LocatorError;

  constructor(
    max: number,
    tooLong: (max: number) => LocatorError = (m) =>
      new LocatorError(PROTOCOL_ERROR, -1, `the server sent a line of more than ${m} octets`),
  ) {
    this.#max = max;
    this.#tooLong = tooLong;
  }

  push(data: Uint8Array): Uint8Array[] {
    const buf = concat(this.#carry, data);
    const lines: Uint8Array[] = [];
    let start = 0;
    for (;;) {
      const lf = buf.indexOf(LF, start);
      if (lf < 0) break;
      lines.push(buf.subarray(start, lineEnd(buf, start, lf)));
      start = lf + 1;
    }
    this.#carry = buf.slice(start);
    if (this.#carry.length > this.#max) throw this.#tooLong(this.#max);
    return lines;
  }

  /** What is left at the end of the data: an unfinished last line (no line end), or null. */
  end(): Uint8Array | null {
    const c = this.#carry;
    this.#carry = EMPTY;
    return c.length > 0 ? c : null;
  }
}
