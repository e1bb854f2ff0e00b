// Sitemaps as seeds (sitemaps.org 0.9): urlset and sitemapindex, gzip, entities and CDATA, tags
// split across chunks, and the protocol's bounds with their notes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { SITEMAP_MAX_URLS, locText, readSitemap, type SitemapEntry } from '../../src/crawl/sitemap.js';

async function read(chunks: (string | Uint8Array)[], gzip = false, notes: string[] = []): Promise<SitemapEntry[]> {
  const out: SitemapEntry[] = [];
  async function* source() {
    for (const c of chunks) yield typeof c === 'string' ? new TextEncoder().encode(c) : c;
  }
  for await (const e of readSitemap(source(), gzip, notes)) out.push(e);
  return out;
}

// The example of sitemaps.org's protocol page, shortened.
const URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
   <url>
      <loc>http://www.example.com/</loc>
      <lastmod>2005-01-01</lastmod>
      <changefreq>monthly</changefreq>
      <priority>0.8</priority>
   </url>
   <url>
      <loc>http://www.example.com/catalog?item=12&amp;desc=vacation_hawaii</loc>
      <changefreq>weekly</changefreq>
   </url>
</urlset>`;

test('a urlset: each <url><loc>, entities decoded', async () => {
  assert.deepEqual(await read([URLSET]), [
    { kind: 'url', loc: 'http://www.example.com/' },
    { kind: 'url', loc: 'http://www.example.com/catalog?item=12&desc=vacation_hawaii' },
  ]);
});

test('a sitemap index: each <sitemap><loc>; gzip; tags split across chunks at every octet', async () => {
  const index =
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>http://h/s1.xml.gz</loc></sitemap>' +
    '<sitemap>\n <loc> gopher://h/0/s2.xml </loc><lastmod>2004-10-01</lastmod></sitemap></sitemapindex>';
  const want = [
    { kind: 'sitemap', loc: 'http://h/s1.xml.gz' },
    { kind: 'sitemap', loc: 'gopher://h/0/s2.xml' },
  ];
  assert.deepEqual(await read([gzipSync(index)], true), want);
  for (let i = 1; i < index.length; i++)
    assert.deepEqual(await read([index.slice(0, i), index.slice(i)]), want, `split at ${i}`);
});

test('locText: character references, CDATA, white space', () => {
  assert.equal(locText(' http://h/&#x41;&#66;&lt;&gt;&quot;&apos; '), 'http://h/AB<>"\'');
  assert.equal(locText('<![CDATA[http://h/a&b]]>'), 'http://h/a&b');
  assert.equal(locText('http://h/&bogus;'), 'http://h/&bogus;');
});

test('a <loc> outside <url> or <sitemap> is not an entry', async () => {
  assert.deepEqual(await read(['<urlset><loc>http://h/stray</loc><url><loc>http://h/a</loc></url></urlset>']), [
    { kind: 'url', loc: 'http://h/a' },
  ]);
});

test('more than SITEMAP_MAX_URLS entries: the rest are not read, and the note says so', async () => {
  const one = '<url><loc>http://h/x</loc></url>';
  const notes: string[] = [];
  const got = await read(['<urlset>', one.repeat(SITEMAP_MAX_URLS + 5), '</urlset>'], false, notes);
  assert.equal(got.length, SITEMAP_MAX_URLS);
  assert.deepEqual(notes, [
    `the sitemap lists more than ${SITEMAP_MAX_URLS} URLs: the rest were not read (sitemaps.org)`,
  ]);
});

test('a broken gzip stream ends the entries with a note, not an exception', async () => {
  const notes: string[] = [];
  const z = gzipSync(URLSET);
  const got = await read([z.subarray(0, 40), new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])], true, notes);
  assert.ok(Array.isArray(got));
  assert.equal(notes.length, 1);
  assert.match(notes[0], /^the sitemap could not be read whole: /);
});
