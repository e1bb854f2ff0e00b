// docs/deploy.md's nginx configuration, as written, in front of a gateway started as the systemd
// unit there starts it (`public`, `hostNames`, `trustProxy` 127.0.0.1, an access log): the suite's
// nginx binary (/usr/sbin/nginx) with a configuration of its own on a free port. Through it: the
// client each request is logged and counted as is the address nginx saw (127.0.0.7, 127.0.0.8),
// never the X-Forwarded-For a client made up; robots.txt, X-Robots-Tag and a pygopherd menu.
// And behind its https listener (a certificate made by openssl for the test): the mail form's
// POST with the browser's `Origin: https://...` is sent, on the word of nginx's X-Forwarded-Proto
// only, and a search's redirect goes to https.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
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

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

function get(port: number, path: string, from: string, headers: Record<string, string> = {}) {
  return ask({ port, path, from, headers });
}

/** One request through nginx (or to the gateway): over TLS when `tls`, a form's body when `body`. */
function ask(o: {
  port: number;
  path: string;
  from: string;
  headers?: Record<string, string>;
  tls?: boolean;
  body?: Record<string, string>;
}): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const body = o.body === undefined ? undefined : new URLSearchParams(o.body).toString();
    const options: https.RequestOptions = {
      host: '127.0.0.1',
      port: o.port,
      path: o.path,
      method: body === undefined ? 'GET' : 'POST',
      localAddress: o.from,
      agent: false,
      headers: {
        Host: 'gopher.example.org',
        ...(body === undefined ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' }),
        ...o.headers,
      },
      // The test's own certificate, for gopher.example.org.
      ...(o.tls ? { servername: 'gopher.example.org', rejectUnauthorized: false } : {}),
    };
    const req = (o.tls ? https : http).request(options, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The directories of the nginx instances (configuration, certificate, temporary files), removed at the end. */
const nginxDirs: string[] = [];
after(() => {
  for (const dir of nginxDirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * nginx with docs/deploy.md's server block, its listeners on free ports of 127.0.0.1 (`http`,
 * `https`) with a certificate of the test's own, in front of the gateway on `gatewayPort`.
 */
async function deployNginx(gatewayPort: number) {
  const dir = mkdtempSync(join(tmpdir(), 'locator-deploy-'));
  nginxDirs.push(dir);
  mkdirSync(join(dir, 'tmp'));
  const made = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'].concat([
      '-subj',
      '/CN=gopher.example.org',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ]),
    { encoding: 'utf8' },
  );
  assert.equal(made.status, 0, made.stderr);
  const port = await freePort();
  const tlsPort = await freePort();
  const server = deployConf()
    .replace('listen 80;', `listen 127.0.0.1:${port};`)
    .replace('listen 443 ssl;', `listen 127.0.0.1:${tlsPort} ssl;`)
    .replace(/ssl_certificate \S+;/, `ssl_certificate ${join(dir, 'cert.pem')};`)
    .replace(/ssl_certificate_key \S+;/, `ssl_certificate_key ${join(dir, 'key.pem')};`)
    .replace('http://127.0.0.1:8070', `http://127.0.0.1:${gatewayPort}`);
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1;\ndaemon off;\npid ${dir}/nginx.pid;\nerror_log stderr notice;\nevents { worker_connections 64; }\n` +
      `http {\n access_log off;\n client_body_temp_path ${dir}/tmp/body;\n proxy_temp_path ${dir}/tmp/proxy;\n` +
      ` fastcgi_temp_path ${dir}/tmp/fastcgi;\n uwsgi_temp_path ${dir}/tmp/uwsgi;\n scgi_temp_path ${dir}/tmp/scgi;\n${server}}\n`,
  );
  const nginx: ChildProcess = spawn('/usr/sbin/nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  nginx.stderr!.on('data', (d) => (err += d));
  const stop = async () => {
    if (nginx.exitCode === null) {
      nginx.kill('SIGTERM');
      await new Promise((r) => nginx.once('exit', r));
    }
  };
  // nginx says so on its error log (stderr here) once its worker runs.
  if (!(await until(() => /start worker process/.test(err), 10_000))) {
    await stop();
    assert.fail(`nginx did not start: ${err}`);
  }
  return { port, tlsPort, stop };
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
  let nginx: Awaited<ReturnType<typeof deployNginx>> | null = null;
  try {
    nginx = await deployNginx(g.port);
    const port = nginx.port;

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
    await nginx?.stop();
    await g.close();
  }
});

test('docs/deploy.md behind https: the forms take Origin https:// on the word of the trusted proxy only; redirects go to https', async () => {
  const g = await startGateway({
    port: 0,
    public: true,
    allowPrivate: true, // gophernicus is on loopback
    hostNames: ['gopher.example.org:80', 'gopher.example.org:443'],
    trustProxy: ['127.0.0.1'],
    smtp: '127.0.0.1:2525',
    timeout: 15_000,
  });
  let nginx: Awaited<ReturnType<typeof deployNginx>> | null = null;
  try {
    nginx = await deployNginx(g.port);
    const mail = `/?url=${encodeURIComponent('mailto:tester@example.test')}`;
    const form = await ask({ port: nginx.tlsPort, path: mail, from: '127.0.0.7', tls: true });
    assert.equal(form.status, 200, form.text);
    const token = /name="token" value="([^"]+)"/.exec(form.text)?.[1];
    assert.ok(token, form.text);
    const fields = { token, from: 'a@example.test', subject: 'behind https', body: 'x' };
    // What a browser sends from the form of https://gopher.example.org/: sent.
    const sent = await ask({
      port: nginx.tlsPort,
      path: mail,
      from: '127.0.0.7',
      tls: true,
      headers: { Origin: 'https://gopher.example.org' },
      body: fields,
    });
    assert.equal(sent.status, 200, sent.text);
    assert.match(sent.text, /accepted the message for tester@example\.test: 250/);
    // The http origin over https, and the https origin over http (nginx replaces the client's own
    // X-Forwarded-Proto with the scheme it was reached by): refused.
    for (const [tls, origin, extra] of [
      [true, 'http://gopher.example.org', {}],
      [false, 'https://gopher.example.org', { 'X-Forwarded-Proto': 'https' }],
    ] as const) {
      const r = await ask({
        port: tls ? nginx.tlsPort : nginx.port,
        path: mail,
        from: '127.0.0.7',
        tls,
        headers: { Origin: origin, ...extra },
        body: fields,
      });
      assert.equal(r.status, 403, `${origin} over ${tls ? 'https' : 'http'}: ${r.text}`);
      assert.match(r.text, /gateway-refused/);
    }
    // The header from an address that is not a trusted proxy is never read.
    const direct = await ask({
      port: g.port,
      path: mail,
      from: '127.0.0.9',
      headers: { Host: 'gopher.example.org:80', Origin: 'https://gopher.example.org', 'X-Forwarded-Proto': 'https' },
      body: fields,
    });
    assert.equal(direct.status, 403, direct.text);
    // A search's answer is a redirect to the gateway's own page, by the scheme the browser used.
    const search = `/?url=${encodeURIComponent('gopher://127.0.0.1:7071/7/cgi-bin/search')}&search=words`;
    const over = await ask({ port: nginx.tlsPort, path: search, from: '127.0.0.7', tls: true });
    assert.equal(over.status, 303, over.text);
    assert.match(String(over.headers.location), /^https:\/\/gopher\.example\.org\/\?url=/);
    const plain = await ask({ port: nginx.port, path: search, from: '127.0.0.7' });
    assert.match(String(plain.headers.location), /^http:\/\/gopher\.example\.org\/\?url=/);
  } finally {
    await nginx?.stop();
    await g.close();
  }
});
