// One behaviour per scheme everywhere: the same URLs, one per scheme and kind of object (a
// document, a directory or menu, a missing one), through the four faces of the clients (open()
// from locator/clients, the exit status of `locator fetch`, the HTTP status of the gateway, the
// verdict of `locator check`), against the real test servers (test/servers/*.sh: vsftpd 2121,
// pygopherd 7070, gophernicus 7071, nginx 8080, INN 1119) and locator's own WAIS server. Each
// row says what the object is; every face must say the same.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from '../../src/clients/index.js';
import { startGateway, type Gateway } from '../../src/gateway/index.js';
import { startWaisServer, type WaisServer } from '../../src/clients/wais/server.js';
import { LocatorError } from '../../src/core/errors.js';
import { SHARED, readAll, runCli, serversDir } from '../helpers.js';

serversDir();
const NEWS = '127.0.0.1:1119';
const DIR = mkdtempSync(join(tmpdir(), 'locator-consistency-'));
writeFileSync(join(DIR, 'doc.txt'), 'a document\n');
mkdirSync(join(DIR, 'sub'));
writeFileSync(join(DIR, 'sub', 'inside.txt'), 'x\n');

let gw: Gateway;
let wais: WaisServer;
before(async () => {
  gw = await startGateway({ port: 0, timeout: 15_000, allowLocalFiles: true, http: true, newsServer: NEWS });
  wais = await startWaisServer({ dir: join(SHARED, 'fixtures', 'wais', 'docs'), database: 'demo' });
});
after(async () => {
  await gw.close();
  await wais.close();
  rmSync(DIR, { recursive: true, force: true });
});

type Verdict = 'ok' | 'broken';

// url (a function: the WAIS port is known only once its server runs) | what the object is | section
const ROWS: [() => string, Verdict, string][] = [
  [() => `file://${DIR}/doc.txt`, 'ok', 'RFC 1738 3.10 file document'],
  [() => `file://${DIR}/sub/`, 'ok', 'RFC 1738 3.10 file directory'],
  [() => `file://${DIR}/sub`, 'ok', 'RFC 1738 3.10 file directory without "/"'],
  [() => `file://${DIR}/missing.txt`, 'broken', 'RFC 1738 3.10 missing file'],
  [() => 'ftp://127.0.0.1:2121/hello.txt', 'ok', 'RFC 1738 3.2 ftp file'],
  [() => 'ftp://127.0.0.1:2121/pub/', 'ok', 'RFC 1738 3.2.2 ftp directory'],
  [() => 'ftp://127.0.0.1:2121/pub/missing.txt', 'broken', 'RFC 1738 3.2 missing ftp file'],
  [() => 'ftp://127.0.0.1:2121/nodir/', 'broken', 'RFC 1738 3.2.2 missing ftp directory'],
  [() => 'ftp://127.0.0.1:2121/pub', 'ok', 'RFC 1738 3.2.2 ftp directory named without "/"'],
  [() => 'gopher://127.0.0.1:7070/0/hello.txt', 'ok', 'RFC 1738 3.4 gopher document'],
  [() => 'gopher://127.0.0.1:7071/1/files', 'ok', 'RFC 1738 3.4 gopher menu'],
  [() => 'gopher://127.0.0.1:7070/0/nothere.txt', 'broken', 'RFC 1738 3.4 missing gopher selector'],
  [() => 'gopher://127.0.0.1:7070/1/nomenu', 'broken', 'RFC 1738 3.4 missing gopher menu (a type-3 line)'],
  [
    () => 'gopher://127.0.0.1:7071/1/nomenu',
    'broken',
    'RFC 1738 3.4 missing gopher menu (gophernicus: a plain-text error page)',
  ],
  [() => 'http://127.0.0.1:8080/hello.txt', 'ok', 'RFC 1738 3.3 http'],
  [() => 'http://127.0.0.1:8080/', 'ok', 'RFC 1738 3.3 http directory (an index page)'],
  [() => 'http://127.0.0.1:8080/missing.html', 'broken', 'RFC 1738 3.3 missing http'],
  [() => 'news:first.1@example.test', 'ok', 'RFC 1738 3.6 news article'],
  [() => 'news:missing.7@example.test', 'broken', 'RFC 1738 3.6 missing news article'],
  [() => 'nntp://127.0.0.1:1119/local.test/1', 'ok', 'RFC 1738 3.7 nntp article'],
  [() => 'nntp://127.0.0.1:1119/local.test/999', 'broken', 'RFC 1738 3.7 missing nntp article'],
  [() => 'news:local.test', 'ok', 'RFC 1738 3.6 news group'],
  [() => 'news:no.such.group', 'broken', 'RFC 1738 3.6 missing news group'],
  [() => 'nntp://127.0.0.1:1119/no.such.group', 'broken', 'RFC 1738 3.7 missing nntp group'],
  [() => `wais://127.0.0.1:${wais.port}/demo?forecast`, 'ok', 'RFC 1738 3.9 wais search'],
  [() => `wais://127.0.0.1:${wais.port}/nodb?forecast`, 'broken', 'RFC 1738 3.9 wais search of a missing database'],
];

/** open(): ok when the whole object can be read, broken on a LocatorError. */
async function viaOpen(url: string): Promise<string> {
  try {
    const r = await open(url, { newsServer: NEWS, timeout: 15_000, gateway: false, netrc: false });
    await readAll(r.body);
    return 'ok';
  } catch (e) {
    if (e instanceof LocatorError) return `broken (${e.code})`;
    throw e;
  }
}

/** `locator fetch`: exit 0 is ok, 3 (a network or protocol failure: the server said no) is broken. */
async function viaFetch(url: string): Promise<string> {
  const r = await runCli(['fetch', '--nntp-server', NEWS, '--no-gateway', '-o', join(DIR, 'out'), url]);
  if (r.code === 0) return 'ok';
  return r.code === 3 ? 'broken' : `exit ${r.code}: ${r.err.trim()}`;
}

/** The gateway: 200 is ok, 404 (the server says it is not there) and 502 are broken. */
async function viaGateway(url: string): Promise<string> {
  const r = await fetch(`${gw.url}/?url=${encodeURIComponent(url)}`, { redirect: 'follow' });
  const body = await r.text();
  if (r.status === 200) return 'ok';
  return r.status === 404 || r.status === 502 ? 'broken' : `HTTP ${r.status}: ${body.slice(0, 200)}`;
}

/** `locator check URL --json`: its status. */
async function viaCheck(url: string): Promise<string> {
  const r = await runCli(['check', '--json', '--retries', '0', '--nntp-server', NEWS, url]);
  const rows = r.out
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { status: string; url: string });
  if (rows.length !== 1) return `${rows.length} rows: ${r.out}${r.err}`;
  return rows[0].status;
}

for (const [url, want, section] of ROWS) {
  test(`${section}: open(), fetch, the gateway and check agree the object is ${want}`, async () => {
    const u = url();
    const [o, f, g, c] = await Promise.all([viaOpen(u), viaFetch(u), viaGateway(u), viaCheck(u)]);
    assert.deepEqual(
      { open: o.replace(/ \(.*\)$/, ''), fetch: f, gateway: g, check: c },
      { open: want, fetch: want, gateway: want, check: want },
      `${u}: open ${o}`,
    );
  });
}

test('a file: directory is a listing everywhere: its names from open() and fetch, links on the gateway page', async () => {
  const dir = `file://${DIR}/sub/`;
  const r = await open(dir);
  assert.equal(r.meta.kind, 'listing');
  assert.equal((await readAll(r.body)).toString(), 'inside.txt\n');
  const f = await runCli(['fetch', dir]);
  assert.deepEqual([f.code, f.out], [0, 'inside.txt\n']);
  const page = await fetch(`${gw.url}/?url=${encodeURIComponent(dir)}`);
  const html = await page.text();
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  assert.match(html, /<h1>Directory<\/h1>/);
  assert.ok(html.includes(`/?url=${encodeURIComponent(`${dir}inside.txt`)}`), html);
  assert.ok(html.includes(`/?url=${encodeURIComponent(`file://${DIR}/`)}`), 'a link up: ' + html);
});

test('a file: text document is shown by the gateway as text, not downloaded', async () => {
  const page = await fetch(`${gw.url}/?url=${encodeURIComponent(`file://${DIR}/doc.txt`)}`);
  const html = await page.text();
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  assert.equal(page.headers.get('content-disposition'), null);
  assert.match(html, /a document/);
});

test('RFC 1738 3.2.2: an ftp directory named without "/" is listed by open(), as the name with "/" is', async () => {
  const r = await open('ftp://127.0.0.1:2121/pub', { timeout: 15_000, gateway: false, netrc: false, transcript: true });
  const names = (await readAll(r.body))
    .toString()
    .split(/\r?\n/)
    .filter((l) => l !== '');
  const d = await open('ftp://127.0.0.1:2121/pub/', { timeout: 15_000, gateway: false, netrc: false });
  assert.deepEqual(
    names,
    (await readAll(d.body))
      .toString()
      .split(/\r?\n/)
      .filter((l) => l !== ''),
  );
  assert.ok(names.length > 0);
  assert.deepEqual([r.meta.kind, r.meta.view, r.meta.url], ['listing', 'ftp-listing', 'ftp://127.0.0.1:2121/pub/']);
  assert.deepEqual(r.meta.redirects, ['ftp://127.0.0.1:2121/pub']);
  const sent = r.meta.transcript.filter((l) => l.direction === 'send').map((l) => l.text);
  assert.ok(sent.includes('RETR pub') && sent.includes('CWD pub') && sent.includes('NLST'), sent.join(' | '));
  // A name that is neither: the first failure (RETR refused) stands, not the CWD of the second try.
  await assert.rejects(
    open('ftp://127.0.0.1:2121/pub/missing.txt', { timeout: 15_000, gateway: false, netrc: false }),
    (e: unknown) => {
      assert.ok(e instanceof LocatorError);
      assert.match(e.message, /RETR missing\.txt/);
      return true;
    },
  );
});

test("RFC 1436 3.8: a menu none of whose lines is a menu line (gophernicus' error page) is a protocol-error from open()", async () => {
  await assert.rejects(open('gopher://127.0.0.1:7071/1/nomenu', { timeout: 15_000, gateway: false }), (e: unknown) => {
    assert.ok(e instanceof LocatorError);
    assert.equal(e.code, 'protocol-error');
    assert.match(e.message, /is not a menu: no line of it is a menu line/);
    return true;
  });
});
