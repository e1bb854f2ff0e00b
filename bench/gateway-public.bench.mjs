#!/usr/bin/env node
// The public gateway under load: wrk (Debian's `wrk`, `apt-get install wrk`; the HTTP
// benchmarking tool of Will Glozer) against `locator serve --public` and against nginx.
//
// (a) 200 connections reading one Gopher menu page for 30 s through the gateway, its cache on
//     (the --public default): the connections that reach the Gopher server are counted by a TCP
//     proxy of this script's own in front of pygopherd (7070), every connection it accepts; then
//     the same 200 connections for 30 s against nginx (one worker, as the gateway is one
//     process) serving the same page, as rendered by the gateway, from a static file: requests/s
//     and the latency percentiles of wrk (--latency), the gateway's rate over nginx's.
// (b) Fairness: 20 well-behaved clients (each its own X-Forwarded-For through --trust-proxy, one
//     request every 250 ms, below the rate of 5 a second) read the menu page for 20 s, the
//     latency of each request taken; once alone (unloaded), once while a client over its rate
//     (wrk, 50 connections, its own X-Forwarded-For) floods the gateway: its answers counted by
//     status, the Retry-After of one checked, and the others' p50/p99 loaded over unloaded.
//
// The gateway runs in a process of its own (bench/gateway-public-child.mjs), as `locator serve`
// does; nginx is /usr/sbin/nginx with a configuration of this script's own on a free port.
// Needs dist/ built (`npm run build`), wrk, nginx, and pygopherd on 7070 (the suite's servers,
// LOCATOR_TEST_SERVERS). BENCH_ROUNDS (default 2): rounds of (a), gateway and nginx interleaved.
// BENCH_SMOKE=1: 2 s runs, 20 connections (a check that it runs, not how fast).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const here = dirname(fileURLToPath(import.meta.url));
const SMOKE = process.env.BENCH_SMOKE === '1';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 1 : 2));
const SECONDS = SMOKE ? 2 : 30;
const CONNECTIONS = SMOKE ? 20 : 200;
const FAIR_SECONDS = SMOKE ? 2 : 20;
const GOPHER = { host: '127.0.0.1', port: 7070 };

if (spawnSync('wrk', ['--version']).error) {
  console.error('wrk is not installed: apt-get install wrk');
  process.exit(1);
}

/** A TCP proxy to pygopherd that counts the connections it accepts. */
async function countingProxy() {
  const counter = { connections: 0 };
  const server = net.createServer((c) => {
    counter.connections++;
    const u = net.connect(GOPHER.port, GOPHER.host);
    c.pipe(u).pipe(c);
    c.on('error', () => u.destroy());
    u.on('error', () => c.destroy());
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { counter, port: server.address().port, close: () => new Promise((r) => server.close(r)) };
}

/** The gateway in its own process: its port, its cache's counters, its end. */
async function gateway(options) {
  const child = spawn(process.execPath, [join(here, 'gateway-public-child.mjs'), JSON.stringify(options)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const queue = [];
  const waiting = [];
  lines.on('line', (l) => (waiting.length > 0 ? waiting.shift()(l) : queue.push(l)));
  const next = () => new Promise((r) => (queue.length > 0 ? r(queue.shift()) : waiting.push(r)));
  const { port } = JSON.parse(await next());
  return {
    port,
    stats: async () => {
      child.stdin.write('stats\n');
      return JSON.parse(await next());
    },
    close: async () => {
      child.stdin.end();
      await new Promise((r) => child.once('exit', r));
    },
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = s.address().port;
      s.close(() => resolve(port));
    });
  });
}

/** nginx (one worker) serving `body` as the page at "/" of a free port. */
async function nginx(body) {
  const dir = mkdtempSync(join(tmpdir(), 'locator-bench-nginx-'));
  chmodSync(dir, 0o755); // nginx's worker runs as another user
  mkdirSync(join(dir, 'root'));
  mkdirSync(join(dir, 'tmp'));
  writeFileSync(join(dir, 'root', 'index.html'), body);
  const port = await freePort();
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1;\ndaemon off;\npid ${dir}/nginx.pid;\nerror_log stderr notice;\n` +
      `events { worker_connections 1024; }\nhttp {\n access_log off;\n keepalive_requests 10000000;\n` +
      ` client_body_temp_path ${dir}/tmp/body;\n proxy_temp_path ${dir}/tmp/proxy;\n` +
      ` fastcgi_temp_path ${dir}/tmp/fastcgi;\n uwsgi_temp_path ${dir}/tmp/uwsgi;\n scgi_temp_path ${dir}/tmp/scgi;\n` +
      ` server {\n  listen 127.0.0.1:${port};\n  root ${dir}/root;\n  default_type text/html;\n` +
      `  location = / { try_files /index.html =404; }\n }\n}\n`,
  );
  const child = spawn('/usr/sbin/nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  await new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += d;
      if (/start worker process/.test(err)) resolve();
    });
    child.once('exit', () => reject(new Error(`nginx did not start: ${err}`)));
  });
  return {
    port,
    close: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One GET: status, headers, body, milliseconds. */
function get(port, path, headers = {}, agent = undefined) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = http.request({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
      const parts = [];
      res.on('data', (d) => parts.push(d));
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          headers: res.headers,
          body: Buffer.concat(parts),
          ms: Number(process.hrtime.bigint() - t0) / 1e6,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const UNIT = { us: 1e-3, ms: 1, s: 1000, m: 60000 };
const msOf = (v) => {
  const m = /^([0-9.]+)(us|ms|s|m)$/.exec(v);
  return m === null ? NaN : Number(m[1]) * UNIT[m[2]];
};

/** wrk's figures: requests/s, latency percentiles (ms), non-2xx/3xx answers, socket errors. */
function wrk(port, path, { connections, seconds, threads = 2, headers = [] }) {
  const args = ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--latency'];
  for (const h of headers) args.push('-H', h);
  args.push(`http://127.0.0.1:${port}${path}`);
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('exit', () => {
      const pct = (p) => msOf(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out)?.[1] ?? '');
      resolve({
        rps: Number(/Requests\/sec:\s+([0-9.]+)/.exec(out)?.[1] ?? NaN),
        requests: Number(/([0-9]+) requests in/.exec(out)?.[1] ?? NaN),
        p50: pct(50),
        p99: pct(99),
        non2xx: Number(/Non-2xx or 3xx responses: ([0-9]+)/.exec(out)?.[1] ?? 0),
        errors: /Socket errors: (.*)/.exec(out)?.[1] ?? 'none',
        raw: out,
      });
    });
  });
}

const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const quantile = (a, q) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(x < 10 ? 2 : 0) : String(x));

async function partA() {
  const proxy = await countingProxy();
  const g = await gateway({
    port: 0,
    public: true,
    allowPrivate: true, // pygopherd (and the counting proxy) are on loopback
    allowPorts: [proxy.port],
    rate: 0, // (a) measures the cache: one address, 200 connections
    maxPerClient: 100_000,
    maxConnections: 100_000,
  });
  const path = `/?url=${encodeURIComponent(`gopher://127.0.0.1:${proxy.port}/1/`)}`;
  const first = await get(g.port, path);
  if (first.status !== 200) throw new Error(`the gateway answered ${first.status}: ${first.body}`);
  const web = await nginx(first.body);
  const check = await get(web.port, '/');
  if (check.status !== 200) throw new Error(`nginx answered ${check.status}: ${check.body}`);
  if (!check.body.equals(first.body)) throw new Error('nginx does not serve the page as rendered');
  console.log(
    `(a) one menu page (${first.body.length} octets: pygopherd's root menu through a counting proxy), ` +
      `${CONNECTIONS} connections, ${SECONDS} s each run, wrk -t2 --latency, ${ROUNDS} round(s) interleaved`,
  );
  const rows = [];
  const t0 = Date.now();
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, port, p] of [
      ['locator serve --public (cache)', g.port, path],
      ['nginx, static file (1 worker)', web.port, '/'],
    ]) {
      const w = await wrk(port, p, { connections: CONNECTIONS, seconds: SECONDS });
      rows.push({ name, round: r + 1, ...w });
    }
  }
  const seconds = (Date.now() - t0) / 1000;
  const stats = await g.stats();
  console.table(
    rows.map((w) => ({
      run: w.name,
      round: w.round,
      'requests/s': Math.round(w.rps),
      'p50 ms': f1(w.p50),
      'p99 ms': f1(w.p99),
      'non-2xx': w.non2xx,
      'socket errors': w.errors,
    })),
  );
  const gw = median(rows.filter((w) => w.name.startsWith('locator')).map((w) => w.rps));
  const ng = median(rows.filter((w) => w.name.startsWith('nginx')).map((w) => w.rps));
  console.log(`gateway / nginx requests/s (medians): ${(gw / ng).toFixed(2)}x (target >= 0.3x)`);
  console.log(
    `upstream connections accepted by the counting proxy over ${seconds.toFixed(0)} s of load ` +
      `(a menu is kept 300 s): ${proxy.counter.connections}; the cache counted ${stats.hits} hits, ` +
      `${stats.misses} misses, ${stats.coalesced} coalesced, ${stats.upstream} upstream requests`,
  );
  await web.close();
  await g.close();
  await proxy.close();
}

/** `n` clients, each its own X-Forwarded-For, one request every `every` ms for `seconds`: each latency, each status. */
async function wellBehaved(port, path, n, every, seconds) {
  const ms = [];
  const statuses = new Map();
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      await new Promise((r) => setTimeout(r, (every * i) / n)); // spread over the period
      while (Date.now() < end) {
        const t = Date.now();
        const a = await get(port, path, { 'X-Forwarded-For': `10.0.0.${i + 1}` }, agent);
        ms.push(a.ms);
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, Math.max(0, every - (Date.now() - t))));
      }
      agent.destroy();
    }),
  );
  return { ms, statuses };
}

async function partB() {
  const g = await gateway({
    port: 0,
    public: true,
    allowPrivate: true,
    rate: 5,
    burst: 10,
    trustProxy: ['127.0.0.1'],
    maxPerClient: 100_000, // (b) measures the rate: the limit of requests at once kept out of it
    maxConnections: 100_000,
  });
  const path = `/?url=${encodeURIComponent(`gopher://${GOPHER.host}:${GOPHER.port}/1/`)}`;
  await get(g.port, path, { 'X-Forwarded-For': '10.0.0.254' }); // into the cache
  const n = 20;
  const every = 250;
  console.log(
    `\n(b) --rate 5 --burst 10 --trust-proxy 127.0.0.1: ${n} clients (X-Forwarded-For 10.0.0.1-${n}), ` +
      `each a request every ${every} ms for ${FAIR_SECONDS} s; the flood: wrk -t1 -c50, X-Forwarded-For 203.0.113.66`,
  );
  const alone = await wellBehaved(g.port, path, n, every, FAIR_SECONDS);
  const [loaded, flood, over] = await Promise.all([
    wellBehaved(g.port, path, n, every, FAIR_SECONDS),
    wrk(g.port, path, {
      connections: 50,
      seconds: FAIR_SECONDS,
      threads: 1,
      headers: ['X-Forwarded-For: 203.0.113.66'],
    }),
    // One more request of the flooding client, halfway through.
    new Promise((r) => setTimeout(r, (FAIR_SECONDS * 1000) / 2)).then(() =>
      get(g.port, path, { 'X-Forwarded-For': '203.0.113.66' }),
    ),
  ]);
  const row = (name, r) => ({
    run: name,
    requests: r.ms.length,
    statuses: [...r.statuses].map(([s, c]) => `${s}: ${c}`).join(', '),
    'p50 ms': f1(quantile(r.ms, 0.5)),
    'p99 ms': f1(quantile(r.ms, 0.99)),
  });
  console.table([row('20 clients alone', alone), row('20 clients, flood beside them', loaded)]);
  console.log(
    `the flood: ${flood.requests} requests (${Math.round(flood.rps)}/s), ${flood.non2xx} answered other than 2xx/3xx; ` +
      `one more of its requests halfway: ${over.status}, Retry-After: ${over.headers['retry-after']}`,
  );
  console.log(
    `the others' p99 loaded / unloaded: ${(quantile(loaded.ms, 0.99) / quantile(alone.ms, 0.99)).toFixed(2)}x (target <= 2x)`,
  );
  await g.close();
}

const which = process.argv.slice(2).filter((a) => !a.startsWith('-'));
if (which.length === 0 || which.includes('a')) await partA();
if (which.length === 0 || which.includes('b')) await partB();
