// SURT keys and CDXJ lines (src/archive/cdxj.ts). For http and https the key is the one warcio
// (npm) computes, checked against its getSurt(); for the other schemes, locator's documented rule
// (docs/archive.md): scheme kept, host reversed, path as written.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getSurt } from 'warcio';
import { surt, cdxj, cdxjLine, cdxTimestamp } from '../../src/archive/index.js';

// in | key
const ROWS: Array<[string, string]> = [
  ['http://www.Example.com:80/A/b?z=1&a=2#f', 'com,example)/a/b?a=2&z=1'],
  ['https://example.com/', 'com,example)/'],
  ['http://example.com', 'com,example)/'],
  ['http://127.0.0.1:8080/hello.txt', '1,0,0,127:8080)/hello.txt'],
  ['https://www2.example.org:8443/x', 'org,example:8443)/x'],
  ['gopher://127.0.0.1:7070/1/Files', 'gopher://(1,0,0,127:7070)/1/Files'],
  ['gopher://Gopher.Floodgap.com/', 'gopher://(com,floodgap,gopher)/'],
  ['gopher://gopher.floodgap.com:70/0/x', 'gopher://(com,floodgap,gopher)/0/x'],
  ['ftp://ftp.example.org/pub/README', 'ftp://(org,example,ftp)/pub/README'],
  ['ftp://user@ftp.example.org:2121/a;type=i', 'ftp://(org,example,ftp:2121)/a;type=i'],
  ['nntp://news.example.org/comp.lang/12', 'nntp://(org,example,news)/comp.lang/12'],
  ['wais://wais.example.org:210/db?query', 'wais://(org,example,wais)/db?query'],
  ['news:comp.lang.c', 'news:comp.lang.c'],
  ['NEWS:Abc@Example.org', 'news:Abc@Example.org'],
  ['file:///etc/motd', 'file:///etc/motd'],
];

test('surt: one key per URL of every scheme (docs/archive.md)', () => {
  for (const [input, key] of ROWS) assert.equal(surt(input), key, input);
});

test("surt: http and https keys are warcio's (so pywb finds locator's http captures)", () => {
  for (const [input] of ROWS.filter(([u]) => /^https?:/.test(u))) assert.equal(surt(input), getSurt(input), input);
});

test('cdxj: pywb lines, sorted by octets, warcinfo left out, revisits as warc/revisit', () => {
  const base = { date: '2026-11-29T06:00:01.123Z', status: null, offset: 0, length: 10, filename: 'f.warc.gz' };
  const text = cdxj([
    {
      ...base,
      type: 'resource',
      targetUri: 'gopher://b.example/',
      mime: 'application/gopher-menu',
      payloadDigest: 'sha1:AAAA',
    },
    { ...base, type: 'warcinfo', targetUri: null, mime: 'application/warc-fields', payloadDigest: null },
    {
      ...base,
      type: 'response',
      targetUri: 'http://a.example/',
      mime: 'text/html; charset=utf-8',
      status: 200,
      payloadDigest: 'sha1:BBBB',
    },
    {
      ...base,
      type: 'revisit',
      targetUri: 'http://a.example/',
      mime: 'text/html',
      status: 200,
      payloadDigest: 'sha1:BBBB',
      offset: 99,
    },
  ]);
  assert.equal(
    text,
    'example,a)/ 20261129060001 {"url":"http://a.example/","mime":"text/html","status":"200","digest":"BBBB","length":"10","offset":"0","filename":"f.warc.gz"}\n' +
      'example,a)/ 20261129060001 {"url":"http://a.example/","mime":"warc/revisit","status":"200","digest":"BBBB","length":"10","offset":"99","filename":"f.warc.gz"}\n' +
      'gopher://(example,b)/ 20261129060001 {"url":"gopher://b.example/","mime":"application/gopher-menu","digest":"AAAA","length":"10","offset":"0","filename":"f.warc.gz","type":"resource"}\n',
  );
  assert.equal(cdxTimestamp('2026-11-29T06:00:01Z'), '20261129060001');
  assert.equal(cdxjLine({ ...base, type: 'warcinfo', targetUri: null, mime: null, payloadDigest: null }), null);
});
