// Passwords never appear in what a command writes unless --show-secrets (RFC 1738 6: "The use of
// URLs containing passwords that should be secret is clearly unwise"), whatever characters RFC
// 1738 3.1 allows in them: password = *[ uchar | ";" | "?" | "&" | "=" ], uchar = unreserved |
// escape, unreserved = alpha | digit | safe | extra, safe = "$-_.+", extra = "!*'(),". Property
// test with a fixed seed over ftp, telnet, news, http and an unregistered scheme, through the
// built CLI, every command in text and --json; the URLs go through standard input in one process
// per command and mode where the command reads it (equal takes two arguments: a bounded sample).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { ROOT, runCli } from '../helpers.js';
import { FakeFtp, standard } from '../clients/ftp/fakes.js';
import { decodeText } from '../../src/core/percent.js';

const BIN = join(ROOT, 'dist', 'cli', 'main.js');
function run(args: string[], stdin = '') {
  const r = spawnSync(process.execPath, [BIN, ...args], { input: stdin, encoding: 'utf8', maxBuffer: 1 << 26 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const ALPHA = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** safe, extra and the four a password may hold besides uchar (RFC 1738 3.1, 5). */
const PUNCT = "$-_.+!*'(),;?&=";
/** Escapes: of delimiters, of quotes and backslash, of controls and a bidi override (UTF-8). */
const ESCAPES = [
  '%3A',
  '%40',
  '%2F',
  '%22',
  '%5C',
  '%25',
  '%27',
  '%3F',
  '%1B',
  '%0A',
  '%7F',
  '%E2%80%AE',
  '%20',
  '%23',
];

const piece = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ALPHA) },
  { weight: 4, arbitrary: fc.constantFrom(...PUNCT) },
  { weight: 2, arbitrary: fc.constantFrom(...ESCAPES) },
);
/** A password: a marker at each end (so that finding it in output means a leak), RFC 1738 characters between. */
const password = fc.array(piece, { minLength: 1, maxLength: 10 }).map((a) => `Pw7${a.join('')}Kq`);
const user = fc.array(fc.constantFrom(...ALPHA, ...'-_.;&='), { minLength: 1, maxLength: 6 }).map((a) => a.join(''));
const scheme = fc.constantFrom('ftp', 'telnet', 'news', 'http', 'x-any');
const SAMPLE = fc.sample(fc.tuple(scheme, user, password), { seed: 1738, numRuns: 80 });
const URLS = SAMPLE.map(([s, u, p]) => ({ password: p, url: `${s}://${u}:${p}@h${s.length}.example.com/p/q` }));
/** Every form in which a password could show: as written, decoded, and JSON-escaped of each. */
const NEEDLES = [
  ...new Set(
    URLS.flatMap(({ password: p }) => {
      const d = decodeText(p, { strict: false });
      return [p, d, JSON.stringify(p).slice(1, -1), JSON.stringify(d).slice(1, -1)];
    }),
  ),
];

function leaks(text: string): string[] {
  return NEEDLES.filter((n) => text.includes(n));
}

function check(what: string, r: { out: string; err: string }): void {
  const found = leaks(r.out + r.err);
  assert.deepEqual(found, [], `${what} shows ${JSON.stringify(found)}:\n${(r.out + r.err).slice(0, 2000)}`);
}

const LINES = URLS.map((u) => u.url).join('\n') + '\n';
/** The same logins as "//" partial forms (RFC 1808 2.4.3), for resolve. */
const PARTIALS = URLS.map((u) => u.url.slice(u.url.indexOf('//'))).join('\n') + '\n';

test('the sample holds every character RFC 1738 3.1 allows in a password, and the escapes', () => {
  const all = URLS.map((u) => u.password).join('');
  for (const c of [...PUNCT, ...ESCAPES]) assert.ok(all.includes(c), c);
  for (const s of ['ftp', 'telnet', 'news', 'http', 'x-any'])
    assert.ok(
      URLS.some((u) => u.url.startsWith(`${s}:`)),
      s,
    );
});

for (const mode of [[], ['--json']]) {
  const m = mode.length === 0 ? 'text' : 'json';
  for (const cmd of ['parse', 'explain', 'lint', 'normalize']) {
    test(`${cmd} (${m}) never shows a password (RFC 1738 6)`, () => {
      check(`${cmd} ${m}`, run([cmd, ...mode], LINES));
      // Also as "<URL:...>" with white space around, and in a line no parse can read.
      const wrapped =
        URLS.map((u) => ` <URL:${u.url}> `).join('\n') + '\n' + URLS.map((u) => `${u.url} x`).join('\n') + '\n';
      check(`${cmd} ${m} (wrapped)`, run([cmd, ...mode], wrapped));
    });
  }

  test(`resolve (${m}) never shows a password: a base with one, absolute and "//" partial forms`, () => {
    check(`resolve ${m}`, run(['resolve', ...mode, 'http://a.example/b/c'], LINES + PARTIALS));
    for (const { url } of URLS.slice(0, 5))
      check(`resolve ${m} ${url}`, run(['resolve', ...mode, url], 'd\n../e\n//other/f\n'));
    check(`resolve ${m} ftp base`, run(['resolve', ...mode, 'ftp://x.example/'], PARTIALS));
  });

  test(`relativize (${m}) never shows a password: targets on another host come out as "//" forms`, () => {
    check(`relativize ${m}`, run(['relativize', ...mode, 'http://a.example/b/c'], LINES));
    check(`relativize ${m} same scheme`, run(['relativize', ...mode, 'ftp://x.example/'], LINES));
    for (const { url } of URLS.slice(0, 5))
      check(`relativize ${m} ${url}`, run(['relativize', ...mode, url], `${url}\n${url.replace('/p/q', '/p/r')}\n`));
  });

  test(`extract (${m}) never shows a password`, () => {
    const text = URLS.map((u, i) => (i % 2 === 0 ? `see <URL:${u.url}> here` : `bare ${u.url} too`)).join('\n') + '\n';
    check(`extract ${m}`, run(['extract', ...mode], text));
  });

  test(`equal (${m}) never shows a password (a bounded sample: it takes two arguments)`, () => {
    for (const { url } of URLS.filter((_, i) => i % 16 === 0)) {
      check(`equal ${m} ${url}`, run(['equal', ...mode, url, 'ftp://other.example/']));
      check(`equal ${m} ${url} (same)`, run(['equal', ...mode, url, url]));
      check(`equal ${m} ${url} (unreadable)`, run(['equal', ...mode, 'nope', `${url} x`]));
    }
  });
}

test('--show-secrets shows them: the check above finds a password where there is one', () => {
  for (const cmd of ['parse', 'normalize', 'lint', 'explain']) {
    const r = run([cmd, '--json', '--show-secrets'], LINES);
    for (const { password: p, url } of URLS)
      assert.ok(r.out.includes(p) || r.out.includes(JSON.stringify(p).slice(1, -1)), `${cmd} ${url}`);
  }
  const r = run(['normalize', '--show-secrets'], "ftp://u:a?b'c@h.com/x\n");
  assert.equal(r.out, "ftp://u:a?b'c@h.com/x\n");
});

test('normalize, resolve, relativize, equal, extract: the password as "****" and the rest as before', () => {
  assert.equal(run(['normalize'], "FTP://u:a?b'c@H.com/x\n").out, 'ftp://u:****@h.com/x\n');
  assert.equal(run(['resolve', 'telnet://u:a?b@h.com/', "//v:c'd@k.com/"]).out, 'telnet://v:****@k.com/\n');
  assert.equal(run(['relativize', 'ftp://x.com/', 'ftp://u:a?b@h.com/x']).out, '//u:****@h.com/x\n');
  assert.equal(
    run(['equal', "news://u:a'b@h.com/x", 'news://u:c@h.com/x']).out,
    'not equivalent:\n  news://u:****@h.com/x\n  news://u:****@h.com/x\n',
  );
  const ex = JSON.parse(run(['extract', '--json'], '<URL:ftp://u:a?b@h.com/x>\n').out);
  assert.equal(ex.url, 'ftp://u:****@h.com/x');
  assert.equal(ex.end, 25, 'offsets count the text as given');
});

test('fetch: a server that echoes the PASS argument in its 530 reply shows no form of the password (RFC 1738 6)', async () => {
  const fake = await FakeFtp.start({
    handle: standard({ x: 'data' }, { PASS: (_v, arg, s) => s.reply(`530 Login incorrect for "${arg}" (${arg}).`) }),
  });
  try {
    // Sent decoded: a"b\c'd?e; quoted by the client's message JSON-escaped: a\"b\\c'd?e.
    for (const pw of ["Pw7a%22b%5Cc'd?eKq", "Pw7a'b?c;d&e=fKq", 'Pw7%1B%5D0%3Bx%07Kq']) {
      const r = await runCli(['fetch', '--timeout', '5000', fake.url('x', `u:${pw}@`)]);
      const d = decodeText(pw, { strict: false });
      assert.equal(r.code, 3, r.err);
      assert.match(r.err, /530/);
      assert.ok(r.err.includes('****'), r.err);
      for (const n of [pw, d, JSON.stringify(d).slice(1, -1)]) assert.ok(!r.err.includes(n), `${n} in ${r.err}`);
      assert.ok(!/[\x00-\x09\x0b-\x1f\x7f]/.test(r.err), `no raw control character: ${JSON.stringify(r.err)}`);
    }
    const shown = await runCli(['fetch', '--show-secrets', '--timeout', '5000', fake.url('x', 'u:Pw7a%22bKq@')]);
    assert.ok(shown.err.includes('Pw7a\\"bKq'), shown.err);
  } finally {
    await fake.stop();
  }
});
