#!/usr/bin/env node
// Replay (`locator serve --warc`): a page of an archived Gopher menu served from a 1 GB archive
// (the target: under 5 ms p99, an index and not a scan). Generates in a folder of /tmp a
// WARC file of REPLAY_BYTES (default 1e9) octets on disk with locator's writer: binary resource
// records of 256 KiB of random octets (they do not compress: the file is as large as its data),
// and every 16th record a Gopher menu of 40 items. Then runs the built CLI, `locator serve --warc
// FILE`, twice: with no index beside the file (made by reading it through) and with the CDXJ
// beside it (written from the writer's records); reports the time to the first request and, over
// REPLAY_REQUESTS requests (default 2000, one at a time, keep-alive, after 100 to warm up) of menu
// pages picked at random, the latency of each page read whole by the client: p50, p90, p99, max.
// Before that, the library alone in this process (ReplayArchive.open() of a menu, its body read).
// Last, the gateway in this process (startGateway({ replay })), the same requests.
// REPLAY_DIR=DIR keeps the archive in DIR for the next runs. REPLAY_SCAN=0 leaves out the run that reads the file through. Needs dist/ built.
// BENCH_SMOKE=1: 20 MB, 100 requests.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import http from 'node:http';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SMOKE = process.env.BENCH_SMOKE === '1';
const BYTES = Number(process.env.REPLAY_BYTES ?? (SMOKE ? 20e6 : 1e9));
const REQUESTS = Number(process.env.REPLAY_REQUESTS ?? (SMOKE ? 100 : 2000));
const WARM = SMOKE ? 10 : 100;
const BLOB = 256 * 1024;

const { WarcWriter, ReplayArchive, cdxj, entryOf } = await import(join(root, 'dist/archive/index.js'));

function menu(n) {
  const lines = [];
  for (let i = 0; i < 40; i++) {
    const t = i % 3 === 0 ? '1' : i % 3 === 1 ? '0' : '9';
    lines.push(`${t}Item ${i} of menu ${n}\t/${t === '1' ? 'dir' : 'doc'}-${n}-${i}\tbench.example\t70\r\n`);
  }
  return Buffer.from(lines.join('') + '.\r\n');
}

async function generate(dir) {
  const writer = new WarcWriter({ dir, prefix: 'bench', maxSize: BYTES * 2 });
  const entries = [];
  const menus = [];
  let size = 0;
  const t0 = Date.now();
  for (let n = 0; size < BYTES; n++) {
    let r;
    if (n % 16 === 0) {
      const url = `gopher://bench.example/1/dir-${n}`;
      r = await writer.resource(url, 'application/gopher-menu', menu(n), [['WARC-Protocol', 'gopher']]);
      menus.push(url);
    } else {
      r = await writer.resource(
        `ftp://bench.example/pub/blob-${n}.bin`,
        'application/octet-stream',
        randomBytes(BLOB),
        [['WARC-Protocol', 'ftp']],
      );
    }
    entries.push(entryOf(r));
    size = r.offset + r.length;
  }
  const [file] = await writer.close();
  return { file: join(dir, file), entries, menus, seconds: (Date.now() - t0) / 1000 };
}

/** Starts `serve --warc`; resolves with its origin and the ms until it listened. */
function serve(file) {
  const t0 = process.hrtime.bigint();
  const p = spawn(process.execPath, [
    join(root, 'dist/cli/main.js'),
    'serve',
    '--port',
    '0',
    '--quiet',
    '--warc',
    file,
  ]);
  let err = '';
  return new Promise((resolve, reject) => {
    p.stderr.on('data', (d) => {
      err += d;
      const m = /the gateway is at (http:\/\/[^\s/]+)\//.exec(err);
      if (m) resolve({ p, origin: m[1], startMs: Number(process.hrtime.bigint() - t0) / 1e6, err });
    });
    p.on('close', (code) => reject(new Error(`serve ended ${code}: ${err}`)));
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(origin, path) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    http
      .get(origin + path, { agent }, (res) => {
        let n = 0;
        res.on('data', (c) => (n += c.length));
        res.on('end', () =>
          resolve({ status: res.statusCode, bytes: n, ms: Number(process.hrtime.bigint() - t0) / 1e6 }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const pct = (s, p) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];

/** CPU time (user + system) of a process so far, ms: /proc/PID/stat, in clock ticks of 10 ms. */
function cpuMs(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

async function measure(origin, menus, pid = process.pid) {
  const times = [];
  let bytes = 0;
  let cpu0 = 0;
  for (let i = 0; i < WARM + REQUESTS; i++) {
    const url = menus[Math.floor(Math.random() * menus.length)];
    const r = await get(origin, `/?url=${encodeURIComponent(url)}`);
    if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
    if (i === WARM - 1) cpu0 = cpuMs(pid);
    if (i >= WARM) {
      times.push(r.ms);
      bytes += r.bytes;
    }
  }
  const cpu = (cpuMs(pid) - cpu0) / REQUESTS;
  times.sort((a, b) => a - b);
  return {
    cpu,
    p50: pct(times, 50),
    p90: pct(times, 90),
    p99: pct(times, 99),
    max: times[times.length - 1],
    page: bytes / times.length,
  };
}

// REPLAY_DIR: keep the archive there (made on the first run, used again by the next ones).
const KEEP = process.env.REPLAY_DIR;
const dir = KEEP ?? mkdtempSync(join(tmpdir(), 'locator-replay-bench-'));

/** The archive kept in REPLAY_DIR by an earlier run, or null. */
function kept() {
  if (KEEP === undefined || !existsSync(join(dir, 'kept.json'))) return null;
  return JSON.parse(readFileSync(join(dir, 'kept.json'), 'utf8'));
}
try {
  let g = kept();
  if (g === null) {
    if (KEEP !== undefined) mkdirSync(dir, { recursive: true });
    g = await generate(dir);
    if (KEEP !== undefined) writeFileSync(join(dir, 'kept.json'), JSON.stringify(g));
  }
  const fileSize = statSync(g.file).size;
  console.log(
    `archive: ${(fileSize / 1e9).toFixed(3)} GB on disk, ${g.entries.length + 1} records (${g.menus.length} menus), written in ${g.seconds.toFixed(1)} s`,
  );
  writeFileSync(join(dir, 'bench.cdxj'), cdxj(g.entries));
  // The library alone, in this process: the index from the CDXJ, then open() and the menu's body.
  const a = await ReplayArchive.open([g.file]);
  const lib = [];
  for (let i = 0; i < WARM + REQUESTS; i++) {
    const t0 = process.hrtime.bigint();
    const r = await a.open(g.menus[Math.floor(Math.random() * g.menus.length)]);
    const reader = r.resource.body.getReader();
    while (!(await reader.read()).done);
    if (i >= WARM) lib.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  await a.close();
  lib.sort((x, y) => x - y);
  console.log(
    `library, ReplayArchive.open() of a menu and its body read (${REQUESTS}), ms: p50 ${pct(lib, 50).toFixed(3)}, p90 ${pct(lib, 90).toFixed(3)}, p99 ${pct(lib, 99).toFixed(3)}, max ${lib[lib.length - 1].toFixed(3)}`,
  );
  const rows = [];
  for (const how of [...(process.env.REPLAY_SCAN === '0' ? [] : ['read through']), 'CDXJ beside']) {
    if (how === 'read through') rmSync(join(dir, 'bench.cdxj'));
    else writeFileSync(join(dir, 'bench.cdxj'), cdxj(g.entries));
    const s = await serve(g.file);
    try {
      const m = await measure(s.origin, g.menus, s.p.pid);
      rows.push({ how, start: s.startMs, ...m });
    } finally {
      s.p.kill('SIGTERM');
    }
  }
  // The gateway in this process (one process to schedule, not two): the same requests.
  {
    const { startGateway } = await import(join(root, 'dist/gateway/index.js'));
    const t0 = process.hrtime.bigint();
    const a2 = await ReplayArchive.open([g.file]);
    const gw = await startGateway({ port: 0, replay: a2 });
    try {
      const m = await measure(gw.url, g.menus);
      rows.push({
        how: 'CDXJ beside, gateway in the client process',
        start: Number(process.hrtime.bigint() - t0) / 1e6,
        ...m,
      });
    } finally {
      await gw.close();
      await a2.close();
    }
  }
  console.log(`\n${REQUESTS} requests of menu pages (one at a time, keep-alive), ms:\n`);
  console.log('| index | start (ms) | p50 | p90 | p99 | max | server CPU per page (ms) | page (octets) |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows)
    console.log(
      `| ${r.how} | ${r.start.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p90.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.max.toFixed(2)} | ${r.cpu.toFixed(2)} | ${r.page.toFixed(0)} |`,
    );
} finally {
  agent.destroy();
  if (KEEP === undefined) rmSync(dir, { recursive: true, force: true });
}
