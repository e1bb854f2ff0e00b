// `locator fetch` (issue 7): standard output or -o FILE (temporary name, renamed when complete),
// exit codes, --verbose. Against nginx on 127.0.0.1:8080 (started by scripts/test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  existsSync,
  writeFileSync,
  chmodSync,
  statSync,
  lstatSync,
  mkdirSync,
  symlinkSync,
  readlinkSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, serversDir } from '../helpers.js';
import { progressLine } from '../../src/cli/progress.js';

const BIN = join(ROOT, 'dist', 'cli', 'main.js');
function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: Buffer; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, ...env } });
    const out: Buffer[] = [];
    let err = '';
    p.stdout.on('data', (d) => out.push(d));
    p.stderr.on('data', (d) => {
      err += d;
    });
    p.stdin.end();
    p.on('close', (code) => resolve({ code, out: Buffer.concat(out), err }));
  });
}

/** Waits (up to 5 s) until `dir` holds a temporary file with octets in it: the transfer has started. */
async function transferStarted(dir: string): Promise<void> {
  for (
    let i = 0;
    i < 500 && !readdirSync(dir).some((n) => n.endsWith('.part') && statSync(join(dir, n)).size > 0);
    i++
  ) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.ok(
    readdirSync(dir).some((n) => n.endsWith('.part')),
    'the transfer started',
  );
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

test('fetch -o FILE when the transfer breaks off (too-large: exit 3, a transfer failure): nothing under the final name', async () => {
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

test('fetch --timeout: 0, negative, fractional and Infinity are usage errors (exit 2); huge values and "none" work', async () => {
  for (const bad of ['0', '-1', '1.5', 'Infinity']) {
    const r = await run(['fetch', '--timeout', bad, 'http://127.0.0.1:8080/hello.txt']);
    assert.equal(r.code, 2, `--timeout ${JSON.stringify(bad)}: ${r.err}`);
    assert.match(r.err, /--timeout/);
  }
  const want = readFileSync(join(serversDir(), 'http', 'root', 'hello.txt'), 'utf8');
  for (const [good, urls] of [
    [
      '3000000000',
      ['http://127.0.0.1:8080/hello.txt', 'ftp://127.0.0.1:2121/pub/unix.txt', 'gopher://127.0.0.1:7070/0/hello.txt'],
    ],
    ['none', ['http://127.0.0.1:8080/hello.txt']],
  ] as const) {
    for (const url of urls) {
      const r = await run(['fetch', '--timeout', good, url]);
      assert.equal(r.code, 0, `--timeout ${good} ${url}: ${r.err}`);
      assert.equal(r.err, '', 'no warning');
      if (url.startsWith('http')) assert.equal(r.out.toString(), want);
    }
  }
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
  assert.ok(
    lines.includes('(HTML)   An HTTP link  <URL:http://127.0.0.1:8080/>'),
    'h items with URL: selectors carry that URL',
  );
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
  const items = r.out
    .toString()
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
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
  // ".txt" is guessed TYPE A: the server sends NVT-ASCII (CR LF), written with local line ends
  // (RFC 959 3.1.1.1): the file as the server stores it.
  assert.equal(readFileSync(join(dir, 'inner.txt'), 'utf8'), 'nested file\n');
  const wire = await run([
    'fetch',
    '--ftp-wire-line-ends',
    '-o',
    join(dir, 'wire.txt'),
    'ftp://127.0.0.1:2121/pub/nested/deeper/inner.txt',
  ]);
  assert.equal(wire.code, 0, wire.err);
  assert.equal(readFileSync(join(dir, 'wire.txt'), 'utf8'), 'nested file\r\n');
  const bin = await run([
    'fetch',
    '-o',
    join(dir, 'inner.bin'),
    'ftp://127.0.0.1:2121/pub/nested/deeper/inner.txt;type=i',
  ]);
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

// --- -o FILE never replaces what is at FILE (issue 10) ---

/** A loopback HTTP server that counts connections; `body` answers each request. */
async function counting(
  body: (c: Socket) => void = (c) => c.end('HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nfresh\n'),
): Promise<{ url: string; connections(): number; close(): void }> {
  let n = 0;
  const sockets = new Set<Socket>();
  const server = createServer((c) => {
    n++;
    sockets.add(c);
    c.on('error', () => {});
    c.once('data', () => body(c));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/x`,
    connections: () => n,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}
const allow = (url: string) => ['--allow-port', new URL(url).port];

test('fetch -o DIR: refused before connecting (EISDIR, exit 1, the server got no connection)', async () => {
  const srv = await counting();
  try {
    const dir = mkdtempSync(join(tmpdir(), 'locator-fetch-'));
    const r = await run(['fetch', ...allow(srv.url), '-o', dir, srv.url]);
    assert.equal(r.code, 1);
    assert.match(r.err, /EISDIR/);
    const missing = await run(['fetch', ...allow(srv.url), '-o', join(dir, 'no', 'such', 'out.txt'), srv.url]);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /ENOENT/);
    const notDir = join(dir, 'plain');
    writeFileSync(notDir, 'x');
    const under = await run(['fetch', ...allow(srv.url), '-o', join(notDir, 'out.txt'), srv.url]);
    assert.equal(under.code, 1);
    assert.equal(srv.connections(), 0);
    assert.deepEqual(readdirSync(dir), ['plain']);
  } finally {
    srv.close();
  }
});

test('fetch -o FILE over an existing mode-600 file: the new bytes, still mode 600', async () => {
  const srv = await counting();
  try {
    const dir = mkdtempSync(join(tmpdir(), 'locator-fetch-'));
    const out = join(dir, 'secret.txt');
    writeFileSync(out, 'old\n', { mode: 0o600 });
    chmodSync(out, 0o600);
    const r = await run(['fetch', ...allow(srv.url), '-o', out, srv.url]);
    assert.equal(r.code, 0, r.err);
    assert.equal(readFileSync(out, 'utf8'), 'fresh\n');
    assert.equal(statSync(out).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(dir), ['secret.txt']);
  } finally {
    srv.close();
  }
});

test('fetch -o LINK: the symbolic link is followed (its target gets the bytes) and stays a link; a dangling one creates its target', async () => {
  const srv = await counting();
  try {
    const dir = mkdtempSync(join(tmpdir(), 'locator-fetch-'));
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'target.txt'), 'old\n', { mode: 0o640 });
    chmodSync(join(dir, 'real', 'target.txt'), 0o640);
    symlinkSync('real/target.txt', join(dir, 'link'));
    const r = await run(['fetch', ...allow(srv.url), '-o', join(dir, 'link'), srv.url]);
    assert.equal(r.code, 0, r.err);
    assert.ok(lstatSync(join(dir, 'link')).isSymbolicLink());
    assert.equal(readlinkSync(join(dir, 'link')), 'real/target.txt');
    assert.equal(readFileSync(join(dir, 'real', 'target.txt'), 'utf8'), 'fresh\n');
    assert.equal(statSync(join(dir, 'real', 'target.txt')).mode & 0o777, 0o640);
    symlinkSync('real/new.txt', join(dir, 'dangling'));
    const d = await run(['fetch', ...allow(srv.url), '-o', join(dir, 'dangling'), srv.url]);
    assert.equal(d.code, 0, d.err);
    assert.ok(lstatSync(join(dir, 'dangling')).isSymbolicLink());
    assert.equal(readFileSync(join(dir, 'real', 'new.txt'), 'utf8'), 'fresh\n');
    // A link to a device: the device is written in place, the link and the device stay.
    symlinkSync('/dev/null', join(dir, 'null'));
    const n = await run(['fetch', ...allow(srv.url), '-o', join(dir, 'null'), srv.url]);
    assert.equal(n.code, 0, n.err);
    assert.equal(readlinkSync(join(dir, 'null')), '/dev/null');
    assert.ok(statSync('/dev/null').isCharacterDevice());
    assert.deepEqual(readdirSync(dir).sort(), ['dangling', 'link', 'null', 'real']);
    assert.deepEqual(readdirSync(join(dir, 'real')).sort(), ['new.txt', 'target.txt']);
  } finally {
    srv.close();
  }
});

test('fetch -o FIFO: written in place to its reader; the FIFO stays a FIFO, no temporary file', async () => {
  const srv = await counting();
  try {
    const dir = mkdtempSync(join(tmpdir(), 'locator-fetch-'));
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('cat', [fifo]);
    const got: Buffer[] = [];
    reader.stdout.on('data', (d) => got.push(d));
    const closed = new Promise((resolve) => reader.on('close', resolve));
    const r = await run(['fetch', ...allow(srv.url), '-o', fifo, srv.url]);
    assert.equal(r.code, 0, r.err);
    await closed;
    assert.equal(Buffer.concat(got).toString(), 'fresh\n');
    assert.ok(lstatSync(fifo).isFIFO());
    assert.deepEqual(readdirSync(dir), ['pipe']);
  } finally {
    srv.close();
  }
});

test('fetch -o FILE interrupted twice (SIGINT, SIGINT): no temporary file left, nothing under FILE', async () => {
  // The server sends part of the body and then nothing: the transfer is under way when interrupted.
  const srv = await counting((c) => c.write('HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n' + 'x'.repeat(1000)));
  try {
    for (let round = 0; round < 3; round++) {
      const dir = mkdtempSync(join(tmpdir(), 'locator-fetch-'));
      const p = spawn(process.execPath, [BIN, 'fetch', ...allow(srv.url), '-o', join(dir, 'out.bin'), srv.url], {
        env: { PATH: process.env.PATH },
      });
      p.stderr.resume();
      const exited = new Promise<[number | null, string | null]>((resolve) =>
        p.on('close', (code, sig) => resolve([code, sig])),
      );
      // Wait until the temporary file exists and holds the first bytes.
      await transferStarted(dir);
      p.kill('SIGINT');
      p.kill('SIGINT');
      const [code, sig] = await exited;
      assert.equal(sig, null, 'not killed by the signal: it cleaned up first');
      assert.equal(code, 130);
      assert.deepEqual(readdirSync(dir), []);
    }
  } finally {
    srv.close();
  }
});

test('fetch -o FILE interrupted once (SIGINT) while an HTTP body of no length is read to the close: exit 130, nothing under FILE', async () => {
  // No Content-Length, not chunked: the body ends when the connection closes (RFC 9112 6.3), so a
  // connection closed by the interrupt must not pass for the end of the object.
  const srv = await counting((c) => c.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n' + 'x'.repeat(1000)));
  try {
    const dir = mkdtempSync(join(tmpdir(), 'locator-fetch-'));
    const p = spawn(process.execPath, [BIN, 'fetch', ...allow(srv.url), '-o', join(dir, 'out.txt'), srv.url], {
      env: { PATH: process.env.PATH },
    });
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => p.on('close', (code) => resolve(code)));
    await transferStarted(dir);
    p.kill('SIGINT');
    assert.equal(await exited, 130, err);
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    srv.close();
  }
});

test('fetch -o FIFO with no reader waits for one (as a shell would); a signal then ends it at once, no connection', async () => {
  const srv = await counting();
  try {
    const dir = mkdtempSync(join(tmpdir(), 'locator-fetch-'));
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const p = spawn(process.execPath, [BIN, 'fetch', ...allow(srv.url), '-o', fifo, srv.url], {
      env: { PATH: process.env.PATH },
    });
    p.stderr.resume();
    const exited = new Promise<[number | null, string | null]>((resolve) =>
      p.on('close', (code, sig) => resolve([code, sig])),
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    p.kill('SIGTERM');
    const [code, sig] = await exited;
    // 128 + 15 from the handler; on a loaded machine the signal may come before it is installed.
    assert.ok(code === 143 || sig === 'SIGTERM', `exit ${code} ${sig}`);
    assert.equal(srv.connections(), 0);
    assert.ok(lstatSync(fifo).isFIFO());
    assert.deepEqual(readdirSync(dir), ['pipe']);
  } finally {
    srv.close();
  }
});
