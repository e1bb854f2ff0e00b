// Which netrc entries answer an NNTP server's 480 (RFC 4643 2.3): only those of a host the user
// named. A recording fake on 127.0.0.1 demands authentication for every command and records each
// line it gets; a temporary HOME holds a .netrc with a "default" entry, an entry for another host
// and (for some rows) one for 127.0.0.1. What the fake received says which password was sent.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from '../../../src/clients/index.js';
import type { OpenOptions } from '../../../src/clients/types.js';
import { authServer, type NntpFake } from './fakes.js';

const DEFAULT_ENTRY = 'default login dflt password DEFAULT-SECRET\n';
const OTHER_ENTRY = 'machine news.other.example login other password OTHER-SECRET\n';
const OWN_ENTRY = 'machine 127.0.0.1 login own password OWN-SECRET\n';

const homes: string[] = [];
after(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

/** A temporary HOME whose .netrc is `text`. */
function homeWith(text: string): string {
  const home = mkdtempSync(join(tmpdir(), 'locator-netrc-'));
  homes.push(home);
  writeFileSync(join(home, '.netrc'), text);
  return home;
}

/**
 * Opens `url` against a fresh auth server with HOME holding `netrc`; resolves to the AUTHINFO
 * lines the server received, and the error code (null when the article came).
 */
async function attempt(
  netrc: string,
  url: (port: number) => string,
  extra: OpenOptions = {},
): Promise<{ auth: string[]; code: string | null }> {
  const fake = await authServer();
  try {
    const options: OpenOptions = {
      gateway: false,
      timeout: 5000,
      env: { HOME: homeWith(netrc), NNTPSERVER: `127.0.0.1:${fake.port}` },
      ...extra,
    };
    let code: string | null = null;
    try {
      const r = await open(url(fake.port), options);
      await new Response(r.body).arrayBuffer();
    } catch (e) {
      code = (e as { code?: string }).code ?? String(e);
    }
    await fake.allClosed();
    return { auth: fake.commands.flat().filter((c) => c.startsWith('AUTHINFO')), code };
  } finally {
    await fake.close();
  }
}

const nntpUrl = (port: number) => `nntp://127.0.0.1:${port}/g.x/1`;

test('netrc: an nntp URL on a host with no machine entry gets no password, not the "default" entry', async () => {
  const r = await attempt(DEFAULT_ENTRY + OTHER_ENTRY, nntpUrl);
  assert.deepEqual(r.auth, []);
  assert.equal(r.code, 'nntp-auth-required');
});

test('netrc: without netrcHosts, the machine entry of the URL\'s own host is sent, never the "default" one', async () => {
  const own = await attempt(DEFAULT_ENTRY + OTHER_ENTRY + OWN_ENTRY, nntpUrl);
  assert.deepEqual(own.auth, ['AUTHINFO USER own', 'AUTHINFO PASS OWN-SECRET']);
  assert.equal(own.code, null);
  // A news: URL: the news server the user configured (NNTPSERVER) is its host; its machine entry only.
  const news = await attempt(DEFAULT_ENTRY + OWN_ENTRY, () => 'news:a@b.example');
  assert.deepEqual(news.auth, ['AUTHINFO USER own', 'AUTHINFO PASS OWN-SECRET']);
  const newsDefault = await attempt(DEFAULT_ENTRY, () => 'news:a@b.example');
  assert.deepEqual(newsDefault.auth, []);
  assert.equal(newsDefault.code, 'nntp-auth-required');
});

test('netrcHosts: a host listed gets its machine entry or else "default"; [] and an unlisted host get none', async () => {
  const listed = await attempt(DEFAULT_ENTRY + OTHER_ENTRY, nntpUrl, { netrcHosts: ['127.0.0.1'] });
  assert.deepEqual(listed.auth, ['AUTHINFO USER dflt', 'AUTHINFO PASS DEFAULT-SECRET']);
  assert.equal(listed.code, null);
  const machine = await attempt(DEFAULT_ENTRY + OWN_ENTRY, nntpUrl, { netrcHosts: ['other.example', '127.0.0.1'] });
  assert.deepEqual(machine.auth, ['AUTHINFO USER own', 'AUTHINFO PASS OWN-SECRET']);
  const unlisted = await attempt(DEFAULT_ENTRY + OWN_ENTRY, nntpUrl, { netrcHosts: ['news.other.example'] });
  assert.deepEqual(unlisted.auth, []);
  assert.equal(unlisted.code, 'nntp-auth-required');
  const none = await attempt(DEFAULT_ENTRY + OWN_ENTRY, nntpUrl, { netrcHosts: [] });
  assert.deepEqual(none.auth, []);
  // The user option looks up that user's password within the same hosts.
  const userNone = await attempt('machine 127.0.0.1 login own password OWN-SECRET\n', nntpUrl, {
    netrcHosts: [],
    user: 'own',
  });
  assert.deepEqual(userNone.auth, []);
  // netrc: false still reads no file, whatever netrcHosts says.
  const off = await attempt(DEFAULT_ENTRY + OWN_ENTRY, nntpUrl, { netrcHosts: ['127.0.0.1'], netrc: false });
  assert.deepEqual(off.auth, []);
});

test('netrcHosts must be an array of host names (TypeError, nothing sent)', async () => {
  const fake = await authServer();
  try {
    for (const bad of ['127.0.0.1', [1], null]) {
      await assert.rejects(
        open(nntpUrl(fake.port), {
          gateway: false,
          timeout: 2000,
          env: { HOME: '/nonexistent' },
          netrcHosts: bad as unknown as string[],
        }),
        TypeError,
      );
    }
    assert.equal(fake.connections, 0);
  } finally {
    await fake.close();
  }
});
