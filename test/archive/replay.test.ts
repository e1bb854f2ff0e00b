// Replay (`locator serve --warc`, src/archive/replay.ts and src/gateway/replay.ts) of an archive of
// the real test servers (replay-fixture.ts): every object comes back byte for byte as its download
// (compared with warcio's reading of the record and with the server's object, opened again); the
// pages are the live gateway's, with the capture-date line, links to archived copies and "not
// archived" marks; the index comes from the CDXJ beside the files, the same as read through.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startGateway, type Gateway } from '../../src/gateway/index.js';
import { ReplayArchive, WARC_STALE_INDEX } from '../../src/archive/index.js';
import { warcioRecords, entityOf, type PeerRecord } from './peer.js';
import { makeArchive, live, type Fixture } from './replay-fixture.js';

let fx: Fixture;
let archive: ReplayArchive;
let gw: Gateway;
let records: PeerRecord[];

before(async () => {
  fx = await makeArchive();
  archive = await ReplayArchive.open(fx.files);
  gw = await startGateway({ port: 0, replay: archive });
  records = [];
  for (const f of fx.files) records.push(...(await warcioRecords(f)));
});
after(async () => {
  await gw?.close();
  await archive?.close();
  await fx?.close();
  if (fx) rmSync(fx.dir, { recursive: true, force: true });
});

async function get(url: string, params = ''): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const r = await fetch(`${gw.url}/?url=${encodeURIComponent(url)}${params}`);
  return { status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) };
}

/** The gateway links of a page: [URL, marked "not archived"]. */
function links(html: string): Array<[string, boolean]> {
  return [
    ...html.matchAll(
      /<a href="\/\?url=([^"&]+)"[^>]*>[^<]*<\/a>( <small class="not-archived">\(not archived\)<\/small>)?/g,
    ),
  ].map((m) => [decodeURIComponent(m[1]), m[2] !== undefined]);
}

/** The object records of the archive (as warcio reads them): what each should come back as. */
function objects(): Array<{ target: string; payload: Buffer; date: string; status: number }> {
  return records
    .filter((r) => (r.type === 'resource' || r.type === 'response') && r.targetUri !== null)
    .map((r) => {
      const http = /^application\/http/.test(r.fields.get('content-type') ?? '');
      return {
        target: r.targetUri!,
        payload: http ? entityOf(r.block) : r.block,
        date: r.fields.get('warc-date')!,
        // an http response's recorded status (the crawl keeps a 404 exchange too), else 200
        status: http ? Number(/^HTTP\/\d\.\d (\d{3})/.exec(r.block.toString('latin1'))![1]) : 200,
      };
    });
}

test('replay: every object archived from vsftpd, pygopherd, gophernicus, INN, nginx, WAIS and Prospero comes back byte for byte as its download', async () => {
  const all = objects();
  const schemes = new Set(all.map((o) => o.target.replace(/:.*$/s, '')));
  for (const s of ['gopher', 'ftp', 'http', 'news', 'wais', 'prospero']) assert.ok(schemes.has(s), `a ${s} object`);
  for (const port of ['7070', '7071'])
    assert.ok(
      all.some((o) => o.target.includes(`:${port}/`)),
      `gopher :${port}`,
    );
  assert.ok(all.length >= 25, `${all.length} objects`);
  assert.deepEqual(
    all.filter((o) => o.status !== 200).map((o) => [o.target, o.status]),
    [['http://127.0.0.1:8080/site/missing.html', 404]],
    "the one recorded error: the crawl site's broken link",
  );
  for (const o of all) {
    const r = await get(o.target, '&view=raw');
    if (o.status === 404) {
      assert.equal(r.status, 404, `${o.target}: replayed as recorded, not found`);
      continue;
    }
    assert.equal(r.status, 200, `${o.target}: ${r.body.toString().slice(0, 300)}`);
    assert.ok(r.body.equals(o.payload), `${o.target}: the download is the record's payload`);
    assert.equal(r.headers.get('memento-datetime'), new Date(o.date).toUTCString(), `${o.target}: Memento-Datetime`);
    // The server's object, opened again as the archive opened it (a group's overview changes
    // when an article is posted: only the article is compared).
    if (o.target !== 'news:local.test')
      assert.ok((await live(o.target)).equals(r.body), `${o.target}: as the server gives it`);
  }
});

test('replay: a Prospero object is found by the URL asked, archived under the ftp: URL it resolved to (the metadata record names the redirect)', async () => {
  const target = fx.fetched.find((f) => f.asked === fx.prosperoObject)!.target;
  assert.match(target, /^ftp:\/\/127\.0\.0\.1:2121\/pub\/unix\.txt/);
  const via = await get(fx.prosperoObject, '&view=raw');
  assert.equal(via.status, 200, via.body.toString());
  assert.ok(via.body.equals((await get(target, '&view=raw')).body));
  assert.ok(via.body.equals(await live(fx.prosperoObject)));
});

test('replay: a Gopher menu page has the capture-date line, links to the archived copies and "not archived" on the others', async () => {
  const menu = records.find((r) => r.type === 'resource' && r.targetUri === 'gopher://127.0.0.1:7070/')!;
  const date = menu.fields.get('warc-date')!;
  const r = await get('gopher://127.0.0.1:7070/');
  assert.equal(r.status, 200);
  const html = r.body.toString();
  assert.match(html, /<h1>Gopher menu<\/h1>/);
  const shown = date.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC');
  assert.ok(
    html.includes(`<p class="capture">Archived copy: captured <time datetime="${date}">${shown}</time> (from <code>`),
    html,
  );
  const ls = links(html);
  const item = (u: string) => ls.find(([x]) => x === u);
  // an archived text and menu: a plain link; the search (a crawl has no query for it): marked
  assert.equal(item('gopher://127.0.0.1:7070/0/hello.txt')?.[1], false);
  assert.equal(item('gopher://127.0.0.1:7070/1/files')?.[1], false);
  assert.equal(item('gopher://127.0.0.1:7070/7/search.sh')?.[1], true);
  // every link leads to the gateway, and each one without the mark is served from the archive
  for (const [u, marked] of ls) {
    const p = await get(u);
    if (!marked) assert.equal(p.status, 200, `${u}: ${p.body.toString().slice(0, 200)}`);
    else if (!/^gopher:\/\/[^/]+\/7/.test(u)) assert.equal(p.status, 404, u);
  }
  const missing = await get('gopher://127.0.0.1:7070/1/never-archived');
  assert.equal(missing.status, 404);
  assert.match(missing.body.toString(), /<h1>Not archived<\/h1>/);
  assert.match(missing.body.toString(), /hold no capture of this URL/);
});

test('replay: an FTP listing, a news group, WAIS headlines and a Prospero directory are the pages of the live gateway, with the capture line', async () => {
  const cases: Array<[string, RegExp]> = [
    ['ftp://127.0.0.1:2121/pub/nested/', /<h1>FTP directory<\/h1>/],
    ['news:local.test', /<h1>Newsgroup<\/h1>/],
    [fx.waisSearch, /<h1>WAIS search results<\/h1>/],
    [fx.fetched.find((f) => f.asked.endsWith('//pros/dir'))!.asked, /<h1>Prospero directory<\/h1>/],
  ];
  for (const [url, title] of cases) {
    const r = await get(url);
    const html = r.body.toString();
    assert.equal(r.status, 200, `${url}: ${html.slice(0, 300)}`);
    assert.match(html, title, url);
    assert.match(html, /<p class="capture">Archived copy: captured <time datetime="\d{4}-\d\d-\d\dT/, url);
    const ls = links(html);
    assert.ok(ls.length > 0, `${url}: links`);
    // the listing's archived entries are plain links that the replay serves
    const archived = ls.filter(([, marked]) => !marked);
    assert.ok(archived.length > 0, `${url}: an archived link`);
    for (const [u] of archived) assert.equal((await get(u)).status, 200, `${url}: ${u}`);
  }
  // the FTP listing's sub-directory (a name without "/": the crawl reached it by a redirect)
  const ftp = links((await get('ftp://127.0.0.1:2121/pub/nested/')).body.toString());
  const deeper = ftp.find(([u]) => u === 'ftp://127.0.0.1:2121/pub/nested/deeper')!;
  assert.equal(deeper[1], false);
  assert.equal((await get(deeper[0])).status, 200);
});

test('replay: the index comes from the CDXJ beside the files when there is one, and is the same as when the files are read through', async () => {
  const site = fx.files.find((f) => /\/site-/.test(f))!;
  const beside = await ReplayArchive.open([site]);
  const scanned = await ReplayArchive.open([site], { cdxj: [] });
  try {
    assert.equal(beside.indexed[0].from, join(fx.dir, 'site.cdxj'));
    assert.equal(scanned.indexed[0].from, 'scan');
    assert.ok(beside.size >= 10);
    assert.deepEqual([...beside.urls()].sort(), [...scanned.urls()].sort());
    for (const u of beside.urls()) {
      const a = beside.captures(u).map((c) => [c.offset, c.length, c.type]);
      const b = scanned.captures(u).map((c) => [c.offset, c.length, c.type]);
      assert.deepEqual(a, b, u);
    }
  } finally {
    await beside.close();
    await scanned.close();
  }
});

test('replay: a CDXJ that names the wrong offsets is found out when a record is served (warc-stale-index), not served as another object', async () => {
  const site = fx.files.find((f) => /\/site-/.test(f))!;
  const stale = join(fx.dir, 'stale.cdxj');
  writeFileSync(
    stale,
    // the objects' lines one octet off; the metadata records' (read when the index is made) right
    readFileSync(join(fx.dir, 'site.cdxj'), 'utf8')
      .split('\n')
      .map((l) =>
        l.includes('"type":"resource"') ? l.replace(/"offset":"(\d+)"/, (_m, n) => `"offset":"${Number(n) + 1}"`) : l,
      )
      .join('\n'),
  );
  const a = await ReplayArchive.open([site], { cdxj: [stale] });
  try {
    await assert.rejects(a.open('gopher://127.0.0.1:7070/0/hello.txt'), (e: Error & { code?: string }) => {
      assert.equal(e.code, WARC_STALE_INDEX);
      return true;
    });
  } finally {
    await a.close();
  }
});
