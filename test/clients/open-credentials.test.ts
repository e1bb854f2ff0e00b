// The caller's credentials are for the host of the URL it gave open(): a redirect to another
// host goes without the user and password options and without netrc entries (unless netrcHosts
// names that host). An HTTP server on 127.0.0.2 answers 302 to an NNTP or FTP fake on 127.0.0.1
// (another host by name, both on loopback); each fake records what it received. The same
// redirect from 127.0.0.1 itself keeps the credentials: the refusal is the other host's.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from '../../src/clients/index.js';
import { DEFAULT_POLICY } from '../../src/operations/policy.js';
import type { OpenOptions } from '../../src/clients/types.js';
import { authServer, type NntpFake } from './nntp/fakes.js';
import { FakeFtp, standard } from './ftp/fakes.js';

const home = mkdtempSync(join(tmpdir(), 'locator-netrc-'));
writeFileSync(
  join(home, '.netrc'),
  'machine 127.0.0.1 login own password OWN-SECRET\ndefault login dflt password DEFAULT-SECRET\n',
);
after(() => rmSync(home, { recursive: true, force: true }));

/** Options that follow one redirect to another scheme, with HOME holding the .netrc above. */
function options(extra: OpenOptions = {}): OpenOptions {
  return {
    gateway: false,
    timeout: 5000,
    env: { HOME: home },
    policy: { ...DEFAULT_POLICY, maxCrossSchemeRedirects: 1 },
    ...extra,
  };
}

/** An HTTP server on `host` whose every answer is a 302 to `location`. */
async function redirector(host: string, location: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(302, { location, connection: 'close' });
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}/moved`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** open() of `from`'s redirect to the NNTP fake; the AUTHINFO lines the fake got and the error code. */
async function viaRedirect(fromHost: string, extra: OpenOptions): Promise<{ auth: string[]; code: string | null }> {
  const fake = await authServer();
  const http = await redirector(fromHost, `nntp://127.0.0.1:${fake.port}/g.x/1`);
  try {
    let code: string | null = null;
    try {
      const r = await open(http.url, options(extra));
      await new Response(r.body).arrayBuffer();
    } catch (e) {
      code = (e as { code?: string }).code ?? String(e);
    }
    await fake.allClosed();
    assert.equal(fake.connections, 1, 'the redirect was followed');
    return { auth: fake.commands.flat().filter((c) => c.startsWith('AUTHINFO')), code };
  } finally {
    await http.close();
    await fake.close();
  }
}

test('a redirect to an NNTP server on another host: no netrc entry, no user/password option is sent', async () => {
  const netrc = await viaRedirect('127.0.0.2', {});
  assert.deepEqual(netrc.auth, []);
  assert.equal(netrc.code, 'nntp-auth-required');
  const given = await viaRedirect('127.0.0.2', { user: 'alice', password: 'GIVEN-SECRET' });
  assert.deepEqual(given.auth, []);
  assert.equal(given.code, 'nntp-auth-required');
  // netrcHosts names the host: its entry may go there, whatever led to it.
  const named = await viaRedirect('127.0.0.2', { netrcHosts: ['127.0.0.1'] });
  assert.deepEqual(named.auth, ['AUTHINFO USER own', 'AUTHINFO PASS OWN-SECRET']);
  // From the same host, the redirect still leads to another server (another port and scheme,
  // RFC 6454 4): what the caller gave for the first URL is not sent there either.
  const same = await viaRedirect('127.0.0.1', { user: 'alice', password: 'GIVEN-SECRET' });
  assert.deepEqual(same.auth, []);
  assert.equal(same.code, 'nntp-auth-required');
});

test('a redirect to ftp://user@host/ from another host, or from the same host on another port and scheme: the password option is not sent (needs-input), a prompt is not asked; given directly, it is', async () => {
  const ftp = await FakeFtp.start({ handle: standard({ 'f.txt': 'data\n' }) });
  try {
    for (const [from, sent] of [
      ['127.0.0.2', false],
      ['127.0.0.1', false],
      [null, true],
    ] as const) {
      for (const password of ['FTP-SECRET', async () => 'FTP-SECRET']) {
        const before = ftp.sessions.length;
        const target = `ftp://bob@127.0.0.1:${ftp.port}/f.txt`;
        const http = from === null ? null : await redirector(from, target);
        let code: string | null = null;
        try {
          const r = await open(http === null ? target : http.url, options({ password }));
          assert.equal(Buffer.from(await new Response(r.body).arrayBuffer()).toString(), 'data\n');
        } catch (e) {
          code = (e as { code?: string }).code ?? String(e);
        } finally {
          await http?.close();
        }
        assert.equal(ftp.sessions.length, before + 1, 'the redirect was followed');
        const commands = ftp.sessions[before].commands;
        assert.equal(commands[0], 'USER bob');
        if (sent) {
          assert.equal(code, null);
          assert.ok(commands.includes('PASS FTP-SECRET'), commands.join('|'));
        } else {
          assert.equal(code, 'needs-input');
          assert.ok(!commands.some((c) => c.startsWith('PASS')), commands.join('|'));
        }
      }
    }
    assert.ok(await ftp.allClosed());
  } finally {
    await ftp.stop();
  }
});
