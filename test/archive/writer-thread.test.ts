// ThreadWarcWriter (src/archive/writer-thread.ts): the WARC writer on a worker thread writes what
// WarcWriter writes, fails as it fails, and survives its thread's end with a typed error.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createHash, randomBytes } from 'node:crypto';
import {
  ThreadWarcWriter,
  WarcWriter,
  WARC_WRITER_CLOSED,
  WARC_WRITER_FAILED,
  MAX_INFLIGHT,
  BATCH,
  BATCH_RECORDS,
  type RecordInput,
  type WrittenRecord,
} from '../../src/archive/index.js';
import { LocatorError } from '../../src/core/errors.js';
import { assertDigests } from './peer.js';

const tempDir = () => mkdtempSync(join(tmpdir(), 'locator-warc-thread-'));

async function* slowly(data: Buffer, size: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

const RESPONSE = Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 12\r\n\r\n<p>hello</p>');
const HTTP = 'application/http;msgtype=response';
const DATE = new Date(Date.UTC(2026, 10, 29, 12, 0, 0));
/** 300 KB that deflate shrinks, and 300 KB it cannot (random): the larger records' two paths. */
const TEXT = Buffer.from('<a href="/p/1.html">one</a>\n'.repeat(11_000));
const RANDOM = randomBytes(300_000);

/** The same records, each built anew (a stream is read once): whole blocks, streams, a revisit, spills. */
function inputs(): RecordInput[] {
  const rows: RecordInput[] = [
    {
      type: 'request',
      targetUri: 'http://example.org/',
      contentType: 'application/http;msgtype=request',
      block: Buffer.from('GET / HTTP/1.1\r\n\r\n'),
    },
    {
      type: 'response',
      targetUri: 'http://example.org/',
      contentType: HTTP,
      block: [RESPONSE.subarray(0, 9), RESPONSE.subarray(9)],
    },
    { type: 'response', targetUri: 'http://example.org/again', contentType: HTTP, block: slowly(RESPONSE, 7) }, // a revisit
    { type: 'resource', targetUri: 'gopher://example.org/0/t', contentType: 'text/plain', block: TEXT },
    { type: 'resource', targetUri: 'gopher://example.org/9/r', contentType: 'application/octet-stream', block: RANDOM },
    { type: 'resource', targetUri: 'ftp://example.org/t', contentType: 'text/plain', block: slowly(TEXT, 65_536) },
    {
      type: 'resource',
      targetUri: 'ftp://example.org/r',
      contentType: 'application/octet-stream',
      block: slowly(RANDOM, 4096),
    },
    { type: 'metadata', targetUri: 'ftp://example.org/r', contentType: 'text/plain', block: '> RETR r\r\n' },
    { type: 'resource', targetUri: 'file:///empty', contentType: 'text/plain', block: '' },
  ];
  return rows.map((r) => ({
    ...r,
    payload: r.type === 'response' ? 'http' : r.type === 'resource' ? 'block' : 'none',
    date: DATE,
  }));
}

/** A file's records with what differs from run to run (ids, the file's name and date) masked. */
function masked(path: string): string {
  return gunzipSync(readFileSync(path))
    .toString('latin1')
    .replace(/<urn:uuid:[0-9a-f-]+>/g, '<id>')
    .replace(/locator-\d{17}-/g, 'locator-STAMP-')
    .replace(/^WARC-Date: .*$/gm, (d) => (d.includes('2026-11-29T12:00:00.000Z') ? d : 'WARC-Date: NOW'));
}

test('the records are the ones WarcWriter writes, whole blocks and streams, revisits, spilled blocks, in the order given', async () => {
  const files: string[] = [];
  const dirs = [tempDir(), tempDir()];
  try {
    for (const [i, w] of [
      new WarcWriter({ dir: dirs[0], dedup: true, spoolLimit: 100_000 }),
      new ThreadWarcWriter({ dir: dirs[1], dedup: true, spoolLimit: 100_000 }),
    ].entries()) {
      const written: WrittenRecord[] = [];
      for (const input of inputs()) written.push(await w.write(input));
      const [name] = await w.close();
      assert.deepEqual(readdirSync(dirs[i]), [name], 'one file, no spill or temporary file left');
      assert.deepEqual(
        written.map((r) => r.type),
        ['request', 'response', 'revisit', 'resource', 'resource', 'revisit', 'revisit', 'metadata', 'resource'],
      );
      const peer = await assertDigests(join(dirs[i], name));
      assert.deepEqual(
        peer.slice(1).map((r) => [r.offset, r.length]),
        written.map((r) => [r.offset, r.length]),
      );
      files.push(masked(join(dirs[i], name)));
    }
    assert.equal(files[1], files[0]);
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
});

test('records written at once: each whole and once; close() waits for them and is the same promise twice', async () => {
  const dir = tempDir();
  try {
    const w = new ThreadWarcWriter({ dir, maxSize: 40_000 });
    // Octets deflate cannot shrink, so that the files roll.
    const bodies = Array.from({ length: 30 }, (_, i) =>
      Buffer.concat(
        Array.from({ length: 1 + (i % 7) * 30 }, (_, k) => createHash('sha256').update(`${i}.${k}`).digest()),
      ).toString('latin1'),
    );
    const writes = bodies.map((b, i) =>
      w.write({
        type: 'resource',
        targetUri: `gopher://example.org/0/${i}`,
        contentType: 'text/plain',
        block: i % 2 ? Buffer.from(b, 'latin1') : slowly(Buffer.from(b, 'latin1'), 100),
        payload: 'block',
      }),
    );
    const files = await w.close();
    assert.equal(await w.close(), files);
    const written = await Promise.all(writes);
    assert.ok(files.length > 1, 'rolled at maxSize');
    assert.deepEqual(w.files, files);
    const read = new Map<string, string>();
    for (const f of files)
      for (const r of await assertDigests(join(dir, f)))
        if (r.type === 'resource') read.set(r.targetUri!, r.block.toString('latin1'));
    assert.deepEqual(read, new Map(bodies.map((b, i) => [`gopher://example.org/0/${i}`, b])));
    assert.deepEqual(new Set(written.map((r) => r.filename)), new Set(files));
    await assert.rejects(
      w.write({ type: 'metadata', block: 'late' }),
      (e: unknown) => e instanceof LocatorError && e.code === WARC_WRITER_CLOSED,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('gather: records given within its ms go in one message: one waits its time (or the close), BATCH_RECORDS of them go at once', async () => {
  const dir = tempDir();
  let writer: ThreadWarcWriter | null = null;
  try {
    assert.throws(() => new ThreadWarcWriter({ dir, gather: -1 }), RangeError);
    const sleep = (ms: number) => new Promise<string>((r) => setTimeout(() => r('waiting'), ms));
    const w = new ThreadWarcWriter({ dir, gather: 60_000 });
    writer = w;
    const one = w.write({ type: 'resource', targetUri: 'gopher://example.org/0/one', block: 'one', payload: 'block' });
    // Alone, it waits for more (a minute here): not written after 300 ms.
    assert.equal(await Promise.race([one.then(() => 'written'), sleep(300)]), 'waiting');
    // BATCH_RECORDS records given: the batch goes at once, the first one with it.
    const more = Array.from({ length: BATCH_RECORDS - 1 }, (_, i) =>
      w.write({ type: 'resource', targetUri: `gopher://example.org/0/${i}`, block: `${i}`, payload: 'block' }),
    );
    assert.equal(await Promise.race([Promise.all([one, ...more]).then(() => 'written'), sleep(10_000)]), 'written');
    // One more waits again, until the close sends it.
    const last = w.write({
      type: 'resource',
      targetUri: 'gopher://example.org/0/last',
      block: 'last',
      payload: 'block',
    });
    assert.equal(await Promise.race([last.then(() => 'written'), sleep(300)]), 'waiting');
    const files = await w.close();
    await last;
    const targets = (await assertDigests(join(dir, files[0]!)))
      .filter((r) => r.type === 'resource')
      .map((r) => r.targetUri);
    assert.equal(targets.length, BATCH_RECORDS + 1);
    assert.equal(targets.at(-1), 'gopher://example.org/0/last');
  } finally {
    // A failed assertion leaves records gathered for a minute: the close sends them at once.
    await writer?.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a block stream that fails writes nothing: its own error reaches the caller, the records around it are written', async () => {
  const dir = tempDir();
  try {
    const w = new ThreadWarcWriter({ dir });
    const before = w.write({
      type: 'resource',
      targetUri: 'ftp://example.org/a',
      contentType: 'text/plain',
      block: 'a\n',
      payload: 'block',
    });
    const failing = (async function* () {
      yield randomBytes(600_000); // past a batch: the worker has part of it
      throw new Error('connection reset');
    })();
    await assert.rejects(
      w.write({
        type: 'resource',
        targetUri: 'ftp://example.org/b',
        contentType: 'text/plain',
        block: failing,
        payload: 'block',
      }),
      /connection reset/,
    );
    await w.write({
      type: 'resource',
      targetUri: 'ftp://example.org/c',
      contentType: 'text/plain',
      block: 'c\n',
      payload: 'block',
    });
    await before;
    const [name] = await w.close();
    const uris = (await assertDigests(join(dir, name))).map((r) => r.targetUri);
    assert.deepEqual(
      uris,
      [undefined, 'ftp://example.org/a', 'ftp://example.org/c'].map((u) => u ?? null),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a stream larger than the octets allowed on their way at once goes through whole, never more than that bound on its way', async () => {
  const dir = tempDir();
  try {
    const w = new ThreadWarcWriter({ dir, spoolLimit: 1 << 20 });
    const big = randomBytes(40 * 1024 * 1024);
    const CHUNK = 1 << 20;
    let most = 0;
    const source = (async function* () {
      for (let i = 0; i < big.length; i += CHUNK) {
        most = Math.max(most, (w as unknown as { inflight: number }).inflight);
        yield big.subarray(i, i + CHUNK);
      }
    })();
    const r = await w.write({
      type: 'resource',
      targetUri: 'ftp://example.org/big',
      contentType: 'application/octet-stream',
      block: source,
      payload: 'block',
    });
    await w.close();
    // The producer runs ahead of the worker (nothing else lets the acknowledgements in): the
    // bound, not the worker's pace, is what stops it.
    assert.ok(most <= MAX_INFLIGHT + BATCH + CHUNK, `${most} octets on their way at once`);
    assert.ok(most >= MAX_INFLIGHT / 2, `${most} octets on their way at once: the bound was not reached`);
    const peer = await assertDigests(join(dir, r.filename));
    assert.ok(peer[1].block.equals(big));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  'a streamed record that fails in the worker while its source is read fails once, and nothing waits on it after',
  { timeout: 60_000 },
  async () => {
    const dir = tempDir();
    const w = new ThreadWarcWriter({ dir, spoolLimit: 1024 });
    rmSync(dir, { recursive: true, force: true }); // the worker's spill file cannot be made: ENOENT
    let read = 0;
    const source = (async function* () {
      for (let i = 0; i < 40 * 16; i++) {
        read++;
        yield Buffer.alloc(65536, i & 255);
        await new Promise((r) => setImmediate(r));
      }
    })();
    await assert.rejects(
      w.write({ type: 'resource', targetUri: 'ftp://example.org/big', block: source, payload: 'block' }),
      { code: 'ENOENT' },
    );
    assert.ok(read < 40 * 16, `the source was left once the record had failed (${read} chunks read)`);
    assert.equal((w as unknown as { inflight: number }).inflight, 0, 'no octet counted that no one will acknowledge');
    await w.close().catch(() => {});
  },
);

test("the worker's end is a typed error for the records on their way and every later one", async () => {
  const dir = tempDir();
  try {
    const w = new ThreadWarcWriter({ dir });
    await w.write({ type: 'metadata', targetUri: 'gopher://example.org/', block: 'first' });
    let more: () => void = () => {};
    const later = new Promise<void>((resolve) => (more = resolve));
    const source = (async function* () {
      yield Buffer.from('a part, held until the next one');
      await later;
      yield Buffer.from('the rest');
    })();
    const pending = w.write({
      type: 'resource',
      targetUri: 'gopher://example.org/9/x',
      block: source,
      payload: 'block',
    });
    await (w as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    more();
    const typed = (e: unknown) => e instanceof LocatorError && e.code === WARC_WRITER_FAILED;
    await assert.rejects(pending, typed);
    await assert.rejects(w.write({ type: 'metadata', block: 'after' }), typed);
    await assert.rejects(w.close(), typed);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the writer holds the process open while a record or a close is on its way, and not when it is idle and never closed', () => {
  const dir = tempDir();
  try {
    const index = new URL('../../src/archive/index.js', import.meta.url).href;
    const run = (body: string) =>
      spawnSync(
        process.execPath,
        ['--input-type=module', '-e', `import { ThreadWarcWriter } from ${JSON.stringify(index)};\n${body}`],
        { encoding: 'utf8', timeout: 20_000 },
      );
    // Written and waited for, then left idle and never closed: the process ends by itself.
    const idle = run(
      `const w = new ThreadWarcWriter({ dir: ${JSON.stringify(dir)} });\n` +
        `await w.write({ type: 'metadata', block: 'idle' });\nconsole.log('written');`,
    );
    assert.equal(idle.error, undefined, 'the process ended (no timeout)');
    assert.equal(idle.status, 0, idle.stderr);
    assert.equal(idle.stdout, 'written\n');
    // A stream that fails before any of it went over, the writer never closed: the process ends.
    const failed = run(
      `const w = new ThreadWarcWriter({ dir: ${JSON.stringify(dir)} });\n` +
        `await w.write({ type: 'resource', block: (async function* () { throw new Error('gone'); })() }).catch((e) => console.log(e.message));`,
    );
    assert.equal(failed.error, undefined, 'the process ended (no timeout)');
    assert.equal(failed.stdout, 'gone\n', failed.stderr);
    // A record given and a close started, nothing awaited: the file is still finished and named.
    const given = run(
      `const w = new ThreadWarcWriter({ dir: ${JSON.stringify(dir)}, prefix: 'given' });\n` +
        `void w.write({ type: 'metadata', block: 'given' });\nvoid w.close().then((f) => console.log(f.join(',')));`,
    );
    assert.equal(given.status, 0, given.stderr);
    assert.match(given.stdout, /^given-\d{17}-00001\.warc\.gz\n$/);
    assert.ok(readdirSync(dir).includes(given.stdout.trim()));
    // V8's options of the process (a heap limit) reach the worker as Node passes them: it starts.
    const script = join(dir, 'heap.mjs');
    writeFileSync(
      script,
      `import { ThreadWarcWriter } from ${JSON.stringify(index)};\n` +
        `const w = new ThreadWarcWriter({ dir: ${JSON.stringify(dir)}, prefix: 'heap' });\n` +
        `await w.write({ type: 'metadata', block: 'heap' });\nconsole.log((await w.close()).length);`,
    );
    const heap = spawnSync(process.execPath, ['--max-old-space-size=300', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(heap.stdout, '1\n', heap.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
