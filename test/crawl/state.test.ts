// The crawl's state on disk: append, the cursor, verdicts, resume, torn writes cut off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CrawlState } from '../../src/crawl/state.js';

const scratch = () => mkdtempSync(join(tmpdir(), 'locator-state-test-'));

test('URLs come back from the cursor in the order added; entry() reads one by its id', () => {
  const dir = scratch();
  try {
    const s = new CrawlState(dir);
    assert.equal(s.opened.resumed, false);
    const ids = s.add([
      { depth: 0, parent: -1, follow: true, url: 'gopher://h/1' },
      { depth: 0, parent: -1, follow: false, url: 'ftp://h/a "quoted" é' },
    ]);
    assert.equal(ids[0], 0);
    assert.deepEqual(s.next(), { id: 0, depth: 0, parent: -1, follow: true, url: 'gopher://h/1' });
    const [c] = s.add([{ depth: 1, parent: 0, follow: false, url: 'gopher://h/0x' }]);
    assert.deepEqual(s.next(), { id: ids[1], depth: 0, parent: -1, follow: false, url: 'ftp://h/a "quoted" é' });
    assert.deepEqual(s.next(), { id: c, depth: 1, parent: 0, follow: false, url: 'gopher://h/0x' });
    assert.equal(s.next(), null);
    assert.equal(s.entry(c).url, 'gopher://h/0x');
    s.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('reopened, the state skips what has a verdict, gives the verdicts back, and keeps the order', () => {
  const dir = scratch();
  try {
    const s = new CrawlState(dir);
    const ids = s.add(['a', 'b', 'c', 'd'].map((x) => ({ depth: 0, parent: -1, follow: false, url: `http://h/${x}` })));
    s.done(ids[2], { status: 'broken', attempts: 2, ms: 5, reason: '404 Not Found', reply: '404', notes: ['n'] });
    s.done(ids[0], { status: 'ok', attempts: 1, ms: 3, reason: '200 OK' });
    s.close();
    const r = new CrawlState(dir);
    assert.equal(r.opened.resumed, true);
    assert.deepEqual(r.opened.torn, { urls: 0, done: 0 });
    assert.deepEqual([r.next()?.url, r.next()?.url, r.next()], ['http://h/b', 'http://h/d', null]);
    assert.deepEqual(
      [...r.verdicts()].map((x) => [x.entry.url, x.verdict]),
      [
        ['http://h/c', { status: 'broken', attempts: 2, ms: 5, reason: '404 Not Found', reply: '404', notes: ['n'] }],
        ['http://h/a', { status: 'ok', attempts: 1, ms: 3, reason: '200 OK' }],
      ],
    );
    r.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a torn last line (no LF) of either log is cut off on reopening, and says how much', () => {
  const dir = scratch();
  try {
    const s = new CrawlState(dir);
    const ids = s.add([
      { depth: 0, parent: -1, follow: false, url: 'http://h/a' },
      { depth: 0, parent: -1, follow: false, url: 'http://h/b' },
    ]);
    s.done(ids[0], { status: 'ok', attempts: 1, ms: 1, reason: 'ok' });
    s.close();
    const urls = join(dir, 'urls.log');
    const done = join(dir, 'done.log');
    const urlsSize = statSync(urls).size;
    const doneSize = statSync(done).size;
    appendFileSync(urls, 'l 1 0 "http://h/c'); // cut inside the JSON string
    appendFileSync(done, `${ids[1]} ["ok",1,`);
    const r = new CrawlState(dir);
    assert.deepEqual(r.opened.torn, { urls: 17, done: `${ids[1]} ["ok",1,`.length });
    assert.equal(statSync(urls).size, urlsSize);
    assert.equal(statSync(done).size, doneSize);
    assert.equal(r.next()?.url, 'http://h/b');
    assert.equal(r.next(), null);
    // Appending after the cut continues the log cleanly.
    r.add([{ depth: 1, parent: ids[1], follow: false, url: 'http://h/c' }]);
    r.close();
    assert.ok(readFileSync(urls, 'utf8').endsWith('l 1 ' + ids[1] + ' "http://h/c"\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a temporary state (no folder given) leaves nothing on disk from the start: a killed crawl leaves no folder', () => {
  const s = new CrawlState(null);
  // Its files are open and their names already gone: no close() is needed to remove them.
  assert.throws(() => statSync(s.dir), { code: 'ENOENT' });
  const ids = s.add([
    { depth: 0, parent: -1, follow: false, url: 'http://h/' },
    { depth: 0, parent: -1, follow: true, url: 'http://h/b' },
  ]);
  assert.deepEqual([s.next()?.url, s.next()?.url, s.next()], ['http://h/', 'http://h/b', null]);
  s.done(ids[1], { status: 'ok', attempts: 1, ms: 1, reason: '200 OK' });
  assert.equal(s.entry(ids[1]).url, 'http://h/b');
  s.close();
  assert.throws(() => statSync(s.dir), { code: 'ENOENT' });
});

test('a line longer than the read-ahead chunk comes back whole', () => {
  const dir = scratch();
  try {
    const s = new CrawlState(dir);
    const long = 'http://h/' + 'x'.repeat(200_000);
    s.add([
      { depth: 0, parent: -1, follow: false, url: long },
      { depth: 0, parent: -1, follow: false, url: 'http://h/after' },
    ]);
    assert.equal(s.next()?.url, long);
    assert.equal(s.next()?.url, 'http://h/after');
    s.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the state costs well under 200 octets per URL for URLs of a generated site', () => {
  const dir = scratch();
  try {
    const s = new CrawlState(dir);
    const n = 5000;
    const ids = s.add(
      Array.from({ length: n }, (_, i) => ({
        depth: 3,
        parent: 123456,
        follow: true,
        url: `http://127.0.0.1:8081/site/p${i}.html`,
      })),
    );
    for (const id of ids) s.done(id, { status: 'ok', attempts: 1, ms: 12, reason: 'HTTP/1.1 200 OK', followed: true });
    s.close();
    const per = s.bytes / n;
    assert.ok(per < 200, `${per} octets per URL`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
