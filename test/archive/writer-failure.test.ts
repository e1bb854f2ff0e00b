// The archive crawl when its writer's thread has stopped (as a crash of the thread would): the
// crawl ends with the typed error, keeps no verdict for what it could not write (a resumed run
// visits it again), and asks no server for the URLs after it, though the page's links were taken
// before its records were written. The server is an in-process one of the test's, for counting
// the requests; the real servers' archives are in the other tests of this folder.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { archiveCrawl, ThreadWarcWriter } from '../../src/archive/index.js';
import type { CrawlResult } from '../../src/crawl/engine.js';
import { LocatorError } from '../../src/core/errors.js';

test('a writer whose thread stopped ends the crawl with its error; the URLs after it are not fetched', async () => {
  const asked: string[] = [];
  // The writer of the crawl, caught as it is made (its constructor asks hold()).
  let writer: ThreadWarcWriter | null = null;
  const proto = ThreadWarcWriter.prototype as unknown as { hold(): void };
  const hold = proto.hold;
  proto.hold = function (this: ThreadWarcWriter) {
    writer ??= this;
    return hold.call(this);
  };
  const links = Array.from({ length: 20 }, (_, i) => `<a href="/p/${i}.html">${i}</a>`).join('\n');
  const server = createServer((req, res) => {
    asked.push(req.url ?? '');
    // The writer's thread ends while the server answers the seed: before its records are given.
    if (req.url === '/') {
      const w = writer as unknown as { worker: { terminate(): Promise<number> }; stop(e: Error): void };
      w.stop(new Error('its thread ended (the test ended it)'));
      void w.worker.terminate();
    }
    res.setHeader('content-type', 'text/html');
    res.end(req.url === '/' ? `<!DOCTYPE html><html><body>${links}</body></html>` : '<p>a page</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const dir = mkdtempSync(join(tmpdir(), 'locator-warc-failure-'));
  try {
    const rs: CrawlResult[] = [];
    await assert.rejects(
      (async () => {
        for await (const r of archiveCrawl([`http://127.0.0.1:${port}/`], {
          output: dir + '/',
          ignoreRobots: true,
          perHost: 1,
          open: { gateway: false },
        }))
          rs.push(r);
      })(),
      (e: unknown) => e instanceof LocatorError && e.code === 'warc-writer-failed',
    );
    // No verdict for what was not written; the seed was fetched, its links were not.
    assert.deepEqual(rs, []);
    assert.deepEqual(asked, ['/']);
  } finally {
    proto.hold = hold;
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
