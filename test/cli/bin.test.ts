// The installed command (package.json "bin": dist/cli/locator.cjs, made by scripts/build-cli.mjs)
// answers --version itself and runs the CLI bundled into one of two files (the text commands
// alone, or all of it), compiled from a V8 code cache: it must do what dist/cli/main.js does,
// byte for byte, in every path that the bundling could change: the version (read from
// package.json), the choice of bundle, lazily loaded commands, batch workers (a separate file
// found from the bundle's own URL), --scheme modules (import() lent by the bin), usage errors and
// exit statuses. And each cache must be one this Node accepts, or it is dead weight.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import vm from 'node:vm';
import Module from 'node:module';
import { CLI, ROOT } from '../helpers.js';

const BIN = join(ROOT, 'dist', 'cli', 'locator.cjs');
const BUNDLES = ['locator.bundle.cjs', 'locator.text.cjs', 'locator.fetch.cjs', 'locator.archive.cjs'].map((f) =>
  join(ROOT, 'dist', 'cli', f),
);
const SCHEME = join(ROOT, 'examples', 'x-finger.mjs');
const WORKER = join(ROOT, 'dist', 'cli', 'locator.worker.cjs');

function run(file: string, args: string[], input = '') {
  const r = spawnSync(process.execPath, [file, ...args], { input, encoding: 'utf8', maxBuffer: 1 << 26 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

test('package.json "bin" is the bundled command', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  assert.equal(join(ROOT, pkg.bin.locator), BIN);
});

const CASES: Array<[string[], string]> = [
  [['--version'], ''],
  [['-V'], ''],
  [['--help'], ''],
  [[], ''],
  [['bogus'], ''],
  [['parse', '--bogus'], ''],
  [['parse', '--json', 'ftp://u:pw@h.com/x;type=a', 'http://h.com:99999/', 'x'], ''],
  [['parse', 'ftp://me:s3cr3t@host.com/a b'], ''],
  [['parse', '--json'], 'http://a.com/\n\u202e\x1b[2J\ngopher://h.com/1x\n'],
  [['parse', '--json', '--jobs', '2'], 'http://a.com/\nftp://u:p@b.com/\nnot a url\n'],
  [['normalize', '--jobs', '2'], 'HTTP://A.com:80/\nftp://b.com/%7e\n%\n'],
  [['normalize'], 'HTTP://A.com:80/\n%\n'],
  [['resolve', 'http://a/b/c/d;p?q', '../g', 'g?y'], ''],
  [['lint', '--json', 'ftp://u:pw@h.com/'], ''],
  [['extract', '--json'], 'see <URL:ftp://u:secret@h.com/x> and http://a.com/.\n'],
  [['explain', 'gopher://h.com/1x'], ''],
  [['parse', '--scheme', SCHEME, '--json', 'x-finger://h.com/joe'], ''],
  [['equal', 'http://A.com/', 'http://a.com:80/'], ''],
  [['-V', 'parse'], ''],
  [['-h'], ''],
  [['--bogus'], ''],
  [['help'], ''],
  [['help', 'parse'], ''],
  [['help', 'fetch'], ''],
  [['lint', '--help'], ''],
  [['check', '--help'], ''],
  [['check', '--bogus'], ''],
  [['relativize', 'http://a/b/c', 'http://a/b/d'], ''],
  [['fetch', '--help'], ''],
  [['fetch', '--bogus'], ''],
  [['fetch', `file://${ROOT}/package.json`], ''],
  [['fetch', 'ftp://127.0.0.1:2121/pub/unix.txt'], ''],
  [['fetch', 'ftp://127.0.0.1:2121/pub/missing.bin'], ''],
  [['archive', '--help'], ''],
  [['archive', '--bogus'], ''],
  [['help', 'archive'], ''],
];

for (const [args, input] of CASES) {
  test(`the bin and main.js agree: locator ${args.join(' ')}`, () => {
    const a = run(BIN, args, input);
    const b = run(CLI, args, input);
    assert.equal(a.status, b.status);
    assert.equal(a.out, b.out);
    assert.equal(a.err.replaceAll(BIN, CLI), b.err);
  });
}

test('--version is answered by the bin alone: from package.json, with no bundle beside it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-bin-'));
  try {
    mkdirSync(join(dir, 'dist', 'cli'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ version: '9.8.7' }));
    copyFileSync(BIN, join(dir, 'dist', 'cli', 'locator.cjs'));
    for (const flag of ['--version', '-V']) {
      const r = run(join(dir, 'dist', 'cli', 'locator.cjs'), [flag]);
      assert.deepEqual(r, { status: 0, out: '9.8.7\n', err: '' });
    }
    // Any other command line needs its bundle.
    assert.notEqual(run(join(dir, 'dist', 'cli', 'locator.cjs'), ['parse', 'http://a.com/']).status, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a --scheme module that does not load: the usage error, exit 2, from the bin too', () => {
  const r = run(BIN, ['parse', '--scheme', join(ROOT, 'no-such-scheme.mjs'), 'x']);
  assert.equal(r.status, 2);
  assert.match(r.err, /cannot load the scheme module/);
});

test("the code cache beside each bundle is one this Node accepts, and the bundle's import() calls are the bin's", () => {
  for (const bundle of BUNDLES) {
    const source = readFileSync(bundle, 'utf8');
    const script = new vm.Script(Module.wrap(source), {
      filename: bundle,
      cachedData: readFileSync(`${bundle}.cache`),
    });
    assert.equal(script.cachedDataRejected, false, bundle);
    // Only the fallback for a plain require() of the bundle calls import() itself.
    assert.deepEqual(source.match(/(?<![\w$.])import\(/g), ['import('], bundle);
    assert.ok(!source.startsWith('#!'), bundle);
  }
});

test('every bundle is ASCII: one character above 0x7f makes V8 hold the whole source as two-byte text, twice', () => {
  for (const bundle of [...BUNDLES, WORKER]) {
    const bytes = readFileSync(bundle);
    const at = bytes.findIndex((b) => b > 0x7f);
    assert.equal(at, -1, `${bundle}: a byte above 0x7f at ${at}`);
  }
});

test("--jobs 2 from the bin runs the worker's bundle: the rows of --jobs 1, a --scheme module's too; none without it", () => {
  const input = 'x-finger://h.example/user\nhttp://a.com/%7Ex?y\nftp://u:p@h.com/x;type=a\nnot a url\n'.repeat(2000); // 162 KB: three blocks of 64 KB, both workers
  for (const args of [['parse', '--json'], ['normalize'], ['parse', '--json', '--scheme', SCHEME]]) {
    const one = run(BIN, [...args, '--jobs', '1'], input);
    const two = run(BIN, [...args, '--jobs', '2'], input);
    assert.equal(one.out.split('\n').length, 8001, args.join(' '));
    assert.deepEqual(two, one, args.join(' '));
  }
  const worker = readFileSync(WORKER, 'utf8');
  for (const m of ['dist/cli/batch-worker.js', 'dist/cli/parse.js', 'dist/core/parse.js'])
    assert.ok(worker.includes(m), `${m} not in the worker bundle`);
  assert.ok(!worker.includes('dist/cli/main.js'), 'main.js in the worker bundle');
  // The bin's copy with the text bundle but no worker bundle beside it: --jobs 2 cannot start.
  const dir = mkdtempSync(join(tmpdir(), 'locator-bin-'));
  try {
    mkdirSync(join(dir, 'dist', 'cli'), { recursive: true });
    copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
    for (const f of ['locator.cjs', 'locator.text.cjs', 'locator.text.cjs.cache'])
      copyFileSync(join(ROOT, 'dist', 'cli', f), join(dir, 'dist', 'cli', f));
    const bin = join(dir, 'dist', 'cli', 'locator.cjs');
    assert.equal(run(bin, ['parse', '--json', '--jobs', '1'], input).status, 1);
    const r = run(bin, ['parse', '--json', '--jobs', '2'], input);
    assert.notEqual(r.status, 0);
    assert.match(r.err, /locator\.worker\.cjs/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the fetch bundle holds the fetch command and no other; the bin sends fetch to it', () => {
  const fetch = readFileSync(BUNDLES[2], 'utf8');
  assert.ok(fetch.includes('dist/cli/fetch.js'));
  for (const m of ['dist/cli/check.js', 'dist/cli/serve.js', 'dist/gateway/', 'markdown-it', 'parse5'])
    assert.ok(!fetch.includes(m), `${m} in the fetch bundle`);
  assert.match(readFileSync(BIN, 'utf8'), /first === 'fetch' \|\| first === 'archive' \? `locator\.\$\{first\}\.cjs`/);
});

test('the archive bundle holds the archive command and no other; the bin sends archive to it', () => {
  const archive = readFileSync(BUNDLES[3], 'utf8');
  for (const m of ['dist/cli/archive.js', 'dist/archive/crawl.js', 'dist/crawl/engine.js', 'parse5'])
    assert.ok(archive.includes(m), `${m} not in the archive bundle`);
  for (const m of ['dist/cli/check.js', 'dist/cli/serve.js', 'dist/cli/fetch.js', 'dist/gateway/', 'markdown-it'])
    assert.ok(!archive.includes(m), `${m} in the archive bundle`);
});

test('the text bundle holds no client, gateway or checker; the bin sends only the text commands to it', () => {
  const text = readFileSync(BUNDLES[1], 'utf8');
  for (const m of ['dist/clients/', 'dist/gateway/', 'dist/check/', 'markdown-it', 'parse5'])
    assert.ok(!text.includes(m), `${m} in the text bundle`);
  assert.ok(readFileSync(BUNDLES[0], 'utf8').includes('dist/clients/'));
  const names = /^const TEXT = (\[.*\]);$/m.exec(readFileSync(BIN, 'utf8'));
  assert.ok(names !== null, 'the bin lists the text commands');
  assert.deepEqual(JSON.parse(names[1]), [
    'parse',
    'normalize',
    'equal',
    'resolve',
    'relativize',
    'extract',
    'lint',
    'get',
    'set',
    'build',
  ]);
});
