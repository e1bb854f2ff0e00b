// The operator's ~/.netrc is not for URLs that requests name (docs/gateway.md, "Credentials"):
// any page or Gopher menu can name nntp://attacker:port/, and a news server that answers 480 would
// get AUTHINFO USER and PASS from the `default` entry. A recording fake NNTP server that asks
// every command for authentication, and HOME pointed at a temporary directory with a .netrc.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type Gateway } from '../../src/gateway/index.js';
import { request } from './request.js';

let home: string;
let savedHome: string | undefined;
let nntp: net.Server;
let port: number;
const lines: string[] = [];
const held = new Set<net.Socket>();

before(async () => {
  home = mkdtempSync(join(tmpdir(), 'locator-netrc-'));
  writeFileSync(join(home, '.netrc'), 'default login operator password s3cret-of-the-operator\n', { mode: 0o600 });
  savedHome = process.env.HOME;
  process.env.HOME = home;
  // RFC 4643 2.3: 480 to every command until AUTHINFO; 381 to USER, 281 to PASS.
  nntp = net.createServer((s) => {
    held.add(s);
    s.on('close', () => held.delete(s));
    s.on('error', () => {});
    s.write('200 fake news server ready\r\n');
    let pending = '';
    s.on('data', (d) => {
      pending += d.toString('latin1');
      let nl: number;
      while ((nl = pending.indexOf('\r\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 2);
        lines.push(line);
        if (/^AUTHINFO USER /i.test(line)) s.write('381 password please\r\n');
        else if (/^AUTHINFO PASS /i.test(line)) s.write('281 welcome\r\n');
        else if (/^QUIT/i.test(line)) s.end('205 bye\r\n');
        else s.write('480 authentication required\r\n');
      }
    });
  });
  await new Promise<void>((r) => nntp.listen(0, '127.0.0.1', r));
  port = (nntp.address() as net.AddressInfo).port;
});

after(async () => {
  if (savedHome === undefined) delete process.env.HOME;
  else process.env.HOME = savedHome;
  rmSync(home, { recursive: true, force: true });
  for (const s of held) s.destroy();
  await new Promise<void>((r) => nntp.close(() => r()));
});

const get = async (g: Gateway, path: string) => (await request(g, path)).status;

test("credentials: a URL from a request never gets the operator's ~/.netrc default entry", async () => {
  const g = await startGateway({ port: 0, timeout: 3000 });
  try {
    lines.length = 0;
    const status = await get(g, `/?url=${encodeURIComponent(`nntp://127.0.0.1:${port}/group/1`)}`);
    assert.ok(status >= 400, `status ${status}`);
    assert.ok(lines.length > 0, 'the fake news server was asked');
    assert.deepEqual(
      lines.filter((l) => /^AUTHINFO/i.test(l)),
      [],
      'no AUTHINFO was sent',
    );
    assert.ok(!lines.some((l) => l.includes('s3cret')));
  } finally {
    await g.close();
  }
});

test('credentials: a host the operator names (netrcHosts, serve --netrc-host) may get its entries', async () => {
  const g = await startGateway({ port: 0, timeout: 3000, netrcHosts: ['127.0.0.1'] });
  try {
    lines.length = 0;
    await get(g, `/?url=${encodeURIComponent(`nntp://127.0.0.1:${port}/group/1`)}`);
    assert.ok(lines.includes('AUTHINFO USER operator'), lines.join(' | '));
  } finally {
    await g.close();
  }
});
