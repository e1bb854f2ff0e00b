// Gzip members one at a time (RFC 1952 2.2: "a gzip file consists of a series of members"), with
// where each starts and ends in the file: a WARC record's offset and length are those of its
// member (WARC 1.1 Annex D.2), and a torn last member is found by where inflating stops.

import { createInflateRaw } from 'node:zlib';
import type { FileHandle } from 'node:fs/promises';
import { defineCode, LocatorError } from '../core/errors.js';

export const WARC_TRUNCATED = defineCode(
  'warc-truncated',
  'error',
  'RFC 1952 2.3',
  'the file ends inside a gzip member (a torn last record)',
  'protocol',
);
export const WARC_BAD_GZIP = defineCode(
  'warc-bad-gzip',
  'error',
  'RFC 1952 2.3',
  'a gzip member is damaged (bad header, deflate data, CRC-32 or size)',
  'protocol',
);

const IN_CHUNK = 16 * 1024;

let CRC_TABLE: Uint32Array | null = null;

/** RFC 1952 8: the CRC-32 of the data, continued from `crc`. */
export function crc32(data: Uint8Array, crc = 0): number {
  if (CRC_TABLE === null) {
    CRC_TABLE = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      CRC_TABLE[n] = c >>> 0;
    }
  }
  let c = ~crc >>> 0;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

async function readAt(fh: FileHandle, pos: number, n: number): Promise<Buffer> {
  const buf = Buffer.alloc(n);
  let got = 0;
  while (got < n) {
    const { bytesRead } = await fh.read(buf, got, n - got, pos + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return buf.subarray(0, got);
}

/** RFC 1952 2.3.1: the length of the member header at `pos` (FEXTRA, FNAME, FCOMMENT, FHCRC skipped). */
async function headerLength(fh: FileHandle, pos: number): Promise<number> {
  const head = await readAt(fh, pos, 10);
  if (head.length < 10) throw new LocatorError(WARC_TRUNCATED, pos);
  if (head[0] !== 0x1f || head[1] !== 0x8b || head[2] !== 8)
    throw new LocatorError(WARC_BAD_GZIP, pos, `no gzip member header at offset ${pos}`);
  const flags = head[3];
  let at = pos + 10;
  if (flags & 4) {
    const x = await readAt(fh, at, 2);
    if (x.length < 2) throw new LocatorError(WARC_TRUNCATED, pos);
    at += 2 + x.readUInt16LE(0);
  }
  for (const bit of [8, 16]) {
    if (!(flags & bit)) continue;
    for (;;) {
      const b = await readAt(fh, at, 256);
      if (b.length === 0) throw new LocatorError(WARC_TRUNCATED, pos);
      const z = b.indexOf(0);
      if (z >= 0) {
        at += z + 1;
        break;
      }
      at += b.length;
    }
  }
  if (flags & 2) at += 2;
  return at - pos;
}

/** Where a member ended: the offset just past its trailer. */
export interface MemberEnd {
  end: number;
}

/**
 * RFC 1952 2.3: the decompressed data of the member at `pos`, streamed; returns where the member
 * ends. Throws `warc-truncated` when the file ends inside it, `warc-bad-gzip` when it is damaged
 * (its CRC-32 and ISIZE are checked).
 */
export async function* inflateMember(fh: FileHandle, pos: number, fileSize: number): AsyncGenerator<Buffer, MemberEnd> {
  const start = pos + (await headerLength(fh, pos));
  const inflate = createInflateRaw();
  const out: Buffer[] = [];
  let failure: Error | null = null;
  let ended = false;
  let wake: (() => void) | null = null;
  inflate.on('data', (c: Buffer) => out.push(c));
  inflate.on('error', (e) => {
    failure = e;
    wake?.();
  });
  inflate.on('end', () => {
    ended = true;
    wake?.();
  });
  const settle = () =>
    new Promise<void>((resolve) => {
      if (ended || failure) resolve();
      else wake = resolve;
    });
  let fed = 0;
  let crc = 0;
  let size = 0;
  try {
    for (;;) {
      const n = Math.min(IN_CHUNK, fileSize - start - fed);
      if (n <= 0) {
        inflate.end();
        await settle();
      } else {
        const chunk = await readAt(fh, start + fed, n);
        // zlib calls a write's callback only when it took the octets: damaged deflate data
        // fails instead, and only the 'error' event says so.
        await new Promise<void>((resolve) => {
          const done = () => {
            inflate.off('error', done);
            resolve();
          };
          inflate.on('error', done);
          inflate.write(chunk, done);
        });
        fed += chunk.length;
        if (inflate.bytesWritten < fed) await settle();
      }
      while (out.length > 0) {
        const c = out.shift()!;
        crc = crc32(c, crc);
        size += c.length;
        yield c;
      }
      if (failure) {
        const f = failure as Error;
        throw /unexpected end/i.test(f.message)
          ? new LocatorError(WARC_TRUNCATED, pos, `the file ends inside the gzip member at offset ${pos}`)
          : new LocatorError(WARC_BAD_GZIP, pos, `the gzip member at offset ${pos} is damaged: ${f.message}`, {
              cause: f,
            });
      }
      if (ended) break;
    }
  } finally {
    inflate.destroy();
  }
  const trailerAt = start + inflate.bytesWritten;
  const trailer = await readAt(fh, trailerAt, 8);
  if (trailer.length < 8)
    throw new LocatorError(WARC_TRUNCATED, pos, `the file ends inside the gzip member at offset ${pos}`);
  if (trailer.readUInt32LE(0) !== crc || trailer.readUInt32LE(4) !== size % 2 ** 32)
    throw new LocatorError(WARC_BAD_GZIP, pos, `the gzip member at offset ${pos} fails its CRC-32 or size check`);
  return { end: trailerAt + 8 };
}

/** True when the file starts with a gzip member's magic number (RFC 1952 2.3.1). */
export async function isGzip(fh: FileHandle): Promise<boolean> {
  const b = await readAt(fh, 0, 2);
  return b.length === 2 && b[0] === 0x1f && b[1] === 0x8b;
}

export { readAt };
