// The Content-Length of an object the gateway passes on (RFC 9110 8.6, RFC 9112 6.3): only a whole
// number a double holds exactly, and only as long as the object holds to it. The length a WAIS
// URL states (the 1993-07 draft's wtype/length/wpath) against locator's WAIS server over the
// freeWAIS fixtures; the size an FTP 150 reply announces against a fake FTP server that lies
// about it (vsftpd does not). Raw sockets, a request pipelined behind each download: a length
// the object does not have must never let the object's octets be read as the next response.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { startGateway, type Gateway } from '../../src/gateway/index.js';
import { startWaisServer, type WaisServer } from '../../src/clients/wais/server.js';
import { FakeFtp, standard } from '../clients/ftp/fakes.js';
import { SHARED } from '../helpers.js';
import { connect, endedWithin, until, type Raw } from './raw.js';

const DOCS = join(SHARED, 'fixtures', 'wais', 'docs');

let gw: Gateway;
let wais: WaisServer;
/** The wpath of gophers.txt (636 octets), as the search answer's link gives it. */
let gophersPath: string;
before(async () => {
  gw = await startGateway({ port: 0, timeout: 15_000 });
  wais = await startWaisServer({ dir: DOCS, database: 'demo' });
  const r = await fetch(`${gw.url}/?url=${encodeURIComponent(`wais://127.0.0.1:${wais.port}/demo?burrow`)}`);
  const m = /<a href="\/\?url=([^"&]+)">Notes on pocket gophers<\/a>/.exec(await r.text());
  assert.ok(m !== null, 'the listing links the gophers document');
  const url = decodeURIComponent(m[1]);
  const prefix = `wais://127.0.0.1:${wais.port}/demo/TEXT/636/`;
  assert.ok(url.startsWith(prefix), url);
  gophersPath = url.slice(prefix.length);
});
after(async () => {
  await gw.close();
  await wais.close();
});

const GOPHERS = readFileSync(join(DOCS, 'gophers.txt'));

function get(g: Gateway, url: string | null, extra = ''): string {
  const target = url === null ? '/' : `/?url=${encodeURIComponent(url)}${extra}`;
  return `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${g.port}\r\n\r\n`;
}

/** The head of the first response on the connection, and the octets after it. */
function firstResponse(raw: Raw): { head: string; rest: string } {
  const at = raw.got.indexOf('\r\n\r\n');
  assert.ok(at >= 0, `no complete head in ${JSON.stringify(raw.got.slice(0, 200))}`);
  return { head: raw.got.slice(0, at), rest: raw.got.slice(at + 4) };
}

const lengthOf = (head: string) => /\r\ncontent-length: *([^\r]*)/i.exec(head)?.[1] ?? null;

const waisDoc = (length: string) => `wais://127.0.0.1:${wais.port}/demo/TEXT/${length}/${gophersPath}`;

test('Content-Length: the length a WAIS URL states and the document has (636) is sent; the document follows whole', async () => {
  const raw = await connect(gw.port);
  try {
    raw.sock.write(get(gw, waisDoc('636'), '&view=raw') + get(gw, null));
    assert.ok(await until(() => (raw.got.match(/HTTP\/1\.1 /g) ?? []).length === 2, 8000), raw.got.slice(0, 300));
    const { head, rest } = firstResponse(raw);
    assert.match(head, /^HTTP\/1\.1 200 /);
    assert.equal(lengthOf(head), '636');
    assert.ok(rest.startsWith(GOPHERS.toString('latin1') + 'HTTP/1.1 200 '), 'the next answer starts right after');
  } finally {
    raw.sock.destroy();
  }
});

test('Content-Length: a WAIS length of 10^21 never becomes a header (no "1e+21"); the URL is refused, wais-number-out-of-range', async () => {
  for (const digits of ['1000000000000000000000', '9007199254740993']) {
    const raw = await connect(gw.port);
    try {
      raw.sock.write(get(gw, waisDoc(digits), '&view=raw'));
      assert.ok(await until(() => raw.got.includes('</html>'), 8000), raw.got.slice(0, 300));
      const { head, rest } = firstResponse(raw);
      assert.match(head, /^HTTP\/1\.1 403 /);
      assert.equal(lengthOf(head), String(Buffer.byteLength(rest)), 'the length of the error page itself');
      assert.match(rest, /wais-number-out-of-range/);
    } finally {
      raw.sock.destroy();
    }
  }
});

test('Content-Length: a WAIS length the document does not have (2^53-1, 1000 for 636 octets) is never sent: a 502 page, the connection kept', async () => {
  for (const digits of ['9007199254740991', '1000']) {
    const raw = await connect(gw.port);
    try {
      raw.sock.write(get(gw, waisDoc(digits), '&view=raw') + get(gw, null));
      assert.ok(await until(() => (raw.got.match(/HTTP\/1\.1 /g) ?? []).length === 2, 8000), raw.got.slice(0, 300));
      const { head, rest } = firstResponse(raw);
      assert.match(head, /^HTTP\/1\.1 502 /, digits);
      assert.notEqual(lengthOf(head), digits);
      assert.match(rest, /protocol-error/);
      assert.equal(raw.closedAfter, null);
    } finally {
      raw.sock.destroy();
    }
  }
});

test('a WAIS wpath field number over 2^53-1 is refused before any connection (no untyped RangeError from the tag encoder: a 502 gateway-failed before)', async () => {
  const r = await fetch(
    `${gw.url}/?url=${encodeURIComponent(`wais://127.0.0.1:${wais.port}/demo/TEXT/9007199254740993=abc;`)}`,
  );
  assert.equal(r.status, 403);
  const text = await r.text();
  assert.match(text, /<code>policy-refused<\/code>/);
  assert.match(text, /wais-reserved-char/);
  assert.doesNotMatch(text, /RangeError|gateway-failed/);
});

/**
 * A fake FTP server whose 150 reply announces `announced` octets for a.bin; the data connection
 * gets `parts`, one write each, 100 ms apart, then 226.
 */
function lyingFtp(announced: number, parts: string[]): Promise<FakeFtp> {
  return FakeFtp.start({
    handle: standard(
      { 'a.bin': '' },
      {
        RETR: async (_v, _a, s) => {
          const data = await s.data!;
          s.reply(`150 Opening BINARY mode data connection for a.bin (${announced} bytes).`);
          for (const p of parts) {
            data.write(p);
            await new Promise((r) => setTimeout(r, 100));
          }
          data.end();
          await new Promise((r) => data.once('close', r));
          s.reply('226 Transfer complete.');
        },
      },
    ),
  });
}

const SMUGGLED = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nPWNED';

test('Content-Length: an FTP object that runs past the size its 150 reply announced is cut at that size; its extra octets are never sent as a response', async () => {
  const ftp = await lyingFtp(10, ['abcdefghij', SMUGGLED]);
  const g = await startGateway({ port: 0, timeout: 10_000, allowPorts: [ftp.port] });
  const raw = await connect(g.port);
  try {
    raw.sock.write(get(g, ftp.url('a.bin;type=i')) + get(g, null));
    await endedWithin(raw, 8000);
    assert.notEqual(raw.closedAfter, null, 'the connection is cut');
    const { head, rest } = firstResponse(raw);
    assert.match(head, /^HTTP\/1\.1 200 /);
    assert.equal(lengthOf(head), '10');
    assert.equal(rest, 'abcdefghij', 'the announced octets, and nothing after them');
  } finally {
    raw.sock.destroy();
    await g.close();
    await ftp.stop();
  }
});

test('Content-Length: an FTP object that ends short of the size its 150 reply announced is cut, never completed (the next response is not read as its rest)', async () => {
  const ftp = await lyingFtp(1000, ['only part']);
  const g = await startGateway({ port: 0, timeout: 10_000, allowPorts: [ftp.port] });
  const raw = await connect(g.port);
  try {
    raw.sock.write(get(g, ftp.url('a.bin;type=i')) + get(g, null));
    await endedWithin(raw, 8000);
    assert.notEqual(raw.closedAfter, null, 'the connection is cut');
    const { head, rest } = firstResponse(raw);
    assert.equal(lengthOf(head), '1000');
    assert.equal(rest, 'only part', 'no other response follows the short object');
  } finally {
    raw.sock.destroy();
    await g.close();
    await ftp.stop();
  }
});

test('Content-Length: an FTP object announced shorter than its first piece goes chunked, whole', async () => {
  const ftp = await lyingFtp(10, ['abcdefghij' + SMUGGLED]);
  const g = await startGateway({ port: 0, timeout: 10_000, allowPorts: [ftp.port] });
  try {
    const r = await fetch(`${g.url}/?url=${encodeURIComponent(ftp.url('a.bin;type=i'))}`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-length'), null);
    assert.equal(r.headers.get('transfer-encoding'), 'chunked');
    assert.equal(await r.text(), 'abcdefghij' + SMUGGLED);
  } finally {
    await g.close();
    await ftp.stop();
  }
});

test('Content-Length: a length over 2^53-1 from an HTTP server (--http) is never passed on rounded: chunked, and cut when the object ends short', async () => {
  // 2^60 + 1: Number() makes it 1152921504606846976, a length the server never stated.
  const upstream = net.createServer((s) => {
    s.on('error', () => {});
    s.once('data', () =>
      s.end(
        'HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 1152921504606846977\r\n\r\nabcdefghij',
      ),
    );
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const port = (upstream.address() as net.AddressInfo).port;
  const g = await startGateway({ port: 0, timeout: 10_000, http: true, allowPorts: [port] });
  const raw = await connect(g.port);
  try {
    raw.sock.write(get(g, `http://127.0.0.1:${port}/x.bin`));
    await endedWithin(raw, 8000);
    assert.notEqual(raw.closedAfter, null, 'the connection is cut');
    const { head } = firstResponse(raw);
    assert.match(head, /^HTTP\/1\.1 200 /);
    assert.equal(lengthOf(head), null, head);
    assert.match(head, /\r\nTransfer-Encoding: chunked/i);
  } finally {
    raw.sock.destroy();
    await g.close();
    await new Promise<void>((r) => upstream.close(() => r()));
  }
});
