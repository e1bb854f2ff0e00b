// The folders that library callers name (the crawl's state, an archive's output, the gateway's
// disk cache) are made by makeFolders (src/crawl/folders.ts), not by Node's recursive mkdir, which
// never returns where a mkdir answers ENOENT under a parent that exists (/proc). Each entry runs
// in a child process killed after 30 s, so that a hang fails the test instead of stopping the run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeFolders } from '../../src/crawl/folders.js';

const module = (rel: string) => JSON.stringify(new URL(`../../src/${rel}`, import.meta.url).href);

function child(code: string): { status: number | null; out: string; err: string; killed: boolean } {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, out: r.stdout, err: r.stderr, killed: r.signal !== null };
}

// Each row: the entry, the child's code, what it prints (the cache, its folder refused, fetches).
const ROWS: [string, string, string][] = [
  [
    'new CrawlState(dir)',
    `const { CrawlState } = await import(${module('crawl/state.js')});
     try { new CrawlState('/proc/locator-nope/state'); console.log('made'); } catch (e) { console.log('threw', e.code); }`,
    'threw ENOENT\n',
  ],
  [
    'archiveCrawl({ output })',
    `const { archiveCrawl } = await import(${module('archive/crawl.js')});
     try { for await (const r of archiveCrawl(['http://127.0.0.1:9/'], { output: '/proc/locator-nope/out/' })) void r; console.log('made'); }
     catch (e) { console.log('threw', e.code); }`,
    'threw ENOENT\n',
  ],
  [
    'new ObjectCache({ dir }).open()',
    `const { ObjectCache } = await import(${module('gateway/cache.js')});
     const cache = new ObjectCache({ size: 1 << 20, dir: '/proc/locator-nope/cache' });
     try { await cache.open('k', async () => { throw Object.assign(new Error('not fetched'), { code: 'nf' }); }, new AbortController().signal); console.log('made'); }
     catch (e) { console.log('threw', e.code); }`,
    'threw nf\n',
  ],
];

for (const [name, code, printed] of ROWS) {
  test(`${name} under /proc: ends at once (ENOENT, or the cache's fetch), not a hang`, () => {
    const r = child(code);
    assert.equal(r.killed, false, `${name} still running after 30 s`);
    assert.equal(r.status, 0, r.err);
    assert.equal(r.out, printed);
  });
}

test('makeFolders: the missing parents made, an existing folder left, a file on the path refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-folders-'));
  try {
    makeFolders(join(dir, 'a', 'b', 'c'));
    assert.ok(existsSync(join(dir, 'a', 'b', 'c')));
    makeFolders(join(dir, 'a', 'b'));
    makeFolders(join(dir, 'a', 'b', 'c'));
    writeFileSync(join(dir, 'f'), '');
    assert.throws(() => makeFolders(join(dir, 'f', 'x')), { code: 'ENOTDIR' });
    assert.throws(() => makeFolders('/proc/locator-nope/x'), { code: 'ENOENT' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
