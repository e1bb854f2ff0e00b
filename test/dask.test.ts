// locator inside Dask (issue 16, "Beyond one machine"): scripts/dask-locator.py pipes the
// partitions of a dask.bag through `locator COMMAND --json` on a LocalCluster of 2 workers; the
// merged NDJSON must equal one process's output over the same input, line for line, with the
// input split into files at arbitrary line boundaries and each file cut into several partitions.
// Needs Debian's python3-distributed for /usr/bin/python3 (test/servers/install.sh installs it;
// scripts/test.mjs runs the install when this file is selected).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, shared } from './helpers.js';

const PYTHON = '/usr/bin/python3';
const DRIVER = join(ROOT, 'scripts', 'dask-locator.py');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');

/** A small linear congruential generator: the same split on every run (seed 1738). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The input: corpus lines and hostile ones (CR, CR LF, NUL, invalid UTF-8, lone surrogate, empty, long). */
function corpusBytes(): Buffer {
  const lines = shared('corpus/schemes.txt').split('\n').slice(0, 12_000);
  const hostile = [
    Buffer.from('http://a.example/x\ry'),
    Buffer.from('ftp://h.example/f\r'),
    Buffer.from('gopher://g.example/\u00001x'),
    Buffer.from([0x68, 0x74, 0x74, 0x70, 0x3a, 0x2f, 0x2f, 0xff, 0xfe, 0x2f]),
    Buffer.from('news:\ud800'),
    Buffer.alloc(0),
    Buffer.from('wais://w.example/db?' + 'a'.repeat(300_000)),
  ];
  const rand = lcg(1738);
  const out: Buffer[] = [];
  for (const line of lines) {
    out.push(Buffer.from(line), Buffer.from('\n'));
    if (rand() < 0.002) out.push(hostile[Math.floor(rand() * hostile.length)]!, Buffer.from('\n'));
  }
  return Buffer.concat(out);
}

/** Splits `data` after random LFs into `n` files (uneven sizes); the last may lack its final LF. */
function splitAtLines(data: Buffer, n: number, dir: string): string[] {
  const rand = lcg(1994);
  const cuts: number[] = [];
  while (cuts.length < n - 1) {
    const at = data.indexOf(0x0a, Math.floor(rand() * data.length));
    if (at >= 0 && !cuts.includes(at + 1)) cuts.push(at + 1);
  }
  cuts.sort((a, b) => a - b);
  const bounds = [0, ...cuts, data.length];
  return bounds.slice(1).map((end, i) => {
    const file = join(dir, `part-${i}.txt`);
    writeFileSync(file, data.subarray(bounds[i], end));
    return file;
  });
}

function driver(args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(PYTHON, [DRIVER, ...args], { encoding: 'utf8', timeout: 600_000 });
  return { status: r.status, stderr: `${r.stderr}${r.error ? String(r.error) : ''}` };
}

test('dask: python3 with dask and distributed is there (Debian python3-distributed)', () => {
  const r = spawnSync(PYTHON, ['-c', 'import dask.bag, distributed; print(distributed.__version__)'], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, `python3-distributed is missing: run test/servers/install.sh as root\n${r.stderr}`);
});

for (const command of ['parse', 'normalize']) {
  test(`dask: ${command} --json on a LocalCluster of 2 workers equals one process, line for line`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'locator-dask-'));
    try {
      const data = corpusBytes();
      const files = splitAtLines(data, 4, dir);
      const out = join(dir, 'out.ndjson');
      // A small block size: each file is cut into several partitions, at a LF that Dask chooses.
      const r = driver([command, '--workers', '2', '--blocksize', '256KiB', '--out', out, ...files]);
      assert.equal(r.status, 0, r.stderr);
      const m = /(\d+) rows from (\d+) partitions on (\d+) workers/.exec(r.stderr);
      assert.ok(m, r.stderr);
      assert.equal(m[3], '2', 'two workers');
      assert.ok(Number(m[2]) > files.length, `more partitions (${m[2]}) than files: files were cut`);
      const single = spawnSync(process.execPath, [CLI, command, '--json'], {
        input: data,
        maxBuffer: 1 << 30,
      });
      assert.ok(single.status === 0 || single.status === 1, String(single.stderr));
      const merged = readFileSync(out);
      const expected = single.stdout;
      const lines = expected.toString('utf8').split('\n').length - 1;
      assert.equal(merged.toString('utf8').split('\n').length - 1, lines, 'the same number of rows');
      assert.ok(merged.equals(expected), 'the merged NDJSON equals the single-process output byte for byte');
      assert.equal(Number(m[1]), lines);
      assert.deepEqual(
        readdirSync(dir).filter((f) => f.startsWith('.parts-') || f.endsWith('.tmp')),
        [],
        'no part folder or temporary file is left',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('dask: extract --json reads each file whole (a wrapped URL is never cut) and equals one process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-dask-'));
  try {
    const files = ['rfc1738-1994-12.txt', 'draft-url-1994-03.txt'].map((name, i) => {
      const file = join(dir, `doc-${i}.txt`);
      writeFileSync(file, shared(`spec/${name}`));
      return file;
    });
    const out = join(dir, 'out.ndjson');
    const r = driver(['extract', '--workers', '2', '--out', out, ...files]);
    assert.equal(r.status, 0, r.stderr);
    const single = spawnSync(process.execPath, [CLI, 'extract', '--json', ...files], { maxBuffer: 1 << 28 });
    assert.equal(single.status, 0, String(single.stderr));
    assert.ok(single.stdout.length > 0);
    assert.equal(readFileSync(out, 'utf8'), single.stdout.toString('utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('dask: a failing locator run fails the driver with its status, and leaves no output file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-dask-'));
  try {
    const file = join(dir, 'in.txt');
    writeFileSync(file, 'http://a.example/\n');
    const out = join(dir, 'out.ndjson');
    // An unknown option is a usage error (exit 2): the run must fail, not write partial rows.
    const r = driver(['parse', '--workers', '1', '--arg=--no-such-option', '--out', out, file]);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /locator parse exited 2/);
    assert.deepEqual(readdirSync(dir).sort(), ['in.txt']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
