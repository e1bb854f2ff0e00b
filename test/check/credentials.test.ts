// Which credentials check() sends (RFC 4643 2.3 AUTHINFO, RFC 1738 3.2.1): the `user` and
// `password` options never (the URLs check probes come from documents, menus and listings, and
// their servers must not get a password of the caller's); a netrc entry only to a server whose
// host netrcHosts names: for a news: URL, the news server of NNTPSERVER; an IPv6 host with or
// without its brackets. And timers past 2^31-1 ms: a deadline that long must not fire at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { check, type CheckInput, type CheckOptions, type CheckResult } from '../../src/check/index.js';

async function all(inputs: CheckInput[], options: CheckOptions): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  for await (const r of check(inputs, options)) out.push(r);
  return out;
}

interface AuthFake {
  port: number;
  /** Every command line received, all connections. */
  commands: string[];
  close(): Promise<void>;
}

/** An NNTP server on `host` (port 0) that answers 480 to GROUP and ARTICLE until AUTHINFO USER and PASS. */
async function authFake(host: string): Promise<AuthFake> {
  const sockets = new Set<net.Socket>();
  const commands: string[] = [];
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
    let authed = false;
    let text = '';
    s.write('200 fake ready\r\n');
    s.on('data', (d) => {
      text += d.toString('latin1');
      for (let nl = text.indexOf('\r\n'); nl >= 0; nl = text.indexOf('\r\n')) {
        const c = text.slice(0, nl);
        text = text.slice(nl + 2);
        commands.push(c);
        if (c === 'CAPABILITIES') s.write('101 caps\r\nVERSION 2\r\nREADER\r\nOVER\r\n.\r\n');
        else if (c === 'QUIT') s.end('205 bye\r\n');
        else if (c.startsWith('AUTHINFO USER ')) s.write('381 password please\r\n');
        else if (c.startsWith('AUTHINFO PASS ')) {
          authed = true;
          s.write('281 welcome\r\n');
        } else if (!authed) s.write('480 authentication required\r\n');
        else if (c.startsWith('GROUP ')) s.write('211 1 1 1 g.x\r\n');
        else if (c.startsWith('OVER')) s.write('224 overview\r\n1\tsubject\tfrom\tdate\t<a@b>\t\t10\t1\r\n.\r\n');
        else if (c.startsWith('ARTICLE') || c.startsWith('STAT')) s.write('223 1 <a@b.example>\r\n');
        else s.write('500 what\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    commands,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const home = mkdtempSync(join(tmpdir(), 'locator-check-cred-'));
const NETRC = join(home, 'netrc');
writeFileSync(NETRC, 'default login operator password hunter2\n', { mode: 0o600 });
test.after(() => rmSync(home, { recursive: true, force: true }));

const base: CheckOptions = { retries: 0, timeout: 5000, netrc: NETRC, env: {} };
const authed = (f: AuthFake) => f.commands.filter((c) => c.startsWith('AUTHINFO'));

test('check: a news: URL gets the netrc entry of its news server (NNTPSERVER) when netrcHosts names that host', async () => {
  const f = await authFake('127.0.0.1');
  try {
    const env = { NNTPSERVER: `127.0.0.1:${f.port}` };
    const named = await all(['news:g.x'], { ...base, env, netrcHosts: ['127.0.0.1'] });
    assert.equal(named[0].status, 'ok', named[0].reason);
    assert.deepEqual(authed(f), ['AUTHINFO USER operator', 'AUTHINFO PASS hunter2']);
    // Another host named: nothing sent, whatever the URL.
    f.commands.length = 0;
    const other = await all(['news:g.x'], { ...base, env, netrcHosts: ['news.example'] });
    assert.equal(other[0].status, 'broken');
    assert.deepEqual(authed(f), []);
  } finally {
    await f.close();
  }
});

test('check: netrcHosts names an IPv6 host with or without its brackets', async (t) => {
  let f: AuthFake;
  try {
    f = await authFake('::1');
  } catch (e) {
    // Reported as skipped, with the reason, not as passed: the IPv6 match is then untested.
    t.skip(`::1 cannot be bound on this machine (${(e as Error).message})`);
    return;
  }
  try {
    for (const h of ['::1', '[::1]']) {
      f.commands.length = 0;
      // An nntp: URL with an IPv6 literal is invalid (RFC 1738 3.1 has none); NNTPSERVER may name one.
      const env = { NNTPSERVER: `[::1]:${f.port}` };
      const r = await all(['news:g.x'], { ...base, env, netrcHosts: [h] });
      assert.equal(r[0].status, 'ok', `${h}: ${r[0].reason}`);
      assert.deepEqual(authed(f), ['AUTHINFO USER operator', 'AUTHINFO PASS hunter2'], h);
    }
  } finally {
    await f.close();
  }
});

test('check: the user and password options go to no server, a URL given or found in a document', async () => {
  const f = await authFake('127.0.0.1');
  try {
    const url = `nntp://127.0.0.1:${f.port}/g.x/1`;
    for (const netrcHosts of [undefined, ['127.0.0.1']]) {
      f.commands.length = 0;
      const r = await all([url, { file: 'page.txt', text: `see nntp://127.0.0.1:${f.port}/g.y/2 here\n` }], {
        ...base,
        netrc: join(home, 'none'),
        netrcHosts,
        user: 'caller',
        password: 'sekrit',
      });
      assert.equal(r.length, 2);
      for (const x of r) assert.equal(x.status, 'broken', x.reason);
      assert.ok(f.commands.includes('GROUP g.x') && f.commands.includes('GROUP g.y'), f.commands.join(' | '));
      assert.deepEqual(authed(f), [], String(netrcHosts));
    }
  } finally {
    await f.close();
  }
});

test('check: a deadline past 2^31-1 ms does not fire at once (timeout 600000000: deadline 2.4e9 ms)', async () => {
  const server = net.createServer((s) => {
    s.on('error', () => {});
    s.once('data', () => s.end('hello\r\n.\r\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  try {
    const url = `gopher://127.0.0.1:${port}/0/a.txt`;
    for (const o of [{ timeout: 600_000_000 }, { timeout: 5000, deadline: 3_000_000_000 }]) {
      const r = await all([url], { retries: 0, ...o });
      assert.equal(r[0].status, 'ok', `${JSON.stringify(o)}: ${r[0].reason}`);
    }
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
