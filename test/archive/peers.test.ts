// WARC files across tools, against the real servers (test/servers/*.sh): Debian's wget archives
// the test nginx site and a vsftpd file and locator's reader reads every record with its digests
// right; locator writes a raw HTTP exchange with nginx and recordFetch() results from pygopherd,
// gophernicus, vsftpd and nginx, and warcio (npm) reads them whole, every digest recomputed in
// test/archive/peer.ts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { open } from '../../src/clients/index.js';
import {
  WarcWriter,
  readWarc,
  recordFetch,
  archiveFetch,
  indexWarc,
  cdxj,
  entryOf,
  surt,
} from '../../src/archive/index.js';
import { assertDigests, digestOf, entityOf, exchange, warcioRecords } from './peer.js';

const TS = process.env.LOCATOR_TEST_SERVERS;
if (!TS) throw new Error('LOCATOR_TEST_SERVERS is not set: run the tests with node scripts/test.mjs');
const HTTP = 'http://127.0.0.1:8080';
const OPTS = { gateway: false as const, timeout: 10_000, transcript: true };

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'locator-warc-'));
}

async function bytesOf(url: string, options: Parameters<typeof open>[1] = {}): Promise<Buffer> {
  const r = await open(url, { ...OPTS, ...options });
  return Buffer.from(await new Response(r.body).arrayBuffer());
}

test("wget's WARC/1.0 files (nginx site, vsftpd file): every record read, digests right, offsets warcio's", async () => {
  const dir = tempDir();
  try {
    const run = (args: string[]) => {
      const r = spawnSync('wget', ['-q', '--no-config', '-e', 'robots=off', '-P', join(dir, 'files'), ...args], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(r.status, 0, `wget ${args.join(' ')}: ${r.stderr}`);
    };
    // /site/ is the crawl's test site (test/check/crawl.test.ts), with a broken link on purpose
    // (wget would exit 8): left out here.
    run(['--warc-file=' + join(dir, 'site'), '-r', '-l', '2', '-X', '/site', `${HTTP}/`]);
    run(['--warc-file=' + join(dir, 'ftp'), 'ftp://127.0.0.1:2121/pub/unix.txt']);
    const seen = new Map<string, { type: string; block: Buffer; covers: string | null }>();
    for (const name of ['site.warc.gz', 'ftp.warc.gz']) {
      const path = join(dir, name);
      const peer = await assertDigestsOfWget(path);
      let i = 0;
      for await (const r of readWarc(path)) {
        assert.equal(r.version, 'WARC/1.0');
        const parts: Buffer[] = [];
        for await (const c of r.block) parts.push(c);
        const end = await r.end();
        const where = `${name} ${r.type} ${r.targetUri}`;
        assert.equal(end.blockDigest, true, `${where}: block digest`);
        assert.equal(end.payloadDigest, r.get('WARC-Payload-Digest') ? true : null, `${where}: payload digest`);
        assert.equal(r.offset, peer[i].offset, `${where}: offset`);
        assert.equal(end.length, peer[i].length, `${where}: length`);
        i++;
        if (r.targetUri)
          seen.set(`${r.type} ${r.targetUri}`, {
            type: r.type,
            block: Buffer.concat(parts),
            covers: end.payloadCovers,
          });
      }
      assert.equal(i, peer.length, `${name}: as many records as warcio reads`);
    }
    // The objects are the servers' files, byte for byte.
    const hello = seen.get(`response ${HTTP}/hello.txt`);
    assert.ok(hello);
    assert.deepEqual(entityOf(hello.block), readFileSync(join(TS, 'http', 'root', 'hello.txt')));
    assert.equal(hello.covers, 'entity');
    const ftp = seen.get('resource ftp://127.0.0.1:2121/pub/unix.txt');
    assert.ok(ftp, [...seen.keys()].join(', '));
    assert.deepEqual(ftp.block, readFileSync(join(TS, 'ftp', 'root', 'pub', 'unix.txt')));
    // nginx's index pages come chunked; wget 1.21 digests them with their chunk framing.
    const index = seen.get(`response ${HTTP}/`);
    assert.ok(index && /transfer-encoding: chunked/i.test(index.block.toString('latin1')));
    assert.equal(index.covers, 'chunked');

    // The index of wget's file: one line per record with a target, sorted, offsets that reach it.
    const entries = await indexWarc(join(dir, 'site.warc.gz'));
    const lines = cdxj(entries).trimEnd().split('\n');
    assert.deepEqual([...lines].sort(), lines);
    const helloLine = lines.find((l) => l.startsWith('1,0,0,127:8080)/hello.txt ') && l.includes('"status"'));
    assert.ok(helloLine, lines.join('\n'));
    const json = JSON.parse(helloLine.slice(helloLine.indexOf('{')));
    assert.equal(json.mime, 'text/plain');
    assert.equal(json.status, '200');
    const file = readFileSync(join(dir, 'site.warc.gz'));
    const one = gunzipSync(file.subarray(Number(json.offset), Number(json.offset) + Number(json.length))).toString();
    assert.match(one, /^WARC\/1\.0\r\nWARC-Type: response\r\n/);
    assert.ok(one.includes(`WARC-Target-URI: <${HTTP}/hello.txt>`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** warcio's records of a wget file, with the digests recomputed as wget computes them. */
async function assertDigestsOfWget(path: string) {
  const records = await warcioRecords(path);
  for (const r of records) {
    const block = r.fields.get('warc-block-digest')!;
    assert.equal(digestOf(block, r.block), block, `${r.type} ${r.targetUri}: block digest`);
  }
  return records;
}

test('a raw HTTP exchange with nginx, written as it arrives: request and response records, payload the entity', async () => {
  const dir = tempDir();
  try {
    const w = new WarcWriter({ dir });
    const written = [];
    for (const path of ['/', '/hello.txt']) {
      const { request, response } = exchange(path);
      const req = await w.request(HTTP + path, request, [['WARC-Protocol', 'http/1.1']]);
      const res = await w.response(HTTP + path, response, [
        ['WARC-Concurrent-To', req.recordId],
        ['WARC-Protocol', 'http/1.1'],
      ]);
      written.push(res);
    }
    const [name] = await w.close();
    const peer = await assertDigests(join(dir, name));
    assert.deepEqual(
      peer.map((r) => r.type),
      ['warcinfo', 'request', 'response', 'request', 'response'],
    );
    // The index page comes chunked and is kept so; its payload digest is that of the page as
    // locator's own HTTP client decodes it.
    assert.match(peer[2].block.toString('latin1'), /\r\ntransfer-encoding: chunked\r\n/i);
    const page = await bytesOf(`${HTTP}/`);
    assert.equal(written[0].payloadDigest, digestOf('sha1:', page));
    assert.deepEqual(entityOf(peer[4].block), readFileSync(join(TS, 'http', 'root', 'hello.txt')));
    assert.equal(written[1].status, 200);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('recordFetch: gopher menus (with and without the "." line), text, ftp file and listing, http page', async () => {
  const dir = tempDir();
  try {
    const w = new WarcWriter({ dir, info: { robots: 'obey', operator: 'test@example.org' } });
    const urls = [
      'gopher://127.0.0.1:7070/',
      'gopher://127.0.0.1:7070/0/hello.txt',
      'gopher://127.0.0.1:7071/',
      'ftp://127.0.0.1:2121/pub/unix.txt',
      'ftp://127.0.0.1:2121/pub/',
      `${HTTP}/hello.txt`,
      'ftp://127.0.0.1:2121/hello.txt',
    ];
    const results = [];
    // recordFetch() of what a caller opened, and archiveFetch(), which opens as an archive should.
    for (const url of urls.slice(0, 6)) results.push(await recordFetch(w, url, await open(url, OPTS)));
    results.push(await archiveFetch(w, urls[6], { gateway: false, timeout: 10_000 }));
    const [name] = await w.close();
    const path = join(dir, name);
    const peer = await assertDigests(path);
    assert.equal(peer.length, 1 + 2 * urls.length);
    for (const [i, url] of urls.entries()) {
      const resource = peer[1 + 2 * i];
      const metadata = peer[2 + 2 * i];
      assert.equal(resource.type, 'resource');
      assert.equal(resource.targetUri, url);
      const wire = i === 6 ? { ftpLineEnds: 'wire' as const } : {};
      assert.deepEqual(resource.block, await bytesOf(url, wire), `${url}: the object as open() gives it`);
      assert.equal(metadata.type, 'metadata');
      assert.equal(metadata.fields.get('warc-concurrent-to'), results[i].resource.recordId);
      assert.equal(metadata.fields.get('content-type'), 'text/plain; charset=utf-8');
    }
    // WARC 1.1 5.12: the address each object came from (the client's peer), on both records; an
    // http object opened without the capture has no exchange to say it.
    const ip = (i: number) => [1, 2].map((k) => peer[k + 2 * i].fields.get('warc-ip-address') ?? null);
    assert.deepEqual(
      urls.map((_, i) => ip(i)),
      urls.map((u) => (u.startsWith('http') ? [null, null] : ['127.0.0.1', '127.0.0.1'])),
    );
    const protocol = (i: number) => peer[1 + 2 * i].fields.get('warc-protocol');
    assert.deepEqual([0, 3, 5].map(protocol), ['gopher', 'ftp', 'http/1.1']);
    assert.equal(peer[1].fields.get('content-type'), 'application/gopher-menu');
    assert.equal(peer[9].fields.get('content-type'), 'text/x-locator-ftp-listing');
    // gophernicus ends its menu with a "." line, and it is kept: the reply as the server sent it.
    assert.ok(peer[5].block.toString('latin1').endsWith('\r\n.\r\n'));
    assert.ok(!peer[1].block.toString('latin1').endsWith('\r\n.\r\n'), 'pygopherd sends none');
    // The FTP exchange, with the password hidden as everywhere else.
    const ftp = peer[8].block.toString();
    assert.match(ftp, /^< 220 /m);
    assert.match(ftp, /^> USER anonymous$/m);
    assert.match(ftp, /^> PASS \*+$/m);
    assert.match(ftp, /^> RETR unix\.txt$/m);
    assert.match(ftp, /^< 226 /m);
    assert.match(peer[4].block.toString(), /^> \/hello\.txt/m);
    // archiveFetch keeps FTP text as it crossed the wire: the server's file, CR LF and all (where
    // fetch's default hands over local line ends).
    assert.deepEqual(peer[13].block, readFileSync(join(TS, 'ftp', 'root', 'hello.txt')));
    assert.match(peer[13].block.toString(), /\r\n/);
    assert.match(peer[14].block.toString(), /^> RETR hello\.txt$/m);

    // The CDXJ of what was written: sorted, Gopher keyed with its scheme and reversed host.
    const text = cdxj(results.flatMap((r) => [entryOf(r.resource), entryOf(r.metadata)]));
    const lines = text.trimEnd().split('\n');
    assert.equal(lines.length, 2 * urls.length);
    assert.deepEqual([...lines].sort(), lines);
    assert.ok(lines.some((l) => l.startsWith('gopher://(1,0,0,127:7071)/ ')));
    assert.ok(lines.some((l) => l.startsWith('ftp://(1,0,0,127:2121)/pub/unix.txt ')));
    const file = readFileSync(path);
    for (const l of lines) {
      const j = JSON.parse(l.slice(l.indexOf('{')));
      const one = gunzipSync(file.subarray(Number(j.offset), Number(j.offset) + Number(j.length))).toString('latin1');
      assert.ok(one.includes(`\r\nWARC-Target-URI: ${j.url}\r\n`), l);
      assert.equal(l.split(' ')[0], surt(j.url));
    }
    assert.deepEqual(readdirSync(dir), [name]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
