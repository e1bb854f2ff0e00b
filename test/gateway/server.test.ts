// The gateway over HTTP (RFC 1738 4) against the real servers npm test starts (test/servers/*.sh):
// pygopherd on 127.0.0.1:7070, gophernicus on 7071, vsftpd on 2121. Expected contents are read
// from the servers' own fixture files under $LOCATOR_TEST_SERVERS. In-process fakes only for what
// the real servers will not do: hostile menus, a Gopher+ server that processes +ASK forms
// (pygopherd does not), stalls.

import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { startGateway, statusFor, type Gateway } from '../../src/gateway/index.js';
import { open } from '../../src/clients/index.js';
import { explain } from '../../src/operations/build.js';
import { LocatorError } from '../../src/core/errors.js';
import { fakeServer, type FakeServer } from '../clients/gopher/fakes.js';
import { serversDir } from '../helpers.js';
import { request, type Got } from './request.js';

const TS = serversDir();
const PY = 'gopher://127.0.0.1:7070';
const GN = 'gopher://127.0.0.1:7071';
const FTP = 'ftp://127.0.0.1:2121';
const pyFile = (p: string) => readFileSync(join(TS, 'gopher', 'root', p));
const ftpRoot = join(TS, 'ftp', 'root');

let gw: Gateway;
before(async () => {
  gw = await startGateway({ port: 0, timeout: 10_000 });
});
after(() => gw.close());

const page = (url: string, params = '') => request(gw, `/?url=${encodeURIComponent(url)}${params}`);

/** The URLs the page's gateway links lead to, decoded. */
function linked(text: string, base = ''): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/href="([^"]*)"/g)) {
    const href = m[1].replace(/&amp;/g, '&');
    const prefix = `${base}/?url=`;
    if (!href.startsWith(prefix) || href.includes('&view=')) continue;
    out.push(decodeURIComponent(href.slice(prefix.length)));
  }
  return out;
}

/** The checks of every page: a CSP that allows no script, no script in the page, the safety headers. */
function assertPage(r: Got): void {
  assert.match(String(r.headers['content-type']), /^text\/html; charset=utf-8/);
  const csp = String(r.headers['content-security-policy']);
  assert.match(csp, /default-src 'none'/);
  assert.doesNotMatch(csp, /script-src|unsafe-inline/);
  assert.equal(r.headers['x-content-type-options'], 'nosniff');
  assert.doesNotMatch(r.text, /<script/i);
}

// ---------------------------------------------------------------------------------------------
// Pages of the real servers

test('RFC 1738 4: the home page has the address field, and the policy headers', async () => {
  const r = await request(gw, '/');
  assert.equal(r.status, 200);
  assertPage(r);
  assert.match(r.text, /<label for="address">URL<\/label>\n<input type="text" id="address" name="url"/);
  assert.match(r.text, /<h1>locator gateway<\/h1>/);
});

test('RFC 1436 3.8: the pygopherd root menu is a list of links back through the gateway, types as words', async () => {
  const r = await page(`${PY}/1/`);
  assert.equal(r.status, 200);
  assertPage(r);
  assert.deepEqual(linked(r.text), [
    `${PY}/0/hello.txt`,
    `${PY}/1/files`,
    `${PY}/7/search.sh`,
    'http://127.0.0.1:8080/',
    `${PY}/9/files/data.bin`,
  ]);
  assert.match(r.text, /<li class="info">Welcome to the test gopher server<\/li>/);
  for (const word of ['text', 'menu', 'search', 'html', 'binary'])
    assert.match(r.text, new RegExp(`<span class="kind">${word}</span>`));
});

test('RFC 1436 3.8: a gophernicus menu (the second server)', async () => {
  const r = await page(`${GN}/1/`);
  assert.equal(r.status, 200);
  assert.deepEqual(linked(r.text), [`${GN}/0/hello.txt`, `${GN}/1/files`, `${GN}/7/cgi-bin/search`]);
});

test('RFC 1436 3.8: a text item is shown as text, the fixture escaped in <pre>', async () => {
  const r = await page(`${PY}/0/hello.txt`);
  assert.equal(r.status, 200);
  assertPage(r);
  assert.ok(r.text.includes(`<pre class="text">${pyFile('hello.txt').toString('utf8')}</pre>`));
  assert.deepEqual(
    // The page's own links (the access algorithm, the download, the charsets) are to the same URL.
    linked(r.text.replace(/&amp;(?:view|charset)=[a-z0-9-]+/g, '')).filter((u) => u !== `${PY}/0/hello.txt`),
    [],
  );
});

test('RFC 1436 3.8: a binary item is downloaded with its type and file name, byte for byte', async () => {
  const r = await page(`${PY}/9/files/data.bin`);
  assert.equal(r.status, 200);
  assert.equal(r.headers['content-type'], 'application/octet-stream');
  assert.equal(r.headers['content-disposition'], `attachment; filename="data.bin"; filename*=UTF-8''data.bin`);
  assert.match(String(r.headers['content-security-policy']), /sandbox/);
  assert.deepEqual(r.body, pyFile('files/data.bin'));
});

/** The SHA-256 of a response body and how many times each octet value occurs in it, read as it arrives. */
function digestOf(
  g: Gateway,
  path: string,
): Promise<{ status: number; sha256: string; counts: number[]; size: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: g.host, port: g.port, path, agent: false }, (res) => {
      const hash = createHash('sha256');
      const counts = new Array<number>(256).fill(0);
      let size = 0;
      res.on('data', (d: Buffer) => {
        hash.update(d);
        size += d.length;
        for (const b of d) counts[b]++;
      });
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, sha256: hash.digest('hex'), counts, size }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('binary pass-through: random octets from pygopherd and vsftpd (all 256 values) arrive unchanged, by SHA-256', async () => {
  const cases: Array<[string, string, string]> = [
    [`${PY}/9/big.bin`, join(TS, 'gopher', 'big.sha256'), join(TS, 'gopher', 'root', 'big.bin')],
    [`${FTP}/pub/big.bin`, join(TS, 'ftp', 'big.sha256'), join(ftpRoot, 'pub', 'big.bin')],
  ];
  for (const [url, sumFile, file] of cases) {
    const want = readFileSync(sumFile, 'utf8').trim();
    for (const path of [`/?url=${encodeURIComponent(url)}`, url]) {
      const got = await digestOf(gw, path);
      assert.equal(got.status, 200, path);
      assert.equal(got.size, statSync(file).size, path);
      assert.equal(got.sha256, want, path);
      assert.deepEqual(
        got.counts.flatMap((n, b) => (n === 0 ? [b] : [])),
        [],
        `octet values missing from ${path}`,
      );
    }
  }
});

test('"Download the original" of a text item: the bytes as an attachment', async () => {
  const r = await page(`${PY}/0/hello.txt`, '&view=raw');
  assert.equal(r.status, 200);
  assert.equal(r.headers['content-type'], 'text/plain');
  assert.match(String(r.headers['content-disposition']), /^attachment; filename="hello.txt"/);
  assert.deepEqual(r.body, pyFile('hello.txt'));
});

test('RFC 1738 3.4.2: a type 7 item without a search is a form; the search redirects to its URL, whose menu is shown', async () => {
  const form = await page(`${PY}/7/search.sh`);
  assert.equal(form.status, 200);
  assertPage(form);
  assert.match(form.text, /<form class="fill" method="get" action="\/">/);
  assert.match(form.text, /<input type="hidden" name="url" value="gopher:\/\/127.0.0.1:7070\/7\/search.sh">/);
  const go = await page(`${PY}/7/search.sh`, '&search=hello%20world');
  assert.equal(go.status, 303);
  const want = `${PY}/7/search.sh%09hello%20world`;
  assert.equal(go.headers.location, `${gw.url}/?url=${encodeURIComponent(want)}`);
  const r = await page(want);
  assert.equal(r.status, 200);
  assert.match(r.text, /<li class="info">Results for: hello world<\/li>/);
  assert.deepEqual(linked(r.text), [`${PY}/0/hello.txt`]);
});

test('RFC 1738 3.4.2: a gophernicus search', async () => {
  const r = await page(`${GN}/7/cgi-bin/search%09abc`);
  assert.equal(r.status, 200);
  assert.match(r.text, /<li class="info">query=abc<\/li>/);
});

test('RFC 1738 3.2.2: an FTP directory is a list of its names, each a link, with a link up', async () => {
  for (const dir of ['', 'pub/']) {
    const r = await page(`${FTP}/${dir}`);
    assert.equal(r.status, 200, dir);
    assertPage(r);
    const names = readdirSync(join(ftpRoot, dir)).sort();
    const links = linked(r.text);
    const entries = links.filter((u) => u.length > `${FTP}/${dir}`.length);
    assert.deepEqual(
      entries.map((u) => decodeURIComponent(u.slice(`${FTP}/${dir}`.length))).sort(),
      names,
      `the names in ${dir || '/'}`,
    );
    if (dir !== '') assert.ok(links.includes(`${FTP}/`), 'a link up');
  }
});

test('RFC 1738 3.2.2: an FTP file is shown as text; a directory named without "/" is shown as its listing', async () => {
  const r = await page(`${FTP}/pub/unix.txt`);
  assert.equal(r.status, 200);
  assert.ok(r.text.includes(`<pre class="text">${readFileSync(join(ftpRoot, 'pub/unix.txt'), 'utf8')}</pre>`));
  const d = await page(`${FTP}/pub/nested`);
  assert.equal(d.status, 200);
  assert.match(d.text, /<h1>FTP directory<\/h1>/);
  assert.match(d.text, new RegExp(`Reached through <code>${FTP}/pub/nested</code>`));
  const names = readdirSync(join(ftpRoot, 'pub/nested')).sort();
  assert.deepEqual(
    linked(d.text)
      .filter((u) => u.startsWith(`${FTP}/pub/nested/`))
      .map((u) => decodeURIComponent(u.slice(`${FTP}/pub/nested/`.length)))
      .sort(),
    names,
  );
});

test('errors are pages with the typed error, its code and the HTTP status', async () => {
  const rows: Array<[string, number, string]> = [
    [`${FTP}/no-such-file.txt`, 404, 'ftp-reply'], // RFC 959: 550
    [`${PY}/0/no-such-item`, 404, 'gopher-error'],
    ['gopher://nonexistent.invalid/1/', 502, 'connect-failed'],
    [`${PY}/0/a%0D%0Ab`, 403, 'policy-refused'], // RFC 1738 6: an encoded CR LF
    ['gopher://127.0.0.1:25/1/', 403, 'policy-refused'], // a port of SMTP
    ['file:///etc/passwd', 403, 'gateway-refused'],
    ['not a url', 400, 'missing-scheme'],
  ];
  for (const [url, status, code] of rows) {
    const r = await page(url);
    assert.equal(r.status, status, url);
    assertPage(r);
    assert.match(r.text, new RegExp(`<dt>Code</dt><dd><code>${code}</code></dd>`), url);
    assert.match(r.text, /<main class="error">\n<h1>Error /, url);
  }
});

test('statusFor: the HTTP status of each kind of error', () => {
  const rows: Array<[string, number]> = [
    ['no-client', 501],
    ['timeout', 504],
    ['policy-refused', 403],
    ['not-found', 404],
    ['connection-closed', 502],
    ['invalid-port', 400],
  ];
  for (const [code, status] of rows) assert.equal(statusFor(new LocatorError(code, -1)), status, code);
});

test('RFC 1738 3: view=explain shows the access algorithm without retrieving anything', async () => {
  const url = `${FTP}/pub/unix.txt`;
  const r = await page(url, '&view=explain');
  assert.equal(r.status, 200);
  for (const step of explain(url).steps)
    assert.ok(r.text.includes(`<li><code>${step.replace(/</g, '&lt;').replace(/>/g, '&gt;')}</code></li>`), step);
});

test('RFC 1738 3.8, 3.5: telnet shows the command to run (password masked); mailto the address; http a direct link', async () => {
  const t = await page('telnet://joe:s3cret@127.0.0.1:2323/');
  assert.equal(t.status, 200);
  assert.doesNotMatch(t.text, /s3cret/);
  assert.match(t.text, /locator connect telnet:\/\/joe:\*\*\*\*@127.0.0.1:2323\//);
  const m = await page('mailto:someone@example.test');
  assert.match(m.text, /<dd>someone@example.test<\/dd>/);
  const h = await page('http://127.0.0.1:8080/');
  assert.match(h.text, /<a href="http:\/\/127.0.0.1:8080\/" rel="noreferrer">/);
});

test('RFC 1738 3.9: a WAIS database is a search form; the search redirects to the index URL', async () => {
  const f = await page('wais://127.0.0.1:2100/db');
  assert.equal(f.status, 200);
  assert.match(f.text, /<label for="search">Search the database db<\/label>/);
  const go = await page('wais://127.0.0.1:2100/db', '&search=two%20words');
  assert.equal(go.status, 303);
  assert.equal(go.headers.location, `${gw.url}/?url=${encodeURIComponent('wais://127.0.0.1:2100/db?two%20words')}`);
});

// ---------------------------------------------------------------------------------------------
// As a proxy (gopher_proxy, ftp_proxy, ...)

test('RFC 1945 5.1.2: a proxy request for a menu gets a page whose links are absolute gateway links', async () => {
  const r = await request(gw, `${PY}/1/`);
  assert.equal(r.status, 200);
  assert.deepEqual(linked(r.text, gw.url), [
    `${PY}/0/hello.txt`,
    `${PY}/1/files`,
    `${PY}/7/search.sh`,
    'http://127.0.0.1:8080/',
    `${PY}/9/files/data.bin`,
  ]);
});

test('RFC 1945 5.1.2: a proxy request for a document or file passes it on as it is', async () => {
  const g = await request(gw, `${PY}/0/hello.txt`);
  assert.equal(g.status, 200);
  assert.equal(g.headers['content-type'], 'text/plain');
  assert.deepEqual(g.body, pyFile('hello.txt'));
  const f = await request(gw, `${FTP}/hello.txt`);
  assert.equal(f.status, 200);
  assert.equal(f.body.toString(), readFileSync(join(ftpRoot, 'hello.txt'), 'utf8').replace(/\r\n/g, '\n'));
});

test("RFC 1738 4: locator's own open() reaches gopher through the gateway (gopher_proxy): the gateway's log shows the request", async () => {
  const log: string[] = [];
  const g = await startGateway({ port: 0, timeout: 10_000, log: (l) => log.push(l) });
  try {
    const r = await open(`${PY}/0/hello.txt`, { gateway: { proxies: { gopher: `${g.url}/` }, noProxy: [] } });
    assert.deepEqual(Buffer.from(await new Response(r.body).arrayBuffer()), pyFile('hello.txt'));
    assert.deepEqual(log, [`GET ${PY}/0/hello.txt 200`]);
  } finally {
    await g.close();
  }
  // The gateway stopped, the same open() fails, though pygopherd still answers directly.
  const via = { gateway: { proxies: { gopher: `${g.url}/` }, noProxy: [] } };
  const failed = await open(`${PY}/0/hello.txt`, via).catch((e: LocatorError) => e);
  assert.ok(failed instanceof LocatorError, 'open() went through the stopped gateway');
  const direct = await open(`${PY}/0/hello.txt`, { gateway: false });
  assert.deepEqual(Buffer.from(await new Response(direct.body).arrayBuffer()), pyFile('hello.txt'));
});

// ---------------------------------------------------------------------------------------------
// Safety

test("DNS rebinding: bound to loopback, the pages answer only for the gateway's own host names", async () => {
  const r = await request(gw, '/', { headers: { host: 'evil.example:80' } });
  assert.equal(r.status, 421);
  assert.match(r.text, /gateway-misdirected/);
  const ok = await request(gw, '/', { headers: { host: `localhost:${gw.port}` } });
  assert.equal(ok.status, 200);
});

test('methods: DELETE is refused with 405, CONNECT too (the gateway is no tunnel)', async () => {
  const r = await request(gw, '/', { method: 'DELETE' });
  assert.equal(r.status, 405);
  assert.equal(r.headers.allow, 'GET, HEAD, POST');
  const reply = await new Promise<string>((resolve, reject) => {
    const s = net.connect(gw.port, '127.0.0.1', () =>
      s.write('CONNECT 127.0.0.1:7070 HTTP/1.1\r\nHost: 127.0.0.1:7070\r\n\r\n'),
    );
    let got = '';
    s.on('data', (d) => (got += d.toString()));
    s.on('close', () => resolve(got));
    s.on('error', reject);
  });
  assert.match(reply, /^HTTP\/1.1 405 /);
});

test('RFC 1738 6: bound to a non-loopback interface, URLs naming loopback are refused unless allowed', async () => {
  const open0 = await startGateway({ host: '0.0.0.0', port: 0, timeout: 5000 });
  const allowed = await startGateway({ host: '0.0.0.0', port: 0, timeout: 5000, allowPrivate: true });
  try {
    const r = await request({ ...open0, host: '127.0.0.1' }, `/?url=${encodeURIComponent(`${PY}/1/`)}`);
    assert.equal(r.status, 403);
    assert.match(r.text, /<code>policy-refused<\/code>/);
    assert.match(r.text, /private-address/);
    const ok = await request({ ...allowed, host: '127.0.0.1' }, `/?url=${encodeURIComponent(`${PY}/1/`)}`);
    assert.equal(ok.status, 200);
  } finally {
    await open0.close();
    await allowed.close();
  }
});

/** A fake Gopher server that answers every request with `menu`. */
function menuServer(menu: string): Promise<FakeServer> {
  return fakeServer((socket, received) => {
    if (!received.includes('\n')) return false;
    socket.end(menu);
    return true;
  });
}

test('hostile menu entries, selectors and "URL:" links are escaped; every link stays in the gateway', async () => {
  const f = await menuServer(
    '1<script>alert(1)</script>\t/x\t127.0.0.1\t70\r\n' +
      '0"><img src=x onerror=alert(1)>\t/"><svg onload=alert(1)>\t127.0.0.1\t70\r\n' +
      'hClick\tURL:javascript:alert(document.domain)\t127.0.0.1\t70\r\n' +
      'i</li></ul><a href="http://evil.example/">x</a>\tfake\t(NULL)\t0\r\n.\r\n',
  );
  try {
    const r = await page(`gopher://127.0.0.1:${f.port}/1/`);
    assert.equal(r.status, 200);
    assertPage(r);
    assert.doesNotMatch(r.text, /<img|<svg|<a href="http:\/\/evil|href="javascript:/i);
    for (const m of r.text.matchAll(/href="([^"]*)"/g)) assert.match(m[1], /^\/(\?url=|$)/, m[1]);
    assert.ok(r.text.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(linked(r.text).includes('javascript:alert(document.domain)'));
    // ... and following that link is an error page, not a script.
    const js = await page('javascript:alert(document.domain)');
    assert.ok(js.status >= 400);
    assertPage(js);
  } finally {
    await f.close();
  }
});

/** A Gopher+ server with a +ASK form (pygopherd does not process them). */
function formServer(): Promise<FakeServer> {
  return fakeServer((socket, received) => {
    if (received.endsWith('\t!+ASK\r\n')) {
      socket.end(
        '+-2\r\n+INFO: 0Form\t/form\t127.0.0.1\t70\t?\r\n+ASK:\r\n Ask: Your <b>name</b>?\tnobody\r\n' +
          ' Choose: Colour\tred\tblue\r\n AskP: Password\r\n',
      );
      return true;
    }
    if (!received.endsWith('\r\n.\r\n')) return false;
    socket.end('+-1\r\nThank you\r\n.\r\n');
    return true;
  });
}

test('RFC 1738 3.4.5: a Gopher+ +ASK form is an HTML form; its submission is the filled-in Gopher+ request', async () => {
  const f = await formServer();
  const g = await startGateway({ port: 0, timeout: 5000, allowPorts: [f.port] });
  try {
    const url = `gopher://127.0.0.1:${f.port}/0/form%09%09?`;
    const r = await request(g, `/?url=${encodeURIComponent(url)}`);
    assert.equal(r.status, 200);
    assertPage(r);
    assert.match(
      r.text,
      /<label for="a0">Your &lt;b&gt;name&lt;\/b&gt;\?<\/label><input type="text" id="a0" name="a0" value="nobody"/,
    );
    assert.match(r.text, /<select id="a1" name="a1"><option>red<\/option><option>blue<\/option><\/select>/);
    assert.match(r.text, /<input type="password" id="a2" name="a2"/);
    assert.match(r.text, /<form class="fill" method="post" action="\/\?url=/);
    const token = /name="token" value="([^"]+)"/.exec(r.text)?.[1];
    assert.ok(token, 'the form carries the gateway token');
    const post = (body: string, headers: Record<string, string> = {}) =>
      request(g, `/?url=${encodeURIComponent(url)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body,
      });
    // Another site's page (no token, or a foreign Origin) cannot send answers: nothing reaches the server.
    const before = f.received.length;
    const forged = await post('questions=3&a0=Ada&a1=blue&a2=s3cret');
    assert.equal(forged.status, 403);
    assert.match(forged.text, /token or Origin does not match/);
    const foreign = await post(`questions=3&a0=Ada&a1=blue&a2=s3cret&token=${token}`, { origin: 'http://evil.test' });
    assert.equal(foreign.status, 403);
    assert.equal(f.received.length, before, 'no request was sent for a forged form');
    const sent = await post(`questions=3&a0=Ada&a1=blue&a2=s3cret&token=${token}`);
    assert.equal(sent.status, 200);
    assert.match(sent.text, /<pre class="text">Thank you\r?\n<\/pre>/);
    assert.equal(f.received.at(-1), '/form\t+\t1\r\n+-1\r\nAda\r\nblue\r\ns3cret\r\n.\r\n');
    // The page opened as localhost:PORT posts with that Origin: the gateway's own too.
    const named = await post(`questions=3&a0=Bob&a1=red&a2=x&token=${token}`, {
      host: `localhost:${g.port}`,
      origin: `http://localhost:${g.port}`,
      'sec-fetch-site': 'same-origin',
    });
    assert.equal(named.status, 200);
    assert.equal(f.received.at(-1), '/form\t+\t1\r\n+-1\r\nBob\r\nred\r\nx\r\n.\r\n');
  } finally {
    await g.close();
    await f.close();
  }
});

test('HEAD (RFC 9110 9.3.2): the headers of the object, its body cancelled unread (an endless object does not make it wait)', async () => {
  let sent = 0;
  const endless = await fakeServer((socket) => {
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    const pump = () => {
      while (!socket.destroyed && socket.write(chunk)) sent += chunk.length;
      if (!socket.destroyed) socket.once('drain', pump);
    };
    pump();
    return true;
  });
  const g = await startGateway({ port: 0, timeout: 10_000, allowPorts: [endless.port] });
  try {
    const url = `gopher://127.0.0.1:${endless.port}/9/big.bin`;
    const t0 = Date.now();
    const head = await request(g, `/?url=${encodeURIComponent(url)}`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-type'], 'application/octet-stream');
    assert.match(String(head.headers['content-disposition']), /filename="big.bin"/);
    assert.equal(head.body.length, 0);
    assert.ok(Date.now() - t0 < 5000, `answered in ${Date.now() - t0} ms, not at the 10 s time limit`);
    await endless.allClosed(3000);
    assert.ok(sent < 64 * 2 ** 20, `the remote object was not read whole (${sent} octets sent)`);
    const menuHead = await request(g, `/?url=${encodeURIComponent(`${PY}/1/`)}`, { method: 'HEAD' });
    assert.equal(menuHead.status, 200);
    assert.match(String(menuHead.headers['content-type']), /^text\/html/);
    assert.equal(menuHead.body.length, 0);
  } finally {
    await g.close();
    await endless.close();
  }
});

test('limits: a stalled server ends in a timeout page (504); a client with too many requests gets 429', async () => {
  const stall = await fakeServer(() => true);
  const g = await startGateway({ port: 0, timeout: 400, maxPerClient: 1 });
  try {
    const url = `/?url=${encodeURIComponent(`gopher://127.0.0.1:${stall.port}/1/`)}`;
    const first = request(g, url);
    await new Promise((r) => setTimeout(r, 100));
    const second = await request(g, url);
    assert.equal(second.status, 429);
    assert.equal(second.headers['retry-after'], '5');
    const r = await first;
    assert.equal(r.status, 504);
    assert.match(r.text, /<code>timeout<\/code>/);
    const third = await request(g, '/');
    assert.equal(third.status, 200, 'the slot is free again');
  } finally {
    await g.close();
    await stall.close();
  }
});

test('limits: an object whose size is over maxBytes before anything is sent is a 502 page, too-large, with none of its octets', async () => {
  const g = await startGateway({ port: 0, timeout: 5000, maxBytes: 1000 });
  // One write of 1500 octets: the first chunk the gateway reads is already over the limit.
  const one = await fakeServer((socket) => {
    socket.end(Buffer.alloc(1500, 0x41));
    return true;
  });
  try {
    for (const url of [`gopher://127.0.0.1:${one.port}/9/blob`, `${FTP}/pub/big.bin`]) {
      const r = await request(g, `/?url=${encodeURIComponent(url)}`);
      assert.equal(r.status, 502, url);
      assertPage(r);
      assert.match(r.text, /<dt>Code<\/dt><dd><code>too-large<\/code><\/dd>/, url);
      assert.doesNotMatch(r.text, /AAAA/, 'no octet of the object');
    }
  } finally {
    await g.close();
    await one.close();
  }
});

test('limits: an object that passes maxBytes during the transfer: its first octets, then the connection cut (never completed)', async () => {
  const g = await startGateway({ port: 0, timeout: 5000, maxBytes: 1000 });
  const first = Buffer.alloc(600, 0x61);
  let more!: () => void;
  const sendMore = new Promise<void>((r) => (more = r));
  // 600 octets; the rest (600 more: 1200 in all) only once the browser side has the first 600.
  const split = await fakeServer((socket) => {
    socket.write(first);
    void sendMore.then(() => socket.end(Buffer.alloc(600, 0x62)));
    return true;
  });
  try {
    const got = await new Promise<{ status: number; type: string; body: Buffer; complete: boolean; error: string }>(
      (resolve, reject) => {
        const req = http.request(
          {
            host: g.host,
            port: g.port,
            path: `/?url=${encodeURIComponent(`gopher://127.0.0.1:${split.port}/9/blob`)}`,
            agent: false,
          },
          (res) => {
            const parts: Buffer[] = [];
            let n = 0;
            let error = '';
            res.on('data', (d: Buffer) => {
              parts.push(d);
              n += d.length;
              if (n >= first.length) more();
            });
            res.on('error', (e) => (error = e.message));
            res.on('close', () =>
              resolve({
                status: res.statusCode ?? 0,
                type: String(res.headers['content-type']),
                body: Buffer.concat(parts),
                complete: res.complete,
                error,
              }),
            );
          },
        );
        req.on('error', reject);
        req.end();
      },
    );
    assert.equal(got.status, 200);
    assert.equal(got.type, 'application/octet-stream');
    assert.deepEqual(got.body, first, 'exactly the octets before the limit');
    assert.equal(got.complete, false, 'the transfer is cut, not completed');
    assert.match(got.error, /aborted/);
  } finally {
    await g.close();
    await split.close();
  }
});

test('UAX #9: a menu entry "invoice<RLO>fdp.exe" shows its override by name; the download name has none', async () => {
  const fake = await fakeServer((socket, received) => {
    if (!received.includes('\r\n')) return false;
    if (received.startsWith('/9')) socket.end('MZ binary');
    else socket.end(`9invoice\u202Efdp.exe\t/9/invoice\u202Efdp.exe\t127.0.0.1\t70\r\n.\r\n`);
    return true;
  });
  try {
    const menu = await page(`gopher://127.0.0.1:${fake.port}/1/`);
    assert.equal(menu.status, 200);
    assert.match(menu.text, />invoice&lt;U\+202E&gt;fdp\.exe<\/a>/);
    assert.doesNotMatch(menu.text, /\u202E/);
    const file = await page(`gopher://127.0.0.1:${fake.port}/9/invoice%E2%80%AEfdp.exe`);
    assert.equal(file.status, 200);
    assert.equal(
      file.headers['content-disposition'],
      `attachment; filename="invoice_fdp.exe"; filename*=UTF-8''invoice_fdp.exe`,
    );
  } finally {
    await fake.close();
  }
});
