// `locator fetch` and ~/.netrc: the "default" entry goes to no server unless --netrc-host names
// it. The built CLI against a recording NNTP fake on 127.0.0.1 that answers 480 until AUTHINFO
// PASS; HOME is a temporary folder whose .netrc has a "default" entry and one for another host.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers.js';
import { authServer, type NntpFake } from '../clients/nntp/fakes.js';

const home = mkdtempSync(join(tmpdir(), 'locator-netrc-'));
writeFileSync(
  join(home, '.netrc'),
  'machine news.other.example login other password OTHER-SECRET\ndefault login dflt password DEFAULT-SECRET\n',
);
after(() => rmSync(home, { recursive: true, force: true }));
const run = (args: string[]) => runCli(args, { HOME: home });

const authLines = (fake: NntpFake) => fake.commands.flat().filter((c) => c.startsWith('AUTHINFO'));

test('fetch nntp://127.0.0.1:PORT/...: the netrc "default" entry is not sent (nntp-auth-required, exit 2)', async () => {
  const fake = await authServer();
  try {
    const r = await run(['fetch', `nntp://127.0.0.1:${fake.port}/g.x/1`]);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /nntp-auth-required/);
    assert.deepEqual(authLines(fake), []);
    assert.ok(!r.err.includes('DEFAULT-SECRET'));
  } finally {
    await fake.close();
  }
});

test('fetch --netrc-host 127.0.0.1: that host may get the "default" entry; --netrc-host of another host: none', async () => {
  const fake = await authServer();
  try {
    const r = await run(['fetch', '--netrc-host', '127.0.0.1', `nntp://127.0.0.1:${fake.port}/g.x/1`]);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, 'Subject: x\r\n\r\nbody\r\n');
    assert.deepEqual(authLines(fake), ['AUTHINFO USER dflt', 'AUTHINFO PASS DEFAULT-SECRET']);
  } finally {
    await fake.close();
  }
  const other = await authServer();
  try {
    const r = await run([
      'fetch',
      '--netrc-host',
      'news.other.example',
      '--netrc-host',
      'example.org',
      `nntp://127.0.0.1:${other.port}/g.x/1`,
    ]);
    assert.equal(r.code, 2, r.err);
    assert.deepEqual(authLines(other), []);
  } finally {
    await other.close();
  }
});

test('fetch --help says which netrc entries are used (--netrc-host)', async () => {
  const r = await run(['fetch', '--help']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /--netrc-host HOST/);
  assert.match(r.out, /never the default entry/);
});
