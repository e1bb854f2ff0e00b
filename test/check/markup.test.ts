// The readers of markup of the checker (src/check/markup/): every destination at the line and
// column of its first character, reference definitions once, <base href>, plain-text URLs not
// doubled, fragments decided against ids and heading slugs; and the rules of src/check/rules.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { markupLinks, formatOf, type MarkupOptions } from '../../src/check/markup/index.js';
import { ROOT } from '../helpers.js';
import { documentReader, formatOfType, type ReadDocument } from '../../src/check/markup/remote.js';
import { slug } from '../../src/check/markup/markdown.js';
import { hostKind, ignoreLines, skipper } from '../../src/check/rules.js';
import type { FoundLink } from '../../src/check/index.js';

async function links(
  text: string,
  format: 'markdown' | 'html',
  location: string | null = 'file:///d/doc',
): Promise<FoundLink[]> {
  const out: FoundLink[] = [];
  for await (const l of markupLinks(text, { format, location })) out.push(l);
  return out;
}

/** 1-based line:column of the first `needle` in `text`. */
function pos(text: string, needle: string): string {
  const at = text.indexOf(needle);
  assert.ok(at >= 0, needle);
  const lines = text.slice(0, at).split(/\r\n|\r|\n/);
  return `${lines.length}:${lines[lines.length - 1].length + 1}`;
}

test('Markdown: inline, image, autolink, reference definition (once, at the definition), raw HTML; CR LF lines', async () => {
  const md = [
    '# Title',
    '',
    'a [x](ftp://h/one) b ![i](gopher://h/0/two) c <news:three@h>',
    'a [use][r] and [use again][r] and [*em*](http://h/four "t")',
    '',
    '> [r]: http://h/five',
    '',
    '<div><a href="wais://h/db">w</a></div>',
    '',
  ].join('\r\n');
  const found = await links(md, 'markdown');
  assert.deepEqual(
    found.map((l) => `${l.url} ${l.line}:${l.column}`),
    ['ftp://h/one', 'gopher://h/0/two', 'news:three@h', 'http://h/four', 'http://h/five', 'wais://h/db'].map(
      (u) => `${u} ${pos(md, u)}`,
    ),
  );
});

test('Markdown: plain-text URLs found once (not again inside a destination), off with plain: false', async () => {
  const md = 'See [it](http://h/a) or http://h/b, and `ftp://h/c` in code.\n';
  assert.deepEqual(
    (await links(md, 'markdown')).map((l) => l.url),
    ['http://h/a', 'http://h/b'],
  );
  const only: string[] = [];
  for await (const l of markupLinks(md, { format: 'markdown', location: null, plain: false })) only.push(l.url);
  assert.deepEqual(only, ['http://h/a']);
});

test('HTML: href and src at the first character of the value (quoted, unquoted, with spaces), <base href> for relative links', async () => {
  const html =
    '<html><head><base href="http://b/dir/"></head>\n<body><a href = " x.html ">x</a> <img src=/i.png> <a href=\'ftp://h/f\'>f</a> text gopher://h/1 <!-- http://h/comment --></body></html>';
  const found = await links(html, 'html');
  const at = (u: string) => found.find((l) => l.url === u);
  assert.equal(`${at('http://b/dir/x.html')?.line}:${at('http://b/dir/x.html')?.column}`, pos(html, 'x.html'));
  assert.equal(at('http://b/dir/x.html')?.note, 'written "x.html"');
  assert.equal(`${at('http://b/i.png')?.line}:${at('http://b/i.png')?.column}`, pos(html, '/i.png'));
  assert.equal(`${at('ftp://h/f')?.line}:${at('ftp://h/f')?.column}`, pos(html, 'ftp://h/f'));
  assert.ok(at('gopher://h/1') !== undefined, 'plain text URL of a text node');
  assert.equal(at('http://h/comment'), undefined, 'not in a comment');
  assert.ok(at('http://b/dir/') !== undefined, 'the base itself is checked');
});

test('fragments: ids, anchor names and heading slugs of the document decide #links without a probe', async () => {
  const md =
    '# Hello, World!\n## Hello, World!\n<a name="n"></a>\n[a](#hello-world) [b](#hello-world-1) [c](#n) [d](#missing) [e](#hello%2Dworld)\n';
  const v = (await links(md, 'markdown')).map((l) => `${l.url} ${l.verdict?.status}`);
  assert.deepEqual(v, [
    'file:///d/doc#hello-world ok',
    'file:///d/doc#hello-world-1 ok',
    'file:///d/doc#n ok',
    'file:///d/doc#missing broken',
    'file:///d/doc#hello%2Dworld ok',
  ]);
  const seen = new Map<string, number>();
  assert.deepEqual(
    ['Über uns', 'Über uns', 'a_b c-d?'].map((t) => slug(t, seen)),
    ['über-uns', 'über-uns-1', 'a_b-c-d'],
  );
});

test('relative links: resolved against the document, %-encoded first; invalid with no base', async () => {
  const md = '[a](../up/x.md) [b](my notes.txt) [c](<with space.txt>)\n';
  assert.deepEqual(
    (await links(md, 'markdown', 'file:///d/sub/doc.md')).map((l) => l.url),
    ['file:///d/up/x.md', 'file:///d/sub/with%20space.txt'],
  );
  const none = await links('[a](x.txt)\n', 'markdown', null);
  assert.equal(none[0].verdict?.status, 'invalid');
});

test('formatOf: Markdown and HTML by extension, else plain text', () => {
  assert.equal(formatOf('README.md'), 'markdown');
  assert.equal(formatOf('x.MARKDOWN'), 'markdown');
  assert.equal(formatOf('a/index.htm'), 'html');
  assert.equal(formatOf('notes.txt'), null);
  assert.equal(formatOf('Makefile'), null);
});

test('rules: an include wins over an exclude; includes alone are a list; ignore lines skip comments', () => {
  assert.equal(skipper({}), null);
  const ex = skipper({ exclude: ['^ftp:'] });
  assert.equal(ex?.('ftp://h/'), true);
  assert.equal(ex?.('http://h/'), false);
  const both = skipper({ exclude: ['^ftp:'], include: ['keep'] });
  assert.equal(both?.('ftp://h/keep'), false);
  assert.equal(both?.('ftp://h/drop'), true);
  assert.equal(both?.('http://h/'), false);
  const inc = skipper({ include: ['^http:'] });
  assert.equal(inc?.('http://h/'), false);
  assert.equal(inc?.('ftp://h/'), true);
  assert.throws(() => skipper({ exclude: ['('] }), SyntaxError);
  assert.deepEqual(ignoreLines('# c\n\n  ^a \r\nb\r#d\n'), ['^a', 'b']);
});

test('rules: --exclude-loopback and --exclude-private by the host as written; an include still wins', () => {
  assert.equal(hostKind('http://127.0.0.1:8080/'), 'loopback');
  assert.equal(hostKind('ftp://localhost/x'), 'loopback');
  assert.equal(hostKind('http://[::1]/'), 'loopback');
  assert.equal(hostKind('gopher://10.1.2.3/'), 'private');
  assert.equal(hostKind('http://172.31.0.1/'), 'private');
  assert.equal(hostKind('http://172.32.0.1/'), null);
  assert.equal(hostKind('http://[fe80::1]/'), 'private');
  assert.equal(hostKind('http://example.com/'), null);
  assert.equal(hostKind('news:a@b'), null);
  const loop = skipper({ excludeLoopback: true });
  assert.equal(loop?.('http://127.0.0.1/'), true);
  assert.equal(loop?.('http://192.168.0.1/'), false);
  assert.equal(loop?.('http://example.com/'), false);
  const priv = skipper({ excludePrivate: true, include: ['keep'] });
  assert.equal(priv?.('http://192.168.0.1/'), true);
  assert.equal(priv?.('http://192.168.0.1/keep'), false);
});

test('Markdown: a destination written with a backslash escape or an entity is still reported, in its block', async () => {
  const md = 'Intro.\n\nSee [x](http://h/a\\_b) and [y](http://h/&amp;c).\n';
  const found = await links(md, 'markdown');
  assert.deepEqual(
    found.map((l) => `${l.url} ${l.line}:${l.column}`),
    [`http://h/a_b ${pos(md, 'http://h/a')}`, `http://h/&c ${pos(md, 'http://h/&amp;')}`],
  );
});

test('fragments of http: documents: the format from the Content-Type, else the name; each document read once; an unread one noted', async () => {
  assert.equal(formatOfType('text/html; charset=utf-8'), 'html');
  assert.equal(formatOfType('TEXT/MARKDOWN'), 'markdown');
  assert.equal(formatOfType('text/plain'), null);
  assert.equal(formatOfType(null), null);
  const asked: string[] = [];
  const docs: Record<string, ReadDocument> = {
    'http://h/page': { text: '<p id="here">x</p>', contentType: 'text/html' },
    'http://h/readme.md': { text: '# Top part\n', contentType: 'application/octet-stream' },
    'http://h/plain.html': { text: '<p id="here">x</p>', contentType: 'text/plain' },
    'http://h/notes': { text: '<p id="x">x</p>', contentType: 'text/plain' },
  };
  let files = 0;
  const once = documentReader(async (_url, max) => (files++, { text: `# A ${max}\n` }), {});
  assert.equal(await once('file:///d/a.md'), await once('file:///d/a.md'), 'one answer kept per URL');
  assert.equal(files, 1);
  assert.deepEqual(await once('gopher://h/0x'), { unread: 'not a file:, http: or https: document' });
  const md = [
    '[a](http://h/page#here) [b](http://h/page#there) [c](https://h/page2#x)',
    '[d](http://h/readme.md#top-part) [e](http://h/readme.md#bottom) [f](http://h/plain.html#here)',
    '[g](ftp://h/page#here) [h](http://h/page#here) [i](http://h/notes#x)',
  ].join('\n');
  const out: FoundLink[] = [];
  const reader = async (url: string) => (asked.push(url), docs[url] ?? { unread: `${url}: 404` });
  // check() runs what a link leaves to decide (the document's anchors) when it takes it: here in order, no limits.
  for await (const l of markupLinks(md, { format: 'markdown', location: null, plain: false, read: reader }))
    out.push(l.decide === undefined ? l : { ...l, ...(await l.decide((_host, fn) => fn())) });
  const by = (u: string) => out.find((l) => l.url === u);
  assert.equal(by('http://h/page#here')?.verdict, undefined, 'present: the probe decides');
  assert.equal(by('http://h/page#there')?.verdict?.status, 'broken');
  assert.match(by('http://h/page#there')?.verdict?.reason ?? '', /"there" in http:\/\/h\/page/);
  assert.match(
    by('https://h/page2#x')?.note ?? '',
    /fragment "x" not checked: the document could not be read \(https:\/\/h\/page2: 404\)/,
  );
  assert.equal(by('http://h/readme.md#top-part')?.verdict, undefined, 'Markdown by its name');
  assert.equal(by('http://h/readme.md#bottom')?.verdict?.status, 'broken');
  // text/plain (as raw.githubusercontent.com serves .md and .html) is not a markup type: the name decides.
  assert.equal(by('http://h/plain.html#here')?.verdict, undefined, 'HTML by its name');
  assert.equal(by('http://h/plain.html#here')?.note, undefined);
  assert.match(
    by('http://h/notes#x')?.note ?? '',
    /"x" not checked: the document is not Markdown or HTML \(text\/plain\)/,
  );
  assert.equal(by('ftp://h/page#here')?.note, undefined, 'only file:, http: and https: documents are read');
  assert.deepEqual(
    asked,
    ['http://h/page', 'https://h/page2', 'http://h/readme.md', 'http://h/plain.html', 'http://h/notes'],
    'each read once',
  );
});

async function urls(text: string, options: Partial<MarkupOptions> & Pick<MarkupOptions, 'format'>): Promise<string[]> {
  const out: string[] = [];
  for await (const l of markupLinks(text, { location: null, ...options })) out.push(`${l.url} ${l.line}:${l.column}`);
  return out;
}

test('verbatim text (Markdown code blocks and spans, raw <pre> and <code>) is left out unless verbatim: true', async () => {
  const md = [
    'Before http://h/1 and `http://h/code-span` and ``a ` http://h/double``, after http://h/2.',
    '',
    '```',
    'http://h/fenced [x](http://h/not-a-link)',
    '```',
    '',
    '    http://h/indented',
    '',
    '\\`http://h/3 is text (the backtick is escaped)\\`',
    '',
    '<pre><a href="http://h/raw-pre">p</a> http://h/raw-pre-text</pre>',
    '',
    'Inline http://h/6 <code>http://h/raw-code</code> and [y](http://h/4) `http://h/5-code`.',
    '',
  ].join('\n');
  const kept = await urls(md, { format: 'markdown' });
  assert.deepEqual(
    kept.map((u) => u.split(' ')[0]),
    ['http://h/1', 'http://h/2', 'http://h/3', 'http://h/6', 'http://h/4'],
  );
  assert.deepEqual(kept, await urls(md, { format: 'markdown', verbatim: false }));
  const all = await urls(md, { format: 'markdown', verbatim: true });
  assert.deepEqual(
    all.map((u) => u.split(' ')[0]),
    [
      'http://h/1',
      'http://h/code-span',
      'http://h/double',
      'http://h/2',
      'http://h/fenced',
      'http://h/not-a-link',
      'http://h/indented',
      'http://h/3',
      'http://h/raw-pre',
      'http://h/raw-pre-text',
      'http://h/6',
      'http://h/raw-code',
      'http://h/4',
      'http://h/5-code',
    ],
  );
  // The same links at the same places either way.
  for (const u of kept) assert.ok(all.includes(u), u);
});

test('verbatim text in HTML: the links and text of <pre> and <code> are left out unless verbatim: true', async () => {
  const html =
    '<p>See http://h/1 <a href="http://h/2">a</a></p>\n<pre>$ fetch http://h/pre <a href="http://h/pre-link">x</a></pre>\n<p><code>http://h/code</code> http://h/3</p>';
  assert.deepEqual(
    (await urls(html, { format: 'html' })).map((u) => u.split(' ')[0]),
    ['http://h/1', 'http://h/2', 'http://h/3'],
  );
  assert.deepEqual(
    (await urls(html, { format: 'html', verbatim: true })).map((u) => u.split(' ')[0]),
    ['http://h/1', 'http://h/2', 'http://h/pre', 'http://h/pre-link', 'http://h/code', 'http://h/3'],
  );
});

test("the project's README: no URL of its code blocks is checked by default (they are example output)", async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const location = 'file:///repo/README.md';
  // The lines inside fenced code blocks.
  const fenced = new Set<number>();
  let inside = false;
  readme.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) inside = !inside;
    else if (inside) fenced.add(i + 1);
  });
  const lines = async (verbatim: boolean) => {
    const out: number[] = [];
    for await (const l of markupLinks(readme, { format: 'markdown', location, verbatim })) out.push(l.line);
    return out;
  };
  assert.deepEqual(
    (await lines(false)).filter((n) => fenced.has(n)),
    [],
  );
  assert.ok(
    (await lines(true)).some((n) => fenced.has(n)),
    'the README has URLs in its code blocks',
  );
});
