// The file client (RFC 1738 3.10): local files for an empty or "localhost" host, streamed; any
// other host goes to FTP, never to a local path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, readdirSync, createWriteStream } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from '../../../src/clients/index.js';
import { ftpUrlFor } from '../../../src/clients/file/client.js';
import { LocatorError } from '../../../src/core/errors.js';
import { encode, SEGMENT_SET } from '../../../src/core/percent.js';
import { parse, readAll } from '../../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'locator-file-'));
writeFileSync(join(dir, 'a 100% file.txt'), 'local bytes\n');
const fileUrl = (host: string, name: string) =>
  `file://${host}${dir
    .split('/')
    .map((s) => encode(s, SEGMENT_SET))
    .join('/')}/${encode(name, SEGMENT_SET)}`;

test('RFC 1738 3.10: file:/// and file://localhost/ read this machine, decoding %XX in the path', async () => {
  for (const host of ['', 'localhost', 'LocalHost']) {
    const r = await open(fileUrl(host, 'a 100% file.txt'));
    assert.equal(r.meta.size, 12);
    assert.equal((await readAll(r.body)).toString(), 'local bytes\n');
  }
});

test('RFC 1738 3.10: %2F is data inside a segment: it names no local file, and stays encoded for FTP', async () => {
  await assert.rejects(
    open(`file://${dir}/a%2Fb`),
    (e: unknown) => e instanceof LocatorError && e.code === 'not-found' && /"a\/b"/.test(e.message),
  );
  assert.equal(ftpUrlFor(parse('file://h.example/pub/a%2Fb')), 'ftp://h.example/pub/a%2Fb');
});

test('a missing local file is a typed error', async () => {
  await assert.rejects(
    open(fileUrl('', 'nope.txt')),
    (e: unknown) => e instanceof LocatorError && e.code === 'not-found',
  );
});

test('RFC 1738 3.10: another host is never read as a local path: it is reached by FTP', async () => {
  assert.equal(ftpUrlFor(parse('file://ftp.example.org/pub/a%20b.txt')), 'ftp://ftp.example.org/pub/a%20b.txt');
  const lines: string[] = [];
  await assert.rejects(
    open(`file://127.0.0.1:1${dir}/x`, { transcript: (l) => lines.push(l.text), timeout: 500 }),
    LocatorError,
  );
  const r = await open('file://127.0.0.1/etc/hostname', { transcript: (l) => lines.push(l.text), timeout: 2000 }).catch(
    (e: unknown) => e,
  );
  assert.ok(r instanceof LocatorError, 'not read from the local /etc/hostname');
  assert.ok(
    lines.some((l) => l.includes('ftp://127.0.0.1/etc/hostname')),
    lines.join('\n'),
  );
});

test('the body is a stream: cancelling it closes the file', async () => {
  const big = join(dir, 'big');
  writeFileSync(big, Buffer.alloc(1 << 20, 7));
  const r = await open(`file://${big}`);
  const reader = r.body.getReader();
  const first = await reader.read();
  assert.equal(first.value!.length, 65536);
  await reader.cancel();
  assert.ok(readdirSync(dir).includes('big'));
});

// --- FIFOs and devices: nothing blocks, timeout and signal are honoured (issue 10) ---

function fifo(name: string): string {
  const p = join(dir, name);
  execFileSync('mkfifo', [p]);
  return p;
}

test('a FIFO no process writes to: open() settles, the body fails with timeout after `timeout` ms', async () => {
  const p = fifo('nobody-writes');
  const r = await open(`file://${p}`, { timeout: 150 });
  assert.equal(r.meta.size, null);
  await assert.rejects(
    readAll(r.body),
    (e: unknown) => e instanceof LocatorError && e.code === 'timeout' && /no process wrote/.test(e.message),
  );
});

test('a FIFO no process writes to: the signal aborts the wait (aborted), and an aborted signal refuses at once', async () => {
  const p = fifo('abort-me');
  const ac = new AbortController();
  const r = await open(`file://${p}`, { signal: ac.signal, timeout: Infinity });
  const reading = readAll(r.body);
  setTimeout(() => ac.abort(), 50);
  await assert.rejects(reading, (e: unknown) => e instanceof LocatorError && e.code === 'aborted');
  await assert.rejects(
    open(`file://${p}`, { signal: ac.signal }),
    (e: unknown) => e instanceof LocatorError && e.code === 'aborted',
  );
});

test('a FIFO with a writer: its bytes, to the end the writer makes by closing it', async () => {
  const p = fifo('with-writer');
  const r = await open(`file://${p}`, { timeout: 5000 });
  const w = createWriteStream(p);
  w.write('first\n');
  setTimeout(() => w.end('second\n'), 30);
  assert.equal((await readAll(r.body)).toString(), 'first\nsecond\n');
});

test('a device: size null (not 0: its size is unknown); /dev/zero stops at maxBytes, /dev/null is empty', async () => {
  const zero = await open('file:///dev/zero', { maxBytes: 100_000 });
  assert.equal(zero.meta.size, null);
  await assert.rejects(readAll(zero.body), (e: unknown) => e instanceof LocatorError && e.code === 'too-large');
  const nul = await open('file:///dev/null');
  assert.equal(nul.meta.size, null);
  assert.equal((await readAll(nul.body)).length, 0);
});

test('a regular file keeps its size; an empty one has size 0', async () => {
  writeFileSync(join(dir, 'empty'), '');
  const r = await open(`file://${dir}/empty`);
  assert.equal(r.meta.size, 0);
  assert.equal((await readAll(r.body)).length, 0);
});

test('a socket is not-found', async () => {
  const sock = join(dir, 'sock');
  const server = createServer().listen(sock);
  await once(server, 'listening');
  try {
    await assert.rejects(open(`file://${sock}`), (e: unknown) => e instanceof LocatorError && e.code === 'not-found');
  } finally {
    server.close();
  }
});

test('RFC 1738 3.10: a directory is a listing, as curl lists one: its names one per line, hidden ones left out', async () => {
  const d = mkdtempSync(join(tmpdir(), 'locator-list-'));
  writeFileSync(join(d, 'a.txt'), 'a');
  writeFileSync(join(d, '.hidden'), 'h');
  writeFileSync(join(d, Buffer.from('l\xe4tin1', 'latin1').toString('latin1')), 'x');
  mkdirSync(join(d, 'sub'));
  for (const u of [`file://${d}`, `file://${d}/`, `file://localhost${d}/`]) {
    const r = await open(u);
    assert.equal(r.meta.kind, 'listing', u);
    assert.equal(r.meta.contentType, 'text/plain');
    assert.equal(r.meta.size, null);
    const names = (await readAll(r.body)).toString('utf8').split('\n');
    assert.equal(names.pop(), '', 'each name ends with LF');
    assert.deepEqual(names.sort(), ['a.txt', 'l\u00e4tin1', 'sub']);
  }
  const empty = mkdtempSync(join(tmpdir(), 'locator-empty-'));
  assert.equal((await readAll((await open(`file://${empty}/`)).body)).length, 0);
  // A listing is bounded by maxBytes like any body.
  for (let i = 0; i < 300; i++) writeFileSync(join(empty, `name-${i}`), '');
  const big = await open(`file://${empty}/`, { maxBytes: 1000 });
  await assert.rejects(readAll(big.body), (e: unknown) => e instanceof LocatorError && e.code === 'too-large');
});

// name | contents | content type
const TYPES: [string, string | Buffer, string | null][] = [
  ['notes.txt', 'plain ASCII\n', 'text/plain; charset=utf-8'],
  ['caf\u00e9.txt', 'caf\u00e9\n', 'text/plain; charset=utf-8'],
  ['old.txt', Buffer.from('caf\xe9\n', 'latin1'), 'text/plain; charset=iso-8859-1'],
  ['page.HTML', '<p>x</p>', 'text/html; charset=utf-8'],
  ['README', 'read me', 'text/plain; charset=utf-8'],
  ['data.json', '{}', 'application/json'],
  ['pic.gif', Buffer.from('GIF89a'), 'image/gif'],
  ['arch.tar.gz', Buffer.from([0x1f, 0x8b]), 'application/gzip'],
  ['noext', Buffer.from([0, 1, 2]), null],
];
for (const [name, contents, type] of TYPES) {
  test(`a document's content type is read from its name, a charset from its first octets: ${name}`, async () => {
    writeFileSync(join(dir, name), contents);
    const r = await open(fileUrl('', name));
    assert.equal(r.meta.kind, 'document');
    assert.equal(r.meta.contentType, type);
    assert.deepEqual(
      await readAll(r.body),
      Buffer.from(contents as string),
      'the octets read for the charset are handed out',
    );
  });
}

test('a text document larger than the first read is whole, its charset from the start', async () => {
  const text = 'd\u00e9j\u00e0 vu\n'.repeat(20000);
  writeFileSync(join(dir, 'long.txt'), text);
  const r = await open(fileUrl('', 'long.txt'));
  assert.equal(r.meta.contentType, 'text/plain; charset=utf-8');
  assert.equal(r.meta.size, Buffer.byteLength(text));
  assert.equal((await readAll(r.body)).toString('utf8'), text);
});
