// The archive crawl's memory bound (ArchiveOptions.backlog, ARCHIVE_BACKLOG by default): a page's
// links go to the crawl before its records are written, unless the octets given to the writer
// and not yet in the file (its own counted) pass the bound: then the visit waits for its records
// first. The writer is held here (its writes resolve only when the test lets them) and the
// requests counted on an in-process server of the test's.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { archiveCrawl, ARCHIVE_BACKLOG, ThreadWarcWriter } from '../../src/archive/index.js';

async function run(backlog: number | undefined): Promise<{ whileHeld: string[]; all: string[]; results: number }> {
  const asked: string[] = [];
  const links = Array.from({ length: 20 }, (_, i) => `<a href="/p/${i}.html">${i}</a>`).join('\n');
  const server = createServer((req, res) => {
    asked.push(req.url ?? '');
    res.setHeader('content-type', 'text/html');
    res.end(req.url === '/' ? `<!DOCTYPE html><html><body>${links}</body></html>` : '<p>a page</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const dir = mkdtempSync(join(tmpdir(), 'locator-warc-backlog-'));
  // Every write is held until `release` is called.
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  const write = ThreadWarcWriter.prototype.write;
  ThreadWarcWriter.prototype.write = function (this: ThreadWarcWriter, input) {
    const p = write.call(this, input);
    return held.then(() => p);
  };
  try {
    let results = 0;
    const crawl = (async () => {
      for await (const _ of archiveCrawl([`http://127.0.0.1:${port}/`], {
        output: dir + '/',
        ignoreRobots: true,
        perHost: 1,
        concurrency: 1,
        open: { gateway: false },
        ...(backlog !== undefined ? { backlog } : {}),
      }))
        results++;
    })();
    await new Promise((r) => setTimeout(r, 1500));
    const whileHeld = [...asked];
    release();
    await crawl;
    return { whileHeld, all: asked, results };
  } finally {
    ThreadWarcWriter.prototype.write = write;
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('past the backlog a visit waits for its records before the crawl goes on; under it the crawl goes on', async () => {
  assert.equal(ARCHIVE_BACKLOG, 64 * 1024 * 1024);
  // backlog 0: the seed's records (a few hundred octets) pass it: nothing more is fetched while they wait.
  const bound = await run(0);
  assert.deepEqual(bound.whileHeld, ['/']);
  // The default: the seed's links were followed while its records waited (one request at a time).
  const free = await run(undefined);
  assert.equal(free.whileHeld[0], '/');
  assert.equal(free.whileHeld.length, 21, free.whileHeld.join(' '));
  // Both end with every page archived once.
  assert.equal(bound.all.length, 21);
  assert.equal(bound.results, 21);
  assert.equal(free.results, 21);
});

test('a backlog that is not a number of octets >= 0 is refused before anything is made', async () => {
  const dir = join(tmpdir(), `locator-warc-backlog-none-${process.pid}`);
  await assert.rejects(
    (async () => {
      for await (const _ of archiveCrawl(['http://127.0.0.1:1/'], { output: dir + '/', backlog: -1 }));
    })(),
    RangeError,
  );
  assert.ok(!existsSync(dir), 'no folder made');
});
