// Damaged WARC files opened for replay (src/archive/reader.ts onDamage, replay.ts, `locator serve
// --warc`): a torn last gzip member (a crash while writing), octets that are no member, a member
// that fails its CRC-32, a malformed record, a record cut short, in a compressed and in a plain
// file. The archive opens, every record read whole is served, each damaged stretch is skipped and
// named (file, offset, code); from a CDXJ, a damaged member is a typed error when it is asked for.
// readWarc() without onDamage still throws at the first damage (what a resume cuts at: hostile.test.ts).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  readWarc,
  ReplayArchive,
  WARC_BAD_GZIP,
  WARC_BAD_RECORD,
  WARC_TRUNCATED,
  type ReadDamage,
} from '../../src/archive/index.js';
import { BIN } from './replay-fixture.js';

/** A WARC/1.1 resource record of gopher://h.example/0/NAME whose block is "NAME\n" (fields may be replaced). */
function record(name: string, fields: Record<string, string> = {}): Buffer {
  const block = Buffer.from(`${name}\n`);
  const all: Record<string, string> = {
    'WARC-Type': 'resource',
    'WARC-Date': '2026-01-02T03:04:05Z',
    'WARC-Record-ID': `<urn:uuid:00000000-0000-4000-8000-${Buffer.from(name).toString('hex').padStart(12, '0').slice(0, 12)}>`,
    'WARC-Target-URI': `gopher://h.example/0/${name}`,
    'Content-Type': 'text/plain',
    'Content-Length': String(block.length),
    ...fields,
  };
  const head = Object.entries(all)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return Buffer.concat([Buffer.from(`WARC/1.1\r\n${head}\r\n`), block, Buffer.from('\r\n\r\n')]);
}

/** The parts laid end to end, with the offset of each. */
function laid(parts: Buffer[]): { file: Buffer; at: number[] } {
  const at: number[] = [];
  let n = 0;
  for (const p of parts) {
    at.push(n);
    n += p.length;
  }
  return { file: Buffer.concat(parts), at };
}

/** A gzip member whose CRC-32 (RFC 1952 2.3.1, the trailer's first 4 octets) is wrong. */
function badCrc(b: Buffer): Buffer {
  const m = Buffer.from(gzipSync(b));
  m[m.length - 8] ^= 0xff;
  return m;
}

const NAMES = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const URL = (n: string) => `gopher://h.example/0/${n}`;

/**
 * A .warc.gz of one member per record, damaged: two fails its CRC-32, octets that are no member
 * before four, five has no colon in a field line, seven's Content-Length is past its member's
 * end, nine is cut in half (the end of the file). one, three, four, six and eight are whole.
 */
function damagedGzip(): { file: Buffer; at: number[]; damage: Array<[string, number, number | null]> } {
  const parts = [
    gzipSync(record('one')),
    badCrc(record('two')),
    gzipSync(record('three')),
    Buffer.from('not a gzip member\n'),
    gzipSync(record('four')),
    gzipSync(Buffer.from('WARC/1.1\r\nWARC-Type resource\r\nContent-Length: 0\r\n\r\n\r\n\r\n')),
    gzipSync(record('six')),
    gzipSync(record('seven', { 'Content-Length': '500' })),
    gzipSync(record('eight')),
  ];
  const nine = gzipSync(record('nine'));
  parts.push(nine.subarray(0, nine.length >> 1));
  const { file, at } = laid(parts);
  return {
    file,
    at,
    // [code, offset, where reading went on]
    damage: [
      [WARC_BAD_GZIP, at[1], at[2]],
      [WARC_BAD_GZIP, at[3], at[4]],
      [WARC_BAD_RECORD, at[5], at[6]],
      [WARC_BAD_RECORD, at[7], at[8]],
      [WARC_TRUNCATED, at[9], null],
    ],
  };
}

const WHOLE = ['one', 'three', 'four', 'six', 'eight'];

async function body(a: ReplayArchive, url: string): Promise<string> {
  const r = await a.open(url);
  assert.ok(r, url);
  return Buffer.from(await new Response(r.resource.body).arrayBuffer()).toString();
}

const shape = (d: ReadDamage[]) => d.map((x) => [x.error.code, x.error.offset, x.next]);

test('readWarc with onDamage: each damaged stretch of a .warc.gz reported once with its offset, code and where reading went on; the whole records read', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-damaged-'));
  try {
    const g = damagedGzip();
    const path = join(dir, 'damaged.warc.gz');
    writeFileSync(path, g.file);
    const damage: ReadDamage[] = [];
    const whole: string[] = [];
    for await (const r of readWarc(path, { onDamage: (d) => damage.push(d) })) {
      try {
        const end = await r.end();
        assert.equal(end.blockDigest, null);
        whole.push(r.targetUri!);
      } catch {
        // a damaged record: readWarc() reports it
      }
    }
    assert.deepEqual(whole, WHOLE.map(URL));
    assert.deepEqual(shape(damage), g.damage);
    // Without onDamage, the first damage throws, as a resume needs.
    await assert.rejects(
      (async () => {
        for await (const r of readWarc(path)) await r.end();
      })(),
      (e: { code?: string; offset?: number }) => e.code === WARC_BAD_GZIP && e.offset === g.at[1],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('ReplayArchive.open: a damaged .warc.gz opens; its whole records are served, the damaged ones are not in the index and are listed with their offsets', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-damaged-'));
  try {
    const g = damagedGzip();
    const path = join(dir, 'damaged.warc.gz');
    writeFileSync(path, g.file);
    const a = await ReplayArchive.open([path]);
    try {
      assert.equal(a.indexed[0].from, 'scan');
      assert.equal(a.indexed[0].records, WHOLE.length);
      assert.deepEqual(shape(a.indexed[0].damaged), g.damage);
      assert.deepEqual([...a.urls()].sort(), WHOLE.map(URL).sort());
      for (const n of WHOLE) assert.equal(await body(a, URL(n)), `${n}\n`);
      for (const n of NAMES.filter((n) => !WHOLE.includes(n))) assert.equal(await a.open(URL(n)), null, n);
    } finally {
      await a.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('ReplayArchive.open: a plain .warc with a line of garbage, a record with no Content-Length and a torn last record opens the same way', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-damaged-'));
  try {
    const torn = record('five');
    const { file, at } = laid([
      record('one'),
      Buffer.from('garbage where a record should start\r\n'),
      record('two'),
      Buffer.from(
        'WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: gopher://h.example/0/three\r\n\r\nthree\n\r\n\r\n',
      ),
      record('four'),
      torn.subarray(0, torn.length - 8),
    ]);
    const path = join(dir, 'damaged.warc');
    writeFileSync(path, file);
    const a = await ReplayArchive.open([path]);
    try {
      assert.deepEqual(shape(a.indexed[0].damaged), [
        [WARC_BAD_RECORD, at[1], at[2]],
        [WARC_BAD_RECORD, at[3], at[4]],
        [WARC_BAD_RECORD, at[5], null],
      ]);
      for (const n of ['one', 'two', 'four']) assert.equal(await body(a, URL(n)), `${n}\n`);
      for (const n of ['three', 'five']) assert.equal(await a.open(URL(n)), null, n);
    } finally {
      await a.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('ReplayArchive.open: a file with damage and no record read whole is still an error (its first damage)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-damaged-'));
  try {
    const whole = gzipSync(record('one'));
    const path = join(dir, 'torn.warc.gz');
    writeFileSync(path, whole.subarray(0, whole.length - 20));
    await assert.rejects(ReplayArchive.open([path]), (e: { code?: string; offset?: number }) => {
      return e.code === WARC_TRUNCATED && e.offset === 0;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A .warc.gz of one, two and a metadata record, and the CDXJ beside it (newer), then two's and the metadata's members damaged in place. */
function damagedBesideCdxj(dir: string): { path: string; at: number[] } {
  const meta = record('meta', {
    'WARC-Type': 'metadata',
    'WARC-Target-URI': URL('one'),
  });
  const parts = [gzipSync(record('one')), gzipSync(record('two')), gzipSync(meta)];
  const { file, at } = laid(parts);
  // The middle of two's deflate data and of the metadata's overwritten (bit rot: same length, same mtime).
  for (const i of [1, 2]) file.fill(0x55, at[i] + 12, at[i] + parts[i].length - 12);
  const path = join(dir, 'site.warc.gz');
  writeFileSync(path, file);
  const line = (url: string, i: number, type: string) =>
    `gopher://(example,h)/0/x 20260102030405 ${JSON.stringify({ url, offset: String(at[i]), length: String(parts[i].length), filename: 'site.warc.gz', type })}\n`;
  writeFileSync(
    join(dir, 'site.cdxj'),
    line(URL('one'), 0, 'resource') + line(URL('two'), 1, 'resource') + line(URL('one'), 2, 'metadata'),
  );
  const later = new Date(statSync(path).mtimeMs + 1000);
  utimesSync(join(dir, 'site.cdxj'), later, later);
  return { path, at };
}

test('ReplayArchive.open from a CDXJ: a damaged member is warc-bad-gzip when it is asked for, not at the start; a damaged metadata record is listed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-damaged-'));
  try {
    const { path, at } = damagedBesideCdxj(dir);
    const a = await ReplayArchive.open([path]);
    try {
      assert.match(a.indexed[0].from, /site\.cdxj$/);
      assert.deepEqual(
        a.indexed[0].damaged.map((d) => [d.error.code, d.error.offset]),
        [[WARC_BAD_GZIP, at[2]]],
      );
      assert.equal(await body(a, URL('one')), 'one\n');
      await assert.rejects(
        a.open(URL('two')),
        (e: { code?: string; offset?: number }) => e.code === WARC_BAD_GZIP && e.offset === at[1],
      );
    } finally {
      await a.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** `locator serve --warc ARGS`: its origin once it listens, its standard error so far, and its stop. */
async function serve(args: string[]): Promise<{ origin: string; err: () => string; stop: () => void }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', '--warc', ...args], {
    env: { PATH: process.env.PATH },
  });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const origin = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', () => {
      const m = /the gateway is at (http:\/\/[^\s/]+)\//.exec(err);
      if (m) resolve(m[1]);
    });
    child.on('close', (code) => reject(new Error(`serve ended (${code}): ${err}`)));
  });
  return { origin, err: () => err, stop: () => child.kill('SIGTERM') };
}

const page = async (origin: string, url: string) => {
  const r = await fetch(`${origin}/?url=${encodeURIComponent(url)}&view=raw`);
  return { status: r.status, text: await r.text() };
};

test('serve --warc: a damaged file is served: a warning per damaged stretch (file, offset, code), the whole records 200, the damaged ones not archived; from a CDXJ, 502 with the code', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-damaged-'));
  try {
    const g = damagedGzip();
    const path = join(dir, 'damaged.warc.gz');
    writeFileSync(path, g.file);
    const s = await serve([path]);
    try {
      const warnings = s.err().match(/^locator serve: warning: .*$/gm) ?? [];
      assert.deepEqual(
        warnings.map((w) => {
          const m =
            /warning: (\S+): damaged at offset (\d+) \(([a-z-]+)\): .*; (?:read on from offset (\d+)|skipped to the end of the file)$/.exec(
              w,
            );
          assert.ok(m, w);
          return [m[3], Number(m[2]), m[4] === undefined ? null : Number(m[4]), m[1]];
        }),
        g.damage.map(([code, offset, next]) => [code, offset, next, path]),
      );
      assert.match(s.err(), /damaged\.warc\.gz: 5 records \(5 damaged stretches skipped\)/);
      for (const n of WHOLE) assert.deepEqual(await page(s.origin, URL(n)), { status: 200, text: `${n}\n` }, n);
      for (const n of ['two', 'nine']) assert.equal((await page(s.origin, URL(n))).status, 404, n);
    } finally {
      s.stop();
    }

    const { path: site } = damagedBesideCdxj(dir);
    const c = await serve([site]);
    try {
      assert.match(c.err(), /warning: \S+site\.warc\.gz: damaged at offset \d+ \(warc-bad-gzip\)/);
      assert.deepEqual(await page(c.origin, URL('one')), { status: 200, text: 'one\n' });
      const two = await page(c.origin, URL('two'));
      assert.equal(two.status, 502);
      assert.match(two.text, /warc-bad-gzip/);
    } finally {
      c.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
