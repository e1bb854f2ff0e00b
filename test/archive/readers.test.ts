// Checked by tools nobody here wrote: an archive of every scheme locator speaks, made from the
// real servers (nginx, pygopherd (a Gopher+ menu too), gophernicus, vsftpd, INN; locator's WAIS
// server and the Prospero test server, which have no Debian package; a local folder), with
// revisit records (--dedup) and a raw HTTP exchange written as request and response records, is
// read whole by every WARC reader of the field that installs from npm, none of which locator uses
// to write (Debian bookworm packages no WARC reader: `apt-cache search warc` finds none):
//
// - webrecorder's warcio (WARCParser), its `warcio index` and its `warcio cdx-index` (the CDXJ
//   indexer pywb's tools share);
// - warc (eugeneware), a stream parser that reads each block by its Content-Length;
// - node-warc (N0taN3rd), a line parser.
//
// Every record's block digest and payload digest is computed again here (test/archive/peer.ts:
// base32 and the HTTP entity without the chunked coding, written again, sharing no code with the
// writer) over the bytes each reader hands over.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  createReadStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { createGunzip, gunzipSync } from 'node:zlib';
import { archiveCrawl, indexWarc, WarcWriter, type ArchiveSummary } from '../../src/archive/index.js';
import { open } from '../../src/clients/index.js';
import { startWaisServer, type WaisServer } from '../../src/clients/wais/server.js';
import { startProsperoServer, type ProsperoServer } from '../servers/prospero-server.js';
import { TREE_OBJECTS, tree } from '../clients/prospero/tree.js';
import { ROOT, SHARED } from '../helpers.js';
import { digestOf, entityOf, exchange, warcioRecords, type PeerRecord } from './peer.js';

const require = createRequire(import.meta.url);
const HTTP = 'http://127.0.0.1:8080';
const WARCIO_CLI = join(ROOT, 'node_modules', 'warcio', 'dist', 'cli.js');

let wais: WaisServer;
let pros: ProsperoServer;
let dir: string;
/** The WARC files written, and what the archive run said. */
let files: string[] = [];
const summary: Partial<ArchiveSummary> = {};

/** A local folder for file: URLs: text, a copy of it (a revisit with --dedup), binary octets. */
function folder(root: string): string {
  const t = join(root, 'tree');
  mkdirSync(t, { recursive: true });
  writeFileSync(join(t, 'a.txt'), 'a text file\nof two lines\n');
  writeFileSync(join(t, 'a-copy.txt'), 'a text file\nof two lines\n');
  writeFileSync(join(t, 'octets.bin'), Buffer.from(Array.from({ length: 1024 }, (_, i) => (i * 37 + 11) & 0xff)));
  return t;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'locator-readers-'));
  wais = await startWaisServer({ dir: join(SHARED, 'fixtures', 'wais', 'docs'), database: 'demo' });
  let port = 0;
  pros = await startProsperoServer({ objects: TREE_OBJECTS, directories: tree(() => port) });
  port = pros.port;
  const t = folder(dir);
  const out = join(dir, 'out');
  // A document of the WAIS headlines (a search's links are not followed: each is a seed).
  const hits = await open(`wais://127.0.0.1:${wais.port}/demo?forecast`, { timeout: 15_000 });
  const doc = new RegExp(`wais://127\\.0\\.0\\.1:${wais.port}/demo/TEXT/[^\\s]+`).exec(
    await new Response(hits.body).text(),
  );
  assert.ok(doc, 'a document in the headlines');
  const seeds = [
    `${HTTP}/`,
    'gopher://127.0.0.1:7070/',
    'gopher://127.0.0.1:7071/',
    // A Gopher+ menu (pygopherd answers the `+` request with its items marked `+`).
    'gopher://127.0.0.1:7070/1/files%09%09+',
    'ftp://127.0.0.1:2121/pub/nested/',
    'ftp://127.0.0.1:2121/hello.txt',
    'nntp://127.0.0.1:1119/local.test',
    'nntp://127.0.0.1:1119/local.test/1',
    'news:local.test',
    `wais://127.0.0.1:${wais.port}/demo?forecast`,
    doc[0],
    `prospero://127.0.0.1:${pros.port}//pros/sub`,
    `prospero://127.0.0.1:${pros.port}//pros/unix`,
    `file://${t}/`,
    `file://${t}/a.txt`,
    `file://${t}/a-copy.txt`,
    `file://${t}/octets.bin`,
  ];
  const results = [];
  for await (const r of archiveCrawl(
    seeds,
    {
      output: out + '/',
      dedup: true,
      index: true,
      maxDepth: 1,
      open: { timeout: 15_000, env: { NNTPSERVER: '127.0.0.1:1119' } },
    },
    summary,
  ))
    results.push(r);
  const bad = results.filter((r) => r.status !== 'archived' && r.status !== 'skipped');
  assert.deepEqual(bad, [], 'every seed and link archived');
  // The http records of the format the crawl's HTTP capture writes: request and response, the
  // octets as exchanged (nginx's index page comes chunked).
  const w = new WarcWriter({ dir: out, prefix: 'http' });
  for (const path of ['/', '/hello.txt']) {
    const { request, response } = exchange(path);
    const req = await w.request(HTTP + path, request, [['WARC-Protocol', 'http/1.1']]);
    await w.response(HTTP + path, response, [
      ['WARC-Concurrent-To', req.recordId],
      ['WARC-Protocol', 'http/1.1'],
    ]);
  }
  await w.close();
  files = readdirSync(out)
    .filter((n) => n.endsWith('.warc.gz'))
    .sort()
    .map((n) => join(out, n));
});

after(async () => {
  await wais.close();
  await pros.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The payload of a block as WARC 1.1 5.9 defines it: an HTTP message's entity, else the block. */
function payloadOf(r: { type: string; contentType: string | undefined; block: Buffer }): Buffer {
  return /^application\/http/.test(r.contentType ?? '') ? entityOf(r.block) : r.block;
}

/** Asserts a record's digests over `block`, computed here. */
function assertDigestsOf(
  where: string,
  fields: Map<string, string>,
  block: Buffer,
  byId: Map<string, Map<string, string>>,
): void {
  const type = fields.get('warc-type')!;
  const bd = fields.get('warc-block-digest');
  assert.ok(bd, `${where}: a block digest`);
  assert.equal(digestOf(bd, block), bd, `${where}: block digest`);
  assert.equal(Number(fields.get('content-length')), block.length, `${where}: Content-Length`);
  const pd = fields.get('warc-payload-digest');
  if (type === 'resource' || type === 'response') assert.ok(pd, `${where}: a payload digest`);
  if (!pd) return;
  if (type === 'revisit') {
    // The payload is the referred record's: the same digest there.
    const first = byId.get(fields.get('warc-refers-to')!);
    assert.ok(first, `${where}: WARC-Refers-To a record of the archive`);
    assert.equal(first.get('warc-payload-digest'), pd, `${where}: the payload digest of the record it refers to`);
    assert.equal(first.get('warc-target-uri'), fields.get('warc-refers-to-target-uri'), where);
    return;
  }
  const payload = payloadOf({ type, contentType: fields.get('content-type'), block });
  assert.equal(digestOf(pd, payload), pd, `${where}: payload digest`);
}

/** Every record warcio reads in the files, by file. */
async function warcioAll(): Promise<Map<string, PeerRecord[]>> {
  const out = new Map<string, PeerRecord[]>();
  for (const f of files) out.set(f, await warcioRecords(f));
  return out;
}

function byIdOf(all: Map<string, PeerRecord[]>): Map<string, Map<string, string>> {
  const m = new Map<string, Map<string, string>>();
  for (const rs of all.values()) for (const r of rs) m.set(r.fields.get('warc-record-id')!, r.fields);
  return m;
}

test('readers: the archive holds every scheme and record type', async () => {
  const all = [...(await warcioAll()).values()].flat();
  const schemes = new Set(all.map((r) => r.targetUri?.replace(/:.*$/s, '')).filter((s) => s !== undefined));
  assert.deepEqual([...schemes].sort(), ['file', 'ftp', 'gopher', 'http', 'news', 'nntp', 'prospero', 'wais']);
  const types = new Set(all.map((r) => r.type));
  assert.deepEqual([...types].sort(), ['metadata', 'request', 'resource', 'response', 'revisit', 'warcinfo']);
  const protocols = new Set(all.map((r) => r.fields.get('warc-protocol')).filter((p) => p !== undefined));
  for (const p of ['gopher', 'ftp', 'http/1.1', 'nntp', 'wais', 'prospero']) assert.ok(protocols.has(p), p);
  const plus = all.find((r) => r.type === 'resource' && r.targetUri === 'gopher://127.0.0.1:7070/1/files%09%09+');
  assert.ok(plus, 'the Gopher+ menu');
  assert.match(plus.block.toString('latin1'), /^1sub\t\/files\/sub\t127\.0\.0\.1\t7070\t\+\r$/m);
  assert.ok(
    all.some((r) => r.type === 'resource' && r.targetUri?.startsWith(`wais://127.0.0.1:${wais.port}/demo/`)),
    'a WAIS document',
  );
  assert.ok(summary.records && summary.records > 20, String(summary.records));
});

test("readers: webrecorder's warcio reads every record whole; every block and payload digest computed here", async () => {
  const all = await warcioAll();
  const byId = byIdOf(all);
  let n = 0;
  for (const [f, rs] of all) {
    assert.ok(rs.length > 1, f);
    for (const r of rs) {
      assertDigestsOf(`warcio ${f} ${r.type} ${r.targetUri}`, r.fields, r.block, byId);
      n++;
    }
    // The records tile the file: each gzip member starts where the last ended.
    let at = 0;
    for (const r of rs) {
      assert.equal(r.offset, at, `${f}: member at ${at}`);
      at += r.length;
    }
    assert.equal(at, statSync(f).size, `${f}: the last member ends the file`);
  }
  assert.ok(n > 40, `${n} records`);
});

/** The records of a file as the warc package (eugeneware) reads them: protocol line, headers, block. */
async function warcPackageRecords(
  f: string,
): Promise<Array<{ protocol: string; headers: Record<string, string>; content: Buffer }>> {
  const WARCStream = require('warc') as new () => Transform;
  const out: Array<{ protocol: string; headers: Record<string, string>; content: Buffer }> = [];
  const stream = createReadStream(f).pipe(createGunzip()).pipe(new WARCStream());
  for await (const r of stream as AsyncIterable<{ protocol: string; headers: Record<string, string>; content: Buffer }>)
    out.push(r);
  return out;
}

test('readers: the warc package (eugeneware) reads every record by its Content-Length; digests computed here over its blocks', async () => {
  const all = await warcioAll();
  const byId = byIdOf(all);
  for (const [f, peer] of all) {
    const rs = await warcPackageRecords(f);
    assert.equal(rs.length, peer.length, `${f}: as many records as warcio reads`);
    for (const [i, r] of rs.entries()) {
      const where = `warc ${f} ${r.headers['WARC-Type']} ${r.headers['WARC-Target-URI']}`;
      assert.equal(r.protocol, 'WARC/1.1', where);
      const fields = new Map(Object.entries(r.headers).map(([k, v]) => [k.toLowerCase(), v]));
      assert.deepEqual(fields, peer[i].fields, `${where}: the same header fields as warcio's`);
      assert.deepEqual(r.content, peer[i].block, `${where}: the same block as warcio's`);
      assertDigestsOf(where, fields, r.content, byId);
    }
  }
});

interface NodeWarcRecord {
  warcHeader: Record<string, string>;
  httpInfo: { statusCode?: number; method?: string } | null;
  content: Buffer | null;
}

/**
 * The records of a file as node-warc reads them (its WARCStreamTransform over the inflated file).
 * node-warc 3.3.1's _flush() calls its callback twice, an ERR_MULTIPLE_CALLBACK on every file on
 * Node 14 and later: the one line of it that does so is mended here (the parser is node-warc's).
 */
function nodeWarcRecords(f: string): Promise<NodeWarcRecord[]> {
  const { WARCStreamTransform } = require('node-warc') as {
    WARCStreamTransform: new () => Transform & {
      buffered?: Buffer;
      _consumeChunk(chunk: Buffer, done: () => void, pushLast: boolean): void;
    };
  };
  class Mended extends WARCStreamTransform {
    override _flush(done: () => void): void {
      if (this.buffered) this._consumeChunk(this.buffered, done, true);
      else done();
    }
  }
  return new Promise((resolve, reject) => {
    const out: NodeWarcRecord[] = [];
    const source: Readable = createReadStream(f).pipe(createGunzip());
    source.on('error', reject);
    source
      .pipe(new Mended())
      .on('data', (r: NodeWarcRecord) => out.push(r))
      .on('error', reject)
      .on('end', () => resolve(out));
  });
}

/**
 * What node-warc's content is for a block, by its documented design: it reads a record as CR LF
 * lines and ends each part at an empty line (no Content-Length), so a block that holds an empty
 * line has no faithful reading there (null); otherwise the block, ended by the record's CR LF if
 * it did not end with one. For an application/http block it is the part after the header section.
 */
function nodeWarcContent(block: Buffer, http: boolean): Buffer | null {
  let body = block;
  if (http) {
    const end = block.indexOf('\r\n\r\n');
    if (end < 0) return null;
    body = block.subarray(end + 4);
  }
  if (body.includes('\r\n\r\n') || body.subarray(0, 2).equals(Buffer.from('\r\n'))) return null;
  if (body.length === 0 || body.subarray(-2).equals(Buffer.from('\r\n'))) return body;
  return Buffer.concat([body, Buffer.from('\r\n')]);
}

test('readers: node-warc reads every record with its header fields; digests computed here over every block its line model keeps', async (t) => {
  const all = await warcioAll();
  const byId = byIdOf(all);
  let whole = 0;
  let total = 0;
  for (const [f, peer] of all) {
    const rs = await nodeWarcRecords(f);
    assert.equal(rs.length, peer.length, `${f}: as many records as warcio reads`);
    for (const [i, r] of rs.entries()) {
      const p = peer[i];
      const where = `node-warc ${f} ${p.type} ${p.targetUri}`;
      const { WARC: version, ...rest } = r.warcHeader;
      assert.equal(version, '1.1', where);
      const fields = new Map(Object.entries(rest).map(([k, v]) => [k.toLowerCase(), v]));
      assert.deepEqual(fields, p.fields, `${where}: the same header fields as warcio's`);
      total++;
      if (p.type === 'revisit') continue; // node-warc keeps no content of a revisit
      const http = p.type === 'request' || p.type === 'response';
      const expected = nodeWarcContent(p.block, http);
      if (expected === null) continue;
      assert.ok(r.content, where);
      assert.deepEqual(r.content, expected, `${where}: its content is the block`);
      // The block as node-warc gives it (the record's closing CR LF taken off where it added one),
      // digested here: for an HTTP message its header section and body joined again.
      const content =
        expected.length > 0 && !p.block.subarray(-2).equals(Buffer.from('\r\n'))
          ? r.content.subarray(0, -2)
          : r.content;
      const block = http ? Buffer.concat([p.block.subarray(0, p.block.indexOf('\r\n\r\n') + 4), content]) : content;
      assertDigestsOf(where, fields, block, byId);
      if (p.type === 'response') assert.equal(Number(r.httpInfo?.statusCode), 200, where);
      whole++;
    }
  }
  t.diagnostic(`${whole} of ${total} records read whole by node-warc`);
  // Most blocks have no empty line: Gopher menus and files, FTP, transcripts, warcinfo.
  assert.ok(whole > total / 2, `${whole} of ${total} blocks read whole by node-warc`);
});

function cli(args: string[]): string {
  const r = spawnSync(process.execPath, [WARCIO_CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, `warcio ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** The record a (file, offset, length) leads to: one whole gzip member, its header fields. */
function memberAt(f: string, offset: number, length: number): Map<string, string> {
  const text = gunzipSync(readFileSync(f).subarray(offset, offset + length)).toString('latin1');
  assert.match(text, /^WARC\/1\.1\r\n/);
  const head = text.slice(0, text.indexOf('\r\n\r\n'));
  return new Map(
    head
      .split('\r\n')
      .slice(1)
      .map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()] as [string, string]),
  );
}

test('readers: `warcio index` finds every record at the offset and length warcio reads, each one gzip member', async () => {
  const all = await warcioAll();
  const fieldsWanted = ['warc-type', 'warc-record-id', 'warc-target-uri', 'warc-block-digest', 'warc-payload-digest'];
  for (const [f, peer] of all) {
    const rows = cli(['index', f, '-f', ['offset', 'length', ...fieldsWanted].join(',')])
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string | number>);
    assert.equal(rows.length, peer.length, f);
    for (const [i, row] of rows.entries()) {
      const p = peer[i];
      assert.equal(row.offset, p.offset, `${f} ${i}: offset`);
      assert.equal(row.length, p.length, `${f} ${i}: length`);
      const member = memberAt(f, Number(row.offset), Number(row.length));
      for (const k of fieldsWanted) {
        assert.equal(row[k], p.fields.get(k), `${f} ${i}: ${k}`);
        assert.equal(member.get(k), p.fields.get(k), `${f} ${i}: ${k} of the member at the offset`);
      }
    }
  }
});

test("readers: `warcio cdx-index` indexes every capture as locator's own index does, each line leading to its record", async () => {
  for (const f of files) {
    const lines = cli(['cdx-index', f]).trimEnd().split('\n');
    const ours = await indexWarc(f);
    for (const line of lines) {
      const j = JSON.parse(line.slice(line.indexOf('{')));
      const where = `${f} ${line}`;
      // The record it leads to is the capture of that URL, with that payload digest.
      const member = memberAt(f, Number(j.offset), Number(j.length));
      assert.equal(member.get('warc-target-uri'), j.url, where);
      if (j.digest) assert.equal(member.get('warc-payload-digest'), `sha1:${j.digest}`, where);
      // And locator's reader indexes the same record alike.
      const e = ours.find((x) => x.offset === Number(j.offset));
      assert.ok(e, where);
      assert.equal(e.targetUri, j.url, where);
      assert.equal(e.length, Number(j.length), where);
      assert.equal(e.payloadDigest?.replace(/^sha1:/, '') ?? undefined, j.digest, where);
      if (e.type === 'revisit') assert.equal(j.mime, 'warc/revisit', where);
      // warcio takes the media type of an HTTP response without parameters, a record's Content-Type whole.
      else if (e.type === 'response') assert.equal(e.mime?.split(';')[0].trim(), j.mime, where);
      else assert.equal(e.mime, j.mime, where);
      if (e.status !== null) assert.equal(String(e.status), String(j.status), where);
    }
    // Every capture warcio indexes by default (not request, not warcinfo) is a line: each
    // resource, response and revisit, and each metadata record (text/plain, not warc-fields).
    const captures = ours.filter((e) => e.type !== 'warcinfo' && e.type !== 'request');
    assert.equal(lines.length, captures.length, f);
  }
});
