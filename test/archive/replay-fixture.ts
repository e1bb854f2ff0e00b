// An archive of the real test servers for the replay tests: `locator archive` (the built CLI)
// crawls pygopherd, gophernicus, vsftpd and nginx; the library (archiveFetch) adds what a crawl
// of seeds does not reach: a news group and an article of INN, a WAIS search and a document of
// locator's WAIS server, a Prospero directory and a Prospero object (resolved to vsftpd) of the
// ARDP test server. Each object is also opened live, as the archive opens it, so that the tests
// can compare what the replay gives with what the server gives.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, SHARED, readAll } from '../helpers.js';
import { WarcWriter, archiveFetch, ARCHIVE_OPEN_OPTIONS } from '../../src/archive/index.js';
import { open } from '../../src/clients/index.js';
import { startWaisServer } from '../../src/clients/wais/server.js';
import { startProsperoServer } from '../servers/prospero-server.js';
import { TREE_OBJECTS, tree } from '../clients/prospero/tree.js';

export const BIN = join(ROOT, 'dist', 'cli', 'main.js');
/** INN of test/servers/nntp.sh. */
const NEWS = '127.0.0.1:1119';

/** The seeds of the crawl: two Gopher holes, an FTP tree, nginx's pages. */
export const CRAWL_SEEDS = [
  'gopher://127.0.0.1:7070/',
  'gopher://127.0.0.1:7071/',
  'ftp://127.0.0.1:2121/pub/nested/',
  'ftp://127.0.0.1:2121/pub/unix.txt',
  'http://127.0.0.1:8080/',
  'http://127.0.0.1:8080/hello.txt',
  'http://127.0.0.1:8080/site/',
];

export interface Fixture {
  dir: string;
  /** The WARC files, paths. */
  files: string[];
  /** The URLs archived by the library, with what was asked: [asked, archived target]. */
  fetched: Array<{ asked: string; target: string }>;
  /** The Prospero object URL (archived under the ftp: URL it resolves to). */
  prosperoObject: string;
  /** The WAIS search URL. */
  waisSearch: string;
  /** Stops the WAIS and Prospero servers (they run until then, for live comparisons). */
  close(): Promise<void>;
}

/** Runs the built CLI to its end. */
export function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const p = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH } });
  let out = '';
  let err = '';
  p.stdout.on('data', (d) => (out += d));
  p.stderr.on('data', (d) => (err += d));
  return new Promise((resolve) => p.on('close', (code) => resolve({ code, out, err })));
}

/** Writes the archive (see the head of this module) into a new folder. */
export async function makeArchive(): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'locator-replay-'));
  const crawl = await cli(['archive', '-o', join(dir, 'site'), '--index', '--operator', 'tester', ...CRAWL_SEEDS]);
  // The crawl follows the nginx root's HTML links (reached from the Gopher hole's h item) to the
  // crawl site's one broken link (test/servers/http.sh): exit 3 with exactly that failure.
  assert.equal(crawl.code, 3, crawl.out + crawl.err);
  assert.deepEqual(
    [...crawl.out.matchAll(/^failed {2}(\S+) /gm)].map((m) => m[1]),
    ['http://127.0.0.1:8080/site/missing.html'],
    crawl.out,
  );

  const wais = await startWaisServer({ dir: join(SHARED, 'fixtures', 'wais', 'docs'), database: 'demo' });
  let port = 0;
  const pros = await startProsperoServer({ objects: TREE_OBJECTS, directories: tree(() => port) });
  port = pros.port;
  const writer = new WarcWriter({ dir, prefix: 'more' });
  const fetched: Fixture['fetched'] = [];
  const keep = async (asked: string) => {
    const r = await archiveFetch(writer, asked, { newsServer: NEWS, timeout: 15_000 });
    fetched.push({ asked, target: r.resource.targetUri! });
    return r;
  };
  const waisSearch = `wais://127.0.0.1:${wais.port}/demo?forecast`;
  const prosperoObject = `prospero://127.0.0.1:${port}//pros/unix`;
  const close = async () => {
    await wais.close();
    await pros.close();
  };
  try {
    await keep('news:local.test');
    const group = (await open('news:local.test', { newsServer: NEWS, timeout: 15_000 })).body;
    const article = /\t(news:[^\t\s]+@[^\t\s]+)\s*$/m.exec((await readAll(group)).toString())?.[1];
    assert.ok(article, 'an article of local.test');
    await keep(article);
    await keep(waisSearch);
    const hits = (await readAll((await open(waisSearch, { timeout: 15_000 })).body)).toString();
    const doc = /\t(wais:\/\/[^\t\s]+)\s*$/m.exec(hits)?.[1];
    assert.ok(doc, 'a WAIS document among the headlines');
    await keep(doc);
    await keep(`prospero://127.0.0.1:${port}//pros/dir`);
    await keep(prosperoObject);
    await writer.close();
  } catch (e) {
    await close();
    throw e;
  }
  const files = readdirSync(dir)
    .filter((n) => /\.warc\.gz$/.test(n))
    .sort()
    .map((n) => join(dir, n));
  return { dir, files, fetched, prosperoObject, waisSearch, close };
}

/** The object of a URL as the archive opens it, live from its server (news: through INN). */
export async function live(url: string): Promise<Buffer> {
  const r = await open(url, { ...ARCHIVE_OPEN_OPTIONS, newsServer: NEWS, timeout: 15_000 });
  return readAll(r.body);
}
