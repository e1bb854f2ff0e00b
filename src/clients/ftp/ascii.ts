// TYPE A data in its local form (RFC 959 3.1.1.1): ASCII-mode data crosses the wire in NVT form,
// lines ended by CR LF, and "the receiving site must convert the data from the standard form to
// its own internal form". Here the internal form is the POSIX one: CR LF becomes LF; a CR not
// followed by LF stays as it is. No networking here: a pure converter, fed chunk by chunk.

import { CR, LF, concat } from '../framing/bytes.js';

/**
 * Converts NVT-ASCII (CR LF line ends) to local line ends (LF), chunk by chunk (RFC 959
 * 3.1.1.1). A CR at the end of one chunk is held until the next shows whether an LF follows;
 * end() hands over a CR held at the very end. Every other octet passes unchanged.
 */
export class NvtToLocal {
  #heldCr = false;

  /** The local form of `chunk`, given what came before it (RFC 959 3.1.1.1). */
  push(chunk: Uint8Array): Uint8Array {
    const held = this.#heldCr;
    this.#heldCr = false;
    if (chunk.length === 0) {
      this.#heldCr = held;
      return chunk;
    }
    // Fast path: no CR in the chunk and none held: the chunk as it is.
    let cr = chunk.indexOf(CR);
    if (cr < 0 && !held) return chunk;
    const out = new Uint8Array(chunk.length + (held ? 1 : 0));
    let n = 0;
    // The held CR is dropped when this chunk starts with LF, else it was a lone CR.
    if (held && chunk[0] !== LF) out[n++] = CR;
    const last = chunk.length - 1;
    // Up to the first CR the octets are copied at once; from there one octet at a time.
    if (cr < 0) cr = chunk.length;
    out.set(chunk.subarray(0, cr), n);
    n += cr;
    for (let i = cr; i <= last; i++) {
      const b = chunk[i];
      if (b === CR) {
        if (i === last) {
          this.#heldCr = true;
          break;
        }
        if (chunk[i + 1] === LF) continue; // CR LF: only the LF is kept
      }
      out[n++] = b;
    }
    return out.subarray(0, n);
  }

  /** What is still held at the end of the data: a final CR, which no LF followed. */
  end(): Uint8Array {
    const held = this.#heldCr;
    this.#heldCr = false;
    return held ? Uint8Array.of(CR) : new Uint8Array(0);
  }
}

/** The whole of `data` in local form (RFC 959 3.1.1.1), for tests and small objects. */
export function nvtToLocal(data: Uint8Array): Uint8Array {
  const c = new NvtToLocal();
  return concat(c.push(data), c.end());
}
