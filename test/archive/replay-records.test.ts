// What each kind of record gives back in a replay (src/archive/replay.ts), written here with
// locator's writer: a revisit (WARC 1.1 6.7.2) gives the payload it repeats under its own date; an
// HTTP response gives its entity-body with the chunked coding removed (RFC 9112 7.1); an archived
// 301 is followed inside the archive; a 404 is `not-found`; another error status
// `warc-recorded-status`; a listing kept as `text/x-locator-ftp-listing` is a listing again.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WarcWriter, ReplayArchive, WARC_RECORDED_STATUS } from '../../src/archive/index.js';
import { NOT_FOUND } from '../../src/clients/index.js';
import { readAll } from '../helpers.js';

const http = (head: string, body: string) => Buffer.from(`${head.replace(/\n/g, '\r\n')}\r\n\r\n${body}`, 'latin1');

test('replay: a revisit, a chunked response, a 301 followed, a 404 and a 500, a listing by its x-locator type', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-replay-records-'));
  let clock = Date.parse('2026-01-02T03:04:05Z');
  const w = new WarcWriter({ dir, dedup: true, now: () => new Date((clock += 1000)) });
  await w.resource('gopher://h.example/0/a.txt', 'text/plain', Buffer.from('same payload\n'));
  const revisit = await w.resource('gopher://h.example/0/b.txt', 'text/plain', Buffer.from('same payload\n'));
  assert.equal(revisit.type, 'revisit');
  await w.response(
    'http://h.example/chunked',
    http(
      'HTTP/1.1 200 OK\nContent-Type: text/plain\nTransfer-Encoding: chunked',
      '5\r\nhello\r\n7\r\n, world\r\n0\r\n\r\n',
    ),
  );
  await w.response('http://h.example/old', http('HTTP/1.1 301 Moved Permanently\nLocation: /chunked', ''));
  await w.response('http://h.example/gone', http('HTTP/1.1 404 Not Found\nContent-Length: 0', ''));
  await w.response('http://h.example/broken', http('HTTP/1.1 500 Internal Server Error\nContent-Length: 0', ''));
  await w.response('http://h.example/away', http('HTTP/1.1 302 Found\nLocation: http://elsewhere.example/', ''));
  await w.resource('ftp://h.example/pub/', 'text/x-locator-ftp-listing', Buffer.from('a.txt\r\nsub\r\n'));
  const files = (await w.close()).map((f) => join(dir, f));
  const a = await ReplayArchive.open(files);
  try {
    const b = (await a.open('gopher://h.example/0/b.txt'))!;
    assert.equal((await readAll(b.resource.body)).toString(), 'same payload\n');
    assert.equal(b.date, revisit.date, 'the revisit’s own date');

    const c = (await a.open('http://h.example/chunked'))!;
    assert.equal((await readAll(c.resource.body)).toString(), 'hello, world');
    assert.equal(c.resource.meta.contentType, 'text/plain');
    assert.equal(c.resource.meta.status, 200);

    const old = (await a.open('http://h.example/old'))!;
    assert.equal((await readAll(old.resource.body)).toString(), 'hello, world');
    assert.deepEqual(old.resource.meta.redirects, ['http://h.example/old']);
    assert.equal(old.resource.meta.url, 'http://h.example/chunked');

    await assert.rejects(a.open('http://h.example/gone'), (e: { code?: string }) => e.code === NOT_FOUND);
    await assert.rejects(a.open('http://h.example/broken'), (e: { code?: string }) => e.code === WARC_RECORDED_STATUS);
    assert.equal(await a.open('http://h.example/away'), null, 'a 302 to a URL not archived: not archived');
    assert.equal(await a.open('http://h.example/never'), null);

    const l = (await a.open('ftp://h.example/pub/'))!;
    assert.equal(l.resource.meta.view, 'ftp-listing');
    assert.equal(l.resource.meta.contentType, 'text/plain');
    assert.equal((await readAll(l.resource.body)).toString(), 'a.txt\r\nsub\r\n');
  } finally {
    await a.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
