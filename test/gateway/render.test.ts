// The gateway's HTML and renderers with sample bodies (RFC 1738 4): the output formats of the
// news, WAIS and Prospero clients (docs/gateway.md), hostile menus, file names and headers.
// Every remote string must come out escaped, and every link must lead back to the gateway.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Html, esc, gatewayHref, markup, page } from '../../src/gateway/html.js';
import {
  askForm,
  ftpEntryUrl,
  ftpKind,
  ftpParent,
  gopherKind,
  lines,
  mailtoBlock,
  menuItem,
  messageIdUrl,
  renderArticle,
  renderFtpListing,
  renderGopherMenu,
  renderNewsGroups,
  renderNewsOverview,
  renderText,
  renderUriList,
  renderWaisHeadlines,
  searchForm,
  sessionBlock,
  type RenderContext,
} from '../../src/gateway/render/index.js';
import { parseMenu } from '../../src/clients/gopher/parser.js';
import { parse } from '../helpers.js';

const ctx: RenderContext = { base: '', link: (u, p) => gatewayHref('', u, p) };

/** A body stream of the given text, in chunks of `size` octets (to cross line and character ends). */
function body(text: string, size = 7): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.subarray(at, at + size));
      at += size;
    },
  });
}

async function collect(run: (sink: { write(s: string): void }) => Promise<unknown>): Promise<string> {
  let out = '';
  await run({ write: (s) => void (out += s) });
  return out;
}

async function* items(text: string) {
  yield* parseMenu(new TextEncoder().encode(text), true).items;
}

/** Every href and action in the HTML. */
function links(h: string): string[] {
  return [...h.matchAll(/\b(?:href|action)="([^"]*)"/g)].map((m) => m[1]);
}

const TAGS = new Set(
  'ul li span a small form input label p button select option textarea table caption thead tbody tr th td h2 dl dt dd details summary pre code ol strong'.split(
    ' ',
  ),
);
const ATTRIBUTES = new Set(
  'href class method action type name value id for size required rows cols autocomplete scope colspan'.split(' '),
);

/**
 * The checks every rendered fragment passes: each tag is one the renderers write, with only their
 * attributes (so remote text opened no tag and no attribute), and no link leaves the gateway.
 */
function assertSafe(h: string): void {
  for (const m of h.matchAll(/<(\/?)([A-Za-z0-9]+)((?:\s+[a-z-]+(?:="[^"]*")?)*)\s*>/g)) {
    assert.ok(TAGS.has(m[2].toLowerCase()), `a tag the renderers do not write: ${m[0]}`);
    for (const a of m[3].matchAll(/([a-z-]+)(?:="[^"]*")?/g))
      assert.ok(ATTRIBUTES.has(a[1]), `attribute ${a[1]} in ${m[0]}`);
  }
  assert.equal(
    (h.match(/</g) ?? []).length,
    [...h.matchAll(/<(\/?)([A-Za-z0-9]+)((?:\s+[a-z-]+(?:="[^"]*")?)*)\s*>/g)].length,
    'a "<" that is not a tag',
  );
  for (const l of links(h)) assert.match(l, /^\/(\?url=[^"<>\s]*)?$/, `a link out of the gateway: ${l}`);
}

const HOSTILE = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)",
  'javascript:alert(1)',
  '&amp;&lt;',
  'a\u0007bell\u001b[31mred',
];

test('HTML 4.01 5.3.2: esc() escapes the five characters that end text or an attribute; controls and bidi formatting are shown by name', () => {
  const rows: Array<[string, string]> = [
    ['<b>', '&lt;b&gt;'],
    ['"x"', '&quot;x&quot;'],
    ["'", '&#39;'],
    ['a&b', 'a&amp;b'],
    ['\u0000\u001b\u007f\u0085', '&lt;U+0000&gt;&lt;U+001B&gt;&lt;U+007F&gt;&lt;U+0085&gt;'],
    ['tab\tline\nend\r', 'tab\tline\nend\r'],
    // UAX #9 2.1-2.2: every bidirectional formatting character, the same set the CLI escapes.
    ...[0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069].map(
      (c): [string, string] => [
        `a${String.fromCharCode(c)}b`,
        `a&lt;U+${c.toString(16).toUpperCase().padStart(4, '0')}&gt;b`,
      ],
    ),
    ['invoice\u202Efdp.exe', 'invoice&lt;U+202E&gt;fdp.exe'],
    // Letters of right-to-left scripts and other non-ASCII text are not formatting characters.
    ['\u05D0\u0627 é 漢', '\u05D0\u0627 é 漢'],
  ];
  for (const [input, want] of rows) assert.equal(esc(input), want, JSON.stringify(input));
});

test('markup``: values are escaped, Html fragments and arrays are put in, null/undefined/false left out', () => {
  const parts = ['<a>', new Html('<i>')];
  const v = markup`<p title="${'"q"'}">${'<x>'}${new Html('<br>')}${parts}${null}${undefined}${false}${0}</p>`;
  assert.equal(v.value, '<p title="&quot;q&quot;">&lt;x&gt;<br>&lt;a&gt;<i>0</p>');
});

test('RFC 1738 4: gatewayHref percent-encodes the whole URL, so no URL escapes the gateway', () => {
  assert.equal(gatewayHref('', 'gopher://h/1/a b?c#d'), '/?url=gopher%3A%2F%2Fh%2F1%2Fa%20b%3Fc%23d');
  assert.equal(
    gatewayHref('http://127.0.0.1:8', 'javascript:alert(1)', { view: 'explain' }),
    'http://127.0.0.1:8/?url=javascript%3Aalert(1)&view=explain',
  );
});

test('page(): a document with lang, title, one h1 slot, labelled address field, landmarks', () => {
  const p = page({ title: '<T>', url: '"><script>', base: '' }, markup`<h1>x</h1>`);
  assert.match(p, /^<!DOCTYPE html>\n<html lang="en">/);
  assert.match(p, /<title>&lt;T&gt; - locator gateway<\/title>/);
  assert.match(
    p,
    /<label for="address">URL<\/label>\n<input type="text" id="address" name="url" value="&quot;&gt;&lt;script&gt;"/,
  );
  assert.match(p, /<header>[\s\S]*<main>[\s\S]*<\/main>\n<footer>/);
  assert.doesNotMatch(p, /<script/);
});

test('RFC 1436 3.8: item types are shown as words', () => {
  const rows: Array<[string, string]> = [
    ['0', 'text'],
    ['1', 'menu'],
    ['7', 'search'],
    ['9', 'binary'],
    ['8', 'telnet'],
    ['I', 'image'],
    ['h', 'html'],
    ['Z', 'type Z'],
  ];
  for (const [t, want] of rows) assert.equal(gopherKind(t), want);
});

test('RFC 1436 3.8: a hostile menu is rendered escaped, its "URL:" javascript: selector only as a gateway link', async () => {
  const menu =
    HOSTILE.map((h, i) => `1${h}\t/sel${i}\"<>\t127.0.0.1\t70\r\n`).join('') +
    `hEvil link\tURL:javascript:alert(document.cookie)\t127.0.0.1\t70\r\n` +
    `i<script>info</script>\tfake\t(NULL)\t0\r\n` +
    `3<b>error</b>\t\terror.host\t1\r\n` +
    `0no port\t/x\thost\r\n` +
    `0Form item\t/form\t127.0.0.1\t70\t?\r\n.\r\n`;
  const out = await collect((sink) => renderGopherMenu(items(menu), ctx, sink));
  assertSafe(out);
  assert.match(out, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(out, />&quot;&gt;&lt;img src=x onerror=alert\(1\)&gt;<\/a>/);
  assert.match(out, /<li class="info">&lt;script&gt;info&lt;\/script&gt;<\/li>/);
  assert.match(out, /<li class="problem"><span class="kind">error<\/span> &lt;b&gt;error&lt;\/b&gt;<\/li>/);
  assert.match(out, /href="\/\?url=javascript%3Aalert\(document.cookie\)"/);
  assert.match(out, /no port <small>\(a menu line has four/);
  assert.match(out, /href="\/\?url=gopher%3A%2F%2F127.0.0.1%2F0%2Fform%2509%2509%3F">Form item<\/a> <small>\(form\)/);
  // The escape character of a terminal sequence is shown by name, never sent.
  assert.match(out, /a&lt;U\+0007&gt;bell&lt;U\+001B&gt;\[31mred/);
});

/** The name that a right-to-left override would show reversed: "invoiceexe.pdf" on screen. */
const RLO_NAME = 'invoice\u202Efdp.exe';
const RLO_SHOWN = 'invoice&lt;U+202E&gt;fdp.exe';

/** No bidi formatting character reaches the page: each is shown by name. */
function assertNoBidi(out: string): void {
  assert.doesNotMatch(out, /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u);
  assert.ok(out.includes(RLO_SHOWN), out);
}

test('UAX #9: a menu entry with a right-to-left override is shown with the override named, not applied', async () => {
  const menu = `0${RLO_NAME}\t/${RLO_NAME}\t127.0.0.1\t70\r\ni${RLO_NAME}\t\t\t0\r\n3${RLO_NAME}\t\t\t0\r\n.\r\n`;
  const out = await collect((sink) => renderGopherMenu(items(menu), ctx, sink));
  assertSafe(out);
  assertNoBidi(out);
  assert.equal(out.split(RLO_SHOWN).length - 1, 3, 'link, info line and error line');
});

test('category Cf: a menu entry with invisible format characters (zero width space, BOM, tag characters) shows each by name', async () => {
  // "paypal.com" on screen without the escapes: a zero width space, a soft hyphen, a BOM and a
  // tag character (one astral code point, one name, never half a surrogate pair).
  const name = 'pay\u200Bp\u00ADa\uFEFFl\u{E0041}.com';
  const shown = 'pay&lt;U+200B&gt;p&lt;U+00AD&gt;a&lt;U+FEFF&gt;l&lt;U+E0041&gt;.com';
  const menu = `0${name}\t/${name}\t127.0.0.1\t70\r\ni${name}\t\t\t0\r\n.\r\n`;
  const out = await collect((sink) => renderGopherMenu(items(menu), ctx, sink));
  assertSafe(out);
  assert.doesNotMatch(out, /[\u00ad\u200b\ufeff\u{e0000}-\u{e007f}]/u);
  assert.doesNotMatch(out, /[\ud800-\udfff]/, 'no half of a surrogate pair');
  assert.equal(out.split(shown).length - 1, 2, 'link text and info line');
});

test('UAX #9: an FTP listing name with a right-to-left override is shown with the override named', async () => {
  const out = await collect((sink) =>
    renderFtpListing('ftp://127.0.0.1:2121/pub/', lines(body(`${RLO_NAME}\r\nplain\u2067x\u2069.txt\r\n`)), ctx, sink),
  );
  assertSafe(out);
  assertNoBidi(out);
  assert.ok(out.includes('plain&lt;U+2067&gt;x&lt;U+2069&gt;.txt'));
});

test('UAX #9: news overview subjects and senders with bidi formatting are shown with it named', async () => {
  const sample = `1\t${RLO_NAME}\tEve \u202Bx\u202C <eve@example.test>\tMon, 21 Nov 1994 10:00:00 GMT\t12\tnews:a@example.test\n`;
  const out = await collect((sink) => renderNewsOverview(lines(body(sample)), ctx, sink));
  assertSafe(out);
  assertNoBidi(out);
  assert.ok(out.includes('Eve &lt;U+202B&gt;x&lt;U+202C&gt; &lt;eve@example.test&gt;'));
});

test('UAX #9: an article header and body, WAIS headlines and text with bidi formatting', async () => {
  const article = await collect((sink) =>
    renderArticle(
      lines(body(`Subject: ${RLO_NAME}\nFrom: a@b\n\nbody ${RLO_NAME}\n`))[Symbol.asyncIterator](),
      ctx,
      sink,
    ),
  );
  assertNoBidi(article);
  const wais = await collect((sink) =>
    renderWaisHeadlines(lines(body(`10\t5\tTEXT\t${RLO_NAME}\twais://h/db/TEXT/1\n`)), ctx, sink),
  );
  assertNoBidi(wais);
  const text = await collect((sink) => renderText(body(`a ${RLO_NAME}\n`), sink));
  assertNoBidi(text);
});

test('RFC 1436 3.8: an empty menu says so', async () => {
  const out = await collect((sink) => renderGopherMenu(items('.\r\n'), ctx, sink));
  assert.match(out, /<p>The menu is empty.<\/p>/);
});

test('menuItem: a menu link is the item URL through the gateway, the display string escaped', () => {
  const [item] = parseMenu(new TextEncoder().encode('0a <b>\t/a b\th\t70\r\n'), true).items;
  assert.equal(
    menuItem(item, ctx).value,
    '<li><span class="kind">text</span> <a href="/?url=gopher%3A%2F%2Fh%2F0%2Fa%2520b">a &lt;b&gt;</a></li>\n',
  );
});

test('RFC 1738 3.2.2: FTP listing entries get one encoded fsegment each; hostile names are escaped', async () => {
  const names = ['plain.txt', 'a b;type=i', '%41', 'x"><img src=x onerror=alert(1)>', 'dir/inner', '.', '..', ''];
  const out = await collect((sink) =>
    renderFtpListing('ftp://127.0.0.1:2121/pub/', lines(body(names.join('\r\n') + '\r\n')), ctx, sink),
  );
  assertSafe(out);
  const hrefs = links(out).map((l) => decodeURIComponent(l.slice('/?url='.length)));
  assert.deepEqual(hrefs, [
    'ftp://127.0.0.1:2121/',
    'ftp://127.0.0.1:2121/pub/plain.txt',
    'ftp://127.0.0.1:2121/pub/a%20b%3Btype=i',
    'ftp://127.0.0.1:2121/pub/%2541',
    'ftp://127.0.0.1:2121/pub/x%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E',
    'ftp://127.0.0.1:2121/pub/inner',
  ]);
  for (const h of hrefs.slice(1)) assert.equal(parse(h).valid, true, h);
});

test('RFC 1738 3.2.2: ftpParent and ftpEntryUrl', () => {
  const rows: Array<[string, string | null]> = [
    ['ftp://h/', null],
    ['ftp://h', null],
    ['ftp://h/a/', 'ftp://h/'],
    ['ftp://h/a/b/', 'ftp://h/a/'],
    ['ftp://h/a/b;type=d', 'ftp://h/a/'],
  ];
  for (const [dir, want] of rows) assert.equal(ftpParent(dir), want, dir);
  assert.equal(ftpEntryUrl('ftp://h/a', 'x y'), 'ftp://h/a/x%20y');
  assert.equal(ftpEntryUrl('ftp://h/a/', 'q?'), 'ftp://h/a/q?');
  assert.equal(ftpKind('README'), 'entry');
  assert.equal(ftpKind('notes.TXT'), 'text');
  assert.equal(ftpKind('pic.gif'), 'image');
  assert.equal(ftpKind('src.tar.gz'), 'archive');
});

test('text/x-locator-news-overview: one row per article, the subject linked, hostile fields escaped', async () => {
  const sample =
    '3000\tRe: <script>x</script>\t"Eve" <eve@example.test>\tMon, 21 Nov 1994 10:00:00 GMT\t1234\tnntp://news.example.test/comp.lang.misc/3000\n' +
    '3001\t\tbob@example.test\tTue, 22 Nov 1994 10:00:00 GMT\t99\tnews:abc@example.test\n' +
    'garbage line\n';
  const out = await collect((sink) => renderNewsOverview(lines(body(sample)), ctx, sink));
  assertSafe(out);
  assert.match(out, /<caption>Articles<\/caption>/);
  assert.match(out, /<th scope="col">Subject<\/th>/);
  assert.match(
    out,
    /<a href="\/\?url=nntp%3A%2F%2Fnews.example.test%2Fcomp.lang.misc%2F3000">Re: &lt;script&gt;x&lt;\/script&gt;<\/a>/,
  );
  assert.match(out, /<td>&quot;Eve&quot; &lt;eve@example.test&gt;<\/td>/);
  assert.match(out, />\(no subject\)<\/a>/);
  assert.match(out, /class="problem">not a line of this listing: garbage line/);
  assert.equal((out.match(/<tr>/g) ?? []).length, 1 + 2 + 1);
});

test('text/x-locator-news-groups: group linked, article count from high and low, status as a word', async () => {
  const sample =
    'comp.lang.misc\t3010\t3001\ty\tnews:comp.lang.misc\nalt.<b>\t5\t9\tm\tnews:alt.x\nlocal.x\t10\t1\tn\tnews:local.x\n';
  const out = await collect((sink) => renderNewsGroups(lines(body(sample, 3)), ctx, sink));
  assertSafe(out);
  assert.match(out, /<a href="\/\?url=news%3Acomp.lang.misc">comp.lang.misc<\/a><\/td><td>10<\/td><td>posting<\/td>/);
  assert.match(out, /alt.&lt;b&gt;<\/a><\/td><td>\?<\/td><td>moderated<\/td>/);
  assert.match(out, /<td>10<\/td><td>no posting<\/td>/);
});

test('text/x-locator-wais-headlines: score, headline linked, type, size', async () => {
  const sample = '1000\t4711\tTEXT\tThe <i>best</i> match\twais://127.0.0.1:2100/db/TEXT/abc\n';
  const out = await collect((sink) => renderWaisHeadlines(lines(body(sample)), ctx, sink));
  assertSafe(out);
  assert.match(
    out,
    /<td>1000<\/td><td><a href="\/\?url=wais%3A%2F%2F127.0.0.1%3A2100%2Fdb%2FTEXT%2Fabc">The &lt;i&gt;best&lt;\/i&gt; match<\/a><\/td><td>TEXT<\/td><td>4711<\/td>/,
  );
  const empty = await collect((sink) => renderWaisHeadlines(lines(body('')), ctx, sink));
  assert.match(empty, /Nothing is listed/);
});

test('RFC 2483 5: text/uri-list: comments shown as text, each URL a gateway link, passwords hidden in the text', async () => {
  const sample = '# access list <b>\r\nftp://u:secret@host/file\r\n\r\ngopher://h/1/\r\n';
  const out = await collect((sink) => renderUriList(lines(body(sample)), ctx, sink));
  assertSafe(out);
  assert.match(out, /<li class="info">access list &lt;b&gt;<\/li>/);
  assert.match(out, />ftp:\/\/u:\*\*\*\*@host\/file<\/a>/);
  assert.equal(links(out).length, 2);
});

test('RFC 1036 2: an article: main headers, newsgroups and message-ids linked as news: URLs, body as text', async () => {
  const sample =
    'From: "<script>" <a@example.test>\r\n' +
    'Subject: Hello\r\n  <b>folded</b>\r\n' +
    'Newsgroups: comp.lang.misc, alt.test\r\n' +
    'Message-ID: <123@example.test>\r\n' +
    'References: <1@example.test> <javascript:alert(1)>\r\n' +
    'X-Evil: "><img src=x onerror=alert(1)>\r\n' +
    '\r\n' +
    'Body <script>line</script>\r\n.. dotted\r\n';
  const out = await collect((sink) => renderArticle(lines(body(sample))[Symbol.asyncIterator](), ctx, sink));
  assertSafe(out);
  assert.match(out, /<h2>Hello &lt;b&gt;folded&lt;\/b&gt;<\/h2>/);
  assert.match(out, /<dt>From<\/dt><dd>&quot;&lt;script&gt;&quot; &lt;a@example.test&gt;<\/dd>/);
  assert.match(
    out,
    /<a href="\/\?url=news%3Acomp.lang.misc">comp.lang.misc<\/a>, <a href="\/\?url=news%3Aalt.test">alt.test<\/a>/,
  );
  assert.match(
    out,
    /<dt>Message-ID<\/dt><dd><a href="\/\?url=news%3A123%40example.test">&lt;123@example.test&gt;<\/a><\/dd>/,
  );
  assert.match(out, /<\/a> &lt;javascript:alert\(1\)&gt;<\/dd>/);
  assert.match(out, /<details><summary>All headers<\/summary>/);
  assert.match(out, /X-Evil: &quot;&gt;&lt;img src=x/);
  assert.match(out, /<pre class="text">Body &lt;script&gt;line&lt;\/script&gt;\n.. dotted\n<\/pre>/);
});

test('RFC 1738 3.6: messageIdUrl writes the message-id without its brackets, and refuses what is none', () => {
  assert.equal(messageIdUrl('<a.b@c.d>'), 'news:a.b@c.d');
  assert.equal(messageIdUrl('a@b'), null);
  assert.equal(messageIdUrl('<no-at>'), null);
});

test('text as text: <pre> with every character escaped, a UTF-8 character split across chunks kept whole', async () => {
  const out = await collect((sink) => renderText(body('a<b>&é€\n', 5), sink));
  assert.equal(out, '<pre class="text">a&lt;b&gt;&amp;é€\n</pre>\n');
});

test('RFC 1738 3.4.5: a +ASK form becomes labelled fields, posted back to the gateway; prompts and defaults escaped', () => {
  const f = askForm(
    'gopher://h/0/f%09%09?',
    [
      { kind: 'Ask', prompt: 'Name <b>?', values: ['"x"'] },
      { kind: 'AskP', prompt: 'Password', values: [] },
      { kind: 'AskL', prompt: 'Text', values: ['</textarea><script>'] },
      { kind: 'Choose', prompt: 'Colour', values: ['red', '<blue>'] },
    ],
    ctx,
    't"k',
  ).value;
  assertSafe(f);
  assert.match(f, /<form class="fill" method="post" action="\/\?url=gopher%3A%2F%2Fh%2F0%2Ff%2509%2509%3F">/);
  assert.match(
    f,
    /<label for="a0">Name &lt;b&gt;\?<\/label><input type="text" id="a0" name="a0" value="&quot;x&quot;"/,
  );
  assert.match(f, /<input type="password" id="a1" name="a1"/);
  assert.match(f, /<textarea id="a2" name="a2" rows="4" cols="50">&lt;\/textarea&gt;&lt;script&gt;<\/textarea>/);
  assert.match(f, /<select id="a3" name="a3"><option>red<\/option><option>&lt;blue&gt;<\/option><\/select>/);
  assert.match(f, /name="questions" value="4"/);
  assert.match(f, /<input type="hidden" name="token" value="t&quot;k">/, 'the form token, escaped');
});

test('RFC 1738 3.4.2, 3.9: a search form has a labelled field and carries the URL in a hidden field', () => {
  const f = searchForm('gopher://h/7/s"x', 'for', ctx).value;
  assert.match(f, /<input type="hidden" name="url" value="gopher:\/\/h\/7\/s&quot;x">/);
  assert.match(f, /<label for="search">Search for<\/label>/);
});

test('RFC 1738 3.8: a telnet page gives the locator connect command, the user, and masks the password', () => {
  const b = sessionBlock(parse('telnet://joe:s3cret@host.example:2323/')).value;
  assert.doesNotMatch(b, /s3cret/);
  assert.match(b, /locator connect telnet:\/\/joe:\*\*\*\*@host.example:2323\//);
  assert.match(b, /<dt>User<\/dt><dd>joe<\/dd>/);
  assert.match(b, /<dt>Password<\/dt><dd>\*\*\*\* \(given in the URL\)<\/dd>/);
});

test('RFC 1738 3.5: a mailto page shows the address escaped and sends nothing', () => {
  const b = mailtoBlock(parse('mailto:a%3Cb%3E@example.test')).value;
  assert.match(b, /a&lt;b&gt;@example.test/);
  assert.doesNotMatch(b, /<form/);
});

test('lines(): LF and CR LF ends, a last line without an end, a line past the limit is a protocol error', async () => {
  const got: string[] = [];
  for await (const l of lines(body('a\r\nb\n\nc', 2))) got.push(l);
  assert.deepEqual(got, ['a', 'b', '', 'c']);
  await assert.rejects(
    (async () => {
      for await (const _ of lines(body('x'.repeat(70_000), 8192))) void _;
    })(),
    (e: Error & { code?: string }) => e.code === 'protocol-error',
  );
});
