// Hostile WARC files and CDXJ indexes against the reader, the index and the replay
// (src/archive/reader.ts, digest.ts, replay.ts): files built here, octet by octet, the way a
// damaged or malicious archive would be. Each answer is bounded and typed (a LocatorError with a
// code and an offset), never a crash, an untyped error or the wrong object.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ReplayArchive } from '../../src/archive/index.js';

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
    const reader = r.resource.body.getReader();
    let total = 0;
    let largest = 0;
    for (;;) {
      const c = await reader.read();
      if (c.done) break;
      total += c.value.length;
      largest = Math.max(largest, c.value.length);
    }
    assert.equal(total, size);
    assert.ok(largest <= 1024 * 1024, `a chunk of ${largest} octets: the member was inflated whole`);
  } finally {
    await a.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
