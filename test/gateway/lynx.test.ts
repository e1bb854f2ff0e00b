// Lynx (Debian's) configured with gopher_proxy and ftp_proxy pointing at the gateway (RFC 1738 4;
// the proxy convention of CERN libwww, which Lynx keeps): `lynx -dump` reads a Gopher menu and an
// FTP file through it, as the real servers (pygopherd, vsftpd) serve them.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type Gateway } from '../../src/gateway/index.js';
import { serversDir } from '../helpers.js';

const LYNX = '/usr/bin/lynx';
const TS = serversDir();
let gw: Gateway;
let home: string;

before(async () => {
  if (!existsSync(LYNX)) throw new Error(`${LYNX} is missing: test/servers/install.sh installs lynx`);
  gw = await startGateway({ port: 0, timeout: 10_000 });
  home = mkdtempSync(join(tmpdir(), 'locator-lynx-'));
});
after(async () => {
  await gw.close();
  rmSync(home, { recursive: true, force: true });
});

/** `lynx -dump URL` with only the gateway's proxies in its environment; resolves to its output. */
function lynxDump(url: string): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      LANG: 'C.UTF-8',
      gopher_proxy: `${gw.url}/`,
      ftp_proxy: `${gw.url}/`,
      no_proxy: '',
    };
    const child = spawn(LYNX, ['-dump', '-width=200', '-display_charset=utf-8', url], { env, timeout: 30_000 });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, out, err }));
  });
}

test('RFC 1738 4: lynx -dump reads a Gopher menu through the gateway (gopher_proxy)', async () => {
  const r = await lynxDump('gopher://127.0.0.1:7070/1/');
  assert.equal(r.status, 0, r.err);
  assert.match(r.out, /Gopher menu/);
  for (const entry of [
    'Welcome to the test gopher server',
    'text [4]Hello text',
    'menu [5]Files directory',
    'search [6]Search the test index',
  ])
    assert.ok(r.out.includes(entry), `${entry} in\n${r.out}`);
  // The links of the dump lead back through the gateway (Lynx shows them decoded or not, by charset).
  const refs = r.out
    .slice(r.out.indexOf('References'))
    .split('\n')
    .filter((l) => /^\s+\d+\. /.test(l));
  assert.ok(refs.length >= 8, r.out);
  for (const l of refs)
    assert.ok(
      l
        .trim()
        .replace(/^\d+\. /, '')
        .startsWith(`${gw.url}/`),
      l,
    );
  assert.ok(
    refs.some((l) => decodeURIComponent(l).endsWith(`${gw.url}/?url=gopher://127.0.0.1:7070/0/hello.txt`)),
    refs.join('\n'),
  );
});

test('RFC 1738 4: lynx -dump reads an FTP file through the gateway (ftp_proxy)', async () => {
  const r = await lynxDump('ftp://127.0.0.1:2121/pub/unix.txt');
  assert.equal(r.status, 0, r.err);
  assert.equal(r.out.trim(), readFileSync(join(TS, 'ftp', 'root', 'pub', 'unix.txt'), 'utf8').trim());
});

test('RFC 1738 4: lynx -dump reads a Gopher document through the gateway', async () => {
  const r = await lynxDump('gopher://127.0.0.1:7070/0/hello.txt');
  assert.equal(r.status, 0, r.err);
  assert.equal(r.out.trim(), readFileSync(join(TS, 'gopher', 'root', 'hello.txt'), 'utf8').trim());
});
