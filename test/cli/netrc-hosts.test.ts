// --netrc-host, one parser for fetch, check and serve: a host name, an IPv4 address or an IPv6
// literal with or without brackets is taken (as netrc entries compare hosts: lower case, no
// brackets); a port, a user, a path or anything else is a usage error (exit 2) naming the option,
// by each of the three commands alike: a value that could never match a host is not kept silently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers.js';
import { netrcHostArg, netrcHostsArg } from '../../src/cli/netrc-hosts.js';
import { serveOptions } from '../../src/cli/serve.js';
import { UsageError } from '../../src/cli/command.js';

const run = (args: string[]) => runCli(args, { HOME: '/nonexistent' });

const GOOD: [string, string][] = [
  ['News.Example.ORG', 'news.example.org'],
  ['localhost', 'localhost'],
  ['127.0.0.1', '127.0.0.1'],
  ['::1', '::1'],
  ['[::1]', '::1'],
  ['[2001:DB8::1]', '2001:db8::1'],
  ['2001:db8::1', '2001:db8::1'],
];
const BAD = [
  'host:119',
  '127.0.0.1:119',
  '[::1]:119',
  'user@host',
  'a b',
  'host/path',
  '',
  '[host]',
  '[::1',
  'fe80::1%eth0',
  '-host',
  'host.',
  'nntp://host',
];

test('netrcHostArg: host names, IPv4 and IPv6 (brackets or none) are taken as netrc compares them', () => {
  for (const [v, want] of GOOD) assert.equal(netrcHostArg(v), want, v);
  assert.deepEqual(netrcHostsArg(['A.example', '[::1]']), ['a.example', '::1']);
  assert.deepEqual(netrcHostsArg('A.example'), ['a.example']);
  assert.equal(netrcHostsArg(undefined), undefined);
});

test('netrcHostArg: a port, a user, a path, a zone, an empty or malformed value is a usage error naming the option', () => {
  for (const v of BAD)
    assert.throws(
      () => netrcHostArg(v),
      (e: unknown) => e instanceof UsageError && /--netrc-host/.test(e.message),
      v,
    );
  assert.throws(() => netrcHostArg(7), UsageError);
});

test('serve --netrc-host: the same values taken and refused', () => {
  const io = { env: {} } as Parameters<typeof serveOptions>[1];
  assert.deepEqual(
    serveOptions({ 'netrc-host': GOOD.map(([v]) => v) }, io).netrcHosts,
    GOOD.map(([, w]) => w),
  );
  for (const v of BAD) assert.throws(() => serveOptions({ 'netrc-host': [v] }, io), UsageError, v);
});

test('fetch, check and serve: --netrc-host with a port is a usage error (exit 2) naming the option', async () => {
  const url = 'gopher://127.0.0.1:1/0x';
  for (const cmd of [
    ['fetch', url],
    ['check', '--retries', '0', url],
    ['serve', '--port', '0', '--quiet'],
  ]) {
    for (const v of ['host:119', '[::1]:119']) {
      const r = await run([cmd[0], '--netrc-host', v, ...cmd.slice(1)]);
      assert.equal(r.code, 2, `${cmd[0]} --netrc-host ${v}: ${r.err}`);
      assert.match(r.err, /--netrc-host/, `${cmd[0]} --netrc-host ${v}`);
      assert.equal(r.out, '');
    }
  }
});

test('fetch and check: --netrc-host with an IPv6 literal, bracketed or not, is taken (the URL then fails on its own)', async () => {
  for (const v of ['::1', '[::1]']) {
    const f = await run(['fetch', '--netrc-host', v, 'http://127.0.0.1:2/x']);
    assert.equal(f.code, 3, `fetch --netrc-host ${v}: ${f.err}`);
    assert.match(f.err, /connect-failed/);
    const c = await run(['check', '--retries', '0', '--netrc-host', v, 'http://127.0.0.1:2/x']);
    assert.equal(c.code, 1, `check --netrc-host ${v}: ${c.err}`);
    assert.match(c.out, /^unreachable http:\/\/127\.0\.0\.1:2\/x /);
  }
});
