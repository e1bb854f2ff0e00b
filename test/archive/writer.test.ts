// The WARC writer and reader (src/archive/) on records made here: every file written is read
// back by warcio (npm, a reader locator does not use to write) with every digest recomputed in
// test/archive/peer.ts, and by locator's reader with its offsets and digest checks.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import {
  WarcWriter,
  readWarc,
  repairWarc,
  finishOpenFiles,
  base32,
  fromBase32,
  HttpPayload,
  REVISIT_IDENTICAL_PAYLOAD,
  WARC_TRUNCATED,
  WARC_BAD_GZIP,
  WARC_WRITER_CLOSED,
  ThreadWarcWriter,
  newRecordId,
} from '../../src/archive/index.js';
import { LocatorError } from '../../src/core/errors.js';
import { assertDigests, b32, dechunk } from './peer.js';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'locator-warc-'));
}

const REQUEST = Buffer.from('GET /page HTTP/1.1\r\nHost: example.org\r\nUser-Agent: locator\r\n\r\n');
const ENTITY = Buffer.from('<html><body>hello, chunked world</body></html>\n');
/** A response with the chunked coding as it crossed the wire: sizes, extensions, a trailer. */
const CHUNKED = Buffer.concat([
  Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n'),
  Buffer.from('d;ext=1\r\n'),
  ENTITY.subarray(0, 13),
  Buffer.from('\r\n'),
  Buffer.from(`${(ENTITY.length - 13).toString(16)}\r\n`),
  ENTITY.subarray(13),
  Buffer.from('\r\n0\r\nX-Trailer: t\r\n\r\n'),
]);

function sha1(data: Uint8Array): string {
  return `sha1:${b32(createHash('sha1').update(data).digest())}`;
}

async function* slowly(data: Buffer, size: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

// RFC 4648 10, the test vectors.
const BASE32_ROWS: Array<[string, string]> = [
  ['', ''],
  ['f', 'MY======'],
  ['fo', 'MZXQ===='],
  ['foo', 'MZXW6==='],
  ['foob', 'MZXW6YQ='],
  ['fooba', 'MZXW6YTB'],
  ['foobar', 'MZXW6YTBOI======'],
];

test('base32 is RFC 4648 6 (the section 10 vectors), and reads back', () => {
  for (const [text, out] of BASE32_ROWS) {
    assert.equal(base32(Buffer.from(text)), out, text);
    assert.equal(Buffer.from(fromBase32(out)!).toString(), text, out);
  }
});

test('HttpPayload: the entity-body of a chunked message whatever the pieces it arrives in (RFC 2616 3.6.1)', () => {
  for (const size of [1, 2, 3, 7, 16, 1000]) {
    const got: Buffer[] = [];
    const p = new HttpPayload((c) => got.push(Buffer.from(c)));
    for (let i = 0; i < CHUNKED.length; i += size) p.update(CHUNKED.subarray(i, i + size));
    assert.deepEqual(Buffer.concat(got), ENTITY, `pieces of ${size}`);
    assert.equal(p.ended, true);
  }
  // Not chunked: the body as it is, and ended once the header section is read.
  const got: Buffer[] = [];
  const p = new HttpPayload((c) => got.push(Buffer.from(c)));
  p.update(Buffer.from('HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok'));
  assert.equal(Buffer.concat(got).toString(), 'ok');
});

test('a file of every record type: warcio reads it whole, every digest right; offsets are the members', async () => {
  const dir = tempDir();
  try {
    const w = new WarcWriter({ dir, info: { robots: 'obey', operator: 'test@example.org' } });
    const req = await w.request('http://example.org/page', REQUEST);
    const res = await w.response('http://example.org/page', slowly(CHUNKED, 5), [['WARC-Concurrent-To', req.recordId]]);
    const menu = Buffer.from('0About\t/about\texample.org\t70\r\n.\r\n');
    const rsc = await w.resource('gopher://example.org/1/', 'application/gopher-menu', new Blob([menu]).stream(), [
      ['WARC-Protocol', 'gopher'],
    ]);
    const meta = await w.metadata('gopher://example.org/1/', rsc.recordId, 'text/plain; charset=utf-8', '> \r\n');
    const files = await w.close();
    assert.equal(files.length, 1);
    assert.deepEqual(readdirSync(dir), files, 'only the final file: no temporary or spill file left');
    const path = join(dir, files[0]);

    // The payload digests are those of the entity (de-chunked) and of the object.
    assert.equal(res.payloadDigest, sha1(ENTITY));
    assert.equal(res.blockDigest, sha1(CHUNKED));
    assert.equal(rsc.payloadDigest, sha1(menu));
    assert.equal(res.status, 200);

    const peer = await assertDigests(path);
    assert.deepEqual(
      peer.map((r) => r.type),
      ['warcinfo', 'request', 'response', 'resource', 'metadata'],
    );
    const info = peer[0].block.toString();
    assert.match(info, /^software: locator\r\n/);
    assert.match(info, /\r\nrobots: obey\r\noperator: test@example\.org\r\n/);
    assert.equal(peer[0].fields.get('warc-filename'), files[0]);
    assert.equal(peer[4].fields.get('warc-concurrent-to'), rsc.recordId);
    assert.equal(peer[3].fields.get('warc-protocol'), 'gopher');
    assert.deepEqual(peer[2].block, CHUNKED, 'the response as exchanged, chunked coding kept');
    assert.deepEqual(peer[3].block, menu, 'the menu as received, "." line kept');
    // warcio's offsets and lengths are the writer's, and each is one gzip member holding one record.
    const written = [req, res, rsc, meta];
    const file = readFileSync(path);
    for (let i = 0; i < written.length; i++) {
      assert.equal(peer[i + 1].offset, written[i].offset, `offset of ${written[i].type}`);
      assert.equal(peer[i + 1].length, written[i].length, `length of ${written[i].type}`);
      const one = gunzipSync(file.subarray(written[i].offset, written[i].offset + written[i].length)).toString(
        'latin1',
      );
      assert.match(one, new RegExp(`^WARC/1\\.1\\r\\nWARC-Type: ${written[i].type}\\r\\n`));
      assert.ok(one.endsWith('\r\n\r\n'));
    }

    // locator's reader: the same records, offsets, lengths, and the digests checked.
    let i = 0;
    for await (const r of readWarc(path)) {
      const end = await r.end();
      assert.equal(r.offset, peer[i].offset);
      assert.equal(end.length, peer[i].length);
      assert.equal(end.blockDigest, true, `${r.type} block`);
      assert.equal(end.payloadDigest, r.get('WARC-Payload-Digest') ? true : null, `${r.type} payload`);
      i++;
    }
    assert.equal(i, 5);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the reader finds a wrong block or payload digest', async () => {
  const dir = tempDir();
  try {
    const w = new WarcWriter({ dir, gzip: false });
    await w.resource('ftp://example.org/a', 'text/plain', 'abc');
    const [name] = await w.close();
    const path = join(dir, name);
    // Same length, one octet of the block changed: both digests must fail.
    writeFileSync(path, readFileSync(path, 'latin1').replace('\r\n\r\nabc\r\n', '\r\n\r\nabd\r\n'), 'latin1');
    const ends = [];
    for await (const r of readWarc(path)) ends.push([r.type, await r.end()] as const);
    assert.equal(ends[1][0], 'resource');
    assert.equal(ends[1][1].blockDigest, false);
    assert.equal(ends[1][1].payloadDigest, false);
    assert.equal(ends[0][1].blockDigest, true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('files roll at maxSize, each opening with its warcinfo, which each record names; a file is written under a temporary name', async () => {
  const dir = tempDir();
  try {
    const w = new WarcWriter({ dir, maxSize: 4096, prefix: 'roll' });
    const bodies: Buffer[] = [];
    for (let i = 0; i < 12; i++) {
      // Hash octets: gzip cannot shrink them, so each member is about 1 KiB.
      bodies.push(
        Buffer.concat(Array.from({ length: 16 }, (_, k) => createHash('sha512').update(`${i}/${k}`).digest())),
      );
      await w.resource(`ftp://example.org/f${i}`, 'application/octet-stream', bodies[i]);
      if (i === 0) {
        const names = readdirSync(dir);
        assert.equal(names.length, 1);
        assert.match(names[0], /^roll-\d{17}-00001\.warc\.gz\.[0-9a-f]{12}\.open$/, 'the open file has no final name');
      }
    }
    const files = await w.close();
    assert.ok(files.length >= 3, `${files.length} files`);
    assert.deepEqual(readdirSync(dir).sort(), [...files].sort());
    let seen = 0;
    for (const [k, f] of files.entries()) {
      assert.match(f, new RegExp(`^roll-\\d{17}-${String(k + 1).padStart(5, '0')}\\.warc\\.gz$`));
      const records = await assertDigests(join(dir, f));
      assert.equal(records[0].type, 'warcinfo');
      assert.equal(records[0].fields.get('warc-filename'), f);
      // Every other record names its own file's warcinfo record (WARC 1.1 5.13), as wget writes.
      assert.equal(records[0].fields.get('warc-warcinfo-id'), undefined);
      for (const r of records.slice(1)) {
        assert.equal(
          r.fields.get('warc-warcinfo-id'),
          records[0].fields.get('warc-record-id'),
          `${f}: WARC-Warcinfo-ID`,
        );
        assert.deepEqual(r.block, bodies[seen++]);
      }
      // A file goes past maxSize only by its last record.
      assert.ok(statSync(join(dir, f)).size <= 4096 + 1500, `${f}: ${statSync(join(dir, f)).size}`);
    }
    assert.equal(seen, 12);
    await assert.rejects(
      w.resource('ftp://example.org/late', 'text/plain', 'x'),
      (e: LocatorError) => e.code === WARC_WRITER_CLOSED,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('dedup: a payload seen before becomes a revisit (identical-payload-digest) referring to the first', async () => {
  const dir = tempDir();
  try {
    const w = new WarcWriter({ dir, dedup: true });
    const first = await w.resource('ftp://a.example/x', 'text/plain', 'same octets\n');
    const second = await w.resource('gopher://b.example/0/x', 'text/plain', 'same octets\n');
    const third = await w.response(
      'http://c.example/x',
      Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\nsame octets\n'),
    );
    const other = await w.resource('ftp://a.example/y', 'text/plain', 'other\n');
    const [name] = await w.close();
    assert.equal(first.type, 'resource');
    assert.equal(second.type, 'revisit');
    assert.equal(third.type, 'revisit');
    assert.equal(other.type, 'resource');
    assert.equal(second.refersTo, first.recordId);
    const peer = await assertDigests(join(dir, name));
    const revisit = peer[2];
    assert.equal(revisit.type, 'revisit');
    assert.equal(revisit.fields.get('warc-profile'), REVISIT_IDENTICAL_PAYLOAD);
    assert.equal(revisit.fields.get('warc-refers-to'), first.recordId);
    assert.equal(revisit.fields.get('warc-refers-to-target-uri'), 'ftp://a.example/x');
    assert.equal(revisit.fields.get('warc-payload-digest'), first.payloadDigest);
    assert.equal(revisit.block.length, 0);
    // The HTTP revisit keeps the header section of its response (WARC 1.1 6.7.2).
    assert.equal(peer[3].block.toString(), 'HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n');
    assert.equal(third.status, 200);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('dedup: of two records of one payload written at once, the second is the revisit of the first', async () => {
  const dir = tempDir();
  try {
    const w = new WarcWriter({ dir, dedup: true });
    const [a, b, c] = await Promise.all([
      w.resource('file:///tmp/a', 'text/plain', 'one payload\n'),
      w.resource('file:///tmp/b', 'text/plain', 'one payload\n'),
      w.resource('file:///tmp/c', 'text/plain', 'one payload\n'),
    ]);
    await w.close();
    assert.deepEqual(
      [a, b, c].map((r) => r.type),
      ['resource', 'revisit', 'revisit'],
    );
    assert.equal(b.refersTo, a.recordId);
    assert.equal(c.refersTo, a.recordId);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('dedup: an empty payload is never a revisit (two empty files, two 204 answers share only the empty digest)', async () => {
  const dir = tempDir();
  try {
    const w = new WarcWriter({ dir, dedup: true });
    const a = await w.resource('file:///tmp/empty-a', 'text/plain', Buffer.alloc(0));
    const b = await w.resource('file:///tmp/empty-b', 'application/octet-stream', '');
    const noContent = (date: string) => Buffer.from(`HTTP/1.1 204 No Content\r\nDate: ${date}\r\nServer: x\r\n\r\n`);
    const c = await w.response('http://c.example/ping', noContent('Sun, 29 Nov 2026 10:00:00 GMT'));
    const d = await w.response('http://c.example/other', noContent('Sun, 29 Nov 2026 10:00:01 GMT'));
    // A chunked body of no chunk at all is an empty entity too.
    const e = await w.response(
      'http://c.example/chunked',
      Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'),
    );
    // A payload of one octet or more still is deduplicated.
    const f = await w.resource('file:///tmp/x', 'text/plain', 'x');
    const g = await w.resource('file:///tmp/y', 'text/plain', 'x');
    const [name] = await w.close();
    for (const r of [a, b]) assert.equal(r.type, 'resource', r.targetUri ?? '');
    for (const r of [c, d, e]) assert.equal(r.type, 'response', r.targetUri ?? '');
    for (const r of [a, b, c, d, e]) assert.equal(r.refersTo, null);
    assert.equal(a.payloadDigest, 'sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ', 'the digest of the empty string');
    assert.equal(d.payloadDigest, a.payloadDigest);
    assert.equal(g.type, 'revisit');
    assert.equal(g.refersTo, f.recordId);
    const peer = await assertDigests(join(dir, name));
    assert.deepEqual(
      peer.map((r) => r.type),
      ['warcinfo', 'resource', 'resource', 'response', 'response', 'response', 'resource', 'revisit'],
    );
    assert.match(peer[4].block.toString(), /^HTTP\/1\.1 204 No Content\r\n/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a block larger than the spool limit spills to a file, streams through, and leaves nothing behind', async () => {
  const dir = tempDir();
  try {
    const w = new WarcWriter({ dir, spoolLimit: 1000, digest: 'sha256' });
    const big = Buffer.alloc(300_000);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7919) % 251;
    let sawSpill = false;
    const body = (async function* () {
      for (let i = 0; i < big.length; i += 4096) {
        if (i > 8192 && readdirSync(dir).some((n) => n.startsWith('.spool-'))) sawSpill = true;
        yield big.subarray(i, i + 4096);
      }
    })();
    const r = await w.resource('ftp://example.org/big', 'application/octet-stream', body);
    const [name] = await w.close();
    assert.ok(sawSpill, 'the block went to a spill file');
    assert.deepEqual(readdirSync(dir), [name]);
    assert.equal(r.payloadDigest, `sha256:${b32(createHash('sha256').update(big).digest())}`);
    const peer = await assertDigests(join(dir, name));
    assert.deepEqual(peer[1].block, big);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a torn last member: the reader says where, repairWarc cuts it off, finishOpenFiles names the file', async () => {
  const dir = tempDir();
  try {
    const w = new WarcWriter({ dir, prefix: 'torn' });
    const a = await w.resource('ftp://example.org/a', 'text/plain', 'first\n');
    const b = await w.resource('ftp://example.org/b', 'text/plain', Buffer.alloc(5000, 'b'));
    const [name] = await w.close();
    const whole = join(dir, name);
    const full = statSync(whole).size;
    assert.equal(b.offset + b.length, full);
    // A process killed while it wrote b: the file ends inside b's member, under the open name.
    const open = join(dir, `${name}.0123456789ab.open`);
    writeFileSync(open, readFileSync(whole).subarray(0, b.offset + Math.floor(b.length / 2)));
    rmSync(whole);
    await assert.rejects(
      (async () => {
        for await (const r of readWarc(open)) await r.end();
      })(),
      (e: LocatorError) => e.code === WARC_TRUNCATED && e.offset === b.offset,
    );
    const finished = await finishOpenFiles(dir);
    assert.deepEqual(finished, [
      {
        records: 2,
        length: a.offset + a.length,
        removed: b.offset + Math.floor(b.length / 2) - (a.offset + a.length),
        from: `${name}.0123456789ab.open`,
        to: name,
      },
    ]);
    assert.deepEqual(readdirSync(dir), [name]);
    const peer = await assertDigests(whole);
    assert.deepEqual(
      peer.map((r) => r.targetUri),
      [null, 'ftp://example.org/a'],
    );
    // A file cut inside the gzip trailer, or with a damaged CRC-32, is cut back too.
    const w2 = new WarcWriter({ dir, prefix: 'crc' });
    const c = await w2.resource('ftp://example.org/c', 'text/plain', 'c\n');
    const [name2] = await w2.close();
    const p2 = join(dir, name2);
    const bytes = readFileSync(p2);
    bytes[c.offset + c.length - 6] ^= 0xff; // in the CRC-32
    writeFileSync(p2, bytes);
    await assert.rejects(
      (async () => {
        for await (const r of readWarc(p2)) await r.end();
      })(),
      (e: LocatorError) => e.code === WARC_BAD_GZIP && e.offset === c.offset,
    );
    assert.deepEqual(await repairWarc(p2), { records: 1, length: c.offset, removed: c.length });
    // A whole file is left as it is.
    assert.deepEqual(await repairWarc(whole), { records: 2, length: a.offset + a.length, removed: 0 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a plain .warc torn inside a block is cut back to its last whole record', async () => {
  const dir = tempDir();
  try {
    const w = new WarcWriter({ dir, gzip: false });
    const a = await w.resource('gopher://example.org/0/a', 'text/plain', 'aaa\n');
    await w.resource('gopher://example.org/0/b', 'text/plain', 'bbbbbbbbbbbbbbbb\n');
    const [name] = await w.close();
    const path = join(dir, name);
    assert.match(name, /\.warc$/);
    await assertDigests(path);
    truncateSync(path, statSync(path).size - 10);
    const r = await repairWarc(path);
    assert.equal(r.records, 2);
    assert.equal(r.length, a.offset + a.length);
    assert.equal(statSync(path).size, a.offset + a.length);
    await assertDigests(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the peer check itself fails on a wrong payload digest (it is no check that cannot fail)', async () => {
  const dir = tempDir();
  try {
    const w = new WarcWriter({ dir, gzip: false });
    await w.response('http://example.org/', CHUNKED);
    const [name] = await w.close();
    const path = join(dir, name);
    // The digest of the chunked octets (what warcio issue 74 describes) in place of the entity's.
    const text = readFileSync(path, 'latin1');
    const entity = sha1(dechunk(CHUNKED.subarray(CHUNKED.indexOf('\r\n\r\n') + 4)));
    assert.ok(text.includes(entity));
    const wrong = sha1(CHUNKED.subarray(CHUNKED.indexOf('\r\n\r\n') + 4));
    writeFileSync(path, text.replace(entity, wrong), 'latin1');
    await assert.rejects(assertDigests(path), /payload digest/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('records written at once from many fetches: each whole and once, close() waits for them', async () => {
  const dir = tempDir();
  try {
    const w = new WarcWriter({ dir, maxSize: 20_000 });
    const bodies = Array.from({ length: 24 }, (_, i) =>
      Buffer.concat(
        Array.from({ length: 1 + (i % 5) * 20 }, (_, k) => createHash('sha256').update(`${i}.${k}`).digest()),
      ),
    );
    const writes = bodies.map((b, i) =>
      w.resource(`gopher://example.org/9/f${i}`, 'application/octet-stream', slowly(b, 100)),
    );
    const files = await w.close();
    const written = await Promise.all(writes);
    assert.ok(files.length > 1);
    const read: string[] = [];
    for (const f of files)
      for (const r of await assertDigests(join(dir, f))) {
        if (r.type !== 'resource') continue;
        const i = Number(/f(\d+)$/.exec(r.targetUri ?? '')![1]);
        assert.deepEqual(r.block, bodies[i]);
        read.push(r.targetUri!);
      }
    // Each block ends at its own time: the records go out in that order, each once.
    assert.deepEqual([...read].sort(), bodies.map((_, i) => `gopher://example.org/9/f${i}`).sort());
    assert.deepEqual(new Set(written.map((r) => r.filename)), new Set(files));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a block whose stream fails writes nothing: the error reaches the caller, the file stays whole', async () => {
  const dir = tempDir();
  try {
    const w = new WarcWriter({ dir });
    await w.resource('ftp://example.org/a', 'text/plain', 'a\n');
    const failing = (async function* () {
      yield Buffer.from('half of it');
      throw new Error('connection reset');
    })();
    await assert.rejects(w.resource('ftp://example.org/b', 'text/plain', failing), /connection reset/);
    await w.resource('ftp://example.org/c', 'text/plain', 'c\n');
    const [name] = await w.close();
    assert.deepEqual(
      (await assertDigests(join(dir, name))).map((r) => r.targetUri),
      [null, 'ftp://example.org/a', 'ftp://example.org/c'],
    );
    assert.deepEqual(readdirSync(dir), [name]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a block given whole (octets, a string, a list of chunks) and the same block as a stream make the same records', async () => {
  const masked = (file: Buffer) =>
    gunzipSync(file)
      .toString('latin1')
      .replace(/<urn:uuid:[0-9a-f-]+>/g, '<id>');
  const clock = () => new Date(Date.UTC(2026, 10, 29, 12, 0, 0));
  const menu = Buffer.from('0About\t/about\texample.org\t70\r\n.\r\n');
  const run = async (whole: boolean) => {
    const dir = tempDir();
    try {
      const w = new WarcWriter({ dir, dedup: true, now: clock });
      const pieces = (b: Buffer) => (whole ? [b.subarray(0, 7), b.subarray(7)] : slowly(b, 5));
      await w.request('http://example.org/page', whole ? REQUEST : slowly(REQUEST, 9));
      await w.response('http://example.org/page', pieces(CHUNKED), [['WARC-Protocol', 'http/1.1']]);
      await w.response('http://example.org/again', pieces(CHUNKED)); // a revisit of the first
      await w.resource('gopher://example.org/1/', 'application/gopher-menu', whole ? menu : slowly(menu, 4));
      await w.resource('file:///tmp/empty', 'text/plain', whole ? '' : slowly(Buffer.alloc(0), 1));
      await w.metadata(
        'gopher://example.org/1/',
        '<urn:uuid:x>',
        'text/plain',
        whole ? '> \r\n' : slowly(Buffer.from('> \r\n'), 2),
      );
      const [name] = await w.close();
      return masked(readFileSync(join(dir, name)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const [a, b] = [await run(true), await run(false)];
  assert.match(a, /WARC-Type: revisit\r\n/);
  assert.equal(a, b);
});

test("a caller's buffer changed once write() has returned does not change the record", async () => {
  const dir = tempDir();
  try {
    const w = new WarcWriter({ dir });
    const first = w.resource('file:///tmp/x', 'text/plain', Buffer.from('not yet written\n'));
    const buf = Buffer.from('the octets given\n');
    // Queued behind the first record: its octets are read when its turn comes.
    const second = w.resource('file:///tmp/y', 'text/plain', buf);
    buf.fill(0x78);
    await Promise.all([first, second]);
    const [name] = await w.close();
    const peer = await assertDigests(join(dir, name));
    assert.equal(peer[2].block.toString(), 'the octets given\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a larger block that deflate cannot shrink is stored (RFC 1951 3.2.4), one it can is deflated; both read back whole', async () => {
  const dir = tempDir();
  try {
    const w = new WarcWriter({ dir, spoolLimit: 100_000 });
    const random = Buffer.concat(Array.from({ length: 7000 }, (_, k) => createHash('sha256').update(`r${k}`).digest()));
    const text = Buffer.from('<a href="/p/1.html">one</a>\n'.repeat(8000));
    const rows = [
      await w.resource('gopher://example.org/9/whole', 'application/octet-stream', random),
      await w.resource('gopher://example.org/0/whole', 'text/plain', text),
      await w.resource('ftp://example.org/spilled.bin', 'application/octet-stream', slowly(random, 4096)),
      await w.resource('ftp://example.org/spilled.txt', 'text/plain', slowly(text, 4096)),
    ];
    const [name] = await w.close();
    const file = readFileSync(join(dir, name));
    // The first deflate block of each member, after gzip's 10-octet header: BTYPE 00 is stored.
    const btype = (r: { offset: number }) => (file[r.offset + 10] >> 1) & 3;
    assert.deepEqual(
      rows.map((r) => btype(r) === 0),
      [true, false, true, false],
    );
    assert.ok(rows[0].length < random.length + 1024, 'stored: no larger than the octets and a header');
    assert.ok(rows[1].length < text.length / 20, 'deflated');
    const peer = await assertDigests(join(dir, name));
    assert.deepEqual(
      peer.slice(1).map((r) => r.block),
      [random, text, random, text],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a record whose write fails part of the way leaves nothing: the next record starts where it started, the file ends at the last whole record', async () => {
  for (const after of [true, false]) {
    const dir = tempDir();
    try {
      const w = new WarcWriter({ dir, spoolLimit: 1024 });
      const first = await w.resource('ftp://example.org/a', 'text/plain', 'first\n');
      // The file's third write of the spilled record fails (a full disk), after two went out.
      const file = (w as unknown as { file: { write: (...a: unknown[]) => Promise<unknown> } }).file;
      const write = file.write.bind(file);
      let n = 0;
      file.write = (...a: unknown[]) =>
        ++n === 3 ? Promise.reject(Object.assign(new Error('no space left'), { code: 'ENOSPC' })) : write(...a);
      const big = Buffer.concat(Array.from({ length: 3000 }, (_, k) => createHash('sha256').update(`b${k}`).digest()));
      await assert.rejects(w.resource('ftp://example.org/big', 'application/octet-stream', slowly(big, 4096)), {
        code: 'ENOSPC',
      });
      file.write = write;
      if (after) {
        const next = await w.resource('ftp://example.org/c', 'text/plain', 'after\n');
        assert.equal(next.offset, first.offset + first.length, 'the next record where the failed one started');
      }
      const [name] = await w.close();
      const read: string[] = [];
      for await (const r of readWarc(join(dir, name))) {
        await r.end();
        read.push(`${r.type} ${r.get('WARC-Target-URI') ?? ''}`);
      }
      assert.deepEqual(read, [
        'warcinfo ',
        'resource ftp://example.org/a',
        ...(after ? ['resource ftp://example.org/c'] : []),
      ]);
      await assertDigests(join(dir, name));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

for (const kind of ['WarcWriter', 'ThreadWarcWriter'] as const) {
  test(`${kind}: a record given with requires is written after the record it names, and not at all when that one fails`, async () => {
    const dir = tempDir();
    try {
      const w = kind === 'WarcWriter' ? new WarcWriter({ dir }) : new ThreadWarcWriter({ dir, gather: 5 });
      const ids = [newRecordId(), newRecordId(), newRecordId()];
      // A response whose block fails part of the way, and the request that goes with it.
      const failing = (async function* () {
        yield Buffer.from('HTTP/1.1 200 OK\r\n');
        throw new Error('connection reset');
      })();
      const lost = w.write({
        type: 'response',
        targetUri: 'http://example.org/lost',
        block: failing,
        recordId: ids[0],
      });
      const orphan = w.write({
        type: 'request',
        targetUri: 'http://example.org/lost',
        block: REQUEST,
        requires: ids[0],
      });
      await assert.rejects(lost, /connection reset/);
      await assert.rejects(orphan, (e: unknown) => e instanceof LocatorError && e.code === 'warc-record-requires');
      // A response given as a stream larger than a batch (the thread writer sends it in parts), and
      // its request given at once: the request after it, naming it.
      const big = Buffer.concat([
        Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 400000\r\n\r\n'),
        Buffer.alloc(400_000, 120),
      ]);
      const response = w.write({
        type: 'response',
        targetUri: 'http://example.org/big',
        block: slowly(big, 65536),
        recordId: ids[1],
      });
      const request = w.write({
        type: 'request',
        targetUri: 'http://example.org/big',
        block: REQUEST,
        fields: [['WARC-Concurrent-To', ids[1]!]],
        requires: ids[1],
      });
      // One written before close() and required by a record given after it.
      await w.write({ type: 'metadata', targetUri: 'http://example.org/m', block: 'm', recordId: ids[2] });
      const after = w.write({ type: 'metadata', targetUri: 'http://example.org/n', block: 'n', requires: ids[2] });
      const files = await w.close();
      assert.equal((await response).recordId, ids[1]);
      await request;
      await after;
      const records = await assertDigests(join(dir, files[0]!));
      const order = records.map((r) => `${r.type} ${r.targetUri}`);
      // Each record once (the failed response and its request not at all), each after the one it requires.
      assert.deepEqual([...order.slice(1)].sort(), [
        'metadata http://example.org/m',
        'metadata http://example.org/n',
        'request http://example.org/big',
        'response http://example.org/big',
      ]);
      const at = (x: string) => order.indexOf(x);
      assert.ok(at('request http://example.org/big') > at('response http://example.org/big'), order.join(', '));
      assert.ok(at('metadata http://example.org/n') > at('metadata http://example.org/m'), order.join(', '));
      const response_ = records[at('response http://example.org/big')]!;
      const request_ = records[at('request http://example.org/big')]!;
      assert.equal(response_.fields.get('warc-record-id'), ids[1]);
      assert.equal(request_.fields.get('warc-concurrent-to'), ids[1]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('WarcWriter: a recordId that is not a record id is refused', async () => {
  const dir = tempDir();
  try {
    const w = new WarcWriter({ dir });
    await assert.rejects(w.write({ type: 'metadata', block: 'x', recordId: 'urn:uuid:nope' }), RangeError);
    await w.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
