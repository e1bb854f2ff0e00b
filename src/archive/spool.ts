// A record's block held while it streams in, so that its length and digests can go in the WARC
// header before it (WARC 1.1 4: the header names Content-Length and the digests, the block
// follows). Up to `limit` octets stay in memory; past that the block spills to a file created
// exclusively (O_EXCL, random name) beside the archive and removed once the record is written.

import { open, unlink, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

export type BlockSource =
  Uint8Array | string | readonly Uint8Array[] | AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>;

/** The chunks of a block source, whatever its form. */
export async function* chunksOf(source: BlockSource): AsyncIterable<Uint8Array> {
  if (typeof source === 'string') yield Buffer.from(source, 'utf8');
  else if (source instanceof Uint8Array) yield source;
  else if (Array.isArray(source)) yield* source as readonly Uint8Array[];
  else if (typeof (source as ReadableStream<Uint8Array>).getReader === 'function') {
    const reader = (source as ReadableStream<Uint8Array>).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
  } else yield* source as AsyncIterable<Uint8Array>;
}

export class Spool {
  length = 0;
  private memory: Buffer[] = [];
  private file: FileHandle | null = null;
  private path: string | null = null;

  constructor(
    private readonly dir: string,
    private readonly limit: number,
  ) {}

  async write(chunk: Uint8Array): Promise<void> {
    if (chunk.byteLength === 0) return;
    if (this.file === null && this.length + chunk.byteLength > this.limit) {
      this.path = join(this.dir, `.spool-${randomBytes(8).toString('hex')}.tmp`);
      this.file = await open(this.path, 'wx+', 0o600);
      for (const m of this.memory) await this.file.write(m);
      this.memory = [];
    }
    if (this.file !== null) await this.file.write(chunk);
    else this.memory.push(Buffer.from(chunk));
    this.length += chunk.byteLength;
  }

  /** The block's chunks while it is all in memory (nothing spilled), else null. */
  get inMemory(): readonly Buffer[] | null {
    return this.file === null ? this.memory : null;
  }

  /** The block again, from the start. */
  async *read(): AsyncIterable<Uint8Array> {
    if (this.file === null) {
      yield* this.memory;
      return;
    }
    const buf = Buffer.allocUnsafe(1 << 16);
    for (let pos = 0; pos < this.length;) {
      const { bytesRead } = await this.file.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      yield Buffer.from(buf.subarray(0, bytesRead));
      pos += bytesRead;
    }
  }

  /** Up to `n` octets of the block from `start` (clamped to the block). */
  async slice(start: number, n: number): Promise<Uint8Array> {
    const from = Math.min(Math.max(start, 0), this.length);
    const size = Math.min(n, this.length - from);
    if (this.file === null) return Buffer.concat(this.memory).subarray(from, from + size);
    const buf = Buffer.alloc(size);
    let got = 0;
    while (got < size) {
      const { bytesRead } = await this.file.read(buf, got, size - got, from + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return buf.subarray(0, got);
  }

  /** Removes the spill file, if any. */
  async dispose(): Promise<void> {
    this.memory = [];
    if (this.file !== null) {
      await this.file.close();
      this.file = null;
    }
    if (this.path !== null) {
      await unlink(this.path).catch(() => {});
      this.path = null;
    }
  }
}
