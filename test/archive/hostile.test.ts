// Hostile WARC files and CDXJ indexes against the reader, the index and the replay
// (src/archive/reader.ts, digest.ts, replay.ts): files built here, octet by octet, the way a
// damaged or malicious archive would be. Each answer is bounded and typed (a LocatorError with a
// code and an offset), never a crash, an untyped error or the wrong object.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  HttpPayload,
  readWarc,
  ReplayArchive,
  surt,
  WARC_BAD_GZIP,
  WARC_BAD_RECORD,
  WARC_STALE_INDEX,
} from '../../src/archive/index.js';
import { TOO_MANY_REDIRECTS } from '../../src/operations/policy.js';

/** A WARC/1.1 record: the fields given (Content-Length counted unless given), the block, CR LF CR LF. */
function record(fields: Record<string, string>, block: Buffer | string): Buffer {
  const b = typeof block === 'string' ? Buffer.from(block, 'latin1') : block;
  const all: Record<string, string> = {
    'WARC-Type': 'resource',
    'WARC-Date': '2026-01-02T03:04:05Z',
    'WARC-Record-ID': `<urn:uuid:00000000-0000-4000-8000-${String(Object.keys(fields).length).padStart(12, '0')}>`,
    'Content-Length': String(b.length),
    ...fields,
  };
  const head = Object.entries(all)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return Buffer.concat([Buffer.from(`WARC/1.1\r\n${head}\r\n`, 'utf8'), b, Buffer.from('\r\n\r\n')]);
}

/** A .warc.gz of the records, one gzip member each (WARC 1.1 Annex D.2), in a folder of its own. */
function warcFile(records: Buffer[]): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'locator-hostile-'));
  const file = join(dir, 'hostile.warc.gz');
  writeFileSync(file, Buffer.concat(records.map((r) => gzipSync(r))));
  return { dir, file };
}

/** The chunks of a body, as they come. */
async function chunksOf(body: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  const reader = body.getReader();
  for (;;) {
    const r = await reader.read();
    if (r.done) return out;
    out.push(r.value);
  }
}

test('replay: a small gzip member that inflates to much more (a decompression bomb) streams, never inflated whole in memory', async () => {
  // 128 MiB of zeros deflate to about 128 KiB: under the size read in one call, far over what
  // may be inflated in one. The CDXJ beside the file spares the test the scan.
  const size = 128 * 1024 * 1024;
  const { dir, file } = warcFile([
    record(
      { 'WARC-Target-URI': 'gopher://h.example/9/zeros', 'Content-Type': 'application/octet-stream' },
      Buffer.alloc(size),
    ),
  ]);
  const length = statSync(file).size;
  writeFileSync(
    join(dir, 'hostile.cdxj'),
    `gopher://(example,h)/9/zeros 20260102030405 {"url":"gopher://h.example/9/zeros","length":"${length}","offset":"0","filename":"hostile.warc.gz","type":"resource"}\n`,
  );
  const a = await ReplayArchive.open([file]);
  try {
    assert.match(a.indexed[0].from, /hostile\.cdxj$/);
    const r = (await a.open('gopher://h.example/9/zeros'))!;
    const chunks = await chunksOf(r.resource.body);
    const total = chunks.reduce((n, c) => n + c.length, 0);
    const largest = Math.max(...chunks.map((c) => c.length));
    assert.equal(total, size);
    assert.ok(largest <= 1024 * 1024, `a chunk of ${largest} octets: the member was inflated whole`);
  } finally {
    await a.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('HttpPayload: a header section past 1 MiB, or a chunk-size line past 64 KiB, ends the reading: nothing kept, nothing sunk, never ended', () => {
  const feed = (p: HttpPayload, text: string) => {
    const b = Buffer.from(text, 'latin1');
    for (let i = 0; i < b.length; i += 16384) p.update(b.subarray(i, i + 16384));
  };
  const got: Buffer[] = [];
  const long = new HttpPayload((c) => got.push(Buffer.from(c)));
  feed(long, `HTTP/1.1 200 OK\r\nX-Pad: ${'a'.repeat(1 << 20)}\r\n\r\nthe body`);
  assert.equal(long.headerText, null);
  assert.equal(long.broken, true);
  assert.equal(long.ended, false);
  assert.equal(got.length, 0);

  const chunked = new HttpPayload((c) => got.push(Buffer.from(c)));
  feed(
    chunked,
    `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${'x'.repeat(65 * 1024)}\r\n5\r\nhello\r\n0\r\n\r\n`,
  );
  assert.equal(chunked.headerText, 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked');
  assert.equal(chunked.broken, true);
  assert.equal(chunked.ended, false);
  assert.equal(got.length, 0);
});

test('replay: an archived HTTP response with no status line, no end to its header section or a chunk-size line past 64 KiB is warc-bad-record at its offset, never an object', async () => {
  const response = (uri: string, block: string) =>
    record(
      { 'WARC-Type': 'response', 'WARC-Target-URI': uri, 'Content-Type': 'application/http; msgtype=response' },
      block,
    );
  const rows: Array<[string, string, RegExp]> = [
    ['http://h.example/no-status', 'garbage\r\nContent-Type: text/html\r\n\r\n<b>x</b>', /no status line/],
    ['http://h.example/status-000', 'HTTP/1.1 000 Zero\r\nContent-Type: text/plain\r\n\r\nzero', /no status line/],
    [
      'http://h.example/no-end',
      `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n${'X: y\r\n'.repeat(200_000)}`,
      /no end to its header section/,
    ],
    [
      'http://h.example/chunk-line',
      `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n${'f'.repeat(65 * 1024)}\r\nhello\r\n0\r\n\r\n`,
      /chunk-size line past 64 KiB/,
    ],
  ];
  const records = rows.map(([uri, block]) => response(uri, block));
  const { dir, file } = warcFile(records);
  const a = await ReplayArchive.open([file]);
  try {
    let offset = 0;
    for (const [i, [uri, , message]] of rows.entries()) {
      const at = offset;
      offset += gzipSync(records[i]).length;
      await assert.rejects(
        (async () => {
          const r = await a.open(uri);
          assert.ok(r !== null, uri);
          await chunksOf(r.resource.body);
        })(),
        (e: { code?: string; offset?: number; message?: string }) =>
          e.code === WARC_BAD_RECORD && e.offset === at && message.test(e.message ?? ''),
        uri,
      );
    }
  } finally {
    await a.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('replay: archived redirects that loop (to themselves, between two URLs) are too-many-redirects after 5, never the 3xx served as an object', async () => {
  const redirect = (uri: string, to: string) =>
    record(
      { 'WARC-Type': 'response', 'WARC-Target-URI': uri, 'Content-Type': 'application/http; msgtype=response' },
      `HTTP/1.1 302 Found\r\nLocation: ${to}\r\nContent-Length: 0\r\n\r\n`,
    );
  const { dir, file } = warcFile([
    redirect('http://h.example/self', '/self'),
    redirect('http://h.example/a', '/b'),
    redirect('http://h.example/b', 'http://h.example/a'),
  ]);
  const a = await ReplayArchive.open([file]);
  try {
    for (const uri of ['http://h.example/self', 'http://h.example/a'])
      await assert.rejects(a.open(uri), (e: { code?: string }) => e.code === TOO_MANY_REDIRECTS, uri);
  } finally {
    await a.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A .warc.gz of the records and a CDXJ beside it (as new as the file) of the lines `lines(offsets)` gives. */
function withCdxj(records: Buffer[], lines: (at: Array<{ offset: number; length: number }>) => unknown[]) {
  const { dir, file } = warcFile(records);
  const at: Array<{ offset: number; length: number }> = [];
  let offset = 0;
  for (const r of records) {
    const length = gzipSync(r).length;
    at.push({ offset, length });
    offset += length;
  }
  const text = lines(at)
    .map((j) => `gopher://(example,h)/0/x 20260102030405 ${typeof j === 'string' ? j : JSON.stringify(j)}\n`)
    .join('');
  writeFileSync(join(dir, 'hostile.cdxj'), text);
  const later = new Date(statSync(file).mtimeMs + 1000);
  utimesSync(join(dir, 'hostile.cdxj'), later, later);
  return { dir, file };
}

test('replay: CDXJ lines of another shape (a url or digest that is no string, a negative offset or length) name no record, and break neither the opening nor a request', async () => {
  const a = record({ 'WARC-Target-URI': 'gopher://h.example/0/a', 'Content-Type': 'text/plain' }, 'hello\n');
  const meta = record(
    { 'WARC-Type': 'metadata', 'WARC-Target-URI': 'gopher://h.example/0/a', 'Content-Type': 'text/plain' },
    '* redirected from gopher://h.example/0/alias\n',
  );
  const file = 'hostile.warc.gz';
  const { dir, file: path } = withCdxj([a, meta], (at) => [
    { url: 5, offset: String(at[0].offset), length: String(at[0].length), filename: file, type: 'resource' },
    { url: { a: 1 }, offset: String(at[0].offset), length: String(at[0].length), filename: file, type: 'resource' },
    {
      url: 'gopher://h.example/0/a',
      digest: 5,
      offset: String(at[0].offset),
      length: String(at[0].length),
      filename: file,
      type: 'resource',
    },
    { url: 'gopher://h.example/0/neg', offset: String(at[0].offset), length: '-5', filename: file, type: 'resource' },
    {
      url: 'gopher://h.example/0/before',
      offset: '-5',
      length: String(at[0].length),
      filename: file,
      type: 'resource',
    },
    { url: 'gopher://h.example/0/a', offset: String(at[1].offset), length: '-1', filename: file, type: 'metadata' },
  ]);
  const archive = await ReplayArchive.open([path]);
  try {
    assert.match(archive.indexed[0].from, /hostile\.cdxj$/);
    const r = (await archive.open('gopher://h.example/0/a'))!;
    assert.equal(Buffer.concat(await chunksOf(r.resource.body)).toString(), 'hello\n');
    assert.equal(await archive.open('gopher://h.example/0/neg'), null);
    assert.equal(await archive.open('gopher://h.example/0/before'), null);
    assert.deepEqual([...archive.urls()], ['gopher://h.example/0/a']);
  } finally {
    await archive.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('replay: a CDXJ line that names another record of the same URL (its metadata record) is warc-stale-index, never that record served', async () => {
  const m = record({ 'WARC-Target-URI': 'gopher://h.example/0/m', 'Content-Type': 'text/plain' }, 'the object\n');
  const meta = record(
    { 'WARC-Type': 'metadata', 'WARC-Target-URI': 'gopher://h.example/0/m', 'Content-Type': 'text/plain' },
    'the metadata of the retrieval\n',
  );
  const { dir, file } = withCdxj([m, meta], (at) => [
    {
      url: 'gopher://h.example/0/m',
      offset: String(at[1].offset),
      length: String(at[1].length),
      filename: 'hostile.warc.gz',
      type: 'resource',
    },
  ]);
  const archive = await ReplayArchive.open([file]);
  try {
    await assert.rejects(
      (async () => {
        const r = await archive.open('gopher://h.example/0/m');
        return Buffer.concat(await chunksOf(r!.resource.body)).toString();
      })(),
      (e: { code?: string; offset?: number }) => e.code === WARC_STALE_INDEX && e.offset !== undefined && e.offset > 0,
    );
  } finally {
    await archive.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('readWarc: octets that are no gzip member between two members are warc-bad-gzip at their offset, never the end of the file; zeros at the end are padding', async () => {
  const one = gzipSync(
    record({ 'WARC-Target-URI': 'gopher://h.example/0/one', 'Content-Type': 'text/plain' }, 'one\n'),
  );
  const two = gzipSync(
    record({ 'WARC-Target-URI': 'gopher://h.example/0/two', 'Content-Type': 'text/plain' }, 'two\n'),
  );
  const dir = mkdtempSync(join(tmpdir(), 'locator-hostile-'));
  try {
    const damaged = join(dir, 'damaged.warc.gz');
    writeFileSync(damaged, Buffer.concat([one, Buffer.from('not a gzip member'), two]));
    const seen: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const r of readWarc(damaged)) {
          seen.push(r.targetUri!);
          await r.end();
        }
      })(),
      (e: { code?: string; offset?: number }) => e.code === WARC_BAD_GZIP && e.offset === one.length,
    );
    assert.deepEqual(seen, ['gopher://h.example/0/one']);

    const padded = join(dir, 'padded.warc.gz');
    writeFileSync(padded, Buffer.concat([one, two, Buffer.alloc(100_000)]));
    const all: string[] = [];
    for await (const r of readWarc(padded)) all.push(r.targetUri!);
    assert.deepEqual(all, ['gopher://h.example/0/one', 'gopher://h.example/0/two']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('replay: a CDXJ key with the spaces or braces of a URL as written does not move the timestamp or the JSON: the latest capture is served', async () => {
  const capture = (uri: string, date: string, body: string) =>
    record({ 'WARC-Target-URI': uri, 'WARC-Date': date, 'Content-Type': 'text/plain' }, body);
  const spaced = 'gopher://h.example/0/x y';
  const braced = 'gopher://h.example/0/{x}';
  const records = [
    capture(spaced, '2020-01-01T00:00:00Z', 'old'),
    capture(spaced, '2026-01-01T00:00:00Z', 'new'),
    capture(braced, '2026-01-01T00:00:00Z', 'braced'),
  ];
  const { dir, file } = withCdxj(records, () => []);
  let offset = 0;
  const line = (r: Buffer, uri: string, stamp: string) => {
    const length = gzipSync(r).length;
    const l = `${surt(uri)} ${stamp} ${JSON.stringify({ url: uri, length: String(length), offset: String(offset), filename: 'hostile.warc.gz', type: 'resource' })}\n`;
    offset += length;
    return l;
  };
  const lines = [
    line(records[0], spaced, '20200101000000'),
    line(records[1], spaced, '20260101000000'),
    line(records[2], braced, '20260101000000'),
  ];
  // The newer capture first: the order of the lines must not matter, only their timestamps.
  writeFileSync(join(dir, 'hostile.cdxj'), lines[1] + lines[0] + lines[2]);
  const later = new Date(statSync(file).mtimeMs + 1000);
  utimesSync(join(dir, 'hostile.cdxj'), later, later);
  const a = await ReplayArchive.open([file]);
  try {
    assert.match(a.indexed[0].from, /hostile\.cdxj$/);
    assert.equal(a.captures(spaced)[1].date, '2026-01-01T00:00:00Z');
    const r = (await a.open(spaced))!;
    assert.equal(Buffer.concat(await chunksOf(r.resource.body)).toString(), 'new');
    const b = await a.open(braced);
    assert.ok(b !== null, 'the line of a key with braces is read');
    assert.equal(Buffer.concat(await chunksOf(b.resource.body)).toString(), 'braced');
  } finally {
    await a.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('readWarc: a gzip member whose deflate data is damaged (a reserved block type) is warc-bad-gzip at its offset, never a read that waits forever', async () => {
  const one = gzipSync(
    record({ 'WARC-Target-URI': 'gopher://h.example/0/one', 'Content-Type': 'text/plain' }, 'one\n'),
  );
  // RFC 1951 3.2.3: BFINAL 1, BTYPE 11 ("reserved (error)") as the first block of the member.
  const damaged = Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 0x07]), Buffer.alloc(40, 0x55)]);
  const dir = mkdtempSync(join(tmpdir(), 'locator-hostile-'));
  try {
    const path = join(dir, 'damaged.warc.gz');
    writeFileSync(path, Buffer.concat([one, damaged]));
    const seen: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const r of readWarc(path)) {
          seen.push(r.targetUri!);
          await r.end();
        }
      })(),
      (e: { code?: string; offset?: number }) => e.code === WARC_BAD_GZIP && e.offset === one.length,
    );
    assert.deepEqual(seen, ['gopher://h.example/0/one']);
    // Opened for replay, the damaged member is skipped and named; the record before it is served.
    const a = await ReplayArchive.open([path]);
    try {
      assert.deepEqual(
        a.indexed[0].damaged.map((d) => [d.error.code, d.error.offset, d.next]),
        [[WARC_BAD_GZIP, one.length, null]],
      );
      assert.deepEqual([...a.urls()], ['gopher://h.example/0/one']);
    } finally {
      await a.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('replay: a metadata record whose block is past 64 KiB names no redirect, from the CDXJ as from the scan, however small its gzip member', async () => {
  const m = record({ 'WARC-Target-URI': 'gopher://h.example/0/m', 'Content-Type': 'text/plain' }, 'the object\n');
  // 4 MiB of spaces deflate to a few KiB: the member is small, the block is not.
  const meta = record(
    { 'WARC-Type': 'metadata', 'WARC-Target-URI': 'gopher://h.example/0/m', 'Content-Type': 'text/plain' },
    `${' '.repeat(4 * 1024 * 1024)}\n* redirected from gopher://h.example/0/alias\n`,
  );
  const { dir, file } = withCdxj([m, meta], (at) => [
    {
      url: 'gopher://h.example/0/m',
      offset: String(at[0].offset),
      length: String(at[0].length),
      filename: 'hostile.warc.gz',
      type: 'resource',
    },
    {
      url: 'gopher://h.example/0/m',
      offset: String(at[1].offset),
      length: String(at[1].length),
      filename: 'hostile.warc.gz',
      type: 'metadata',
    },
  ]);
  try {
    const fromCdxj = await ReplayArchive.open([file]);
    const fromScan = await ReplayArchive.open([file], { cdxj: [] });
    try {
      assert.match(fromCdxj.indexed[0].from, /hostile\.cdxj$/);
      assert.equal(fromScan.indexed[0].from, 'scan');
      assert.equal(fromScan.has('gopher://h.example/0/alias'), false);
      assert.equal(fromCdxj.has('gopher://h.example/0/alias'), false);
      assert.equal(fromCdxj.has('gopher://h.example/0/m'), true);
    } finally {
      await fromCdxj.close();
      await fromScan.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
