// `locator check` on Markdown and HTML documents (read with markdown-it and parse5) against the
// real servers (test/servers/*.sh): ftp (vsftpd 2121), gopher (7070), http (nginx 8080), news
// (INN 1119) and file, absolute and relative, with fragments. Each link must be reported at the
// line and column of its destination in the source, with the verdict the same URL gets as plain
// text; --exclude, --include and .locatorignore leave URLs out; --format github is parsed back by
// the syntax of GitHub's workflow commands, --format markdown by a Markdown parser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import markdownIt from 'markdown-it';
import { ROOT, serversDir } from '../helpers.js';
import { readRemote } from '../../src/check/markup/remote.js';

serversDir();
const BIN = join(ROOT, 'dist', 'cli', 'main.js');
const DIR = mkdtempSync(join(tmpdir(), 'locator-check-markup-'));
test.after(() => rmSync(DIR, { recursive: true, force: true }));
writeFileSync(join(DIR, 'present.txt'), 'here\n');

function run(args: string[], cwd = DIR): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [BIN, 'check', ...args], {
      cwd,
      env: { PATH: process.env.PATH, HOME: '/nonexistent' },
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.stdin.end('');
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

// [destination as written, status]: the absolute ones are also checked as plain text.
const ABSOLUTE: [string, string][] = [
  ['ftp://127.0.0.1:2121/hello.txt', 'ok'],
  ['ftp://127.0.0.1:2121/pub/missing.txt', 'broken'],
  ['gopher://127.0.0.1:7070/0/hello.txt', 'ok'],
  ['gopher://127.0.0.1:7070/0/nothere.txt', 'broken'],
  ['http://127.0.0.1:8080/hello.txt', 'ok'],
  ['http://127.0.0.1:8080/missing.html', 'broken'],
  ['news:first.1@example.test', 'ok'],
  ['news:missing.7@example.test', 'broken'],
];

const MD = [
  '# Read me first',
  '',
  `Inline [a](${ABSOLUTE[0][0]}) and [b](${ABSOLUTE[1][0]}).`,
  `Autolinks <${ABSOLUTE[2][0]}> <${ABSOLUTE[3][0]}>`,
  `Reference [c][one], and a plain one: ${ABSOLUTE[5][0]}`,
  '',
  `[one]: ${ABSOLUTE[4][0]}`,
  '',
  `<p><a href="${ABSOLUTE[6][0]}">raw HTML</a> <img src="${ABSOLUTE[7][0]}"></p>`,
  '',
  '[here](./present.txt) [gone](absent.txt) [up](#read-me-first) [nowhere](#nowhere)',
  '[other](page.html#top) [other missing](page.html#bottom)',
  '',
].join('\n');

const HTML = [
  '<!DOCTYPE html>',
  '<html><head><title>t</title></head>',
  '<body><h1 id="top">x</h1>',
  ...ABSOLUTE.map(([u], i) => (i % 2 === 0 ? `<p><a href="${u}">l</a></p>` : `<p>plain ${u} text</p>`)),
  '<p><a href="present.txt">r</a> <img src="nothere.png"> <a href="README.md#read-me-first">m</a>',
  '<a href="README.md#no-such-heading">m2</a> <a href="#top">t</a> <a href="#bottom">b</a></p>',
  '</body></html>',
  '',
].join('\n');

writeFileSync(join(DIR, 'README.md'), MD);
writeFileSync(join(DIR, 'page.html'), HTML);
writeFileSync(join(DIR, 'plain.txt'), ABSOLUTE.map(([u]) => u).join('\n') + '\n');

/** Where a text first holds `needle`: 1-based line and column. */
function position(text: string, needle: string, from = 0): string {
  const at = text.indexOf(needle, from);
  assert.ok(at >= 0, `${needle} in the document`);
  const before = text.slice(0, at).split('\n');
  return `${before.length}:${before[before.length - 1].length + 1}`;
}

interface Row {
  url: string;
  status: string;
  file: string;
  line: number;
  column: number;
}
const rows = (out: string): Row[] =>
  out
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Row);

test('Markdown: every destination (inline, autolink, reference, raw HTML, relative, fragment) and plain-text URL, at its line and column, with the verdict of its plain-text form', async () => {
  const r = await run(['--json', '--nntp-server', '127.0.0.1:1119', 'README.md', 'plain.txt']);
  assert.equal(r.code, 1, r.err);
  const all = rows(r.out);
  const md = all.filter((x) => x.file === 'README.md');
  const plain = new Map(all.filter((x) => x.file === 'plain.txt').map((x) => [x.url, x.status]));
  for (const [u, status] of ABSOLUTE) {
    assert.equal(plain.get(u), status, `${u} as plain text`);
    const found = md.filter((x) => x.url === u);
    assert.equal(found.length, 1, `${u} found once in README.md: ${JSON.stringify(md)}`);
    assert.equal(found[0].status, status, u);
    assert.equal(`${found[0].line}:${found[0].column}`, position(MD, u), `${u}'s position`);
  }
  const at = (u: string) => md.find((x) => x.url === u);
  assert.equal(at(`file://${DIR}/present.txt`)?.status, 'ok');
  assert.equal(at(`file://${DIR}/absent.txt`)?.status, 'broken');
  assert.equal(
    `${at(`file://${DIR}/absent.txt`)?.line}:${at(`file://${DIR}/absent.txt`)?.column}`,
    position(MD, 'absent.txt'),
  );
  assert.equal(at(`file://${DIR}/README.md#read-me-first`)?.status, 'ok');
  assert.equal(at(`file://${DIR}/README.md#nowhere`)?.status, 'broken');
  assert.equal(at(`file://${DIR}/page.html#top`)?.status, 'ok');
  assert.equal(at(`file://${DIR}/page.html#bottom`)?.status, 'broken');
  assert.equal(md.length, ABSOLUTE.length + 6, JSON.stringify(md.map((x) => x.url)));
});

test('HTML: href and src (absolute and relative), plain-text URLs of the text, fragments of this and another document', async () => {
  const r = await run(['--json', '--nntp-server', '127.0.0.1:1119', 'page.html']);
  assert.equal(r.code, 1, r.err);
  const html = rows(r.out);
  for (const [u, status] of ABSOLUTE) {
    const found = html.filter((x) => x.url === u);
    assert.equal(found.length, 1, u);
    assert.equal(found[0].status, status, u);
    assert.equal(`${found[0].line}:${found[0].column}`, position(HTML, u), `${u}'s position`);
  }
  const status = (u: string) => html.find((x) => x.url === u)?.status;
  assert.equal(status(`file://${DIR}/present.txt`), 'ok');
  assert.equal(status(`file://${DIR}/nothere.png`), 'broken');
  assert.equal(status(`file://${DIR}/README.md#read-me-first`), 'ok');
  assert.equal(status(`file://${DIR}/README.md#no-such-heading`), 'broken');
  assert.equal(status(`file://${DIR}/page.html#top`), 'ok');
  assert.equal(status(`file://${DIR}/page.html#bottom`), 'broken');
});

test('--links-only leaves out the plain-text URLs; --format-in reads a file by the format given; --base resolves relative links', async () => {
  const only = rows((await run(['--json', '--links-only', 'README.md'])).out);
  assert.ok(!only.some((x) => x.url === ABSOLUTE[5][0]), 'the plain-text URL is left out');
  assert.ok(only.some((x) => x.url === ABSOLUTE[4][0]));
  const asText = rows((await run(['--json', '--format-in', 'text', 'README.md'])).out);
  assert.ok(!asText.some((x) => x.url.startsWith('file:')), 'plain text has no relative links');
  const based = rows((await run(['--json', '--links-only', '--base', 'http://127.0.0.1:8080/', 'README.md'])).out);
  const rel = based.find((x) => x.url === 'http://127.0.0.1:8080/present.txt');
  assert.ok(rel !== undefined, JSON.stringify(based.map((x) => x.url)));
  assert.equal(rel.status, 'broken');
});

test('--exclude, --include and .locatorignore leave URLs out before any probe', async () => {
  const ex = rows((await run(['--json', '--exclude', '^(ftp|gopher):', 'README.md'])).out);
  assert.ok(!ex.some((x) => /^(ftp|gopher):/.test(x.url)));
  assert.ok(ex.some((x) => x.url.startsWith('http:')));
  const inc = rows((await run(['--json', '--exclude', '^(ftp|gopher):', '--include', 'missing', 'README.md'])).out);
  assert.deepEqual(
    inc.filter((x) => /^(ftp|gopher):/.test(x.url)).map((x) => x.url),
    [ABSOLUTE[1][0]],
    'an include match wins over an exclude',
  );
  const onlyInc = rows((await run(['--json', '--include', '^http:', 'README.md'])).out);
  assert.ok(onlyInc.length > 0 && onlyInc.every((x) => x.url.startsWith('http:')), 'includes alone: only those');
  const sub = mkdtempSync(join(DIR, 'ignore-'));
  writeFileSync(join(sub, '.locatorignore'), '# no news here\n\n^news:\n^file:\n');
  const ig = rows((await run(['--json', join(DIR, 'README.md')], sub)).out);
  assert.ok(ig.length > 0 && !ig.some((x) => /^(news|file):/.test(x.url)), JSON.stringify(ig.map((x) => x.url)));
  const bad = await run(['--exclude', '(', 'README.md']);
  assert.equal(bad.code, 2);
  const missing = await run(['--ignore-file', join(DIR, 'nonexistent'), 'README.md']);
  assert.equal(missing.code, 2);
});

// GitHub's workflow command syntax (docs "Workflow commands for GitHub Actions"):
// ::LEVEL file=F,line=L,col=C,title=T::MESSAGE, properties with %, CR, LF, ':' and ',' escaped.
const ANNOTATION = /^::(error|warning|notice) ((?:[a-z]+=[^,:\r\n]*)(?:,[a-z]+=[^,:\r\n]*)*)::([^\r\n]*)$/;

test('--format github: one annotation per link not ok, at its file, line and column; --errors-only keeps only those lines', async () => {
  const json = rows((await run(['--json', '--nntp-server', '127.0.0.1:1119', 'README.md'])).out);
  const r = await run(['--format', 'github', '--nntp-server', '127.0.0.1:1119', 'README.md']);
  assert.equal(r.code, 1);
  const lines = r.out.trim().split('\n');
  const bad = json.filter((x) => x.status !== 'ok' && x.status !== 'redirected');
  assert.equal(lines.length, bad.length + json.filter((x) => x.status === 'redirected').length);
  for (const [i, l] of lines.entries()) {
    const m = ANNOTATION.exec(l);
    assert.ok(m !== null, l);
    const props = Object.fromEntries(m[2].split(',').map((p) => p.split('=') as [string, string]));
    assert.equal(props.file, 'README.md');
    assert.equal(`${props.line}:${props.col}`, `${bad[i].line}:${bad[i].column}`);
    assert.equal(m[1], 'error');
    assert.ok(m[3].startsWith(`${bad[i].status} ${bad[i].url} (`), m[3]);
  }
  const text = await run(['--errors-only', '--nntp-server', '127.0.0.1:1119', 'README.md']);
  assert.equal(text.out.trim().split('\n').length, bad.length);
  assert.ok(!/: ok /.test(text.out));
  assert.match(text.err, /locator check: ok \d+, broken \d+/);
});

test('--format markdown: a table of counts per file and a table of links per file, read back by a Markdown parser', async () => {
  const r = await run([
    '--format',
    'markdown',
    '--errors-only',
    '--nntp-server',
    '127.0.0.1:1119',
    'README.md',
    'page.html',
  ]);
  assert.equal(r.code, 1);
  const tokens = markdownIt().parse(r.out, {});
  const tables: string[][][] = [];
  let row: string[] | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === 'table_open') tables.push([]);
    if (t.type === 'tr_open') row = [];
    if ((t.type === 'td_open' || t.type === 'th_open') && row) row.push(tokens[i + 1].content);
    if (t.type === 'tr_close' && row) (tables[tables.length - 1].push(row), (row = null));
  }
  assert.equal(tables.length, 3, r.out);
  assert.deepEqual(tables[0][0], ['file', 'ok', 'redirected', 'broken', 'refused', 'invalid', 'unreachable']);
  const json = rows((await run(['--json', '--nntp-server', '127.0.0.1:1119', 'README.md', 'page.html'])).out);
  for (const [k, file] of ['README.md', 'page.html'].entries()) {
    const mine = json.filter((x) => x.file === file);
    const counted = tables[0][k + 1];
    assert.equal(counted[0], file);
    assert.equal(Number(counted[1]), mine.filter((x) => x.status === 'ok').length);
    assert.equal(Number(counted[3]), mine.filter((x) => x.status === 'broken').length);
    const listed = tables[k + 1].slice(1);
    assert.deepEqual(
      listed.map((c) => `${c[0]} ${c[1]} ${c[2]}`),
      mine.filter((x) => x.status !== 'ok').map((x) => `${x.line}:${x.column} ${x.status} \`${x.url}\``),
    );
  }
});

test('check --help lists the new options with their defaults', async () => {
  const r = await run(['--help']);
  for (const o of [
    '--format-in',
    '--base',
    '--links-only',
    '--include-verbatim',
    '--exclude',
    '--include',
    '--ignore-file',
    '--errors-only',
    '--format',
  ]) {
    assert.ok(r.out.includes(o), o);
  }
  assert.match(r.out, /--format-in FORMAT[\s\S]*auto/);
  assert.match(r.out, /--ignore-file FILE[\s\S]*\.locatorignore/);
});

test('fragments of http: documents: read once per run through the clients, a missing id broken, an unread document keeps its probe verdict', async () => {
  // test/servers/http.sh serves anchors.html with id="present" and <a name="named">.
  const A = 'http://127.0.0.1:8080/anchors.html';
  writeFileSync(
    join(DIR, 'remote.md'),
    [
      `[a](${A}#present) [b](${A}#missing) [c](${A}#named)`,
      '[d](http://127.0.0.1:8080/hello.txt#top) [e](http://127.0.0.1:8080/missing.html#top)',
      '',
    ].join('\n'),
  );
  writeFileSync(join(DIR, 'remote.html'), `<p><a href="${A}#present">again</a> <a href="${A}#gone">x</a></p>\n`);
  const log = join(serversDir(), 'http', 'access.log');
  const gets = () =>
    readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"GET /anchors.html ')).length;
  const before = gets();
  const r = await run(['--json', 'remote.md', 'remote.html']);
  assert.equal(r.code, 1, r.err);
  const all = rows(r.out) as (Row & { reason: string; notes: string[] })[];
  const at = (u: string, file = 'remote.md') => {
    const row = all.find((x) => x.url === u && x.file === file);
    assert.ok(row !== undefined, `${u} in ${file}: ${JSON.stringify(all)}`);
    return row;
  };
  assert.equal(at(`${A}#present`).status, 'ok');
  assert.equal(at(`${A}#named`).status, 'ok');
  assert.equal(at(`${A}#missing`).status, 'broken');
  assert.match(at(`${A}#missing`).reason, /"missing"/);
  assert.equal(at(`${A}#present`, 'remote.html').status, 'ok');
  assert.equal(at(`${A}#gone`, 'remote.html').status, 'broken');
  assert.match(at(`${A}#gone`, 'remote.html').reason, /"gone"/);
  // Not Markdown or HTML (text/plain), and a document that cannot be read: the probe's verdict, with a note.
  const txt = at('http://127.0.0.1:8080/hello.txt#top');
  assert.equal(txt.status, 'ok');
  assert.ok(
    txt.notes.some((n) => /fragment "top" not checked: the document is not Markdown or HTML/.test(n)),
    JSON.stringify(txt),
  );
  const gone = at('http://127.0.0.1:8080/missing.html#top');
  assert.equal(gone.status, 'broken');
  assert.ok(
    gone.notes.some((n) => /fragment "top" not checked: the document could not be read/.test(n)),
    JSON.stringify(gone),
  );
  assert.equal(gets() - before, 1, 'anchors.html read once for the run (two documents, four links)');
  // The probes' policy: --refuse-private refuses the read as it refuses the probe.
  const refused = rows((await run(['--json', '--refuse-private', 'remote.html'])).out) as (Row & { notes: string[] })[];
  const row = refused.find((x) => x.url === `${A}#gone`);
  assert.ok(row !== undefined && row.status !== 'broken' && row.status !== 'ok', JSON.stringify(refused));
  assert.ok(
    row.notes.some((n) => /not checked: the document could not be read/.test(n)),
    JSON.stringify(row),
  );
});

test('an http: document read for its fragments is bounded: past maxBytes it is not read (and says why)', async () => {
  const A = 'http://127.0.0.1:8080/anchors.html';
  const whole = await readRemote(A, { timeout: 5000 });
  assert.ok('text' in whole && whole.text.includes('id="present"'), JSON.stringify(whole));
  assert.equal(whole.contentType, 'text/html');
  assert.deepEqual(await readRemote(A, { timeout: 5000, maxBytes: 50 }), { unread: 'longer than 50 octets' });
});

test('--include-verbatim: the URLs of code blocks and code spans are checked only when asked for', async () => {
  writeFileSync(
    join(DIR, 'verbatim.md'),
    [
      'Run `curl file:///nonexistent/span`:',
      '',
      '```',
      '$ cat file:///nonexistent/block',
      '```',
      '',
      '[here](./present.txt)',
      '',
    ].join('\n'),
  );
  const plain = rows((await run(['--json', 'verbatim.md'])).out);
  assert.deepEqual(
    plain.map((x) => `${x.url} ${x.status}`),
    [`file://${DIR}/present.txt ok`],
  );
  const all = await run(['--json', '--include-verbatim', 'verbatim.md']);
  assert.equal(all.code, 1, all.err);
  assert.deepEqual(
    rows(all.out).map((x) => `${x.url} ${x.line}:${x.column} ${x.status}`),
    [
      'file:///nonexistent/span 1:11 broken',
      'file:///nonexistent/block 4:7 broken',
      `file://${DIR}/present.txt 7:8 ok`,
    ],
  );
});
