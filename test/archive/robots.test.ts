// robots.txt kept in the archive (as wget, Heritrix and grab-site keep it): each one the crawl
// fetched, once per server per run, over http as the response and request records of its
// exchange, over Gopher as a resource and a metadata record; not again after a --state resume.
// Against the shared nginx (its robots.txt) and gophernicus (which answers the `robots.txt`
// selector with a text reply); every record is read by warcio with its digests recomputed. The
// 404 of a server with no robots.txt: test/archive/http.test.ts (its own nginx).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { archiveCrawl, type ArchiveOptions } from '../../src/archive/index.js';
import type { CrawlResult } from '../../src/crawl/engine.js';
import { assertDigests, type PeerRecord } from './peer.js';

const TS = process.env.LOCATOR_TEST_SERVERS;
if (!TS) throw new Error('LOCATOR_TEST_SERVERS is not set: run the tests with node scripts/test.mjs');
const HTTP = 'http://127.0.0.1:8080';
const HTTP_ROBOTS = `${HTTP}/robots.txt`;
const GOPHER_ROBOTS = 'gopher://127.0.0.1:7071/0robots.txt';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'locator-warc-robots-'));
  dirs.push(d);
  return d;
}

async function run(seeds: string[], options: ArchiveOptions, stopAfter = Infinity): Promise<CrawlResult[]> {
  const out: CrawlResult[] = [];
  for await (const r of archiveCrawl(seeds, options)) {
    out.push(r);
    if (out.length >= stopAfter) break;
  }
  return out;
}

async function recordsIn(dir: string): Promise<PeerRecord[]> {
  const out: PeerRecord[] = [];
  for (const n of readdirSync(dir)
    .filter((n) => n.endsWith('.warc.gz'))
    .sort())
    out.push(...(await assertDigests(join(dir, n))));
  return out;
}

/** What gophernicus answers to the selector `robots.txt`, read from a socket here. */
function gopherReply(port: number, selector: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    const s = connect(port, '127.0.0.1', () => s.write(`${selector}\r\n`));
    s.on('data', (d) => parts.push(d));
    s.on('end', () => resolve(Buffer.concat(parts)));
    s.on('error', reject);
  });
}

test("robots.txt is archived: nginx's as its exchange (response and request), gophernicus's as a resource and its metadata, each once", async () => {
  const dir = tempDir();
  const out = join(dir, 'out');
  const results = await run([`${HTTP}/`, `${HTTP}/site/`, 'gopher://127.0.0.1:7071/'], {
    output: out + '/',
    maxDepth: 1,
    open: { gateway: false, timeout: 15_000 },
  });
  // The rules were read from it: the private page is refused.
  assert.equal(results.find((r) => r.url === `${HTTP}/site/private/secret.html`)?.status, 'refused');
  // nginx's listing of / links robots.txt: reached as a link too, it is the one kept (once).
  assert.equal(results.find((r) => r.url === HTTP_ROBOTS)?.status, 'archived');
  const records = await recordsIn(out);
  const robots = records.filter((r) => r.targetUri === HTTP_ROBOTS || r.targetUri === GOPHER_ROBOTS);
  assert.deepEqual(
    robots.map((r) => `${r.type} ${r.targetUri}`).sort(),
    [`metadata ${GOPHER_ROBOTS}`, `request ${HTTP_ROBOTS}`, `resource ${GOPHER_ROBOTS}`, `response ${HTTP_ROBOTS}`],
    'one exchange for each server, though two seeds of nginx asked it and a listing links it',
  );
  const response = robots.find((r) => r.type === 'response')!;
  const request = robots.find((r) => r.type === 'request')!;
  const text = response.block.toString('latin1');
  assert.match(text, /^HTTP\/1\.1 200 OK\r\n/);
  const file = readFileSync(join(TS!, 'http', 'root', 'robots.txt'));
  assert.ok(response.block.subarray(-file.length).equals(file), 'the body is the file nginx serves');
  assert.match(text, /\nDisallow: \/site\/private\/\n/);
  assert.match(request.block.toString('latin1'), /^GET \/robots\.txt HTTP\/1\.1\r\nHost: 127\.0\.0\.1:8080\r\n/);
  assert.equal(request.fields.get('warc-concurrent-to'), response.fields.get('warc-record-id'));
  assert.equal(response.fields.get('warc-ip-address'), '127.0.0.1');
  // Gopher: the reply as received, and the exchange that asked for it.
  const resource = robots.find((r) => r.type === 'resource')!;
  const metadata = robots.find((r) => r.type === 'metadata')!;
  assert.deepEqual(resource.block, await gopherReply(7071, 'robots.txt'));
  assert.equal(resource.fields.get('warc-protocol'), 'gopher');
  assert.equal(metadata.fields.get('warc-concurrent-to'), resource.fields.get('warc-record-id'));
  assert.match(metadata.block.toString(), /^> robots\.txt<CR><LF>$/m);
  // pygopherd has no robots.txt and says so with an error item: nothing to keep of it (no
  // object; a Gopher error is not written for any URL), and it was not asked here.
});

test('robots.txt after a --state resume: asked again, not written again', async () => {
  const dir = tempDir();
  const out = join(dir, 'out');
  const options: ArchiveOptions = {
    output: out + '/',
    state: join(dir, 'state'),
    maxDepth: 1,
    concurrency: 1,
    perHost: 1,
    delay: 150,
    open: { gateway: false, timeout: 15_000 },
  };
  // Stopped after the seed and one link (robots.txt asked for the link); then resumed. The seed
  // is nginx's listing of / (six links and more): the crawl may have finished a visit or two
  // beyond the two results taken before it stopped (it goes on with a page's links while the
  // page's records are written, and so while its verdict is still to come), and some links must
  // still be left for the resumed run: 150 ms between two requests keep the first run to a few.
  const first = await run([`${HTTP}/`], options, 2);
  assert.equal(first.length, 2);
  const before = (await recordsIn(out)).filter((r) => r.targetUri === HTTP_ROBOTS);
  assert.deepEqual(before.map((r) => r.type).sort(), ['request', 'response']);
  const second = await run([`${HTTP}/`], options);
  // A link visited by this run (not one the state had a verdict for): robots.txt was asked.
  assert.ok(
    second.some((r) => r.depth > 0 && r.resumed === false),
    `the resumed run went on (and asked robots.txt for its links): ${JSON.stringify(second)}`,
  );
  const after = (await recordsIn(out)).filter((r) => r.targetUri === HTTP_ROBOTS);
  assert.deepEqual(after.map((r) => r.type).sort(), ['request', 'response'], 'robots.txt written once');
});

test(
  'RFC 9309 2.3.1.4: a robots.txt sent an octet at a time is given up at 4 times the timeout, its server refused',
  { timeout: 20_000 },
  async () => {
    // A server whose pages answer at once and whose robots.txt never ends (an octet every 100 ms).
    const trickles = new Set<ReturnType<typeof setInterval>>();
    const server = createServer((s) => {
      s.on('error', () => {});
      s.once('data', (d) => {
        const path = /^GET (\S+)/.exec(d.toString('latin1'))?.[1];
        if (path === '/robots.txt') {
          s.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n');
          const t = setInterval(() => s.write('#'), 100);
          trickles.add(t);
          s.on('close', () => clearInterval(t));
          return;
        }
        const body = path === '/' ? '<!DOCTYPE html><a href="/a.html">a</a>' : '<!DOCTYPE html>a';
        s.end(
          `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const dir = tempDir();
    try {
      const t0 = Date.now();
      const rows = await run([`http://127.0.0.1:${port}/`], {
        output: join(dir, 'out') + '/',
        maxDepth: 1,
        open: { gateway: false, timeout: 300, policy: { allowPorts: [port] } },
      });
      const link = rows.find((r) => r.url === `http://127.0.0.1:${port}/a.html`);
      assert.equal(link?.status, 'refused', JSON.stringify(rows));
      assert.ok(Date.now() - t0 < 8000, `the crawl took ${Date.now() - t0} ms`);
    } finally {
      for (const t of trickles) clearInterval(t);
      server.close();
    }
  },
);
