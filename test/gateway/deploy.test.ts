// docs/deploy.md's nginx configuration, as written, in front of a gateway started as the systemd
// unit there starts it (`public`, `hostNames`, `trustProxy` 127.0.0.1, an access log): the suite's
// nginx binary (/usr/sbin/nginx) with a configuration of its own on a free port. Through it: the
// client each request is logged and counted as is the address nginx saw (127.0.0.7, 127.0.0.8),
// never the X-Forwarded-For a client made up; robots.txt, X-Robots-Tag and a pygopherd menu.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers.js';
import { startGateway } from '../../src/gateway/server.js';
import { until } from './raw.js';

/** The ```nginx block of docs/deploy.md. */
function deployConf(): string {
  const md = readFileSync(join(ROOT, 'docs', 'deploy.md'), 'utf8');
  const m = /```nginx\n([^]*?)```/.exec(md);
  assert.ok(m, 'docs/deploy.md has an nginx block');
  return m[1];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

function get(port: number, path: string, from: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        localAddress: from,
        agent: false,
        headers: { Host: 'gopher.example.org', ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('docs/deploy.md: nginx in front of a public gateway; clients by the address nginx saw, never by their own header', async () => {
  const lines: string[] = [];
  const g = await startGateway({
    port: 0,
    public: true,
    allowPrivate: true, // pygopherd is on loopback
    hostNames: ['gopher.example.org:80'],
    trustProxy: ['127.0.0.1'],
    rate: 0.001,
    burst: 3,
    accessLog: (l) => lines.push(l),
  });
  const dir = mkdtempSync(join(tmpdir(), 'locator-deploy-'));
  mkdirSync(join(dir, 'tmp'));
  const port = await freePort();
  const server = deployConf()
    .replace('listen 80;', `listen 127.0.0.1:${port};`)
    .replace('http://127.0.0.1:8070', `http://127.0.0.1:${g.port}`);
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1;\ndaemon off;\npid ${dir}/nginx.pid;\nerror_log stderr notice;\nevents { worker_connections 64; }\n` +
      `http {\n access_log off;\n client_body_temp_path ${dir}/tmp/body;\n proxy_temp_path ${dir}/tmp/proxy;\n` +
      ` fastcgi_temp_path ${dir}/tmp/fastcgi;\n uwsgi_temp_path ${dir}/tmp/uwsgi;\n scgi_temp_path ${dir}/tmp/scgi;\n${server}}\n`,
  );
  let nginx: ChildProcess | null = null;
  let err = '';
  try {
    nginx = spawn('/usr/sbin/nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    nginx.stderr!.on('data', (d) => (err += d));
    // nginx says so on its error log (stderr here) once its worker runs.
    const up = await until(() => /start worker process/.test(err), 10_000);
    assert.ok(up, `nginx did not start: ${err}`);

    const robots = await get(port, '/robots.txt', '127.0.0.7', { 'X-Forwarded-For': '6.6.6.6' });
    assert.equal(robots.status, 200, robots.text);
    assert.equal(robots.text, 'User-agent: *\nDisallow: /\n');
    assert.equal(robots.headers['x-robots-tag'], 'noindex, nofollow');
    const menu = await get(port, `/?url=${encodeURIComponent('gopher://127.0.0.1:7070/1/')}`, '127.0.0.7', {
      'X-Forwarded-For': '6.6.6.6',
    });
    assert.equal(menu.status, 200);
    assert.match(menu.text, /Hello text/);
    // 127.0.0.7 has used 2 of its 3 tokens; its third goes, then 429, whatever it claims to be.
    assert.equal((await get(port, '/', '127.0.0.7', { 'X-Forwarded-For': '6.6.6.7' })).status, 200);
    const over = await get(port, '/', '127.0.0.7', { 'X-Forwarded-For': '6.6.6.8' });
    assert.equal(over.status, 429);
    assert.ok(Number(over.headers['retry-after']) >= 1);
    // Another reader behind the same nginx is served.
    assert.equal((await get(port, '/', '127.0.0.8')).status, 200);
    assert.ok(await until(() => lines.length === 5, 3000), lines.join('\n'));
    assert.deepEqual(
      lines.map((l) => l.split(' ')[0]),
      ['127.0.0.7', '127.0.0.7', '127.0.0.7', '127.0.0.7', '127.0.0.8'],
    );
    assert.doesNotMatch(lines.join('\n'), /6\.6\.6/);
  } finally {
    if (nginx !== null && nginx.exitCode === null) {
      nginx.kill('SIGTERM');
      await new Promise((r) => nginx!.once('exit', r));
    }
    await g.close();
  }
});
