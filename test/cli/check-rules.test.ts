// `locator check --exclude/--include` and .locatorignore with hostile patterns (docs/check.md,
// Rules): patterns that make JavaScript's RegExp backtrack for hours are matched in linear time;
// backreferences and lookarounds are usage errors (exit 2) naming the pattern and the offset.
// No server is needed: every URL is left out before a probe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers.js';

const BIN = join(ROOT, 'dist', 'cli', 'main.js');
const DIR = mkdtempSync(join(tmpdir(), 'locator-check-rules-'));
test.after(() => rmSync(DIR, { recursive: true, force: true }));

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

// RegExp takes hours on (\w+)+\.bak$ against a path of 40 word characters and a "!": the run ends
// only if the pattern is matched without backtracking. The second pattern then leaves the URL out.
test('--exclude and .locatorignore: a backtracking pattern is matched in linear time', { timeout: 60000 }, async () => {
  const url = `http://127.0.0.1:1/${'a'.repeat(40)}!`;
  writeFileSync(join(DIR, 'links.txt'), `see ${url}\n`);
  const r = await run(['--exclude', '(\\w+)+\\.bak$', '--exclude', '^http://127\\.0\\.0\\.1:1/', 'links.txt']);
  assert.deepEqual([r.code, r.out, r.err], [0, '', 'locator check: no URL found\n']);
  const sub = mkdtempSync(join(DIR, 'ignore-'));
  writeFileSync(join(sub, '.locatorignore'), '(\\w+)+\\.bak$\n.*.*.*.*x\n^http:\n');
  const ig = await run([join(DIR, 'links.txt')], sub);
  assert.deepEqual([ig.code, ig.out, ig.err], [0, '', 'locator check: no URL found\n']);
});

test('--exclude, --include, .locatorignore: a backreference or a lookaround is a usage error naming it and its offset', async () => {
  const rows: [string[], string][] = [
    [['--exclude', '(a)\\1'], 'the exclude pattern "(a)\\\\1" uses a backreference at offset 3'],
    [['--include', '^http(?!s)'], 'the include pattern "^http(?!s)" uses a lookahead at offset 5'],
    [['--exclude', 'x', '--include', '(?<=/)y'], 'the include pattern "(?<=/)y" uses a lookbehind at offset 0'],
  ];
  for (const [args, message] of rows) {
    const r = await run([...args, 'http://127.0.0.1:1/']);
    assert.equal(r.code, 2, args.join(' '));
    assert.equal(r.out, '');
    assert.equal(
      r.err,
      `locator check: ${message}, which cannot be matched in linear time (docs/check.md) (see locator check --help)\n`,
    );
  }
  const sub = mkdtempSync(join(DIR, 'refused-'));
  writeFileSync(join(sub, '.locatorignore'), '# backreference\n(.)\\1\n');
  const ig = await run(['http://127.0.0.1:1/'], sub);
  assert.equal(ig.code, 2);
  assert.equal(
    ig.err,
    'locator check: the exclude pattern "(.)\\\\1" uses a backreference at offset 3, which cannot be matched in linear time (docs/check.md) (see locator check --help)\n',
  );
});
