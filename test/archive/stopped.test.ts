// An archive crawl stopped by its reader (a `break` out of its results, as the CLI's standard
// output closing or a caller's limit does) while records are still on their way to the writer's
// thread: the files are closed only once every record given is written, so each exchange is
// whole (no response without its request). Against the shared nginx; warcio reads the files with
// every digest recomputed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { archiveCrawl } from '../../src/archive/index.js';
import { assertDigests, type PeerRecord } from './peer.js';

if (!process.env.LOCATOR_TEST_SERVERS)
  throw new Error('LOCATOR_TEST_SERVERS is not set: run the tests with node scripts/test.mjs');

test('a crawl stopped after its first result leaves every exchange written whole: each response with its request', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-warc-stopped-'));
  try {
    let results = 0;
    for await (const _ of archiveCrawl(['http://127.0.0.1:8080/'], {
      output: dir + '/',
      ignoreRobots: true,
      concurrency: 4,
      perHost: 4,
      open: { gateway: false, timeout: 15_000 },
    })) {
      if (++results === 1) break;
    }
    const records: PeerRecord[] = [];
    for (const n of readdirSync(dir).filter((n) => n.endsWith('.warc.gz')))
      records.push(...(await assertDigests(join(dir, n))));
    const responses = records.filter((r) => r.type === 'response');
    const requests = records.filter((r) => r.type === 'request');
    // The crawl had gone on with the seed's links while the seed's records were on their way.
    assert.ok(responses.length > 1, `${responses.length} responses written`);
    assert.deepEqual(
      requests.map((r) => r.fields.get('warc-concurrent-to')).sort(),
      responses.map((r) => r.fields.get('warc-record-id')).sort(),
      'each response has its request, and each request its response',
    );
    assert.ok(!readdirSync(dir).some((n) => n.endsWith('.open')), 'the file was closed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
