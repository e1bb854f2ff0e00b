// Dot-terminated blocks (RFC 3977 3.1.1, RFC 5321 4.5.2, RFC 1436 3.9 and Gopher+ 2.3 length -1):
// the one decoder that undoes the dot-stuffing of data read in any chunking, and the encoder that
// does it for data sent. Pure: no I/O.

import { CR, DOT, LF, concatBytes } from './bytes.js';

/** Where a block is between chunks: true when the next octet starts a line. */
export interface DotState {
  atLineStart: boolean;
}

/**
 * Which stuffed period is removed: `any` drops the first "." of every line that starts with one
 * (RFC 3977 3.1.1, RFC 5321 4.5.2 step 2); `double` only that of a line starting ".."
 * (RFC 1436 3.9 stuffs a line that starts with a period; a line ".x" from a server that does not
 * stuff is kept as it came).
 */
export type Unstuff = 'any' | 'double';

/** What one call read: the data, octets to put before the next chunk, what followed the end. */
export interface DotChunk {
  /** The block's data in this chunk, line ends as sent. */
  data: Uint8Array;
  /** A "." or ".\r" at a line start that the next chunk decides: give it back before that chunk. */
  pending: Uint8Array;
  /** After the "." line (when `done`): the octets that follow the block. */
  rest: Uint8Array;
  /** True once the "." line that ends the block was read. */
  done: boolean;
}

/**
 * Undoes the dot-stuffing of a block's octets received so far (RFC 3977 3.1.1): the line "."
 * alone ends the block; a stuffed "." is removed as `unstuff` says. The data is handed on as
 * views of `buf` where no period was removed (adjacent ranges merged: a chunk without one is not
 * copied).
 * DEVIATION: RFC 3977 3.1.1 and RFC 5321 2.3.8 end every line with CR LF; a lone LF is a line end
 * too (old servers and gateways send them), and such lines are handed on as they came.
 */
export function undot(buf: Uint8Array, state: DotState, unstuff: Unstuff = 'any'): DotChunk {
  const ranges: number[] = [];
  const add = (from: number, to: number) => {
    if (ranges.length > 0 && ranges[ranges.length - 1] === from) ranges[ranges.length - 1] = to;
    else ranges.push(from, to);
  };
  const n = buf.length;
  const empty = buf.subarray(n);
  const result = (pending: Uint8Array, rest: Uint8Array, done: boolean): DotChunk => {
    const parts: Uint8Array[] = [];
    for (let r = 0; r < ranges.length; r += 2) parts.push(buf.subarray(ranges[r], ranges[r + 1]));
    return { data: parts.length === 0 ? empty : concatBytes(parts), pending, rest, done };
  };
  let i = 0;
  while (i < n) {
    if (state.atLineStart && buf[i] === DOT) {
      if (i + 1 >= n) return result(buf.subarray(i), empty, false);
      const next = buf[i + 1];
      if (next === LF) return result(empty, buf.subarray(i + 2), true);
      if (next === CR) {
        if (i + 2 >= n) return result(buf.subarray(i), empty, false);
        if (buf[i + 2] === LF) return result(empty, buf.subarray(i + 3), true);
      }
      if (unstuff === 'any' || next === DOT) i++; // the stuffed "."
    }
    const lf = buf.indexOf(LF, i);
    if (lf < 0) {
      add(i, n);
      state.atLineStart = false;
      i = n;
    } else {
      add(i, lf + 1);
      state.atLineStart = true;
      i = lf + 1;
    }
  }
  return result(empty, empty, false);
}

/**
 * The message as DATA sends it (RFC 5321 4.5.2, 4.1.1.4): every line that starts with "." gets
 * one more "."; the message ends with CR LF (added when missing), then the end "." CR LF.
 */
export function dotStuff(message: Uint8Array): Uint8Array {
  let dots = 0;
  for (let i = 0; i < message.length; i++) {
    if (message[i] === DOT && (i === 0 || message[i - 1] === LF)) dots++;
  }
  const endsWithCrLf = message.length >= 2 && message[message.length - 2] === CR && message[message.length - 1] === LF;
  const tail = message.length === 0 || endsWithCrLf ? 3 : 5;
  const out = new Uint8Array(message.length + dots + tail);
  let o = 0;
  for (let i = 0; i < message.length; i++) {
    if (message[i] === DOT && (i === 0 || message[i - 1] === LF)) out[o++] = DOT;
    out[o++] = message[i];
  }
  if (tail === 5) {
    out[o++] = CR;
    out[o++] = LF;
  }
  out[o++] = DOT;
  out[o++] = CR;
  out[o++] = LF;
  return out;
}
