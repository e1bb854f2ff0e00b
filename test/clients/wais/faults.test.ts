// Faults a real WAIS server will not produce, from in-process fakes (node:net on port 0): a
// header cut short, an APDU length that lies, a stall, garbage BER, a server that refuses the
// Init; and faults a client may send to locator's server. Every case is a typed LocatorError.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { open } from '../../../src/clients/index.js';
import { startWaisServer } from '../../../src/clients/wais/server.js';
import { mkdtempSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { initRequest, message, retrievalRequest } from '../../../src/clients/wais/client.js';
import { encodeInitRequest, encodeSearchRequest, encodeVarint } from '../../../src/clients/wais/apdu.js';
import { rejects } from '../../helpers.js';
import { DOCS_DIR, messages, whole } from './captures.js';

const FAST = { gateway: false as const, timeout: 300 };
const INIT_REPLY = whole(messages('01-search-two-hits.s2c.bin')[0]);

/** A fake that answers the Init with freeWAIS's reply, then the search with `then` (or `stall`). */
async function fake(then: (s: Socket) => void): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
    let n = 0;
    let buf = Buffer.alloc(0);
    s.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      while (buf.length >= 25) {
        const len = Number(buf.subarray(0, 10).toString('latin1'));
        if (buf.length < 25 + len) return;
        buf = buf.subarray(25 + len);
        if (n++ === 0) s.write(INIT_REPLY);
        else then(s);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

const header = (len: number) => Buffer.from(String(len).padStart(10, '0') + 'z2wais        0', 'latin1');

for (const [what, reply, code] of [
  [
    'a header cut short (10 of 25 bytes, then close)',
    (s: Socket) => s.end(header(100).subarray(0, 10)),
    'connection-closed',
  ],
  [
    'an APDU length that lies (500 announced, 18 sent, then close)',
    (s: Socket) => s.end(Buffer.concat([header(500), messages('06-search-zero-records.s2c.bin')[1].apdu])),
    'connection-closed',
  ],
  ['a stall after the Init (the 300 ms timeout)', () => {}, 'timeout'],
  [
    'garbage BER (a field length past the APDU)',
    (s: Socket) => s.write(Buffer.concat([header(16), Buffer.from('000e17010000000000000000001b0500', 'hex')])),
    'protocol-error',
  ],
  [
    'a header whose length is not digits',
    (s: Socket) => s.write(Buffer.from('00000000x0z2wais        0', 'latin1')),
    'protocol-error',
  ],
  ['an APDU announced larger than 16 MiB', (s: Socket) => s.write(header(99_999_999)), 'protocol-error'],
  ['an InitResponse where a SearchResponse is due', (s: Socket) => s.write(INIT_REPLY), 'protocol-error'],
  [
    'a diagnostic record (07, unknown database)',
    (s: Socket) => s.write(whole(messages('07-unknown-database.s2c.bin')[1])),
    'wais-diagnostic',
  ],
] as const) {
  test(`fault: ${what} is ${code}`, async () => {
    const f = await fake(reply);
    try {
      const e = await rejects(open(`wais://127.0.0.1:${f.port}/demo?burrow`, FAST));
      assert.equal(e.code, code, e.message);
    } finally {
      await f.close();
    }
  });
}

test('fault: a piece cut short in the middle of a document is connection-closed on the stream', async () => {
  const piece = whole(messages('04-retrieve-long-doc.s2c.bin')[2]);
  let k = 0;
  const f = await fake((s) => {
    if (k++ === 0) s.write(piece);
    else s.end(piece.subarray(0, 5000));
  });
  try {
    const docId = '%01%0Dlocalhost%3A210';
    const r = await open(`wais://127.0.0.1:${f.port}/demo/TEXT/${docId}`, FAST);
    const e = await rejects(new Response(r.body).arrayBuffer());
    assert.equal(e.code, 'connection-closed');
  } finally {
    await f.close();
  }
});

test('fault: an InitResponse with Result 0 is protocol-error', async () => {
  const refused = Buffer.from(INIT_REPLY);
  refused[28] = 0; // the Result byte after HLI and PDU-Type (README offset 28)
  const socks = new Set<Socket>();
  const server = createServer((s) => {
    socks.add(s);
    s.on('data', () => s.write(refused)).on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const e = await rejects(open(`wais://127.0.0.1:${(server.address() as AddressInfo).port}/demo?x`, FAST));
    assert.equal(e.code, 'protocol-error');
    assert.match(e.message, /refused the InitRequest/);
  } finally {
    for (const s of socks) s.destroy();
    server.close();
  }
});

test('server: garbage from a client closes that connection, and the server keeps serving', async () => {
  const s = await startWaisServer({ dir: DOCS_DIR, database: 'demo' });
  try {
    for (const bad of ['GET / HTTP/1.0\r\n\r\n' + 'x'.repeat(10), '0000000003z2wais        0\x00\x01\x99']) {
      const sock = connect(s.port, '127.0.0.1');
      sock.on('error', () => {});
      sock.write(bad);
      const got = await new Promise<Buffer>((resolve) => {
        const parts: Buffer[] = [];
        sock.on('data', (d) => parts.push(d));
        sock.on('close', () => resolve(Buffer.concat(parts)));
      });
      assert.equal(got.length, 0, 'nothing is answered to garbage');
    }
    const r = await open(`wais://127.0.0.1:${s.port}/demo?ferret`, FAST);
    assert.match(Buffer.from(await new Response(r.body).arrayBuffer()).toString(), /Notes on ferrets/);
  } finally {
    await s.close();
  }
});

test('server: a silent connection is closed after the idle timeout', async () => {
  const s = await startWaisServer({ dir: DOCS_DIR, idleTimeout: 200 });
  try {
    const sock = connect(s.port, '127.0.0.1');
    const t0 = Date.now();
    await new Promise<void>((r) => sock.on('close', () => r()));
    assert.ok(Date.now() - t0 < 3000);
  } finally {
    await s.close();
  }
});

test('server: a client that pipelines retrievals and never reads: the answers queued stay bounded, others are served, it is cut after the idle timeout', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-wais-'));
  writeFileSync(join(dir, 'big.txt'), 'ferret '.repeat(30_000)); // 210000 octets
  copyFileSync(join(DOCS_DIR, 'ferrets.txt'), join(dir, 'ferrets.txt'));
  const s = await startWaisServer({ dir, database: 'demo', idleTimeout: 1500 });
  const hog = connect(s.port, '127.0.0.1');
  hog.on('error', () => {});
  hog.pause(); // never reads
  try {
    await new Promise<void>((r) => hog.once('connect', () => r()));
    // 2000 retrievals of 100000 octets each: 200 MB of answers, for 0.2 MB of requests.
    const id = [3, ...encodeVarint(Buffer.byteLength('0 210000 big.txt')), ...Buffer.from('0 210000 big.txt')];
    const one = Buffer.from(
      message(encodeSearchRequest(retrievalRequest('demo', Uint8Array.from(id), 'TEXT', 0, 100000))),
    );
    hog.write(Buffer.from(message(encodeInitRequest(initRequest()))));
    hog.write(Buffer.concat(Array.from({ length: 2000 }, () => one)));
    let peak = 0;
    for (let i = 0; i < 20; i++) {
      await sleep(50);
      peak = Math.max(peak, s.bufferedBytes());
    }
    // Meanwhile another client is served.
    const r = await open(`wais://127.0.0.1:${s.port}/demo?ferret`, { gateway: false, timeout: 5000 });
    assert.match(Buffer.from(await new Response(r.body).arrayBuffer()).toString(), /ferrets/);
    peak = Math.max(peak, s.bufferedBytes());
    // At most one answer over the high-water mark (before: every answer, 200 MB).
    assert.ok(peak > 0 && peak < 1024 * 1024, `${peak} octets queued`);
    // The server closes the connection that leaves its answer unread (nothing queued is left).
    let closed = false;
    for (let i = 0; i < 160 && !closed; i++) {
      await sleep(50);
      closed = s.bufferedBytes() === 0;
    }
    assert.ok(closed, 'the client that does not read is disconnected');
  } finally {
    hog.destroy();
    await s.close();
  }
});
