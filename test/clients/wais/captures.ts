// The freeWAIS captures of test/data/fixtures/wais (see its README): each file split into its
// messages (25-byte header + APDU), and a fake server that replays a capture's server side.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { SHARED } from '../../helpers.js';

export const WAIS_DIR = join(SHARED, 'fixtures', 'wais');
export const DOCS_DIR = join(WAIS_DIR, 'docs');

export interface Message {
  /** Offset of the message (its header) in the file. */
  offset: number;
  header: Buffer;
  apdu: Buffer;
}

export function file(name: string): Buffer {
  return readFileSync(join(WAIS_DIR, name));
}

export function doc(name: string): Buffer {
  return readFileSync(join(DOCS_DIR, name));
}

/** The messages of a capture file, split by the header's length field (README "Message = 25-byte header + APDU"). */
export function messages(name: string): Message[] {
  const b = file(name);
  const out: Message[] = [];
  let p = 0;
  while (p < b.length) {
    const len = Number(b.subarray(p, p + 10).toString('latin1'));
    out.push({ offset: p, header: b.subarray(p, p + 25), apdu: b.subarray(p + 25, p + 25 + len) });
    p += 25 + len;
  }
  return out;
}

/** The capture names (01-search-two-hits, ...). */
export function captures(): string[] {
  return readdirSync(WAIS_DIR)
    .filter((f) => f.endsWith('.c2s.bin'))
    .map((f) => f.slice(0, -'.c2s.bin'.length))
    .sort();
}

/**
 * A fake server that answers the k-th message it receives with `replies[k]` (whole messages,
 * header included), and records every message the client sent.
 */
export async function replaying(replies: Buffer[]): Promise<{
  port: number;
  received: Buffer[];
  close(): Promise<void>;
}> {
  const received: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
    let buf = Buffer.alloc(0);
    s.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        if (buf.length < 25) return;
        const len = Number(buf.subarray(0, 10).toString('latin1'));
        if (buf.length < 25 + len) return;
        received.push(buf.subarray(0, 25 + len));
        buf = buf.subarray(25 + len);
        const r = replies[received.length - 1];
        if (r === undefined) s.destroy();
        else s.write(r);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** A whole message (header and APDU) of a capture. */
export function whole(m: Message): Buffer {
  return Buffer.concat([m.header, m.apdu]);
}
