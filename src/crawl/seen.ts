// The set of normal forms a crawl has seen, in 8 octets each: a 64-bit hash of the key in an
// open-addressing table of two Uint32Arrays, so a million URLs cost 16 MB (the table is kept at
// most half full) where a Set of their strings would cost over 100 MB. Two keys with the same
// 64-bit hash are taken for one: for a million keys the chance that any two collide is about
// 3 in 10^8 (the birthday bound, n^2 / 2^65), and such a URL would be left unchecked, not
// checked twice. Not a spec rule: the memory bound of a crawl (docs/check.md, "Crawl").

/** FNV-1a over the UTF-16 code units, two 32-bit lanes with different offsets and primes (a 64-bit hash in two halves). */
function hash64(s: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x6c62272e;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x0100019d) ^ (b >>> 15);
  }
  // A final mix so that keys differing in the last character spread over the table.
  a ^= a >>> 16;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 13;
  b ^= b >>> 16;
  b = Math.imul(b, 0xc2b2ae35);
  b ^= b >>> 13;
  // 0/0 marks an empty slot: a key that hashes there is moved to 1.
  if (a === 0 && b === 0) b = 1;
  return [a >>> 0, b >>> 0];
}

/** A set of strings kept as 64-bit hashes (see the head of this module). */
export class SeenSet {
  #hi: Uint32Array;
  #lo: Uint32Array;
  #mask: number;
  #size = 0;

  constructor(capacity = 1024) {
    let n = 16;
    while (n < capacity * 2) n *= 2;
    this.#hi = new Uint32Array(n);
    this.#lo = new Uint32Array(n);
    this.#mask = n - 1;
  }

  get size(): number {
    return this.#size;
  }

  /** Octets the table holds (for the crawl's memory figures). */
  get bytes(): number {
    return this.#hi.byteLength + this.#lo.byteLength;
  }

  has(key: string): boolean {
    const [a, b] = hash64(key);
    for (let i = a & this.#mask; ; i = (i + 1) & this.#mask) {
      const x = this.#hi[i];
      const y = this.#lo[i];
      if (x === 0 && y === 0) return false;
      if (x === a && y === b) return true;
    }
  }

  /** Adds `key`; false when it was there already. */
  add(key: string): boolean {
    const [a, b] = hash64(key);
    for (let i = a & this.#mask; ; i = (i + 1) & this.#mask) {
      const x = this.#hi[i];
      const y = this.#lo[i];
      if (x === a && y === b) return false;
      if (x === 0 && y === 0) {
        this.#hi[i] = a;
        this.#lo[i] = b;
        if (++this.#size * 2 > this.#mask + 1) this.#grow();
        return true;
      }
    }
  }

  #grow(): void {
    const hi = this.#hi;
    const lo = this.#lo;
    const n = hi.length * 2;
    this.#hi = new Uint32Array(n);
    this.#lo = new Uint32Array(n);
    this.#mask = n - 1;
    for (let j = 0; j < hi.length; j++) {
      const a = hi[j];
      const b = lo[j];
      if (a === 0 && b === 0) continue;
      let i = a & this.#mask;
      while (this.#hi[i] !== 0 || this.#lo[i] !== 0) i = (i + 1) & this.#mask;
      this.#hi[i] = a;
      this.#lo[i] = b;
    }
  }
}
