// `locator fetch` of news and nntp URLs (issue 12): articles and group listings against the real
// INN (127.0.0.1:1119, test/servers/nntp.sh), the news server from NNTPSERVER or --nntp-server,
// --limit, --user/--password only when asked, and nothing half-written with -o when a reply
// breaks off (an in-process fake).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, serversDir } from '../helpers.js';
import { nntpFake } from '../clients/nntp/fakes.js';

serversDir();
const BIN = join(ROOT, 'dist', 'cli', 'main.js');
const INN = '127.0.0.1:1119';

function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, HOME: '/nonexistent', ...env },
    });
    const out: Buffer[] = [];
    let err = '';
    p.stdout.on('data', (d) => out.push(d));
    p.stderr.on('data', (d) => {
      err += d;
    });
    p.stdin.end();
    p.on('close', (code) => resolve({ code, out: Buffer.concat(out).toString('utf8'), err }));
  });
}

test('fetch news:<message-id> prints the article (NNTPSERVER), exit 0', async () => {
  const r = await run(['fetch', 'news:first.1@example.test'], { NNTPSERVER: INN });
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^Message-ID: <first\.1@example\.test>\r$/m);
  assert.ok(r.out.includes('\r\n.A line starting with a dot.\r\n'));
});

test('fetch --nntp-server --limit 2 news:<group> prints the last two articles, one line each', async () => {
  const r = await run(['fetch', '--nntp-server', INN, '--limit', '2', 'news:local.test']);
  assert.equal(r.code, 0, r.err);
  const lines = r.out.trimEnd().split('\n');
  assert.equal(lines.length, 2);
  for (const l of lines) assert.match(l, /^[0-9]+\t[^\t]*\t[^\t]*\t[^\t]*\t[0-9]*\tnews:[^\t]+@example\.test$/);
});

test('fetch nntp://host:port/group/number prints the article; -v shows the commands', async () => {
  const r = await run(['fetch', '-v', `nntp://${INN}/local.test/1`]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^Newsgroups: local\.test\r$/m);
  assert.match(r.err, /^> GROUP local\.test$/m);
  assert.match(r.err, /^> ARTICLE 1$/m);
});

test('fetch of a news URL with no news server configured: a usage error naming both ways (exit 2)', async () => {
  const r = await run(['fetch', 'news:first.1@example.test']);
  assert.equal(r.code, 2);
  assert.match(r.err, /NNTPSERVER/);
  assert.match(r.err, /--nntp-server/);
});

test('fetch --limit 0 and --limit x are usage errors (exit 2)', async () => {
  assert.equal((await run(['fetch', '--limit', '0', '--nntp-server', INN, 'news:local.test'])).code, 2);
  assert.equal((await run(['fetch', '--limit', 'x', '--nntp-server', INN, 'news:local.test'])).code, 2);
});

test('fetch -o FILE of an article cut before its "." line: exit 3, nothing under the final name', async () => {
  const fake = await nntpFake('200 fake\r\n', (c, s) => {
    if (c.startsWith('ARTICLE'))
      s.end('220 0 <a@b.example> article\r\nSubject: x\r\n\r\n' + 'body line\r\n'.repeat(5000));
  });
  try {
    const dir = mkdtempSync(join(tmpdir(), 'locator-news-'));
    const r = await run([
      'fetch',
      '-o',
      join(dir, 'a.eml'),
      '--nntp-server',
      `127.0.0.1:${fake.port}`,
      'news:a@b.example',
    ]);
    assert.equal(r.code, 3, r.err);
    assert.match(r.err, /closed the connection before the "\." line/);
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    await fake.close();
  }
});

// Each fault: the exit status (3: network or protocol, 2: usage), and nothing left in the folder.
const FAULTS: Array<[string, string, (c: string, s: import('node:net').Socket) => void, number]> = [
  ['a 400 greeting', '400 busy\r\n', () => {}, 3],
  ['a stall after the greeting', '200 fake\r\n', () => {}, 3],
  ['garbage for a reply', '200 fake\r\n', (c, s) => void (c.startsWith('ARTICLE') && s.write('hello?\r\n')), 3],
  ['480 and no credentials', '200 fake\r\n', (c, s) => void (c.startsWith('ARTICLE') && s.write('480 auth\r\n')), 2],
];

for (const [what, greeting, answer, code] of FAULTS) {
  test(`fetch -o FILE, ${what}: exit ${code}, nothing under the final name, no temporary file`, async () => {
    const fake = await nntpFake(greeting, answer);
    try {
      const dir = mkdtempSync(join(tmpdir(), 'locator-news-'));
      const args = ['fetch', '--timeout', '500', '-o', join(dir, 'a.eml')];
      const r = await run([...args, '--nntp-server', `127.0.0.1:${fake.port}`, 'news:a@b.example']);
      assert.equal(r.code, code, r.err);
      assert.deepEqual(readdirSync(dir), []);
      await fake.allClosed();
    } finally {
      await fake.close();
    }
  });
}

test('fetch --user --password: AUTHINFO only when the server asks; the password never shown with -v', async () => {
  let authed = false;
  const fake = await nntpFake('200 fake\r\n', (c, s) => {
    if (c.startsWith('ARTICLE'))
      s.write(authed ? '220 0 <a@b.example>\r\nSubject: x\r\n\r\nok\r\n.\r\n' : '480 auth\r\n');
    else if (c === 'AUTHINFO USER alice') s.write('381 more\r\n');
    else if (c.startsWith('AUTHINFO PASS')) {
      authed = c === 'AUTHINFO PASS s3cret';
      s.write(authed ? '281 ok\r\n' : '481 no\r\n');
    }
  });
  try {
    const dir = mkdtempSync(join(tmpdir(), 'locator-news-'));
    const out = join(dir, 'a.eml');
    const args = ['fetch', '-v', '-o', out, '--user', 'alice', '--password', 's3cret'];
    const r = await run([...args, '--nntp-server', `127.0.0.1:${fake.port}`, 'news:a@b.example']);
    assert.equal(r.code, 0, r.err);
    assert.equal(readFileSync(out, 'utf8'), 'Subject: x\r\n\r\nok\r\n');
    assert.ok(!r.err.includes('s3cret'), r.err);
    assert.match(r.err, /> AUTHINFO PASS \*\*\*\*/);
  } finally {
    await fake.close();
  }
});
