// `locator serve` (docs/gateway.md): the command starts the gateway, says where it is, answers,
// and stops on SIGTERM with status 0; bad options are usage errors (status 2).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { ROOT, SHARED } from '../helpers.js';
import { open } from '../../src/clients/index.js';
import { serveOptions } from '../../src/cli/serve.js';
import { UsageError, type Io } from '../../src/cli/command.js';

const BIN = join(ROOT, 'dist', 'cli', 'main.js');

function io(env: Record<string, string> = {}): Io {
  return { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), stderrIsTTY: false, env };
}

test('locator serve --port 0: prints its address, serves the home page, stops on SIGTERM with status 0', async () => {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`no address within 10 s: ${err}`)), 10_000);
      child.stderr.on('data', (d) => {
        err += d;
        const m = /the gateway is at (http:\/\/127\.0\.0\.1:\d+)\//.exec(err);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
    });
    const r = await fetch(`${url}/`);
    assert.equal(r.status, 200);
    assert.match(await r.text(), /<h1>locator gateway<\/h1>/);
  } finally {
    child.kill('SIGTERM');
  }
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(status, 0);
});

test('locator serve: options', () => {
  const o = serveOptions({ port: '0', 'allow-port': ['7000', '7001'], 'open-proxy': true, quiet: true }, io());
  assert.equal(o.host, '127.0.0.1');
  assert.equal(o.port, 0);
  assert.deepEqual(o.allowPorts, [7000, 7001]);
  assert.equal(o.openProxy, true);
  assert.equal(o.allowPrivate, false);
  assert.equal(o.log, undefined);
  assert.equal(serveOptions({}, io()).port, 8080);
  assert.equal(serveOptions({}, io({ LOCATOR_EMAIL: 'me@example.test' })).email, 'me@example.test');
  assert.equal(serveOptions({ 'nntp-server': 'news.example.test:1119' }, io()).newsServer, 'news.example.test:1119');
  assert.equal(serveOptions({}, io()).newsServer, undefined);
  for (const bad of [
    { port: '70000' },
    { port: 'x' },
    { timeout: '0' },
    { 'allow-port': ['0'] },
    { 'max-per-client': '-1' },
  ])
    assert.throws(() => serveOptions(bad, io()), UsageError, JSON.stringify(bad));
});

test("locator serve: the client limits and --netrc-host (the operator's ~/.netrc for no other host)", () => {
  const o = serveOptions(
    {
      'idle-timeout': '2000',
      'headers-timeout': '3000',
      'receive-timeout': '4000',
      'max-connections': '16',
      'netrc-host': ['News.Example.ORG', '127.0.0.1'],
    },
    io(),
  );
  assert.deepEqual([o.idleTimeout, o.headersTimeout, o.receiveTimeout, o.maxConnections], [2000, 3000, 4000, 16]);
  assert.deepEqual(o.netrcHosts, ['news.example.org', '127.0.0.1']);
  assert.deepEqual(serveOptions({}, io()).netrcHosts, []);
  for (const bad of [{ 'idle-timeout': '0' }, { 'max-connections': 'x' }, { 'netrc-host': ['a b'] }])
    assert.throws(() => serveOptions(bad, io()), UsageError, JSON.stringify(bad));
});

test('locator serve: --public and the options of a public gateway', () => {
  const o = serveOptions(
    {
      public: true,
      rate: '5',
      burst: '9',
      'trust-proxy': ['127.0.0.1', '10.0.0.0/8'],
      'forwarded-header': 'Forwarded',
      index: true,
    },
    io(),
  );
  assert.deepEqual(
    [o.public, o.rate, o.burst, o.trustProxy, o.forwardedHeader, o.index],
    [true, 5, 9, ['127.0.0.1', '10.0.0.0/8'], 'forwarded', true],
  );
  assert.equal(serveOptions({}, io()).public, false);
  assert.equal(serveOptions({ rate: '0' }, io()).rate, 0);
  const c = serveOptions({ 'cache-size': '1000', 'cache-dir': '/var/cache/gw', 'cache-searches': true }, io());
  assert.deepEqual([c.cacheSize, c.cacheDir, c.cacheSearches], [1000, '/var/cache/gw', true]);
  assert.equal(serveOptions({}, io()).cacheSize, undefined);
  for (const bad of [
    { 'trust-proxy': ['proxy.lan'] },
    { 'trust-proxy': ['10.0.0.0/40'] },
    { 'forwarded-header': 'x-real-ip' },
    { burst: '0' },
    { 'cache-size': '-1' },
    { rate: 'x' },
  ])
    assert.throws(() => serveOptions(bad, io()), UsageError, JSON.stringify(bad));
});

test('locator serve takes no URL arguments (usage error, status 2)', async () => {
  const child = spawn(process.execPath, [BIN, 'serve', 'gopher://h/'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(status, 2);
});

test('locator serve --wais DIR --port 0: a WAIS server of the folder (RFC 1625), searched by a wais URL, stops on SIGTERM with 0', async () => {
  const dir = join(SHARED, 'fixtures', 'wais', 'docs');
  const child = spawn(process.execPath, [BIN, 'serve', '--wais', dir, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const base = await new Promise<string>((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`no address within 10 s: ${err}`)), 10_000);
      child.stderr.on('data', (d) => {
        err += d;
        const m = /(wais:\/\/127\.0\.0\.1:\d+\/docs)/.exec(err);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
    });
    const r = await open(`${base}?forecast`, { gateway: false, timeout: 5000 });
    assert.equal(r.meta.contentType, 'text/x-locator-wais-headlines; charset=utf-8');
    assert.match(Buffer.from(await new Response(r.body).arrayBuffer()).toString(), /Weather notes/);
  } finally {
    child.kill('SIGTERM');
  }
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  assert.equal(code, 0);
});

test('locator serve --access-log FILE: a Combined Log Format line per request, appended', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-serve-log-'));
  const file = join(dir, 'access.log');
  writeFileSync(file, 'an earlier line\n');
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', '--access-log', file], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`no address within 10 s: ${err}`)), 10_000);
      child.stderr.on('data', (d) => {
        err += d;
        const m = /the gateway is at (http:\/\/127\.0\.0\.1:\d+)\//.exec(err);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
    });
    assert.equal((await fetch(`${url}/robots.txt`, { headers: { 'User-Agent': 'test' } })).status, 200);
  } finally {
    child.kill('SIGTERM');
  }
  assert.equal(await new Promise<number | null>((resolve) => child.on('close', resolve)), 0);
  const lines = readFileSync(file, 'utf8').split('\n');
  assert.equal(lines[0], 'an earlier line');
  assert.match(lines[1], /^127\.0\.0\.1 - - \[[^\]]+ \+0000\] "GET \/robots\.txt HTTP\/1\.1" 200 26 "-" "test"$/);
});
