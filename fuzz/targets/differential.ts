// Fuzz target: the parser against the eager parser it replaced (test/reference/, RFC 1738 2.1,
// 2.2, 3, 5). The bytes are read as by the parse target (a first control byte picks a scheme);
// bit 0x20 of the last byte pads the input with white space and parses with `trim`, its low two
// bits pick the order in which the lazy parts (violations, fields, valid, toJSON) are read
// first. Invariant: every getter, the fields, valid, violations, toJSON(), the offsets,
// mayContain(), hostIsPlain() and normalize() are equal, frozen alike, and the same LocatorError
// comes back where no structure can be read.

import { differ } from '../../test/reference/differential.js';
import { inputOf } from './parse.js';
import { check } from './lib.js';

export function fuzz(data: Uint8Array): void {
  const s = inputOf(data);
  const last = data.length > 0 ? data[data.length - 1] : 0;
  const trim = (last & 0x20) !== 0;
  const d = trim ? differ(` ${s}\u00a0`, { trim: true }, last & 3) : differ(s, undefined, last & 3);
  check(d === null, `the parser differs from the eager reference: ${d}`);
}
