// Deterministic mutations of seed inputs, for the CI step of the fuzzing (issue 17): the same
// seed corpus and the same seed always give the same inputs, so a failure reproduces. These are
// the usual blind mutations (bit flips, interesting bytes, insertions, deletions, duplicated
// ranges, splices of two seeds) plus tokens of the protocols, which a byte-level mutator would
// rarely produce by chance.

const TOKENS = [
  '%',
  '%0',
  '%2F',
  '%25',
  '://',
  ':',
  '@',
  '/..',
  '/.',
  '../',
  '#',
  '?',
  ';type=a',
  '<URL:',
  '>',
  '\r\n',
  '\n',
  '\t',
  ' ',
  '[',
  ']',
  ':65536',
  ':99999999999999999999',
  'http://',
  'ftp://',
  'gopher://',
  'mailto:',
  'news:',
  'file://',
  '\u00a0',
  '\ud800',
  '\uffff',
  '\x00',
  '.\r\n',
  '..',
  '+-1\r\n',
  '+-2\r\n',
  '-1\r\n',
  '211-',
  '211 ',
  '250-',
  '250 ',
  '\xff\xff',
  '\xff\xfa',
  '\xff\xf0',
  '\xff\xfd\x18',
  '\xff\xef',
  '\x11\x40\x40',
  '\x3c\x5d\x7f',
];

const encoder = new TextEncoder();
const TOKEN_BYTES = TOKENS.map((t) => {
  // A token with code units over 0xFF is written as UTF-8; the others byte for byte.
  if ([...t].some((c) => c.charCodeAt(0) > 0xff)) return encoder.encode(t);
  return Uint8Array.from(t, (c) => c.charCodeAt(0));
});

const INTERESTING = [0, 1, 0x7f, 0x80, 0xff, 0x0a, 0x0d, 0x25, 0x3a, 0x2f, 0x40, 0x09, 0x20, 0x3e, 0x3c];

/** A small deterministic generator (xorshift32). */
export function generator(seed: number): (n: number) => number {
  let x = seed >>> 0 || 1;
  return (n: number) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return n <= 0 ? 0 : x % n;
  };
}

function insert(a: Uint8Array, at: number, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a.subarray(0, at));
  out.set(b, at);
  out.set(a.subarray(at), at + b.length);
  return out;
}

/** One to four mutations of `input`, drawn from `rand`; `others` are seeds to splice with. */
export function mutate(
  input: Uint8Array,
  others: Uint8Array[],
  rand: (n: number) => number,
  maxLength = 4096,
): Uint8Array {
  let b: Uint8Array = input.slice();
  const count = 1 + rand(4);
  for (let k = 0; k < count; k++) {
    const at = rand(b.length + 1);
    switch (rand(8)) {
      case 0:
        if (b.length > 0) b[rand(b.length)] ^= 1 << rand(8);
        break;
      case 1:
        if (b.length > 0) b[rand(b.length)] = INTERESTING[rand(INTERESTING.length)];
        break;
      case 2:
        b = insert(b, at, Uint8Array.of(rand(256)));
        break;
      case 3: {
        const n = 1 + rand(Math.min(16, b.length - at + 1));
        b = Uint8Array.from([...b.subarray(0, at), ...b.subarray(at + n)]);
        break;
      }
      case 4:
      case 5:
        b = insert(b, at, TOKEN_BYTES[rand(TOKEN_BYTES.length)]);
        break;
      case 6: {
        const from = rand(b.length + 1);
        const piece = b.slice(from, from + 1 + rand(32));
        const times = 1 + rand(8);
        for (let i = 0; i < times; i++) b = insert(b, at, piece);
        break;
      }
      default: {
        const o = others.length > 0 ? others[rand(others.length)] : b;
        const from = rand(o.length + 1);
        b = insert(b.subarray(0, at), at, o.subarray(from, from + rand(64)));
        break;
      }
    }
  }
  return b.length > maxLength ? b.subarray(0, maxLength) : b;
}
