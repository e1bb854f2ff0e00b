// The archive crawl when its writer's thread has stopped (killed here, as a crash of the thread
// would): the page being written fails with the typed error, and the URLs after it fail with it
// too without being asked of their server (a writer that cannot keep anything does not make the
// crawl fetch a site for nothing, though the page's links were taken before its records were
// written). The server is an in-process one of the test's, for counting the requests; the real
// servers' archives are in the other tests of this folder.

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

test('a writer whose thread stopped fails the page it was writing and every URL after it, none of them fetched', async () => {
  const asked: string[] = [];
  const links = Array.from({ length: 20 }, (_, i) => `<a href="/p/${i}.html">${i}</a>`).join('\n');
  const server = createServer((req, res) => {
    asked.push(req.url ?? '');
    res.setHeader('content-type', 'text/html');
    res.end(req.url === '/' ? `<!DOCTYPE html><html><body>${links}</body></html>` : '<p>a page</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const dir = mkdtempSync(join(tmpdir(), 'locator-warc-failure-'));
  // The first record given to the writer ends its thread, and the writer knows it at once (as
  // it does when the thread's exit is reported; here without waiting for it).
  const write = ThreadWarcWriter.prototype.write;
  ThreadWarcWriter.prototype.write = function (this: ThreadWarcWriter, input) {
    const self = this as unknown as { worker: { terminate(): Promise<number> }; stop(e: Error): void };
    self.stop(new Error('its thread ended (the test ended it)'));
    void self.worker.terminate();
    return write.call(this, input);
  };
  try {
    const rs: CrawlResult[] = [];
    // The crawl's results come, then the close of the archive fails with the writer's error.
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
    assert.equal(rs.length, 21, 'the page and its 20 links');
    for (const r of rs) {
      assert.equal(r.status, 'failed', `${r.url}: ${r.reason}`);
      assert.equal(r.code, 'warc-writer-failed', `${r.url}: ${r.reason}`);
    }
    // The page was fetched; its links were taken while its records were on their way, and were
    // not fetched: the writer had stopped.
    assert.deepEqual(asked, ['/']);
  } finally {
    ThreadWarcWriter.prototype.write = write;
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
