// locator's CDXJ index (`locator archive --index`, src/archive/cdxj.ts) against the reference
// indexer of the field, webrecorder's warcio `cdx-index` (npm; the CDXJ indexer pywb's tools
// share), line for line and field for field on a WARC file the suite writes from the real servers:
// nginx (the crawl test site: responses, requests, a 404, robots.txt, an HTTP revisit of the page
// under two URLs), pygopherd and vsftpd (resources and metadata, the site's links to them), local
// files (a revisit of a copy, and two empty files, which are not revisits). `--all` makes warcio index every record; its
// default leaves out requests and warcinfo. warcio missing is a failure, not a skip.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { archiveCrawl, surt } from '../../src/archive/index.js';
import { ROOT } from '../helpers.js';
import { warcioRecords, type PeerRecord } from './peer.js';

const TS = process.env.LOCATOR_TEST_SERVERS;
if (!TS) throw new Error('LOCATOR_TEST_SERVERS is not set: run the tests with node scripts/test.mjs');
const HTTP = 'http://127.0.0.1:8080';
const WARCIO_CLI = join(ROOT, 'node_modules', 'warcio', 'dist', 'cli.js');

let dir: string;
let file: string;
let ours: string[];
let peer: PeerRecord[];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'locator-cdxj-peer-'));
  const t = join(dir, 'tree');
  mkdirSync(t);
  writeFileSync(join(t, 'a.txt'), 'a text file\n');
  writeFileSync(join(t, 'a-copy.txt'), 'a text file\n');
  writeFileSync(join(t, 'empty-1'), '');
  writeFileSync(join(t, 'empty-2'), '');
  const out = join(dir, 'out');
  const seeds = [`${HTTP}/site/`, ...['a.txt', 'a-copy.txt', 'empty-1', 'empty-2'].map((n) => `file://${t}/${n}`)];
  for await (const r of archiveCrawl(seeds, {
    output: out + '/',
    dedup: true,
    index: true,
    open: { gateway: false, timeout: 15_000 },
  }))
    assert.ok(['archived', 'failed', 'refused'].includes(r.status), `${r.url}: ${r.status}`);
  const warcs = readdirSync(out).filter((n) => n.endsWith('.warc.gz'));
  assert.equal(warcs.length, 1);
  file = join(out, warcs[0]);
  ours = readFileSync(join(out, 'locator.cdxj'), 'utf8').trimEnd().split('\n');
  peer = await warcioRecords(file);
});

after(() => rmSync(dir, { recursive: true, force: true }));

/** warcio's CDXJ lines for the file (`--all`: every record), as key, timestamp and fields. */
function warcio(all: boolean): Array<{ key: string; stamp: string; json: Record<string, string> }> {
  assert.ok(existsSync(WARCIO_CLI), `warcio's CLI (a devDependency) is missing: ${WARCIO_CLI}`);
  const r = spawnSync(
    process.execPath,
    [WARCIO_CLI, 'cdx-index', '--format', 'cdxj', ...(all ? ['--all'] : []), file],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    },
  );
  assert.equal(r.status, 0, `warcio cdx-index: ${r.stderr}`);
  return r.stdout.trimEnd().split('\n').map(parse);
}

function parse(line: string): { key: string; stamp: string; json: Record<string, string> } {
  const brace = line.indexOf('{');
  const [key, stamp] = line.slice(0, brace).trim().split(' ');
  return { key, stamp, json: JSON.parse(line.slice(brace)) as Record<string, string> };
}

test('cdxj: the archive holds every record type, a request with its empty body, and two empty files', () => {
  assert.deepEqual([...new Set(peer.map((r) => r.type))].sort(), [
    'metadata',
    'request',
    'resource',
    'response',
    'revisit',
    'warcinfo',
  ]);
  const revisits = peer.filter((r) => r.type === 'revisit').map((r) => r.targetUri);
  assert.ok(revisits.includes(`${HTTP}/site/index.html`), `an HTTP revisit: ${revisits.join(' ')}`);
  assert.ok(revisits.some((u) => u?.endsWith('/a-copy.txt')));
  assert.ok(!revisits.some((u) => u?.includes('/empty-')), 'an empty file is not a revisit');
});

test("cdxj: locator's index is warcio's `cdx-index --all`, field for field, but for the warcinfo record", () => {
  const theirs = warcio(true);
  const mine = ours.map(parse);
  assert.equal(theirs.length, peer.length, 'warcio --all: a line for each record');
  const byOffset = new Map(mine.map((l) => [l.json.offset, l]));
  assert.equal(byOffset.size, mine.length, 'one line of ours for each offset');
  let compared = 0;
  for (const [i, t] of theirs.entries()) {
    const rec = peer[i];
    const where = `${rec.type} ${rec.targetUri} at ${rec.offset}`;
    assert.equal(t.json.offset, String(rec.offset), where);
    const m = byOffset.get(t.json.offset);
    if (rec.type === 'warcinfo') {
      // DEVIATION (docs/archive.md): a warcinfo record has no target; warcio --all gives it the
      // key `undefined`, pywb's cdx-indexer the file name, and every indexer's default leaves it
      // out: so does locator.
      assert.equal(m, undefined, where);
      continue;
    }
    assert.ok(m, `${where}: a line of ours`);
    assert.equal(m.stamp, t.stamp, `${where}: timestamp`);
    // The key: warcio's SURT for http; for the other schemes locator's (a documented DEVIATION).
    if (/^https?:/.test(rec.targetUri ?? '')) assert.equal(m.key, t.key, `${where}: key`);
    else assert.equal(m.key, surt(rec.targetUri!), `${where}: key`);
    const { type, ...fields } = m.json;
    assert.deepEqual(fields, t.json, `${where}: the fields`);
    assert.equal(type, rec.type === 'response' || rec.type === 'revisit' ? undefined : rec.type, `${where}: type`);
    compared++;
  }
  assert.equal(compared, mine.length, 'every line of ours is one of warcio’s');
  // A request record: no digest and no mime (a GET has no Content-Type), as warcio's and pywb's.
  const request = mine.find((l) => l.json.type === 'request');
  assert.ok(request);
  assert.equal(request.json.digest, undefined);
  assert.equal(request.json.mime, undefined);
  // The fields asked of each kind of record are there.
  const of = (type: string) =>
    mine.filter((l) => (l.json.type ?? (l.json.mime === 'warc/revisit' ? 'revisit' : 'response')) === type);
  for (const l of of('response')) assert.ok(l.json.status && l.json.digest && l.json.mime, JSON.stringify(l));
  for (const l of of('revisit')) assert.ok(l.json.digest, JSON.stringify(l));
  // (An empty block has no Content-Type, WARC 1.1 5.6: an empty file's resource has no mime.)
  for (const l of of('resource'))
    assert.ok(l.json.digest && (l.json.mime || l.json.url.includes('/empty-')) && !l.json.status, JSON.stringify(l));
  for (const l of of('metadata')) assert.ok(l.json.mime && !l.json.digest, JSON.stringify(l));
});

test("cdxj: warcio's default `cdx-index` (captures: no request, no warcinfo) is a subset of locator's lines, equal field for field", () => {
  const theirs = warcio(false);
  const mine = new Map(ours.map(parse).map((l) => [l.json.offset, l]));
  const captures = peer.filter((r) => r.type !== 'request' && r.type !== 'warcinfo');
  assert.equal(theirs.length, captures.length);
  for (const t of theirs) {
    const m = mine.get(t.json.offset);
    assert.ok(m, JSON.stringify(t));
    const { type: _type, ...fields } = m.json;
    assert.deepEqual(fields, t.json);
    assert.equal(m.stamp, t.stamp);
  }
});
