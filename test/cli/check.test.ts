// `locator check` end to end (issue 18) against the real servers (test/servers/*.sh): a plain-text
// document written here with working and broken links of ftp (vsftpd 2121), gopher (pygopherd
// 7070, gophernicus 7071), http (nginx 8080), news and nntp (INN 1119), file, and invalid ones.
// The report must name exactly the links that are not ok, with their positions; --json, --html and
// --junit must say the same. What only the per-scheme probes can tell (reply codes in the reasons,
// telnet, mailto) is in check-probes.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runCli, serversDir } from '../helpers.js';
import { nntpFake } from '../clients/nntp/fakes.js';
import { FakeFtp, standard } from '../clients/ftp/fakes.js';
import net from 'node:net';

serversDir();
const BIN = join(ROOT, 'dist', 'cli', 'main.js');
const DIR = mkdtempSync(join(tmpdir(), 'locator-check-'));
writeFileSync(join(DIR, 'present.txt'), 'here\n');

function run(
  args: string[],
  stdin = '',
  home = '/nonexistent',
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, HOME: home } });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.stdin.end(stdin);
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

// Each link with what the report must say of it: [URL, status] (ok links included, to check
// that they are not reported broken). Status by RFC 1738 section: 3.2 ftp, 3.4 gopher, 3.3 http,
// 3.6 news, 3.7 nntp, 3.10 file; invalid ones by 2.2 and 6.
const LINKS: [string, string][] = [
  ['ftp://127.0.0.1:2121/hello.txt', 'ok'],
  ['ftp://127.0.0.1:2121/pub/missing.txt', 'broken'],
  ['ftp://127.0.0.1:2121/pub/', 'ok'],
  ['ftp://127.0.0.1:2121/nodir/', 'broken'],
  ['gopher://127.0.0.1:7070/0/hello.txt', 'ok'],
  ['gopher://127.0.0.1:7070/0/nothere.txt', 'broken'],
  ['gopher://127.0.0.1:7071/1/files', 'ok'],
  ['http://127.0.0.1:8080/hello.txt', 'ok'],
  ['http://127.0.0.1:8080/missing.html', 'broken'],
  ['http://127.0.0.1:8080/redirect', 'redirected'],
  ['http://127.0.0.1:2/closed', 'unreachable'],
  ['news:first.1@example.test', 'ok'],
  ['news:missing.7@example.test', 'broken'],
  ['nntp://127.0.0.1:1119/local.test/1', 'ok'],
  ['nntp://127.0.0.1:1119/local.test/999', 'broken'],
  ['nntp://127.0.0.1:1119/no.such.group', 'broken'],
  [`file://${DIR}/present.txt`, 'ok'],
  [`file://${DIR}/absent.txt`, 'broken'],
  ['gopher://127.0.0.1:7070/0a%0d%0aQUIT', 'invalid'],
  ['http://127.0.0.1:25/', 'invalid'],
];

// The document: prose around the links, wrapped and bare forms, one link twice.
const DOC = [
  'Links to check (written by test/cli/check.test.ts)',
  '',
  ...LINKS.map(([u], i) => (i % 3 === 0 ? `  item ${i}: <URL:${u}>` : i % 3 === 1 ? `see ${u} here` : `${u}`)),
  'and once more <URL:http://127.0.0.1:8080/missing.html>.',
  '',
].join('\n');
const FILE = join(DIR, 'links.txt');
writeFileSync(FILE, DOC);

/** Where each link is in DOC: "line:column" of its first character (of "<" for a wrapped one). */
function where(url: string, from = 0): string {
  let at = DOC.indexOf(url, from);
  while (!/[> \n]/.test(DOC[at + url.length])) at = DOC.indexOf(url, at + 1);
  const start = DOC[at - 1] === ':' && DOC.slice(at - 5, at) === '<URL:' ? at - 5 : at;
  const before = DOC.slice(0, start).split('\n');
  return `${before.length}:${before[before.length - 1].length + 1}`;
}

const EXPECTED = [
  ...LINKS.map(([u, status]) => ({ url: u, status, at: where(u) })),
  {
    url: 'http://127.0.0.1:8080/missing.html',
    status: 'broken',
    at: where('http://127.0.0.1:8080/missing.html', DOC.lastIndexOf('once more')),
  },
];
const NOT_OK = EXPECTED.filter((e) => e.status !== 'ok' && e.status !== 'redirected');

const ARGS = ['check', '--nntp-server', '127.0.0.1:1119', '--per-host', '4', '--retries', '0'];

test('check FILE: one line per link, in document order, FILE:LINE:COLUMN: STATUS URL (REASON); exit 1', async () => {
  const r = await run([...ARGS, FILE]);
  assert.equal(r.code, 1, r.err);
  const lines = r.out.trimEnd().split('\n');
  assert.equal(lines.length, EXPECTED.length, r.out);
  for (const [i, e] of EXPECTED.entries()) {
    assert.ok(
      lines[i].startsWith(`${FILE}:${e.at}: ${e.status} ${e.url} (`),
      `line ${i}: ${lines[i]}\nexpected ${e.at} ${e.status} ${e.url}`,
    );
    assert.match(lines[i], /\(.+\)/);
  }
  // The links that are not ok, exactly: each broken, invalid or unreachable line, and no other.
  const bad = lines.filter((l) => !/: (ok|redirected) /.test(l));
  assert.deepEqual(
    bad.map((l) => l.slice(FILE.length + 1).split(' (')[0]),
    NOT_OK.map((e) => `${e.at}: ${e.status} ${e.url}`),
  );
  assert.match(
    lines[EXPECTED.findIndex((e) => e.status === 'redirected')],
    / -> http:\/\/127\.0\.0\.1:8080\/hello\.txt$/,
  );
  assert.match(r.err, /^locator check: ok 8, redirected 1, broken 9, invalid 2, unreachable 1\n$/);
});

test('check --json: one NDJSON record per link with file, line, column, status and reason; the duplicate probed once', async () => {
  const r = await run([...ARGS, '--json', FILE]);
  assert.equal(r.code, 1, r.err);
  const recs = r.out
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.deepEqual(
    recs.map((x) => `${x.line}:${x.column} ${x.status} ${x.url}`),
    EXPECTED.map((e) => `${e.at} ${e.status} ${e.url}`),
  );
  for (const x of recs) {
    assert.equal(x.file, FILE);
    assert.equal(typeof x.reason, 'string');
    assert.notEqual(x.reason, '');
  }
  const dup = recs.filter((x) => x.url === 'http://127.0.0.1:8080/missing.html');
  assert.deepEqual(
    dup.map((x) => [x.duplicate, x.attempts]),
    [
      [false, 1],
      [true, 1],
    ],
  );
  for (const x of recs.filter((x) => x.status === 'invalid')) assert.equal(x.attempts, 0);
  assert.deepEqual(recs.find((x) => x.status === 'invalid')?.code, 'encoded-delimiter');
  assert.equal(r.err, '');
});

test('check --html and --junit: the report page and the JUnit XML name the same links, escaped', async () => {
  const html = join(DIR, 'report.html');
  const junit = join(DIR, 'report.xml');
  const r = await run([...ARGS, '--html', html, '--junit', junit, FILE, 'http://127.0.0.1:8080/<"&>']);
  assert.equal(r.code, 1, r.err);
  const page = readFileSync(html, 'utf8');
  assert.match(page, /^<!DOCTYPE html>/);
  const rows = [...page.matchAll(/<tr class="([a-z]+)"><td>([a-z]+)<\/td><td><code>([^<]*)<\/code>/g)];
  assert.equal(rows.length, EXPECTED.length + 1);
  for (const [i, e] of EXPECTED.entries())
    assert.deepEqual([rows[i][1], rows[i][2], rows[i][3]], [e.status, e.status, e.url]);
  // The URL given as an argument (invalid: unsafe characters) is escaped, never markup.
  assert.equal(rows[EXPECTED.length][3], 'http://127.0.0.1:8080/&lt;&quot;&amp;&gt;');
  assert.ok(!page.includes('<"&>'));
  assert.match(page, /<p id="summary">22 URLs: /);

  const xml = readFileSync(junit, 'utf8');
  assert.match(xml, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites>/);
  const suite = /<testsuite name="locator check" tests="([0-9]+)" failures="([0-9]+)" errors="([0-9]+)"/.exec(xml);
  assert.deepEqual(suite?.slice(1), ['22', '12', '1']);
  const cases = [
    ...xml.matchAll(
      /<testcase classname="([^"]*)" name="([^"]*)" time="[0-9.]+">(<(failure|error) type="([a-z]+)" message="[^"]*">([^<]*)<\/\4>)?<\/testcase>/g,
    ),
  ];
  assert.equal(cases.length, 22);
  for (const [i, e] of EXPECTED.entries()) {
    const c = cases[i];
    assert.deepEqual([c[1], c[2]], [FILE, e.url]);
    if (e.status === 'ok' || e.status === 'redirected') assert.equal(c[3], undefined);
    else
      assert.deepEqual(
        [c[4], c[5], c[6]],
        [e.status === 'unreachable' ? 'error' : 'failure', e.status, `${FILE}:${e.at}`],
      );
  }
  assert.deepEqual(
    [cases[21][1], cases[21][2], cases[21][5]],
    ['arguments', 'http://127.0.0.1:8080/&lt;&quot;&amp;&gt;', 'invalid'],
  );
});

test('check with URL arguments and standard input; exit 0 when every link is ok; passwords hidden', async () => {
  const r = await run([...ARGS, 'http://127.0.0.1:8080/hello.txt', '-'], 'see ftp://127.0.0.1:2121/hello.txt\n');
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(
    r.out
      .trimEnd()
      .split('\n')
      .map((l) => l.split(' (')[0]),
    ['ok http://127.0.0.1:8080/hello.txt', '-:1:5: ok ftp://127.0.0.1:2121/hello.txt'],
  );
  const s = await run([...ARGS, 'ftp://someone:sesame@127.0.0.1:2121/hello.txt']);
  assert.equal(s.code, 1);
  assert.match(s.out, /^[a-z]+ ftp:\/\/someone:\*\*\*\*@127\.0\.0\.1:2121\/hello\.txt \(/);
  assert.ok(!s.out.includes('sesame') && !s.err.includes('sesame'));
});

test('check --recursive: the links of a Gopher menu and an FTP listing on the same server, --max-depth', async () => {
  const r = await run([...ARGS, '--recursive', '--max-depth', '2', 'ftp://127.0.0.1:2121/pub/']);
  assert.equal(r.code, 0, r.out + r.err);
  const lines = r.out
    .trimEnd()
    .split('\n')
    .map((l) => l.split(' (')[0]);
  assert.deepEqual(lines.sort(), [
    'ok ftp://127.0.0.1:2121/pub/',
    'ok ftp://127.0.0.1:2121/pub/big.bin',
    // NLST names carry no "/": a name is checked as listed, and its probe (SIZE 550, CWD 250) finds
    // it a directory, which is then listed as nested/ (no session of its own to test it).
    'ok ftp://127.0.0.1:2121/pub/nested',
    'ok ftp://127.0.0.1:2121/pub/nested/deeper',
    'ok ftp://127.0.0.1:2121/pub/unix.txt',
    'ok ftp://127.0.0.1:2121/pub/with%20space.txt',
  ]);
  assert.match(
    r.out,
    /^ok ftp:\/\/127\.0\.0\.1:2121\/pub\/nested\/deeper \(.*\) in ftp:\/\/127\.0\.0\.1:2121\/pub\/nested$/m,
  );
  const g = await run([...ARGS, '--recursive', '--max-depth', '1', '--json', 'gopher://127.0.0.1:7071/1/']);
  const recs = g.out
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as { url: string; depth: number; parent: string | null; status: string });
  assert.equal(recs[0].url, 'gopher://127.0.0.1:7071/1/');
  assert.ok(recs.length > 2, g.out);
  for (const x of recs.slice(1)) {
    assert.equal(x.depth, 1);
    assert.equal(x.parent, 'gopher://127.0.0.1:7071/1/');
  }
  assert.ok(
    recs.some((x) => x.url === 'gopher://127.0.0.1:7071/0/hello.txt' && x.status === 'ok'),
    g.out,
  );
});

test('check usage: a bad option value or an unreadable file exits 2', async () => {
  for (const args of [
    ['--concurrency', '0', 'http://x.example/'],
    ['--per-host', 'two'],
    ['--deadline', '0', 'http://x.example/'],
    ['--netrc-host', 'user@host', 'http://x.example/'],
    [join(DIR, 'no-such-file.txt')],
  ]) {
    const r = await run(['check', ...args]);
    assert.equal(r.code, 2, args.join(' '));
    assert.equal(r.out, '');
  }
});

test('check reads no ~/.netrc entry unless --netrc-host names the host: no AUTHINFO PASS to a server a URL names', async () => {
  // A news server that asks every client for authentication (480, RFC 4643 2.3) and records what it gets.
  const fake = await nntpFake('200 fake news\r\n', (line, socket) => {
    if (line.startsWith('GROUP ')) socket.write('480 authentication required\r\n');
    else if (line.startsWith('AUTHINFO USER')) socket.write('381 password please\r\n');
    else if (line.startsWith('AUTHINFO PASS')) socket.write('281 welcome\r\n');
    else return false;
    return true;
  });
  const home = mkdtempSync(join(tmpdir(), 'locator-check-home-'));
  writeFileSync(join(home, '.netrc'), 'default login operator password hunter2\n', { mode: 0o600 });
  try {
    const url = `nntp://127.0.0.1:${fake.port}/local.test/1`;
    const r = await run(['check', '--retries', '0', url], '', home);
    const sent = fake.commands.flat();
    assert.ok(!sent.some((c) => c.startsWith('AUTHINFO')), sent.join(' | '));
    assert.ok(sent.includes('GROUP local.test'), sent.join(' | '));
    assert.equal(r.code, 1);
    assert.match(r.out, /^broken nntp:\/\/127\.0\.0\.1:[0-9]+\/local\.test\/1 \(/);
    assert.ok(!r.out.includes('hunter2') && !r.err.includes('hunter2'));
    // --netrc-host for another host: still nothing read.
    await run(['check', '--retries', '0', '--netrc-host', 'news.example', url], '', home);
    assert.ok(!fake.commands.flat().some((c) => c.startsWith('AUTHINFO')), fake.commands.flat().join(' | '));
    // --netrc-host naming the host: its entry is used (here the default entry), the password not shown.
    const named = await run(['check', '--retries', '0', '--netrc-host', '127.0.0.1', url], '', home);
    assert.ok(fake.commands.flat().includes('AUTHINFO PASS hunter2'), fake.commands.flat().join(' | '));
    assert.ok(!named.out.includes('hunter2') && !named.err.includes('hunter2'));
    // A news: URL names no host: its news server's host is the one --netrc-host must name.
    const before = fake.commands.flat().filter((c) => c === 'AUTHINFO PASS hunter2').length;
    const news = ['check', '--retries', '0', '--nntp-server', `127.0.0.1:${fake.port}`, 'news:local.test'];
    await run([...news.slice(0, 3), '--netrc-host', 'news.example', ...news.slice(3)], '', home);
    assert.equal(fake.commands.flat().filter((c) => c === 'AUTHINFO PASS hunter2').length, before);
    await run([...news.slice(0, 3), '--netrc-host', '127.0.0.1', ...news.slice(3)], '', home);
    assert.equal(fake.commands.flat().filter((c) => c === 'AUTHINFO PASS hunter2').length, before + 1);
  } finally {
    await fake.close();
  }
});

/** The characters XML 1.0 allows (section 2.2, Char). */
const XML_CHARS = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;

test('check: a URL holding LF is one row of the report, its LF shown as \\x0a (no forged row)', async () => {
  const url = 'gopher://127.0.0.1:1/0a\nok gopher://forged.example/ (fake)';
  const r = await run(['check', '--retries', '0', url]);
  assert.equal(r.code, 1);
  const lines = r.out.split('\n');
  assert.deepEqual(lines.length, 2, r.out); // one row and the final line end
  assert.ok(lines[0].startsWith('invalid gopher://127.0.0.1:1/0a\\x0aok gopher://forged.example/ (fake) ('), r.out);
  assert.ok(!/^ok /m.test(r.out), r.out);
  const j = await run(['check', '--retries', '0', '--json', url]);
  assert.equal((JSON.parse(j.out) as { url: string }).url, url);
});

test('check: a multi-line FTP reply is one row, its line ends shown escaped', async () => {
  const fake = await FakeFtp.start({
    handle: standard(
      { 'dir/': '' },
      {
        SIZE: (_v, _a, s) =>
          s.write('550-No such file.\r\nok ftp://forged.example/file (fake)\r\n\x1b[2J\r\n550 End.\r\n'),
      },
    ),
  });
  try {
    const r = await run(['check', '--retries', '0', fake.url('missing.txt')]);
    assert.equal(r.code, 1, r.err);
    const lines = r.out.trimEnd().split('\n');
    assert.equal(lines.length, 1, r.out);
    assert.match(lines[0], /^broken ftp:\/\/127\.0\.0\.1:[0-9]+\/missing\.txt \(550 No such file\./);
    assert.ok(lines[0].includes('\\x0aok ftp://forged.example/file (fake)'), lines[0]);
    assert.ok(!r.out.includes('\x1b') && !r.out.includes('\r'), JSON.stringify(r.out));
  } finally {
    await fake.stop();
  }
});

test('check --junit and --html: a reply holding U+FFFE, U+FFFF and controls, a URL holding LF: XML 1.0 characters only, shown escaped', async () => {
  // A Gopher server whose menus are one error item (RFC 1436 3.8, type 3) with characters XML 1.0 does not allow.
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', () =>
      socket.end(Buffer.from('3gone \uffff\ufffe\x01\x0b here\terror\terror.host\t1\r\n.\r\n', 'utf8')),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const html = join(DIR, 'xml-report.html');
  const junit = join(DIR, 'xml-report.xml');
  try {
    const r = await run([
      'check',
      '--retries',
      '0',
      '--html',
      html,
      '--junit',
      junit,
      `gopher://127.0.0.1:${port}/1/`,
      'gopher://127.0.0.1:1/0a\nb\ufffec',
    ]);
    assert.equal(r.code, 1, r.err);
    for (const file of [junit, html]) {
      const text = readFileSync(file, 'utf8');
      const bad = [...text].filter((ch) => !XML_CHARS.test(ch) || (ch < ' ' && ch !== '\n'));
      assert.deepEqual(
        bad.map((ch) => ch.codePointAt(0)),
        [],
        file,
      );
      assert.ok(text.includes('gone \\uffff\\ufffe\\x01\\x0b here'), text);
      assert.ok(text.includes('gopher://127.0.0.1:1/0a\\x0ab\\ufffec'), text);
    }
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('check --junit to a folder that does not exist, with --html: a usage error before any probe, no temporary folder left', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'locator-check-tmp-'));
  try {
    const html = join(DIR, 'never.html');
    const args = ['check', '--html', html, '--junit', join(DIR, 'no-such-dir', 'r.xml'), 'http://127.0.0.1:2/x'];
    const r = await runCli(args, { HOME: '/nonexistent', TMPDIR: tmp });
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /--junit .*r\.xml/);
    assert.equal(r.out, '');
    assert.deepEqual(readdirSync(tmp), []);
    assert.ok(!existsSync(html));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('check FILE reports the document as written: the run-on URL and the IPv6 literal are invalid rows at their places, the wrapped one with its note', async () => {
  const doc = join(DIR, 'as-written.txt');
  writeFileSync(
    doc,
    [
      'see ftp://127.0.0.1:2121/pub/%zz now',
      'and http://[::1]:18399/ too',
      'and <URL:http://127.0.0.1:8080/hel lo.txt>',
      '',
    ].join('\n'),
  );
  const r = await run(['check', '--retries', '0', doc]);
  assert.equal(r.code, 1, r.err);
  const lines = r.out.trim().split('\n');
  assert.equal(lines.length, 3, r.out);
  assert.match(lines[0], new RegExp(`^${doc}:1:5: invalid ftp://127\\.0\\.0\\.1:2121/pub/%zz \\(.*invalid-escape`));
  assert.match(lines[1], new RegExp(`^${doc}:2:5: invalid http://\\[::1\\]:18399/ \\(.*ipv6-literal`));
  assert.equal(
    lines[2],
    `${doc}:3:5: ok http://127.0.0.1:8080/hello.txt (200 OK (HEAD)); white space in the wrapper ignored (RFC 1738 appendix): written "http://127.0.0.1:8080/hel lo.txt"`,
  );
});

test('check --recursive without --state, interrupted (SIGINT) or killed mid-crawl, leaves no temporary folder behind', async () => {
  // A Gopher menu of many documents served one at a time, 200 ms apart: the crawl is under way when signalled.
  const menu = Array.from({ length: 50 }, (_, i) => `0doc ${i}\t/d${i}\t127.0.0.1\tPORT\r\n`).join('') + '.\r\n';
  const server = net.createServer((s) =>
    s.once('data', (d) => {
      const port = (server.address() as net.AddressInfo).port;
      s.end(String(d).trim() === '' ? menu.replaceAll('PORT', String(port)) : 'a document\r\n');
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  try {
    for (const signal of ['SIGINT', 'SIGKILL'] as const) {
      const tmp = mkdtempSync(join(tmpdir(), 'locator-check-tmp-'));
      try {
        const args = ['check', '--recursive', '--delay', '200', '--per-host', '1', `gopher://127.0.0.1:${port}/1`];
        const p = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, TMPDIR: tmp } });
        let out = '';
        p.stdout.on('data', (d) => (out += d));
        // Signalled once the crawl has reported a document of the menu.
        await new Promise<void>((resolve) => p.stdout.on('data', () => out.includes('/d') && resolve()));
        const ended = new Promise((r) => p.on('close', r));
        p.kill(signal);
        await ended;
        assert.deepEqual(readdirSync(tmp), [], `${signal}: ${out}`);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    }
  } finally {
    server.close();
  }
});

test('check: --state naming a file, and --html or --junit naming a folder, are usage errors (exit 2) before any URL is checked', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-check-out-'));
  try {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder\n');
    for (const [args, says] of [
      [['--recursive', '--state', file], /--state .*a-file: not a folder/],
      [['--html', dir], /--html .*: the report cannot be written there: it is a folder/],
      [['--junit', dir], /--junit .*: the report cannot be written there: it is a folder/],
    ] as const) {
      const r = await run(['check', ...args, 'gopher://127.0.0.1:7070/']);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, says);
      assert.equal(r.out, '');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('check: --scope, --state, --max-depth, --max-urls and --ignore-robots without --recursive are usage errors naming the option, before any URL is checked; from a config file they wait for --recursive', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-check-crawl-'));
  try {
    const state = join(dir, 'state');
    for (const args of [
      ['--scope', 'host'],
      ['--state', state],
      ['--max-depth', '2'],
      ['--max-urls', '5'],
      ['--ignore-robots'],
    ]) {
      const r = await run(['check', ...args, 'gopher://127.0.0.1:7070/']);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.match(r.err, new RegExp(`^locator check: ${args[0]} needs --recursive`), args.join(' '));
      assert.equal(r.out, '');
    }
    assert.equal(existsSync(state), false, 'no state folder made');
    // A malformed value is still named as such; with --recursive, the option is taken.
    assert.match((await run(['check', '--max-urls', 'x', 'gopher://127.0.0.1:7070/'])).err, /--max-urls takes a whole/);
    const crawl = await run(['check', '--recursive', '--max-urls', '1', '--json', 'gopher://127.0.0.1:7070/']);
    assert.equal(crawl.code, 0, crawl.err);
    assert.equal(crawl.out.trim().split('\n').length, 1);
    // The same options in a config file are for the runs with --recursive: no error without it.
    const config = join(dir, 'check.json');
    writeFileSync(config, JSON.stringify({ 'max-urls': 1, scope: 'host' }));
    const plain = await run(['check', '--config', config, '--json', 'gopher://127.0.0.1:7070/']);
    assert.equal(plain.code, 0, plain.err);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
