// Gateway configuration from the environment (RFC 1738 4; the libwww/lynx/curl convention).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gatewayFromEnv, gatewayFor, bypasses } from '../../src/clients/gateway.js';

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
