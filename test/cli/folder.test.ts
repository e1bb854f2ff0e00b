// The folders the commands make (src/cli/folder.ts): archive -o and --state, check --state, serve
// --cache-dir. One that cannot be made is a usage error (exit 2) at once, before any URL is
// fetched: under /proc (procfs answers ENOENT for any new name) and under a dangling symbolic
// link, where Node's recursive mkdir never returns. Each child is killed if it runs for 30 s, so
// that a hang fails the test instead of holding the suite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from '../helpers.js';

function run(args: string[], cwd: string): Promise<{ code: number | null; signal: string | null; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [CLI, ...args], { cwd, env: { PATH: process.env.PATH }, timeout: 30_000 });
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    p.stdin.end();
    p.on('close', (code, signal) => resolve({ code, signal, err }));
  });
}

const URL = 'gopher://127.0.0.1:7070/0/hello.txt';

test('a folder that cannot be made (under /proc, under a dangling link) is a usage error at once, not a hang', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-folder-'));
  try {
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
    for (const [args, says] of [
      [['archive', '-o', '/proc/nope/', URL], /--output \/proc\/nope\/: the folder cannot be made: ENOENT/],
      [
        ['archive', '-o', '/proc/nope/a/b/prefix', URL],
        /--output \/proc\/nope\/a\/b: the folder cannot be made: ENOENT/,
      ],
      [['archive', '-o', 'out/', '--state', '/proc/nope/state', URL], /--state \/proc\/nope\/state: the folder cannot/],
      [['archive', '-o', 'dangling/out/', URL], /--output dangling\/out\/: the folder cannot be made: EEXIST/],
      [['check', '--recursive', '--state', '/proc/nope/state', URL], /--state \/proc\/nope\/state: the folder cannot/],
      [['check', '--recursive', '--state', 'dangling/state', URL], /--state dangling\/state: the folder cannot/],
      [
        ['serve', '--port', '0', '--cache-dir', '/proc/nope/cache'],
        /--cache-dir \/proc\/nope\/cache: the folder cannot/,
      ],
    ] as const) {
      const r = await run([...args], dir);
      assert.deepEqual([r.code, r.signal], [2, null], `${args.join(' ')}: ${r.err}`);
      assert.match(r.err, says);
    }
    // The folder of --output was made before --state failed; nothing else, nothing under the link.
    assert.deepEqual(readdirSync(dir).sort(), ['dangling', 'out']);
    assert.equal(existsSync(join(dir, 'nowhere')), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the folders that can be made are made, parents included', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-folder-'));
  try {
    const r = await run(['check', '--recursive', '--max-urls', '1', '--state', 'a/b/c', 'file:///nonexistent'], dir);
    assert.equal(r.code, 1, r.err);
    assert.ok(statSync(join(dir, 'a', 'b', 'c')).isDirectory());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
