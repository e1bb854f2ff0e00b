// lowerHelperThreads() (src/cli/helper-threads.ts): during `locator archive` the threads Node
// started for V8's background work run at a nice value raised by 10, the main thread and the
// writer's thread (started after) at the process's own; LOCATOR_HELPER_NICE sets the step or
// turns it off. Each case runs in a child process, whose threads alone it changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers.js';

const LINUX = process.platform === 'linux';
const SKIP = LINUX ? false : 'thread priorities are set through /proc and setpriority(2) on Linux only';
const MODULE = pathToFileURL(join(ROOT, 'dist', 'cli', 'helper-threads.js')).href;
const BIN = join(ROOT, 'dist', 'cli', 'locator.cjs');

/** Each thread's nice value (field 19 of /proc/self/task/TID/stat), main as "main". */
const NICES = `
  const fs = require('node:fs');
  globalThis.nices = () => Object.fromEntries(fs.readdirSync('/proc/self/task').flatMap((t) => {
    try {
      const s = fs.readFileSync('/proc/self/task/' + t + '/stat', 'utf8');
      return [[t === String(process.pid) ? 'main' : t, Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[16])]];
    } catch { return []; }
  }));
`;

function child(env: Record<string, string>) {
  const code = `${NICES}
    import(${JSON.stringify(MODULE)}).then(({ lowerHelperThreads }) => {
      const before = nices();
      const lowered = lowerHelperThreads(process.env);
      console.log(JSON.stringify({ before, lowered, after: nices() }));
    });`;
  const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env } });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { before: Record<string, number>; lowered: number[]; after: Record<string, number> };
}

test('every thread but the main one is raised by 10, the main one untouched', { skip: SKIP }, () => {
  const { before, lowered, after } = child({});
  const others = Object.keys(before).filter((t) => t !== 'main');
  assert.ok(others.length >= 4, `Node's V8 helper threads: ${others.join(' ')}`);
  assert.deepEqual(lowered.map(String).sort(), others.sort());
  assert.equal(after.main, before.main);
  for (const t of others) assert.equal(after[t], Math.min(19, before[t]! + 10), `thread ${t}`);
});

test(
  'LOCATOR_HELPER_NICE sets the step; 0, or a value that is not 1-19, leaves every thread as it was',
  { skip: SKIP },
  () => {
    const three = child({ LOCATOR_HELPER_NICE: '3' });
    for (const t of three.lowered) assert.equal(three.after[t], Math.min(19, three.before[t]! + 3));
    assert.ok(three.lowered.length >= 4);
    for (const value of ['0', '20', '-5', '2.5', 'ten']) {
      const r = child({ LOCATOR_HELPER_NICE: value });
      assert.deepEqual(r.lowered, [], value);
      assert.deepEqual(r.after, r.before, value);
    }
  },
);

test('the step stops at 19 for a process started niced', { skip: SKIP }, () => {
  const code = `${NICES}
    import(${JSON.stringify(MODULE)}).then(({ lowerHelperThreads }) => {
      const before = nices();
      const lowered = lowerHelperThreads({});
      console.log(JSON.stringify({ before, lowered, after: nices() }));
    });`;
  // nice(1) starts the process with every thread at 15.
  const r = spawnSync('nice', ['-n', '15', process.execPath, '-e', code], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
  });
  assert.equal(r.status, 0, r.stderr);
  const { before, lowered, after } = JSON.parse(r.stdout) as {
    before: Record<string, number>;
    lowered: number[];
    after: Record<string, number>;
  };
  assert.equal(before.main, 15);
  assert.equal(after.main, 15);
  assert.ok(lowered.length >= 4);
  for (const t of lowered) assert.equal(after[t], 19, `thread ${t}`);
});

test('locator archive lowers the helper threads and not its main or writer thread', { skip: SKIP }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-nice-'));
  try {
    writeFileSync(join(dir, 'a.txt'), 'hello\n');
    // A hook in the command's process (and its writer's thread, which runs it too) reports the
    // nice value of each thread as it ends.
    writeFileSync(
      join(dir, 'hook.cjs'),
      `${NICES}
      const { isMainThread } = require('node:worker_threads');
      process.on('exit', () => {
        if (isMainThread) process.stderr.write('NICES ' + JSON.stringify(nices()) + '\\n');
        else {
          const s = fs.readFileSync('/proc/thread-self/stat', 'utf8');
          process.stderr.write('WRITER ' + s.slice(s.lastIndexOf(')') + 2).split(' ')[16] + '\\n');
        }
      });`,
    );
    /** `locator archive` of the file with the hook; the nice value of each thread, and the writer's. */
    const archive = (out: string, env: Record<string, string> = {}) => {
      const r = spawnSync(
        process.execPath,
        [
          '--require',
          join(dir, 'hook.cjs'),
          BIN,
          'archive',
          '-o',
          join(dir, out) + '/',
          pathToFileURL(join(dir, 'a.txt')).href,
        ],
        { encoding: 'utf8', env: { PATH: process.env.PATH, ...env } },
      );
      assert.equal(r.status, 0, r.stderr);
      const nices = JSON.parse(/^NICES (.*)$/m.exec(r.stderr)![1]!) as Record<string, number>;
      return { nices, writer: Number(/^WRITER (\d+)$/m.exec(r.stderr)?.[1]), err: r.stderr };
    };
    const on = archive('out');
    const own = on.nices.main!;
    const helpers = Object.entries(on.nices).filter(([t, n]) => t !== 'main' && n === Math.min(19, own + 10));
    assert.ok(helpers.length >= 4, on.err);
    assert.equal(on.writer, own, on.err);

    const off = archive('out2', { LOCATOR_HELPER_NICE: '0' });
    const offNices = off.nices;
    assert.ok(
      Object.values(offNices).every((n) => n === offNices.main),
      off.err,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
