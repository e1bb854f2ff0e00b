// `locator fetch` (issue 7): standard output or -o FILE (temporary name, renamed when complete),
// exit codes, --verbose. Against nginx on 127.0.0.1:8080 (started by scripts/test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, serversDir } from '../helpers.js';
import { progressLine } from '../../src/cli/progress.js';

const BIN = join(ROOT, 'dist', 'cli', 'main.js');
function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: Buffer; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, ...env } });
    const out: Buffer[] = [];
    let err = '';
    p.stdout.on('data', (d) => out.push(d));
    p.stderr.on('data', (d) => { err += d; });
    p.stdin.end();
    p.on('close', (code) => resolve({ code, out: Buffer.concat(out), err }));
  });
}

test('fetch writes the object to standard output, exit 0', async () => {
  const r = await run(['fetch', 'http://127.0.0.1:8080/hello.txt']);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out.toString(), readFileSync(join(serversDir(), 'http', 'root', 'hello.txt'), 'utf8'));
});

test('fetch -o FILE: the file appears complete under its name, no temporary file is left', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-fetch-'));
  const r = await run(['fetch', '-o', join(dir, 'out.txt'), 'http://127.0.0.1:8080/dir/inner.txt']);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(readdirSync(dir), ['out.txt']);
  assert.equal(readFileSync(join(dir, 'out.txt'), 'utf8'), 'inner\n');
});

test('fetch -o FILE of a missing object: exit 3, nothing under the final name, no temporary file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-fetch-'));
  const r = await run(['fetch', '-o', join(dir, 'out.txt'), 'http://127.0.0.1:8080/missing.txt']);
  assert.equal(r.code, 3);
  assert.match(r.err, /404/);
  assert.deepEqual(readdirSync(dir), []);
});

test('fetch -o FILE when the transfer breaks off: nothing under the final name', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-fetch-'));
  const r = await run(['fetch', '--max-bytes', '3', '-o', join(dir, 'out.txt'), 'http://127.0.0.1:8080/hello.txt']);
  assert.equal(r.code, 3, 'too-large is a protocol failure (exit 3), not an invalid URL');
  assert.match(r.err, /larger than 3 octets/);
  assert.equal(existsSync(join(dir, 'out.txt')), false);
  assert.deepEqual(readdirSync(dir), []);
});

test('fetch --verbose prints the protocol exchange on standard error; a password never appears', async () => {
  const r = await run(['fetch', '--verbose', 'http://127.0.0.1:8080/hello.txt']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /^> GET \/hello\.txt HTTP\/1\.1$/m);
  assert.match(r.err, /^< HTTP\/1\.1 200 OK$/m);
  const f = await run(['fetch', '--verbose', 'ftp://me:s3cret@127.0.0.1:1/x'], {});
  assert.notEqual(f.code, 0);
  assert.ok(!f.err.includes('s3cret'), f.err);
});

test('fetch: a URL that is not one exits 1; usage errors exit 2', async () => {
  assert.equal((await run(['fetch', 'nope'])).code, 1);
  assert.equal((await run(['fetch'])).code, 2);
  assert.equal((await run(['fetch', '--timeout', 'x', 'http://h.com/'])).code, 2);
});

test('the progress line: bytes, rate, percentage and time left when the size is known', () => {
  assert.equal(progressLine(512, null, 1000), '512 B  512 B/s');
  assert.equal(progressLine(1048576, 4194304, 1000, 10), '[##........]  25%  1.0 MiB of 4.0 MiB  1.0 MiB/s  ETA 00:03');
});

test('fetch --menu renders a Gopher menu: each item with its own URL (pygopherd)', async () => {
  const r = await run(['fetch', '--menu', 'gopher://127.0.0.1:7070/']);
  assert.equal(r.code, 0, r.err);
  const lines = r.out.toString().split('\n');
  assert.ok(lines.includes('(TXT)    Hello text  <URL:gopher://127.0.0.1:7070/0/hello.txt>'), r.out.toString());
  assert.ok(lines.includes('(HTML)   An HTTP link  <URL:http://127.0.0.1:8080/>'), 'h items with URL: selectors carry that URL');
});

test('fetch --search: a Gopher search (type 7) sends the string and shows the result menu', async () => {
  const r = await run(['fetch', '--menu', '--search', 'two words', 'gopher://127.0.0.1:7070/7/search.sh']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out.toString(), /Results for: two words/);
});

test('fetch of a Gopher search without a search string and no terminal: a clear error, exit 2 (usage: --search is missing)', async () => {
  const r = await run(['fetch', '--menu', 'gopher://127.0.0.1:7070/7/search.sh']);
  assert.equal(r.code, 2);
  assert.match(r.err, /search/);
});

test('fetch --menu --json: one JSON object per menu item', async () => {
  const r = await run(['fetch', '--json', 'gopher://127.0.0.1:7070/']);
  assert.equal(r.code, 0, r.err);
  const items = r.out.toString().trim().split('\n').map((l) => JSON.parse(l));
  const hello = items.find((i) => i.display === 'Hello text');
  assert.equal(hello.url, 'gopher://127.0.0.1:7070/0/hello.txt');
  assert.equal(hello.type, '0');
});

test('fetch -o FILE of a missing FTP file: 550, exit 3, nothing left in the folder', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-fetch-'));
  const r = await run(['fetch', '-o', join(dir, 'out.bin'), 'ftp://127.0.0.1:2121/pub/missing.bin']);
  assert.equal(r.code, 3);
  assert.match(r.err, /550/);
  assert.deepEqual(readdirSync(dir), []);
});

test('fetch -o FILE over FTP: the file arrives whole (RFC 1738 3.2, vsftpd)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-fetch-'));
  const r = await run(['fetch', '-o', join(dir, 'inner.txt'), 'ftp://127.0.0.1:2121/pub/nested/deeper/inner.txt']);
  assert.equal(r.code, 0, r.err);
  // ".txt" is guessed TYPE A: the server sends NVT-ASCII (CR LF line ends), kept as received.
  assert.equal(readFileSync(join(dir, 'inner.txt'), 'utf8'), 'nested file\r\n');
  const bin = await run(['fetch', '-o', join(dir, 'inner.bin'), 'ftp://127.0.0.1:2121/pub/nested/deeper/inner.txt;type=i']);
  assert.equal(bin.code, 0, bin.err);
  assert.equal(readFileSync(join(dir, 'inner.bin'), 'utf8'), 'nested file\n');
});

test('fetch of an FTP URL with a user and no password, with no terminal: a clear error', async () => {
  const r = await run(['fetch', 'ftp://someone@127.0.0.1:2121/hello.txt']);
  assert.notEqual(r.code, 0);
  assert.match(r.err, /password|anonymous|530/i);
});

test('fetch -o of the 50 MB files over FTP and Gopher: written whole (SHA-256 of the fixture), back-pressure from the disk', async () => {
  const { createHash } = await import('node:crypto');
  const dir = mkdtempSync(join(tmpdir(), 'locator-fetch-'));
  for (const [url, sum] of [
    ['ftp://127.0.0.1:2121/pub/big.bin', join(serversDir(), 'ftp', 'big.sha256')],
    ['gopher://127.0.0.1:7070/9/big.bin', join(serversDir(), 'gopher', 'big.sha256')],
  ]) {
    const out = join(dir, 'big.bin');
    const r = await run(['fetch', '--timeout', '5000', '-o', out, url]);
    assert.equal(r.code, 0, r.err);
    const digest = createHash('sha256').update(readFileSync(out)).digest('hex');
    assert.equal(digest, readFileSync(sum, 'utf8').trim(), url);
  }
});
