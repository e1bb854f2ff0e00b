// http and https kept as exchanged (WARC 1.1 6.3, 6.4): the `httpCapture` tap of the http client
// and the response and request records written from it, against nginx (the shared test server,
// test/servers/http.sh, and one started here with TLS and a gzip-coded file). Every record is read
// whole by warcio (test/archive/peer.ts: block and payload digests recomputed there); the
// response's octets are compared with what nginx answers to the same request sent on a raw socket.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { open, type HttpExchange } from '../../src/clients/index.js';
import { WarcWriter, recordExchange, archiveHttpFetch, archiveCrawl, htmlPageLinks } from '../../src/archive/index.js';
import { assertDigests, dechunk, digestOf, entityOf, type PeerRecord } from './peer.js';
import { ROOT } from '../helpers.js';

const TS = process.env.LOCATOR_TEST_SERVERS;
if (!TS) throw new Error('LOCATOR_TEST_SERVERS is not set: run the tests with node scripts/test.mjs');
const HTTP = 'http://127.0.0.1:8080';
const OPTS = { gateway: false as const, timeout: 10_000 };
const BIN = join(ROOT, 'dist', 'cli', 'main.js');

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'locator-warc-http-'));
}

/** Opens `url` with the capture, reads the body whole; the exchanges and the decoded body. */
async function captured(url: string): Promise<{ exchanges: HttpExchange[]; body: Buffer }> {
  const exchanges: HttpExchange[] = [];
  const r = await open(url, { ...OPTS, httpCapture: (e) => exchanges.push(e) });
  const body = Buffer.from(await new Response(r.body).arrayBuffer());
  return { exchanges, body };
}

/** Every record of the WARC files in `dir`, read by warcio with every digest recomputed. */
async function recordsIn(dir: string): Promise<PeerRecord[]> {
  const out: PeerRecord[] = [];
  for (const n of readdirSync(dir).filter((n) => n.endsWith('.warc.gz')))
    out.push(...(await assertDigests(join(dir, n))));
  return out;
}

/** Sends `request` on a new connection to nginx and reads one whole response (Content-Length or chunked). */
function rawExchange(port: number, request: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    const parts: Buffer[] = [];
    const done = (b: Buffer) => {
      s.destroy();
      resolve(b);
    };
    s.on('data', (d) => {
      parts.push(d);
      const all = Buffer.concat(parts);
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = all.subarray(0, end).toString('latin1');
      const length = /^content-length:\s*(\d+)/im.exec(head);
      if (length && all.length >= end + 4 + Number(length[1])) done(all);
      else if (/^transfer-encoding:.*chunked/im.test(head) && all.subarray(end).includes('\r\n0\r\n\r\n')) done(all);
    });
    s.on('error', reject);
    s.write(request);
  });
}

/** The header section and body of a response, its Date line left out (nginx's clock moves on). */
function withoutDate(response: Buffer): string {
  return response.toString('latin1').replace(/^Date: .*\r\n/m, '');
}

function field(r: PeerRecord, name: string): string | undefined {
  return r.fields.get(name.toLowerCase());
}

test('the tap: the request as written and the response as read, a static file (Content-Length)', async () => {
  const { exchanges, body } = await captured(`${HTTP}/hello.txt`);
  assert.equal(exchanges.length, 1);
  const ex = exchanges[0];
  assert.equal(await ex.ended, true);
  assert.equal(ex.url, `${HTTP}/hello.txt`);
  assert.equal(ex.ip, '127.0.0.1');
  const sent = Buffer.concat(ex.sent).toString('latin1');
  assert.match(sent, /^GET \/hello\.txt HTTP\/1\.1\r\nHost: 127\.0\.0\.1:8080\r\nUser-Agent: locator\r\n/);
  assert.ok(sent.endsWith('\r\n\r\n'), 'the request ends with its empty line');
  const received = Buffer.concat(ex.received);
  assert.match(received.toString('latin1'), /^HTTP\/1\.1 200 OK\r\n/);
  assert.deepEqual(entityOf(received), body, 'the body after the header section is the object');
  // The same request on a raw socket gets the same octets (but for the Date line).
  assert.equal(withoutDate(received), withoutDate(await rawExchange(8080, Buffer.concat(ex.sent))));
});

test('the tap: a chunked answer (an nginx autoindex listing) is kept with its chunk framing', async () => {
  const { exchanges, body } = await captured(`${HTTP}/dir/`);
  const received = Buffer.concat(exchanges[0].received);
  const text = received.toString('latin1');
  assert.match(text, /^transfer-encoding: chunked\r$/im);
  const end = received.indexOf('\r\n\r\n') + 4;
  assert.notDeepEqual(received.subarray(end), body, 'the chunk framing is there');
  assert.deepEqual(dechunk(received.subarray(end)), body, 'and de-chunked it is the object');
  assert.ok(received.subarray(end).toString('latin1').endsWith('0\r\n\r\n'), 'the last chunk is kept');
  assert.equal(withoutDate(received), withoutDate(await rawExchange(8080, Buffer.concat(exchanges[0].sent))));
});

test('the tap on a kept-alive connection: each exchange holds its own octets, and none of a request made without the tap', async () => {
  const a = await captured(`${HTTP}/hello.txt`);
  // Not captured, on the same pooled connection.
  await new Response((await open(`${HTTP}/dir/inner.txt`, OPTS)).body).arrayBuffer();
  const c = await captured(`${HTTP}/with%20space.txt`);
  for (const [x, path, text] of [
    [a, '/hello.txt', 'plain text\n'],
    [c, '/with%20space.txt', 'spaced\n'],
  ] as const) {
    const ex = x.exchanges[0];
    assert.equal(await ex.ended, true);
    const sent = Buffer.concat(ex.sent).toString('latin1');
    assert.equal(sent.match(/^GET /gm)?.length, 1, `one request in ${path}'s capture`);
    assert.ok(sent.startsWith(`GET ${path} `));
    const received = Buffer.concat(ex.received).toString('latin1');
    assert.equal(received.match(/^HTTP\/1\.1 /gm)?.length, 1, `one response in ${path}'s capture`);
    assert.ok(received.endsWith('\r\n\r\n' + text), `${path}'s capture ends with its body`);
  }
});

test('recordExchange: response and request records, read whole by warcio, digests recomputed, payload de-chunked', async () => {
  const dir = tempDir();
  try {
    const writer = new WarcWriter({ dir });
    const urls = [`${HTTP}/hello.txt`, `${HTTP}/dir/`];
    const sentOf = new Map<string, Buffer>();
    const receivedOf = new Map<string, Buffer>();
    for (const url of urls) {
      const { exchanges } = await captured(url);
      sentOf.set(url, Buffer.concat(exchanges[0].sent));
      receivedOf.set(url, Buffer.concat(exchanges[0].received));
      assert.ok(await recordExchange(writer, exchanges[0]));
    }
    await writer.close();
    const records = await recordsIn(dir);
    assert.deepEqual(
      records.map((r) => `${r.type} ${r.targetUri ?? ''}`),
      ['warcinfo ', ...urls.flatMap((u) => [`response ${u}`, `request ${u}`])],
    );
    for (const url of urls) {
      const response = records.find((r) => r.type === 'response' && r.targetUri === url)!;
      const request = records.find((r) => r.type === 'request' && r.targetUri === url)!;
      assert.deepEqual(response.block, receivedOf.get(url), 'the response block is the octets read');
      assert.deepEqual(request.block, sentOf.get(url), 'the request block is the octets written');
      assert.equal(field(response, 'content-type'), 'application/http;msgtype=response');
      assert.equal(field(request, 'content-type'), 'application/http;msgtype=request');
      assert.equal(field(request, 'warc-concurrent-to'), field(response, 'warc-record-id'));
      assert.equal(field(response, 'warc-ip-address'), '127.0.0.1');
      assert.equal(field(request, 'warc-ip-address'), '127.0.0.1');
      assert.equal(field(response, 'warc-protocol'), 'http/1.1');
      assert.equal(field(response, 'warc-date'), field(request, 'warc-date'));
      // The payload digest is of the entity: de-chunked, not of the chunk-framed body.
      const payload = field(response, 'warc-payload-digest')!;
      assert.equal(payload, digestOf(payload, entityOf(response.block)));
    }
    const chunked = records.find((r) => r.type === 'response' && r.targetUri === `${HTTP}/dir/`)!;
    const framed = chunked.block.subarray(chunked.block.indexOf('\r\n\r\n') + 4);
    assert.notEqual(field(chunked, 'warc-payload-digest'), digestOf('sha1:', framed));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('archiveHttpFetch: a redirect is two exchanges, each kept (302, then the object)', async () => {
  const dir = tempDir();
  try {
    const writer = new WarcWriter({ dir });
    const got = await archiveHttpFetch(writer, `${HTTP}/redirect`, OPTS);
    assert.equal(got.fetched, null);
    assert.equal(got.exchanges.length, 2);
    await writer.close();
    const records = await recordsIn(dir);
    const responses = records.filter((r) => r.type === 'response');
    assert.deepEqual(
      responses.map((r) => r.targetUri),
      [`${HTTP}/redirect`, `${HTTP}/hello.txt`],
    );
    assert.match(
      responses[0].block.toString('latin1'),
      /^HTTP\/1\.1 302 [^\r]*\r\n(.*\r\n)*Location: http:\/\/127\.0\.0\.1:8080\/hello\.txt\r\n/,
    );
    assert.ok(responses[1].block.toString('latin1').endsWith('\r\n\r\nplain text\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('archiveCrawl of the crawl test site: HTML links followed, a 404 kept as exchanged, robots.txt obeyed, the other schemes as resources', async () => {
  const dir = tempDir();
  try {
    const results = [];
    for await (const r of archiveCrawl([`${HTTP}/site/`], { output: dir + '/', open: OPTS })) results.push(r);
    const status = Object.fromEntries(results.map((r) => [r.url, r.status]));
    assert.equal(status[`${HTTP}/site/missing.html`], 'failed');
    assert.equal(status[`${HTTP}/site/private/secret.html`], 'refused');
    const records = await recordsIn(dir);
    const of = (type: string) =>
      records
        .filter((r) => r.type === type)
        .map((r) => r.targetUri)
        .sort();
    const pages = ['/site/', '/site/missing.html', '/site/page1.html', '/site/page2.md', '/site/sub/deep.html'].map(
      (p) => HTTP + p,
    );
    // /site/index.html is linked from page1.html ("index.html"): another URL, kept too; and the
    // robots.txt the crawl read.
    assert.deepEqual(of('response'), [...pages, `${HTTP}/site/index.html`, `${HTTP}/robots.txt`].sort());
    assert.deepEqual(of('request'), of('response'));
    const missing = records.find((r) => r.type === 'response' && r.targetUri === `${HTTP}/site/missing.html`)!;
    assert.match(missing.block.toString('latin1'), /^HTTP\/1\.1 404 Not Found\r\n/);
    assert.deepEqual(of('resource'), ['ftp://127.0.0.1:2121/pub/unix.txt', 'gopher://127.0.0.1:7070/0/hello.txt']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('htmlPageLinks: the URL attributes of the page, resolved against <base href> or the page, fragments dropped', () => {
  const page =
    '<!DOCTYPE html><html><head><link rel=stylesheet href="s.css"><script src="/j.js"></script></head>' +
    '<body><a href="a.html#x">a</a> <img src="i/p.png"> <a href="mailto:x@y">m</a> <a href="a.html">again</a>' +
    '<template><a href="t.html">t</a></template></body></html>';
  assert.deepEqual(htmlPageLinks(page, 'http://h/d/p.html'), [
    'http://h/d/s.css',
    'http://h/j.js',
    'http://h/d/a.html',
    'http://h/d/i/p.png',
    'http://h/d/t.html',
  ]);
  assert.deepEqual(htmlPageLinks('<base href="http://o/x/"><a href="y">y</a>', 'http://h/'), ['http://o/x/y']);
  // RFC 3986 5.2.4, as a browser: a "../" above the root is dropped (RFC 1808 would keep "/../").
  assert.deepEqual(htmlPageLinks('<a href="../">up</a>', 'http://h/'), ['http://h/']);
});

// An nginx of this test's own, with TLS (a certificate made here) and a gzip-coded file, for
// `locator archive` over https: the CLI is run with NODE_EXTRA_CA_CERTS naming the certificate.
let tls: { dir: string; port: number; nginx: ChildProcess; gz: Buffer } | null = null;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

async function waitPort(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.on('connect', () => (s.destroy(), resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nginx did not listen on ${port}`);
}

before(async () => {
  const dir = tempDir();
  const root = join(dir, 'root');
  mkdirSync(join(root, 'gz'), { recursive: true });
  mkdirSync(join(dir, 'tmp'));
  const cert = spawnSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    join(dir, 'key.pem'),
    '-out',
    join(dir, 'cert.pem'),
  ]);
  assert.equal(cert.status, 0, String(cert.stderr));
  writeFileSync(
    join(root, 'index.html'),
    '<!DOCTYPE html>\n<html><body><a href="gz/text.txt">gz</a> <a href="list/">list</a></body></html>\n',
  );
  mkdirSync(join(root, 'list'));
  writeFileSync(join(root, 'list', 'one.txt'), 'one\n');
  const gz = gzipSync(Buffer.from('a text kept gzip-coded, as the server sent it\n'.repeat(20)));
  writeFileSync(join(root, 'gz', 'text.txt.gz'), gz);
  spawnSync('chmod', ['-R', 'a+rX', dir]);
  const port = await freePort();
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log stderr notice;
events { worker_connections 32; }
http {
    include /etc/nginx/mime.types;
    access_log off;
    client_body_temp_path ${dir}/tmp/body;
    proxy_temp_path ${dir}/tmp/proxy;
    fastcgi_temp_path ${dir}/tmp/fastcgi;
    uwsgi_temp_path ${dir}/tmp/uwsgi;
    scgi_temp_path ${dir}/tmp/scgi;
    server {
        listen 127.0.0.1:${port} ssl;
        ssl_certificate ${dir}/cert.pem;
        ssl_certificate_key ${dir}/key.pem;
        root ${root};
        autoindex on;
        location /gz/ { gzip_static always; }
    }
}
`,
  );
  const nginx = spawn('/usr/sbin/nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
  tls = { dir, port, nginx, gz };
  await waitPort(port);
});

after(() => {
  if (tls) {
    tls.nginx.kill();
    rmSync(tls.dir, { recursive: true, force: true });
  }
});

test('locator archive over https: the exchanges inside TLS, a gzip-coded body kept coded, its payload digest of the coded entity', async () => {
  const { dir: server, port, gz } = tls!;
  const out = tempDir();
  try {
    const base = `https://127.0.0.1:${port}`;
    const run = spawnSync(process.execPath, [BIN, 'archive', '-o', out + '/', '--ignore-robots', `${base}/`], {
      env: { PATH: process.env.PATH, NODE_EXTRA_CA_CERTS: join(server, 'cert.pem') },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const records = await recordsIn(out);
    const targets = records.filter((r) => r.type === 'response').map((r) => r.targetUri);
    assert.deepEqual(targets.sort(), [`${base}/`, `${base}/gz/text.txt`, `${base}/list/`, `${base}/list/one.txt`]);
    for (const r of records.filter((r) => r.type === 'response')) {
      const request = records.find(
        (q) => q.type === 'request' && field(q, 'warc-concurrent-to') === field(r, 'warc-record-id'),
      );
      assert.ok(request, `a request record for ${r.targetUri}`);
      assert.match(request.block.toString('latin1'), /^GET \/\S* HTTP\/1\.1\r\n/, 'the request in clear: inside TLS');
      assert.match(r.block.toString('latin1'), /^HTTP\/1\.1 200 OK\r\n/);
      assert.equal(field(r, 'warc-ip-address'), '127.0.0.1');
    }
    const coded = records.find((r) => r.type === 'response' && r.targetUri === `${base}/gz/text.txt`)!;
    assert.match(coded.block.toString('latin1'), /^content-encoding: gzip\r$/im);
    assert.deepEqual(entityOf(coded.block), gz, 'the body as the server sent it, gzip-coded');
    // WARC 1.1 5.9 (the entity-body, RFC 2616 7.2: content coding kept), as wget, Heritrix and warcio do.
    assert.equal(field(coded, 'warc-payload-digest'), digestOf('sha1:', gz));
    const listing = records.find((r) => r.type === 'response' && r.targetUri === `${base}/list/`)!;
    assert.match(listing.block.toString('latin1'), /^transfer-encoding: chunked\r$/im);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('locator archive of a server with no robots.txt: its 404 kept as exchanged, once', async () => {
  const { dir: server, port } = tls!;
  const out = tempDir();
  try {
    const base = `https://127.0.0.1:${port}`;
    const run = spawnSync(process.execPath, [BIN, 'archive', '-o', out + '/', `${base}/`, `${base}/list/`], {
      env: { PATH: process.env.PATH, NODE_EXTRA_CA_CERTS: join(server, 'cert.pem') },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const records = await recordsIn(out);
    const robots = records.filter((r) => r.targetUri === `${base}/robots.txt`);
    assert.deepEqual(
      robots.map((r) => r.type),
      ['response', 'request'],
    );
    assert.match(robots[0].block.toString('latin1'), /^HTTP\/1\.1 404 Not Found\r\n/);
    assert.match(robots[1].block.toString('latin1'), /^GET \/robots\.txt HTTP\/1\.1\r\n/);
    assert.equal(field(robots[1], 'warc-concurrent-to'), field(robots[0], 'warc-record-id'));
    // Everything was allowed (RFC 9309 2.3.1.3), and archived.
    assert.ok(records.some((r) => r.type === 'response' && r.targetUri === `${base}/list/one.txt`));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('RFC 1738 4: the archive crawl goes through the http_proxy of the environment it is given, read once for the run', async () => {
  const dir = tempDir();
  const lines: string[] = [];
  // A gateway that answers every request with a page of no links, and records its request lines.
  const gateway = createServer((s) => {
    let got = '';
    s.on('data', (d) => {
      got += d.toString('latin1');
      for (let end; (end = got.indexOf('\r\n\r\n')) >= 0; got = got.slice(end + 4)) {
        lines.push(got.slice(0, got.indexOf('\r\n')));
        const body = '<html><body>kept by the gateway</body></html>\n';
        s.write(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      }
    });
    s.on('error', () => {});
  });
  await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
  try {
    const port = (gateway.address() as { port: number }).port;
    const env = { http_proxy: `http://127.0.0.1:${port}/` };
    const results = [];
    for await (const r of archiveCrawl(['http://far.example.invalid/'], {
      output: dir + '/',
      ignoreRobots: true,
      open: { env, timeout: 10_000 },
    }))
      results.push(r);
    assert.deepEqual(
      results.map((r) => [r.url, r.status]),
      [['http://far.example.invalid/', 'archived']],
    );
    assert.deepEqual(lines, ['GET http://far.example.invalid/ HTTP/1.1']);
    const records = await recordsIn(dir);
    const response = records.find((r) => r.type === 'response')!;
    assert.equal(response.targetUri, 'http://far.example.invalid/');
    assert.match(entityOf(response.block).toString(), /kept by the gateway/);
  } finally {
    gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
