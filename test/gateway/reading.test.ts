// Reading through the gateway (docs/gateway.md, "What the pages show"): URLs in text documents
// and articles as links through the gateway (found by locator's own extractor, wrapped ones
// too), the text otherwise as it was and the download unchanged; a link up from a Gopher menu to
// the menu above (pygopherd's /files); the charset a reader chooses for a text (CP437, Latin-1,
// Mac Roman, UTF-8), and the guess `file:` makes offered for Gopher text. A fake Gopher server
// for texts of our own; pygopherd (127.0.0.1:7070) for menus.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type Gateway } from '../../src/gateway/server.js';
import { LinkedText, renderText, textDecoder, type RenderContext } from '../../src/gateway/render/index.js';
import { gatewayHref } from '../../src/gateway/html.js';
import { upOf } from '../../src/gateway/objects.js';
import { parse } from '../../src/index.js';
import { fakeServer, type FakeServer } from '../clients/gopher/fakes.js';
import { request } from './request.js';

const ctx: RenderContext = { base: '', link: (u, p) => gatewayHref('', u, p) };

async function linked(chunks: string[]): Promise<string> {
  let out = '';
  const t = new LinkedText(ctx, { write: (c) => void (out += c) });
  for (const c of chunks) await t.push(c);
  await t.end();
  return out;
}

test('LinkedText: bare, wrapped and prefixed URLs become links through the gateway, the text as written; the rest escaped', async () => {
  const text =
    'See gopher://example.org/1/pub and <URL:ftp://ftp.example.org/pub/\n     file.txt> now.\n<b>not a tag</b> & done';
  const out = await linked([text]);
  assert.equal(
    out,
    `See <a href="${ctx.link('gopher://example.org/1/pub').replace(/&/g, '&amp;')}">gopher://example.org/1/pub</a> and ` +
      `<a href="${ctx.link('ftp://ftp.example.org/pub/file.txt').replace(/&/g, '&amp;')}">&lt;URL:ftp://ftp.example.org/pub/\n     file.txt&gt;</a> now.\n` +
      '&lt;b&gt;not a tag&lt;/b&gt; &amp; done',
  );
  // However the text is cut into chunks, the same page.
  for (const size of [1, 3, 7, 20]) {
    const chunks = text.match(new RegExp(`[^]{1,${size}}`, 'g'))!;
    assert.equal(await linked(chunks), out, `chunks of ${size}`);
  }
  // A long text with no URL is written as it arrives, not held (at most MAX_LINKED_URL behind).
  let written = 0;
  const t = new LinkedText(ctx, { write: (c) => void (written += c.length) });
  await t.push('x'.repeat(100_000));
  assert.ok(written >= 100_000 - 4096, `${written} written`);
});

test('textDecoder: CP437 box drawing, Mac Roman, Latin-1', () => {
  assert.equal(textDecoder('cp437').decode(new Uint8Array([0xc9, 0xcd, 0xbb, 0x41, 0xb0, 0xdb])), '╔═╗A░█');
  assert.equal(textDecoder('macintosh').decode(new Uint8Array([0x8e, 0xa5])), 'é•');
  assert.equal(textDecoder('iso-8859-1').decode(new Uint8Array([0xe9])), 'é');
});

test('upOf: the menu above a Gopher menu', () => {
  const up = (s: string) => upOf(parse(s), 'gopher-menu');
  assert.equal(up('gopher://h/1/a/b'), 'gopher://h/1/a');
  assert.equal(up('gopher://h:7070/1/a/'), 'gopher://h:7070/1');
  assert.equal(up('gopher://h/1/'), null);
  assert.equal(up('gopher://h/1'), null);
  assert.equal(up('gopher://h/7/a/b%09words'), null);
  assert.equal(up('gopher://h/1dir:a'), null);
  assert.equal(upOf(parse('gopher://h/0/a/b'), null), null);
});

/** A Gopher server whose every document is `body` (latin1 octets). */
function serving(body: string): Promise<FakeServer> {
  return fakeServer((socket, received) => {
    if (!received.includes('\r\n')) return false;
    socket.end(Buffer.from(body, 'latin1'));
    return true;
  });
}

async function withGateway(fn: (g: Gateway) => Promise<void>): Promise<void> {
  const g = await startGateway({ port: 0 });
  try {
    await fn(g);
  } finally {
    await g.close();
  }
}

const at = (url: string, extra = '') => `/?url=${encodeURIComponent(url)}${extra}`;

test('a Gopher text through the gateway: its URLs as links, the download byte for byte; the charset guessed, chosen', async () => {
  const body = 'Mirror: <URL:gopher://127.0.0.1:7070/1/\n files>\nArt: \xc9\xcd\xbb\r\n';
  const fake = await serving(body);
  try {
    await withGateway(async (g) => {
      const url = `gopher://127.0.0.1:${fake.port}/0/art.txt`;
      const page = await request(g, at(url));
      assert.equal(page.status, 200);
      assert.match(
        page.text,
        new RegExp(
          `<a href="/\\?url=gopher%3A%2F%2F127\\.0\\.0\\.1%3A7070%2F1%2Ffiles">&lt;URL:gopher://127\\.0\\.0\\.1:7070/1/\\n files&gt;</a>`,
        ),
      );
      // Not UTF-8: guessed Latin-1, as file: guesses, and said so.
      assert.match(page.text, /Art: ÉÍ»/);
      assert.match(page.text, /Read the text as \(now a guess from its first octets\)/);
      const cp437 = await request(g, at(url, '&charset=cp437'));
      assert.match(cp437.text, /Art: ╔═╗/);
      assert.match(cp437.text, /<strong aria-current="true">CP437 \(IBM PC\)<\/strong>/);
      const raw = await request(g, at(url, '&view=raw'));
      assert.deepEqual(raw.body, Buffer.from(body, 'latin1'), 'the download is the object as it is');
    });
  } finally {
    await fake.close();
  }
});

test('pygopherd: its /files menu has a link up to the root menu; the root menu has none', async () => {
  await withGateway(async (g) => {
    const files = await request(g, at('gopher://127.0.0.1:7070/1/files'));
    assert.equal(files.status, 200);
    assert.match(
      files.text,
      /<a href="\/\?url=gopher%3A%2F%2F127\.0\.0\.1%3A7070%2F1" rel="up">Up to the menu above<\/a>/,
    );
    const root = await request(g, at('gopher://127.0.0.1:7070/1/'));
    assert.doesNotMatch(root.text, /rel="up"/);
  });
});

test('renderText without a context: escaped text only, as before', async () => {
  let out = '';
  const body = new Response('gopher://h/ <x>').body!;
  await renderText(body, { write: (c) => void (out += c) });
  assert.equal(out, '<pre class="text">gopher://h/ &lt;x&gt;</pre>\n');
});

const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(30, 1)]);

/** A Gopher server with a menu of image items, a GIF, a large GIF and a text called an image. */
async function pictures(): Promise<FakeServer> {
  const fake: FakeServer = await fakeServer((socket, received) => {
    if (!received.includes('\r\n')) return false;
    const sel = received.slice(0, received.indexOf('\r\n'));
    const item = (t: string, name: string, s: string) => `${t}${name}\t${s}\t127.0.0.1\t${fake.port}\r\n`;
    if (sel === '/pics')
      socket.end(
        item('g', 'A <small> picture', '/pic.gif') +
          item('I', 'Large', '/big.gif') +
          item('p', 'Not one', '/text') +
          item('0', 'A text', '/text') +
          '.\r\n',
      );
    else if (sel === '/pic.gif') socket.end(GIF);
    else if (sel === '/big.gif') socket.end(Buffer.concat([GIF, Buffer.alloc(5000)]));
    else socket.end('GIF is a format, this is text\r\n');
    return true;
  });
  return fake;
}

test('inlineImages: g, I and p items shown in the menu through view=image: only images, only up to the size', async () => {
  const fake = await pictures();
  const base = `gopher://127.0.0.1:${fake.port}`;
  try {
    const g = await startGateway({ port: 0, inlineImages: true, inlineImageBytes: 1000 });
    try {
      const menu = await request(g, at(`${base}/1/pics`));
      const imgs = [...menu.text.matchAll(/<img class="inline" src="([^"]+)" alt="([^"]*)" loading="lazy">/g)];
      assert.deepEqual(
        imgs.map((m) => m[2]),
        ['A &lt;small&gt; picture', 'Large', 'Not one'],
      );
      assert.equal(imgs[0][1], `/?url=${encodeURIComponent(`${base}/g/pic.gif`)}&amp;view=image`);
      const pic = await request(g, imgs[0][1].replace(/&amp;/g, '&'));
      assert.equal(pic.status, 200);
      assert.equal(pic.headers['content-type'], 'image/gif');
      assert.deepEqual(pic.body, GIF);
      const big = await request(g, imgs[1][1].replace(/&amp;/g, '&'));
      assert.equal(big.status, 413);
      assert.match(big.text, /gateway-too-large/);
      const text = await request(g, imgs[2][1].replace(/&amp;/g, '&'));
      assert.equal(text.status, 415);
      assert.match(text.text, /gateway-not-image/);
    } finally {
      await g.close();
    }
    // Without inlineImages: links only.
    await withGateway(async (g) => {
      const menu = await request(g, at(`${base}/1/pics`));
      assert.doesNotMatch(menu.text, /<img/);
      assert.match(menu.text, /gif image/);
    });
  } finally {
    await fake.close();
  }
});
