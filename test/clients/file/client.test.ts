// The file client (RFC 1738 3.10): local files for an empty or "localhost" host, streamed; any
// other host goes to FTP, never to a local path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from '../../../src/clients/index.js';
import { ftpUrlFor } from '../../../src/clients/file/client.js';
import { LocatorError } from '../../../src/core/errors.js';
import { encode, SEGMENT_SET } from '../../../src/core/percent.js';
import { parse, readAll } from '../../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'locator-file-'));
writeFileSync(join(dir, 'a 100% file.txt'), 'local bytes\n');
const fileUrl = (host: string, name: string) => `file://${host}${dir.split('/').map((s) => encode(s, SEGMENT_SET)).join('/')}/${encode(name, SEGMENT_SET)}`;

test('RFC 1738 3.10: file:/// and file://localhost/ read this machine, decoding %XX in the path', async () => {
  for (const host of ['', 'localhost', 'LocalHost']) {
    const r = await open(fileUrl(host, 'a 100% file.txt'));
    assert.equal(r.meta.size, 12);
    assert.equal((await readAll(r.body)).toString(), 'local bytes\n');
  }
});

test('RFC 1738 3.10: %2F is data inside a segment: it names no local file, and stays encoded for FTP', async () => {
  await assert.rejects(open(`file://${dir}/a%2Fb`), (e: unknown) => e instanceof LocatorError && e.code === 'not-found' && /"a\/b"/.test(e.message));
  assert.equal(ftpUrlFor(parse('file://h.example/pub/a%2Fb')), 'ftp://h.example/pub/a%2Fb');
});

test('a missing local file is a typed error', async () => {
  await assert.rejects(open(fileUrl('', 'nope.txt')), (e: unknown) => e instanceof LocatorError && e.code === 'not-found');
});

test('RFC 1738 3.10: another host is never read as a local path: it is reached by FTP', async () => {
  assert.equal(ftpUrlFor(parse('file://ftp.example.org/pub/a%20b.txt')), 'ftp://ftp.example.org/pub/a%20b.txt');
  const lines: string[] = [];
  await assert.rejects(open(`file://127.0.0.1:1${dir}/x`, { transcript: (l) => lines.push(l.text), timeout: 500 }), LocatorError);
  const r = await open('file://127.0.0.1/etc/hostname', { transcript: (l) => lines.push(l.text), timeout: 2000 }).catch((e: unknown) => e);
  assert.ok(r instanceof LocatorError, 'not read from the local /etc/hostname');
  assert.ok(lines.some((l) => l.includes('ftp://127.0.0.1/etc/hostname')), lines.join('\n'));
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
