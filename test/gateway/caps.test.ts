// A Gopher server's caps.txt (src/gateway/caps.ts, `caps`): its keys read (the path section, and
// ExpireCapsAfter, its one cache key, as the lifetime of the file itself), the breadcrumbs of a
// selector by its path rules, and through the gateway: gophernicus (127.0.0.1:7071, which makes
// its own caps.txt) gives its menus breadcrumbs and its caps are asked once per lifetime. Fakes
// only for faults: a caps.txt of a megabyte (read up to 16 KiB), one that is no caps file, a
// server of ":" paths (PathParentDouble).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CAPS } from '../../src/gateway/server.js';
import { CAPS_MAX_BYTES, CapsCache, breadcrumbs, parseCaps, type CapsPath } from '../../src/gateway/caps.js';
import { parse } from '../../src/index.js';
import { fakeServer, type FakeServer } from '../clients/gopher/fakes.js';
import { request, withGateway } from './request.js';

const at = (url: string) => `/?url=${encodeURIComponent(url)}`;
const link = (url: string) => `href="/?url=${encodeURIComponent(url).replace(/&/g, '&amp;')}"`;

const POSIX: CapsPath = { delimiter: '/', identity: '.', parent: '..', parentDouble: false, escape: null };

test('caps.txt read: the CAPS line, the path keys and their defaults, ExpireCapsAfter held to a minute..a day', () => {
  const caps = parseCaps(
    'CAPS\n\n# a comment\nCapsVersion=1\nExpireCapsAfter=1800\nPathDelimeter=/\nPathParentDouble=FALSE\n',
  );
  assert.deepEqual(caps, { version: 1, expireAfter: 1800, path: POSIX });
  assert.equal(parseCaps('<html>CAPS</html>\nPathDelimeter=/\n'), null, 'no CAPS line: no caps file');
  assert.equal(parseCaps('')?.path, undefined);
  assert.equal(parseCaps('CAPS\r\nPathDelimeter=\r\n')?.path, null, 'no delimiter: the selectors are opaque');
  assert.deepEqual(
    parseCaps('CAPS\nPathDelimeter=:\nPathIdentity=\nPathParent=\nPathParentDouble=TRUE\nPathEscapeCharacter=\\\n')
      ?.path,
    {
      delimiter: ':',
      identity: null,
      parent: null,
      parentDouble: true,
      escape: '\\',
    },
  );
  assert.equal(parseCaps('CAPS\nExpireCapsAfter=1\n')?.expireAfter, 60);
  assert.equal(parseCaps('CAPS\nExpireCapsAfter=99999999999\n')?.expireAfter, 86_400);
  assert.equal(parseCaps('CAPS\nExpireCapsAfter=-5\n')?.expireAfter, null);
  assert.equal(
    parseCaps('CAPS\nPathDelimeter=' + '/'.repeat(9) + '\n')?.path,
    null,
    'a value past 8 characters is not taken',
  );
  assert.equal(parseCaps('CAPS\nPathDelimeter=/\nPathDelimeter=:\n')?.path?.delimiter, '/', 'the first value of a key');
});

test('breadcrumbs: identity and parent segments, collapsed delimiters, PathParentDouble, the escape character', () => {
  const sel = (s: string, p: CapsPath = POSIX) => breadcrumbs(s, p).map((c) => c.selector);
  assert.deepEqual(sel('/a/b/c'), ['', '/a', '/a/b', '/a/b/c']);
  assert.deepEqual(sel('/a/./b/../c/'), ['', '/a', '/a/c']);
  assert.deepEqual(sel('a//b'), ['', 'a', 'a/b']);
  assert.deepEqual(sel('/'), ['']);
  assert.deepEqual(
    breadcrumbs('/pub/docs', POSIX).map((c) => c.label),
    ['', 'pub', 'docs'],
  );
  const mac: CapsPath = { delimiter: ':', identity: null, parent: null, parentDouble: true, escape: null };
  assert.deepEqual(sel('Disk:Folder::Other', mac), ['', 'Disk', 'Disk:Other']);
  const esc: CapsPath = { ...POSIX, escape: '\\' };
  const crumbs = breadcrumbs('/a\\/b/c', esc);
  assert.deepEqual(
    crumbs.map((c) => c.selector),
    ['', '/a\\/b', '/a\\/b/c'],
  );
  assert.deepEqual(
    crumbs.map((c) => c.label),
    ['', 'a/b', 'c'],
  );
});

test('gophernicus: its caps.txt gives its menus breadcrumbs; asked once for its ExpireCapsAfter (1800 s); none without caps', async () => {
  await withGateway({ caps: true }, async (g) => {
    const t0 = Date.now();
    const r = await request(g, at('gopher://127.0.0.1:7071/1/files'));
    assert.equal(r.status, 200, r.text);
    assert.match(r.text, /<nav class="crumbs" aria-label="Breadcrumbs"><ol>/);
    assert.ok(r.text.includes(`<li><a ${link('gopher://127.0.0.1:7071/1')}>127.0.0.1:7071</a></li>`), r.text);
    assert.match(r.text, /<li aria-current="page">files<\/li>/);
    assert.ok(r.text.includes(`<a ${link('gopher://127.0.0.1:7071/1')} rel="up">`));
    const caps = CAPS.get(g)!;
    const known = caps.entry('127.0.0.1:7071')!;
    assert.equal(known.caps?.expireAfter, 1800);
    assert.equal(known.caps?.path?.delimiter, '/');
    assert.ok(known.expires >= t0 + 1800_000 && known.expires <= Date.now() + 1800_000);
    await request(g, at('gopher://127.0.0.1:7071/1/'));
    await request(g, at('gopher://127.0.0.1:7071/1/files'));
    assert.equal(caps.requests, 1, 'the caps of a server are asked once per lifetime');
  });
  await withGateway({}, async (g) => {
    const r = await request(g, at('gopher://127.0.0.1:7071/1/files'));
    assert.equal(r.status, 200);
    assert.doesNotMatch(r.text, /Breadcrumbs/);
    assert.equal(CAPS.get(g), undefined);
  });
});

/** A Gopher server with `caps` as its caps.txt and a one-line menu for any other selector. */
function capsServer(caps: string | Buffer): Promise<FakeServer> {
  return fakeServer((socket, received) => {
    if (!received.includes('\r\n')) return false;
    if (received.startsWith('caps.txt')) {
      socket.on('error', () => {});
      socket.write(caps);
      socket.end();
    } else socket.end('iA menu\t\terror.host\t1\r\n.\r\n');
    return true;
  });
}

test('a caps.txt of a megabyte is read up to 16 KiB only; one that is no caps file gives none, and is remembered', async () => {
  const big = Buffer.from(
    'CAPS\nPathDelimeter=:\nPathParentDouble=TRUE\n' + '#'.repeat(1024 * 1024) + '\nExpireCapsAfter=120\n',
    'latin1',
  );
  assert.ok(big.length > 60 * CAPS_MAX_BYTES);
  const s = await capsServer(big);
  try {
    await withGateway({ caps: true }, async (g) => {
      const r = await request(g, at(`gopher://127.0.0.1:${s.port}/1Disk:Folder::Other`));
      assert.equal(r.status, 200, r.text);
      assert.match(r.text, /<li><a [^>]*>Disk<\/a><\/li><li aria-current="page">Other<\/li>/);
      const known = CAPS.get(g)!.entry(`127.0.0.1:${s.port}`)!;
      assert.equal(known.caps?.path?.delimiter, ':');
      assert.equal(known.caps?.expireAfter, null, 'the key past 16 KiB was not read');
    });
  } finally {
    await s.close();
  }
  const html = await capsServer('<html><body>Not found</body></html>\r\n');
  try {
    await withGateway({ caps: true }, async (g) => {
      for (const sel of ['/a/b', '/a']) {
        const r = await request(g, at(`gopher://127.0.0.1:${html.port}/1${sel}`));
        assert.equal(r.status, 200);
        assert.doesNotMatch(r.text, /Breadcrumbs/);
        assert.match(r.text, /rel="up"/, 'the up link by "/" as without caps');
      }
      const caps = CAPS.get(g)!;
      assert.equal(caps.requests, 1);
      assert.equal(caps.entry(`127.0.0.1:${html.port}`)?.caps, null);
    });
  } finally {
    await html.close();
  }
});

test('the lifetime of a caps.txt: its ExpireCapsAfter, else an hour, a server without one too; one request for readers at once', async () => {
  let now = 0;
  const texts: Record<string, string | null> = { a: 'CAPS\nExpireCapsAfter=120\nPathDelimeter=/\n', b: null };
  const asked: string[] = [];
  const cache = new CapsCache(
    async (u) => {
      asked.push(u.host!);
      await new Promise((r) => setTimeout(r, 10));
      return texts[u.host!];
    },
    () => now,
  );
  const live = new AbortController().signal;
  const of = (h: string) => cache.of(parse(`gopher://${h}/1/x`), live);
  const both = await Promise.all([of('a'), of('a'), of('b')]);
  assert.equal(both[0]?.expireAfter, 120);
  assert.equal(both[1], both[0]);
  assert.equal(both[2], null);
  assert.deepEqual(asked, ['a', 'b']);
  now = 119_999;
  await of('a');
  assert.deepEqual(asked, ['a', 'b']);
  now = 120_000;
  await of('a');
  assert.deepEqual(asked, ['a', 'b', 'a'], 'asked again after its ExpireCapsAfter');
  now = 3_599_999;
  await of('b');
  assert.equal(asked.length, 3);
  now = 3_600_000;
  await of('b');
  assert.deepEqual(asked, ['a', 'b', 'a', 'b'], 'a server without caps is asked again after an hour');
});
