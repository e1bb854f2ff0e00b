// The readers of markup (src/check/markup/) against hostile documents: the work of reading a
// Markdown document is linear in its length (counted, not timed), HTML nested however deep is
// walked without the call stack, white space in an attribute is trimmed in one pass, a fetched
// or file: document past the bound is not read (and says so), the documents fragments name are
// read at once under the limits per server (slow in-process servers, fault injection), and a
// lone CR ends a line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markupLinks } from '../../src/check/markup/index.js';
import { markdownLinks } from '../../src/check/markup/markdown.js';
import { documentReader, MAX_DOCUMENT, type ReadDocument } from '../../src/check/markup/remote.js';
import { check, type CheckInput, type CheckResult, type FoundLink } from '../../src/check/index.js';
import { commandInputs } from '../../src/cli/check-inputs.js';
import type { ProbeResult } from '../../src/clients/probe/types.js';

const DIR = mkdtempSync(join(tmpdir(), 'locator-markup-hostile-'));
test.after(() => rmSync(DIR, { recursive: true, force: true }));

async function links(text: string, format: 'markdown' | 'html', read?: (url: string) => Promise<ReadDocument>) {
  const out: FoundLink[] = [];
  const options = { format, location: 'file:///d/doc', plain: false, ...(read ? { read } : {}) };
  for await (const l of markupLinks(text, options)) {
    // What check() does with a link left to decide, here with no limits.
    out.push(l.decide === undefined ? l : { ...l, ...(await l.decide((_host, fn) => fn())) });
  }
  return out;
}

const okProbe = async (): Promise<ProbeResult> => ({
  status: 'ok',
  reason: 'fine',
  temporary: false,
  redirects: [],
  transcript: [],
  ms: 1,
});

async function all(inputs: CheckInput[], options: Parameters<typeof check>[1]): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  for await (const r of check(inputs, options)) out.push(r);
  return out;
}

/**
 * The characters the searches of strings read while `fn` runs, over all the code it calls
 * (markdown-it's too): indexOf and search from their start to the end of what they found (a miss:
 * to the end of the string), includes and lastIndexOf, replace and split the whole string. (A
 * slice is not counted: V8 makes it a view of the string, in constant time.) A measure of the
 * work that does not depend on the speed of the machine.
 */
function work(fn: () => void): number {
  const proto = String.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const names = ['indexOf', 'search', 'includes', 'lastIndexOf', 'replace', 'replaceAll', 'split'];
  const saved = names.map((n) => proto[n]);
  let total = 0;
  names.forEach((n, i) => {
    const original = saved[i];
    proto[n] = function (this: string, ...args: unknown[]) {
      const r = original.apply(this, args);
      const length = (this as unknown as string).length;
      const from = n === 'indexOf' || n === 'includes' ? Math.max(0, Number(args[1] ?? 0) || 0) : 0;
      const needle = typeof args[0] === 'string' ? args[0].length : 1;
      total +=
        (n === 'indexOf' || n === 'search') && (r as number) >= 0 ? (r as number) - from + needle : length - from;
      return r;
    };
  });
  try {
    fn();
  } finally {
    names.forEach((n, i) => (proto[n] = saved[i]));
  }
  return total;
}

/** The growth of the work when the input doubles: about 2 for linear work, 4 for quadratic. */
function growth(make: (n: number) => string, n: number): number {
  const a = work(() => markdownLinks(make(n)));
  const b = work(() => markdownLinks(make(2 * n)));
  return b / a;
}

test('Markdown: reading is linear in the length, on the shapes that made it quadratic (links, references, escapes, raw HTML, a run of ")](")', () => {
  const shapes: Record<string, (n: number) => string> = {
    'links on one line': (n) => Array.from({ length: n }, (_, i) => `[a](http://h/${i})`).join(' ') + '\n',
    'uses of a reference': (n) => '[a][r] '.repeat(n) + '\n\n[r]: http://h/r\n',
    'escaped destinations': (n) => Array.from({ length: n }, (_, i) => `[a](http://h/a\\_${i})`).join(' ') + '\n',
    'inline HTML': (n) => Array.from({ length: n }, (_, i) => `<a href="http://h/${i}">x</a>`).join(' ') + '\n',
    'a run of ")](" in one destination': (n) => '[x](a(' + ')]('.repeat(n) + ') [a](http://h/a)\n',
    'code spans': (n) => '`a` '.repeat(n) + '``' + '\n',
    'inline <code>': (n) => '<code>a</code> '.repeat(n) + '\n',
    autolinks: (n) => Array.from({ length: n }, (_, i) => `<http://h/${i}>`).join(' ') + '\n',
  };
  const grew = Object.fromEntries(Object.entries(shapes).map(([name, make]) => [name, growth(make, 2000)]));
  for (const [name, g] of Object.entries(grew))
    assert.ok(g < 2.5, `${name}: doubling the input multiplied the work by ${g.toFixed(2)} (${JSON.stringify(grew)})`);
});

test('Markdown: every destination of a long line is still at its own column (escapes and entities decoded, nested image, autolink)', () => {
  const parts = [
    '[a](http://h/one)',
    '[b](<http://h/two words>)',
    '[c](http://h/a\\_b)',
    '[d](http://h/&amp;e)',
    '[![i](http://h/img)](http://h/outer)',
    '<http://h/auto>',
    '<a@b.example>',
    '[e](\n  http://h/next-line)',
    '[f](http://h/p(1)x)',
  ];
  const text = parts.join(' x ') + '\n';
  const r = markdownLinks(text);
  const at = (url: string, written: string) => {
    const l = r.links.find((x) => x.url === url);
    assert.ok(l !== undefined, `${url} in ${JSON.stringify(r.links)}`);
    assert.equal(l.offset, text.indexOf(written), url);
    assert.equal(l.length, written.length, url);
  };
  at('http://h/one', 'http://h/one');
  at('http://h/two words', 'http://h/two words');
  at('http://h/a_b', 'http://h/a\\_b');
  at('http://h/&e', 'http://h/&amp;e');
  at('http://h/img', 'http://h/img');
  at('http://h/outer', 'http://h/outer');
  at('http://h/auto', 'http://h/auto');
  at('mailto:a@b.example', 'a@b.example');
  at('http://h/next-line', 'http://h/next-line');
  at('http://h/p(1)x', 'http://h/p(1)x');
  assert.equal(r.links.length, parts.length + 1, 'the nested image and its link both');
});

const DEPTH = 100000;
const DEEP = '<div>'.repeat(DEPTH) + '<a id="inner" href="http://h/deep">x</a>' + '</div>'.repeat(DEPTH);

test('HTML nested 100,000 deep, an HTML file: its link is found, no stack overflow', async () => {
  const html = await links(`<!DOCTYPE html><body>${DEEP}</body>\n`, 'html');
  assert.deepEqual(
    html.map((l) => l.url),
    ['http://h/deep'],
  );
});

test('HTML nested 100,000 deep, raw HTML in Markdown: its link and id are found, no stack overflow', async () => {
  const md = await links(`# T\n\n${DEEP}\n\n[x](#inner)\n`, 'markdown');
  assert.deepEqual(
    md.map((l) => `${l.url} ${l.verdict?.status}`),
    ['http://h/deep undefined', 'file:///d/doc#inner ok'],
  );
});

test('HTML nested 100,000 deep, the document a fragment names: its ids are read, no stack overflow', async () => {
  const remote = await links('[a](http://h/page#inner) [b](http://h/page#outer)\n', 'markdown', async () => ({
    text: DEEP,
    contentType: 'text/html',
  }));
  assert.deepEqual(
    remote.map((l) => `${l.url} ${l.verdict?.status}`),
    ['http://h/page#inner undefined', 'http://h/page#outer broken'],
  );
});

/** Runs `source` (a module body) in a worker; the worker is ended after `ms`: false then. */
function within(source: string, ms: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const w = new Worker(source, { eval: true });
    const timer = setTimeout(() => void w.terminate().then(() => resolve(false)), ms);
    w.on('message', () => {
      clearTimeout(timer);
      void w.terminate().then(() => resolve(true));
    });
    w.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

test('HTML: an attribute of 1,000,000 spaces around its URL is trimmed in one pass (a quadratic trim takes many minutes)', async () => {
  const module = new URL('../../src/check/markup/html.js', import.meta.url).href;
  // The worker reads the document and reports the link; ended after 60 s (linear: well under a second).
  const done = await within(
    `const { parentPort } = require('node:worker_threads');
     import(${JSON.stringify(module)}).then(({ htmlLinks }) => {
       const pad = ' '.repeat(1000000);
       const r = htmlLinks('<a href="' + pad + 'http://h/x' + pad + '">x</a><a href="a' + pad + 'b">y</a>');
       if (r.links[0].url !== 'http://h/x' || r.links[0].offset !== 9 + pad.length) throw new Error(JSON.stringify(r.links[0]));
       if (r.links[1].url !== 'a' + pad + 'b') throw new Error('inner white space kept');
       parentPort.postMessage('done');
     });`,
    60000,
  );
  assert.equal(done, true, 'the attribute was not read within 60 s');
});

test('fragments: a link of 200,000 "?" and a line end before its "#" is read in one pass (a quadratic cut of the query takes minutes)', async () => {
  const module = new URL('../../src/check/markup/index.js', import.meta.url).href;
  const done = await within(
    `const { parentPort } = require('node:worker_threads');
     import(${JSON.stringify(module)}).then(async ({ markupLinks }) => {
       const html = '<a href="http://h/' + '?'.repeat(200000) + '\\n#x">a</a>';
       const notes = [];
       const read = async () => ({ unread: 'not here' });
       for await (const l of markupLinks(html, { format: 'html', location: null, read })) {
         notes.push((l.decide ? await l.decide((_h, fn) => fn()) : l).note);
       }
       if (notes.length !== 1 || !/fragment "x" not checked: the document could not be read \\(not here\\)/.test(notes[0])) throw new Error(JSON.stringify(notes));
       parentPort.postMessage('done');
     });`,
    60000,
  );
  assert.equal(done, true, 'the link was not read within 60 s');
});

test('fragments: a file: document past the bound is not read, with the exact note; one within it is', async () => {
  const big = join(DIR, 'big.md');
  writeFileSync(big, '# Top\n\n' + 'x'.repeat(MAX_DOCUMENT) + '\n');
  const small = join(DIR, 'small.md');
  writeFileSync(small, '# Top\n');
  const doc = join(DIR, 'doc.md');
  writeFileSync(doc, '[a](big.md#top) [b](small.md#top) [c](small.md#bottom)\n');
  const inputs = await commandInputs([doc], { stdin: [] } as never, { formatIn: 'auto', plain: false });
  const rows = await all(inputs, { probe: okProbe });
  const by = (name: string) => rows.find((r) => r.url.endsWith(name)) as CheckResult;
  assert.equal(by('big.md#top').status, 'ok', 'the probe decides');
  assert.deepEqual(by('big.md#top').notes, [
    `written "big.md#top"; the fragment "top" not checked: the document could not be read (longer than ${MAX_DOCUMENT} octets)`,
  ]);
  assert.equal(by('small.md#top').status, 'ok');
  assert.equal(by('small.md#bottom').status, 'broken');
});

interface Slow {
  port: number;
  close: () => Promise<void>;
}

test('fragments: the documents of five servers are read at once, two of one server one after the other (perHost 1)', async () => {
  // Each server holds its answer until a request is under way at every server (or 5 s pass): read
  // one after another, the documents would never all be under way at once. The first server then
  // holds its answer 500 ms more: a second request to it in that time would break perHost 1.
  const SERVERS = 5;
  let most = 0;
  const perServer = new Map<number, { now: number; most: number; paths: string[] }>();
  const waiting: (() => void)[] = [];
  const servers: Slow[] = [];
  for (let i = 0; i < SERVERS; i++) {
    const server = http.createServer((req, res) => {
      const mine = perServer.get(i) ?? { now: 0, most: 0, paths: [] };
      perServer.set(i, mine);
      mine.paths.push(req.url ?? '');
      mine.now++;
      mine.most = Math.max(mine.most, mine.now);
      const busy = [...perServer.values()].filter((s) => s.now > 0).length;
      most = Math.max(most, busy);
      const answer = () => {
        mine.now--;
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<p id="${req.url?.slice(1)}">x</p>`);
      };
      const release = i === 0 ? () => void setTimeout(answer, 500) : answer;
      if (most >= SERVERS) {
        for (const w of waiting.splice(0)) w();
        release();
        return;
      }
      const timer = setTimeout(answer, 5000);
      waiting.push(() => {
        clearTimeout(timer);
        release();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push({
      port: (server.address() as AddressInfo).port,
      close: () => new Promise((resolve) => server.close(() => resolve())),
    });
  }
  try {
    const urls = servers.map((s) => `http://127.0.0.1:${s.port}`);
    const md = [...urls.map((u) => `[a](${u}/a#a) [no](${u}/a#missing)`), `[b](${urls[0]}/b#b)`].join('\n') + '\n';
    const read = documentReader(async () => ({ unread: 'no files' }), { timeout: 30000, deadline: 30000 });
    const rows = await all([{ file: 'doc.md', links: markupLinks(md, { format: 'markdown', location: null, read }) }], {
      probe: okProbe,
      perHost: 1,
    });
    assert.equal(most, SERVERS, 'a document of every server under way at once');
    assert.deepEqual(
      [...perServer.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => `${s.most} ${s.paths.join(',')}`),
      ['1 /a,/b', '1 /a', '1 /a', '1 /a', '1 /a'],
      'one request at a time per server; each document read once',
    );
    assert.deepEqual(
      rows.map((r) => `${r.url.replace(/^http:\/\/127\.0\.0\.1:\d+/, '')} ${r.status}`),
      [...urls.flatMap(() => ['/a#a ok', '/a#missing broken']), '/b#b ok'],
    );
  } finally {
    for (const w of waiting.splice(0)) w();
    await Promise.all(servers.map((s) => s.close()));
  }
});

test('a lone CR ends a line: Markdown and HTML links and plain-text URLs after one are on the next line', async () => {
  const md = '[a](http://h/1)\r[b](http://h/2)\r\rsee http://h/3\r\n<http://h/4>\n';
  const found: string[] = [];
  for await (const l of markupLinks(md, { format: 'markdown', location: null }))
    found.push(`${l.url} ${l.line}:${l.column}`);
  assert.deepEqual(found, ['http://h/1 1:5', 'http://h/2 2:5', 'http://h/3 4:5', 'http://h/4 5:2']);
  const html = '<a href="http://h/1">a</a>\r<a href="http://h/2">b</a>\r\rhttp://h/3';
  const inHtml: string[] = [];
  for await (const l of markupLinks(html, { format: 'html', location: null }))
    inHtml.push(`${l.url} ${l.line}:${l.column}`);
  assert.deepEqual(inHtml, ['http://h/1 1:10', 'http://h/2 2:10', 'http://h/3 4:1']);
});
