// `locator get`, `locator set` and `locator build` as scripts use them (docs/cli.md, "get, set
// and build"): output, --json, batch mode over standard input, exit codes 0, 1 and 2, and a
// registered scheme (--scheme) read and changed by the names of its fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers.js';

const BIN = join(ROOT, 'dist', 'cli', 'main.js');
function run(args: string[], stdin?: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], { input: stdin ?? '', encoding: 'utf8', cwd: ROOT });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('get --format: generic parts, fields by name, list items, raw forms, the default port', () => {
  const r = run([
    'get',
    '--format',
    '{scheme}|{host}|{port}|{port:written}|{selector}|{selector:raw}|{gophertype}|{{x}}',
    'gopher://h.example/0a%20b',
  ]);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, 'gopher|h.example|70||a b|a%20b|0|{x}\n');
  const f = run([
    'get',
    '-f',
    '{segments}|{segments[0]}|{segments[-1]}|{name}|{ftptype}|{cwd}',
    'ftp://h/a/b/c%20d;type=I',
  ]);
  assert.equal(f.out, 'a/b/c d|a|c d|c d|i|a/b\n');
  const s = run(['get', '--separator', ' ', '-f', '{keywords}', 'http://h/s?a+b%2Bc']);
  assert.equal(s.out, 'a b+c\n');
});

test('get: the password is masked unless --show-secrets; controls are escaped, never written', () => {
  assert.equal(run(['get', '-f', '{user}:{password}', 'ftp://u:secret@h/']).out, 'u:****\n');
  assert.equal(run(['get', '--show-secrets', '-f', '{password}', 'ftp://u:secret@h/']).out, 'secret\n');
  const c = run(['get', '-f', '{fragment}', 'http://h/#a%0Ab%1B%5B2J']);
  assert.equal(c.out, 'a\\x0ab\\x1b[2J\n');
  assert.doesNotMatch(c.out, /\x1b/);
});

test('get: a missing part is empty, --strict makes it an error (1); an unknown name is a usage error (2) naming the parts', () => {
  assert.deepEqual(run(['get', '-f', '[{fragment}]', 'http://h/']), { code: 0, out: '[]\n', err: '' });
  const strict = run(['get', '--strict', '-f', '{fragment}', 'http://h/']);
  assert.equal(strict.code, 1);
  assert.equal(strict.out, '');
  assert.match(strict.err, /has no fragment/);
  const unknown = run(['get', '-f', '{selector}', 'http://h/']);
  assert.equal(unknown.code, 2);
  assert.match(
    unknown.err,
    /http URLs have no part "selector"; their parts: scheme, user, password, host, port, path, fragment, hpath/,
  );
  const bad = run(['get', '-f', '{host', 'http://h/']);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /not closed/);
});

test('get: batch mode over standard input; a line that is not a valid URL is exit 1, the others print', () => {
  const r = run(['get', '-f', '{host}'], 'http://a.example/\nhttp://b .example/\nnews:x@y.example\nftp://c.example/\n');
  assert.equal(r.code, 1);
  assert.equal(r.out, 'a.example\n\nc.example\n');
  assert.match(r.err, /"http:\/\/b \.example\/"/);
});

test('get --json: every part, the object build takes back; with --format, the placeholders by their text', () => {
  const all = run(['get', '--json', 'ftp://u:pw@h/a/b%2Fc;type=i']);
  assert.equal(all.code, 0, all.err);
  assert.deepEqual(JSON.parse(all.out), {
    input: 'ftp://u:****@h/a/b%2Fc;type=i',
    ok: true,
    parts: {
      scheme: 'ftp',
      user: 'u',
      password: '****',
      host: 'h',
      port: 21,
      path: 'a/b/c;type=i',
      fragment: null,
      segments: ['a', 'b/c'],
      cwd: ['a'],
      name: 'b/c',
      ftptype: 'i',
    },
    error: null,
  });
  const some = run(['get', '--json', '-f', '{host}{segments[1]}{port:written}', 'ftp://h/a/b']);
  assert.deepEqual(JSON.parse(some.out).parts, { host: 'h', 'segments[1]': 'b', 'port:written': null });
  const bad = run(['get', '--json'], 'http://h/a b\n');
  assert.equal(bad.code, 1);
  assert.equal(JSON.parse(bad.out).ok, false);
});

test('set: parts and fields changed, the rest kept as written; values encoded by the scheme', () => {
  const r = run(['set', 'ftp://h.example/pub/a%7e.txt', 'ftptype=a', 'name=b c/d']);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, 'ftp://h.example/pub/b%20c%2Fd;type=a\n');
  assert.equal(
    run(['set', 'gopher://h.example/1a%7eb', 'selector=x y', 'search=q']).out,
    'gopher://h.example/1x%20y%09q\n',
  );
  assert.equal(
    run(['set', 'http://h.example/a;b/c?x', 'segments[1]=z', 'port=8080']).out,
    'http://h.example:8080/a;b/z?x\n',
  );
  assert.equal(run(['set', 'nntp://h.example/g/12', 'article=13']).out, 'nntp://h.example/g/13\n');
  assert.equal(run(['set', 'http://h.example/a#f', 'fragment=']).out, 'http://h.example/a\n');
  assert.equal(run(['set', 'http://h.example/a', 'fragment:raw=%20x']).out, 'http://h.example/a#%20x\n');
  assert.equal(run(['set', 'prospero://h.example/a', 'fields.k=v w']).out, 'prospero://h.example/a;k=v%20w\n');
});

test('set: batch mode, the URLs on standard input and only assignments as arguments', () => {
  const r = run(['set', 'host=k.example'], 'http://a/x\nftp://b/y;type=i\nnews:z@y.example\n');
  assert.equal(r.code, 2);
  assert.equal(r.out, 'http://k.example/x\nftp://k.example/y;type=i\n');
  assert.match(r.err, /news URLs have no part "host"; their parts: scheme, fragment, kind, group, messageId/);
});

test('set: a result that is not valid is an error naming the part (1); no assignment is a usage error (2)', () => {
  const r = run(['set', 'https://curl.se/hello', 'user=hej']);
  assert.equal(r.code, 1);
  assert.match(r.err, /the user set makes "https:\/\/hej@curl.se\/hello" not valid/);
  assert.equal(run(['set', 'http://h/']).code, 2);
  const j = run(['set', '--json', 'http://h/', 'port=x']);
  assert.equal(j.code, 1);
  assert.equal(JSON.parse(j.out).error.code, 'invalid-part');
});

test('build: the library build() from NAME=VALUE, the same names as get; unknown names exit 2', () => {
  assert.deepEqual(run(['build', 'gopher', 'host=h.example', 'gophertype=0', 'selector=a b']), {
    code: 0,
    out: 'gopher://h.example/0a%20b\n',
    err: '',
  });
  assert.equal(run(['build', 'nntp', 'host=h', 'group=comp.x', 'article=12']).out, 'nntp://h/comp.x/12\n');
  assert.equal(
    run(['build', 'ftp', 'host=h', 'segments=a/b c', 'ftptype=i', 'port=2121']).out,
    'ftp://h:2121/a/b%20c;type=i\n',
  );
  assert.equal(run(['build', 'http', 'host=h', 'path=a;b', 'fragment=x y']).out, 'http://h/a;b#x%20y\n');
  const u = run(['build', 'http', 'hots=h']);
  assert.equal(u.code, 2);
  assert.match(u.err, /http URLs have no part "hots"; their parts: scheme, user/);
  const bad = run(['build', 'news', 'messageId=no-at-sign']);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /invalid-field/);
});

test('get, set, build: a registered scheme (--scheme) by the names of its fields, with no change to the command', () => {
  const m = ['--scheme', 'examples/x-finger.mjs'];
  const g = run(['get', ...m, '--json', 'x-finger://h.example/root;W']);
  assert.equal(g.code, 0, g.err);
  assert.deepEqual(JSON.parse(g.out).parts, {
    scheme: 'x-finger',
    user: 'root',
    password: null,
    host: 'h.example',
    port: 79,
    path: 'root;W',
    fragment: null,
    verbose: true,
  });
  assert.equal(run(['set', ...m, 'x-finger://h.example/root;W', 'user=bob']).out, 'x-finger://h.example/bob;W\n');
  assert.equal(run(['set', ...m, 'x-finger://h.example/root', 'verbose=true']).out, 'x-finger://h.example/root;W\n');
  assert.equal(
    run(['build', ...m, 'x-finger', 'host=h.example', 'user=bob', 'verbose=true']).out,
    'x-finger://h.example/bob;W\n',
  );
});

test('get, set and build --help: from their option tables', () => {
  const h = run(['get', '--help']);
  assert.equal(h.code, 0);
  for (const o of ['--format TEMPLATE', '--json', '--strict', '--separator SEP', 'Exit status'])
    assert.ok(h.out.includes(o), o);
  assert.match(run(['set', '--help']).out, /set \[--json\] \[--separator SEP\] URL NAME=VALUE/);
  assert.match(run(['build', '--help']).out, /build \[--json\] \[--separator SEP\] SCHEME NAME=VALUE/);
});
