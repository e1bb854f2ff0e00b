// Gateway configuration from the environment (RFC 1738 4; the libwww/lynx/curl convention), and
// open() through a gateway, shown by a recording one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { gatewayFromEnv, gatewayFor, gatewayOf, bypasses } from '../../src/clients/proxy.js';
import { parse } from '../../src/schemes/registry.js';
import { open } from '../../src/clients/index.js';

test('<scheme>_proxy: lower case wins over upper case; every scheme may have one', () => {
  const g = gatewayFromEnv({
    ftp_proxy: 'http://a:1/',
    FTP_PROXY: 'http://b:2/',
    GOPHER_PROXY: 'http://c:3/',
    wais_proxy: 'http://w:4/',
  });
  assert.deepEqual(g.proxies, { ftp: 'http://a:1/', gopher: 'http://c:3/', wais: 'http://w:4/' });
});

test('HTTP_PROXY (upper case) is ignored when running as CGI; http_proxy is not', () => {
  assert.deepEqual(gatewayFromEnv({ HTTP_PROXY: 'http://evil:1/', REQUEST_METHOD: 'GET' }).proxies, {});
  assert.deepEqual(gatewayFromEnv({ HTTP_PROXY: 'http://p:1/' }).proxies, { http: 'http://p:1/' });
  assert.deepEqual(gatewayFromEnv({ http_proxy: 'http://p:1/', REQUEST_METHOD: 'GET' }).proxies, {
    http: 'http://p:1/',
  });
});

test('no_proxy: names, .suffixes, ports ignored, and *', () => {
  const no = gatewayFromEnv({ no_proxy: 'localhost, .example.org,host.test:8080' }).noProxy;
  assert.deepEqual(no, ['localhost', '.example.org', 'host.test:8080']);
  assert.equal(bypasses('LOCALHOST', no), true);
  assert.equal(bypasses('a.example.org', no), true);
  assert.equal(bypasses('example.org', no), true);
  assert.equal(bypasses('notexample.org', no), false);
  assert.equal(bypasses('host.test', no), true);
  assert.equal(bypasses('anything', ['*']), true);
  const cfg = { proxies: { ftp: 'http://p/' }, noProxy: no };
  assert.equal(gatewayFor('ftp', 'ftp.example.org', cfg), null);
  assert.equal(gatewayFor('ftp', 'ftp.other.net', cfg), 'http://p/');
  assert.equal(gatewayFor('gopher', 'ftp.other.net', cfg), null);
});

test("RFC 1738 4: gatewayOf() sees each change to the environment it is given, the same object changed or the process's", () => {
  const u = parse('gopher://far.example.org/0x');
  const env: Record<string, string | undefined> = { PATH: '/bin' };
  assert.equal(gatewayOf(u, { env }), null);
  env.gopher_proxy = 'http://a:1/';
  assert.equal(gatewayOf(u, { env }), 'http://a:1/');
  env.gopher_proxy = 'http://b:2/';
  assert.equal(gatewayOf(u, { env }), 'http://b:2/');
  env.NO_PROXY = '.example.org';
  assert.equal(gatewayOf(u, { env }), null);
  delete env.NO_PROXY;
  env.REQUEST_METHOD = 'GET';
  env.GOPHER_PROXY = 'http://upper:3/';
  delete env.gopher_proxy;
  assert.equal(gatewayOf(u, { env }), 'http://upper:3/');
  // The same names and values in another object: its own reading.
  assert.equal(gatewayOf(u, { env: { gopher_proxy: 'http://c:4/' } }), 'http://c:4/');
  assert.equal(gatewayOf(u, { env, gateway: false }), null);
  const before = process.env.gopher_proxy;
  try {
    delete process.env.gopher_proxy;
    const first = gatewayOf(u, {});
    process.env.gopher_proxy = 'http://d:5/';
    assert.equal(gatewayOf(u, {}), 'http://d:5/');
    delete process.env.gopher_proxy;
    assert.equal(gatewayOf(u, {}), first);
  } finally {
    if (before === undefined) delete process.env.gopher_proxy;
    else process.env.gopher_proxy = before;
  }
});

test('RFC 1738 4: open() through a gateway sends the whole URL in the request line to it, and returns its answer', async () => {
  // A recording HTTP gateway: it answers every request with a text that no Gopher server has.
  const lines: string[] = [];
  const server = net.createServer((s) => {
    let got = '';
    s.on('error', () => {});
    s.on('data', (d) => {
      got += d.toString('latin1');
      if (!got.includes('\r\n\r\n')) return;
      lines.push(got.slice(0, got.indexOf('\r\n')));
      s.end('HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nanswered by the gateway\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  try {
    // gopher.invalid resolves nowhere (RFC 2606 2): only the gateway can answer for it.
    const r = await open('gopher://gopher.invalid/0/hello.txt', {
      gateway: { proxies: { gopher: `http://127.0.0.1:${port}/` }, noProxy: [] },
      timeout: 5000,
    });
    assert.equal(await new Response(r.body).text(), 'answered by the gateway\n');
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^GET gopher:\/\/gopher\.invalid\/0\/hello\.txt HTTP\/1\.[01]$/);
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});
