// `locator serve --warc` reaches no server: the built CLI runs in a child whose preload makes every
// way out of the process throw and leave a line in a log (net and tls connections, DNS, UDP,
// http(s) requests, for CommonJS and ES module imports alike; only a lookup of an address
// literal, which asks no server, passes); many pages are asked of it, every
// link of every page (downloads, access algorithms, charsets) and URLs the archives do not hold,
// of every scheme; the log stays empty.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, makeArchive, type Fixture } from './replay-fixture.js';

/** The preload: every way to the network throws and is written to $NO_NET_LOG. */
const PRELOAD = `
const fs = require('node:fs');
const net = require('node:net');
const log = process.env.NO_NET_LOG;
const refuse = (what) => function (...args) {
  const a = args[0];
  const where = a && typeof a === 'object' ? (a.host ?? a.hostname ?? a.path ?? a.port) : a;
  fs.appendFileSync(log, what + ' ' + String(where) + '\\n');
  throw new Error('no network here: ' + what);
};
net.Socket.prototype.connect = refuse('net.Socket.connect');
net.connect = refuse('net.connect');
net.createConnection = refuse('net.createConnection');
const tls = require('node:tls');
tls.connect = refuse('tls.connect');
// A lookup of an address literal asks no server (the gateway's own listen() makes one): passed on.
for (const m of [require('node:dns'), require('node:dns').promises, require('node:dns/promises')])
  for (const k of Object.keys(m))
    if (typeof m[k] === 'function' && /^(lookup|resolve|reverse)/.test(k)) {
      const real = m[k];
      const no = refuse('dns.' + k);
      m[k] = k === 'lookup' ? function (host, ...rest) { return net.isIP(String(host)) ? real.call(this, host, ...rest) : no(host); } : no;
    }
const dgram = require('node:dgram');
dgram.createSocket = refuse('dgram.createSocket');
for (const m of [require('node:http'), require('node:https')]) {
  m.request = refuse('http.request');
  m.get = refuse('http.get');
}
require('node:module').syncBuiltinESMExports();
`;

let fx: Fixture;
let preload: string;
before(async () => {
  fx = await makeArchive();
  await fx.close();
  preload = join(fx.dir, 'no-network.cjs');
  writeFileSync(preload, PRELOAD);
});
after(() => {
  if (fx) rmSync(fx.dir, { recursive: true, force: true });
});

test('the preload of this test catches a connection, a DNS lookup and a UDP socket, from CommonJS and from an ES module', () => {
  const log = join(fx.dir, 'probe.log');
  const tries = [
    ['-e', "try { require('node:net').connect(7070, '127.0.0.1') } catch {}"],
    ['--input-type=module', '-e', "import { connect } from 'node:net'; try { connect(7070, '127.0.0.1') } catch {}"],
    [
      '--input-type=module',
      '-e',
      "import { lookup } from 'node:dns'; try { lookup('example.org', () => {}) } catch {}",
    ],
    [
      '--input-type=module',
      '-e',
      "import { lookup } from 'node:dns/promises'; try { await lookup('example.org') } catch {}",
    ],
    ['--input-type=module', '-e', "import { createSocket } from 'node:dgram'; try { createSocket('udp4') } catch {}"],
    ['--input-type=module', '-e', "try { await fetch('http://127.0.0.1:8080/') } catch {}"],
  ];
  for (const args of tries) {
    const r = spawnSync(process.execPath, ['--require', preload, ...args], { env: { NO_NET_LOG: log } });
    assert.equal(r.status, 0, r.stderr.toString());
  }
  const lines = readFileSync(log, 'utf8').trim().split('\n');
  assert.equal(lines.length, tries.length, lines.join('\n'));
});

test('serve --warc: many pages, downloads and URLs the archives do not hold, and not one connection, lookup or datagram', async () => {
  const log = join(fx.dir, 'serve.log');
  const child = spawn(
    process.execPath,
    ['--require', preload, BIN, 'serve', '--port', '0', '--quiet', '--max-per-client', '64', '--warc', ...fx.files],
    { env: { PATH: process.env.PATH, NO_NET_LOG: log } },
  );
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  try {
    const origin = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', () => {
        const m = /the gateway is at (http:\/\/[^\s/]+)\//.exec(err);
        if (m) resolve(m[1]);
      });
      child.on('close', (code) => reject(new Error(`serve ended (${code}): ${err}`)));
    });
    const seen = new Set<string>();
    const queue = ['/'];
    const statuses = new Map<number, number>();
    const ask = async (path: string) => {
      const r = await fetch(origin + path);
      const body = await r.text();
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      return { status: r.status, body };
    };
    // Every page reached from the home page's list of archived URLs, every link of every page.
    while (queue.length > 0 && seen.size < 600) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      seen.add(path);
      const { body } = await ask(path);
      for (const m of body.matchAll(/href="(\/\?url=[^"]+)"/g)) {
        const next = m[1].replace(/&amp;/g, '&');
        if (!seen.has(next)) queue.push(next);
      }
    }
    // URLs of every scheme that no archive holds, a search, the session and mail pages.
    const elsewhere = [
      'gopher://127.0.0.1:7070/1/never-archived',
      'gopher://127.0.0.1:7070/7/search.sh%09hello',
      'gopher://gopher.example.org/',
      'ftp://ftp.example.org/pub/',
      'ftp://127.0.0.1:2121/pub/big.bin',
      'http://example.org/',
      'https://example.org/',
      'news:nothing-here@example.org',
      'nntp://127.0.0.1:1119/local.test/1',
      'wais://127.0.0.1:210/demo?nothing',
      'prospero://127.0.0.1:1525//pros/dir',
      'file://127.0.0.1/etc/hosts',
      'telnet://127.0.0.1:2323/',
      'mailto:someone@example.org',
    ];
    const failed: string[] = [];
    for (const u of elsewhere) {
      for (const extra of ['', '&view=raw']) {
        const r = await ask(`/?url=${encodeURIComponent(u)}${extra}`);
        seen.add(u + extra);
        if (r.status >= 500) failed.push(`${u}${extra}: ${r.status} ${r.body.slice(0, 300)}`);
      }
    }
    assert.ok(!existsSync(log), `the replay tried the network:\n${existsSync(log) ? readFileSync(log, 'utf8') : ''}`);
    assert.ok(seen.size >= 100, `${seen.size} requests`);
    assert.ok((statuses.get(200) ?? 0) >= 50, JSON.stringify([...statuses]));
    assert.ok((statuses.get(404) ?? 0) >= 5, JSON.stringify([...statuses]));
    assert.deepEqual(failed, [], 'no failure of the gateway');
  } finally {
    child.kill('SIGTERM');
  }
});
