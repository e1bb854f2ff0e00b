// `locator lint` as scripts use it (test/data/docs/contract.md): arguments or stdin lines,
// `{ "input", "ok", "diagnostics" }` per input, exit 1 on any error, passwords hidden unless
// --show-secrets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers.js';

const BIN = join(ROOT, 'dist', 'cli', 'main.js');
function run(args: string[], stdin?: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], { input: stdin ?? '', encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const lines = (out: string) =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

test('lint --json: the contract fields; exit 0 when no diagnostic is an error', () => {
  const r = run(['lint', '--json', 'http://www.w3.org/', 'gopher://h.com:7070/0x']);
  assert.equal(r.code, 0, r.err);
  const [a, b] = lines(r.out);
  assert.deepEqual(Object.keys(a).sort(), ['diagnostics', 'input', 'ok']);
  assert.deepEqual(a, { input: 'http://www.w3.org/', ok: true, diagnostics: [] });
  assert.equal(b.ok, true);
  assert.deepEqual(
    b.diagnostics.map((d: { code: string; offset: number }) => [d.code, d.offset]),
    [['nondefault-port', 15]],
  );
  for (const d of b.diagnostics)
    assert.deepEqual(Object.keys(d).sort(), ['code', 'message', 'offset', 'section', 'severity']);
});

test('lint --json: batch mode reads stdin lines, keeps going, exits 1 when any diagnostic is an error', () => {
  const r = run(['lint', '--json'], 'gopher://h.com:25/_HELO%0D%0A\r\nnope\nnews:*\n');
  assert.equal(r.code, 1);
  const [smtp, nope, news] = lines(r.out);
  assert.equal(smtp.ok, false);
  assert.deepEqual(
    smtp.diagnostics.map((d: { code: string; offset: number }) => `${d.code}@${d.offset}`),
    ['reserved-port@15', 'encoded-delimiter@23', 'encoded-delimiter@26'],
  );
  assert.deepEqual([nope.ok, nope.diagnostics[0].code], [false, 'missing-scheme']);
  assert.deepEqual(news, { input: 'news:*', ok: true, diagnostics: [] });
});

test('passwords: hidden in --json input and the human view unless --show-secrets', () => {
  const url = 'ftp://u:hunter2@h.com:2121/';
  const j = run(['lint', '--json', url]);
  assert.equal(j.code, 0);
  assert.equal(j.out.includes('hunter2'), false);
  const [rec] = lines(j.out);
  assert.equal(rec.input, 'ftp://u:****@h.com:2121/');
  // offsets still count the input as given
  assert.deepEqual(
    rec.diagnostics.map((d: { code: string; offset: number }) => `${d.code}@${d.offset}`),
    ['password-in-url@8', 'nondefault-port@22'],
  );
  const h = run(['lint', url]);
  assert.equal(h.out.includes('hunter2'), false);
  const shown = run(['lint', '--json', '--show-secrets', url]);
  assert.equal(lines(shown.out)[0].input, url);
  assert.ok(run(['lint', '--show-secrets', url]).out.includes('hunter2'));
});

test('lint: the human view marks each finding under the (redacted) input and prints its true offset', () => {
  const r = run(['lint', 'ftp://u:hunter2@h.com:25/a%0D']);
  assert.equal(r.code, 1);
  const out = r.out.split('\n');
  assert.equal(out[0], '"ftp://u:****@h.com:25/a%0D": 2 errors, 1 warning');
  assert.equal(out[1], '  ftp://u:****@h.com:25/a%0D');
  // "~" under the mask (the password), "^" under the port and under the escape
  assert.equal(out[2], `  ${' '.repeat(8)}~${' '.repeat(10)}^${' '.repeat(3)}^`);
  assert.equal(out[1].indexOf('****'), out[2].indexOf('~'));
  assert.equal(out[1].indexOf('25'), out[2].indexOf('^'));
  assert.equal(out[1].indexOf('%0D'), out[2].lastIndexOf('^'));
  assert.ok(
    out.includes(
      "  error reserved-port at 22 (RFC 1738 6): port 25 is registered to smtp: a client of ftp URLs that connects there talks to a server of another protocol, which may read the URL's text as its own commands (RFC 1738 6)",
    ),
  );
  assert.ok(r.out.includes('  error encoded-delimiter at 26 (RFC 1738 6): "%0D" in a path segment decodes to CR'));
  const clean = run(['lint', 'http://www.w3.org/']);
  assert.equal(clean.code, 0);
  assert.equal(clean.out, '"http://www.w3.org/": no findings\n');
});

test('lint --trim; --help lists lint and --show-secrets; an unknown option is a usage error', () => {
  const r = run(['lint', '--json', '--trim', ' http://www.w3.org/ ']);
  assert.deepEqual(
    lines(r.out)[0].diagnostics.map((d: { code: string }) => d.code),
    ['trimmed-whitespace', 'trimmed-whitespace'],
  );
  const h = run(['lint', '--help']);
  for (const s of ['lint [--json] [--trim] [URL...]', '--show-secrets']) assert.ok(h.out.includes(s), s);
  assert.equal(run(['lint', '--bogus']).code, 2);
});
