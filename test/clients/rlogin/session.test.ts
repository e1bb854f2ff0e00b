// rlogin sessions (RFC 1282) against Debian's in.rlogind on 127.0.0.1:5513 (test/servers/rlogin.sh:
// ~tester/.rhosts trusts root on localhost, so a client running as root logs in without a
// password; any other client user gets the password prompt), and against in-process fakes for
// what a real server will not do (a reset, a stall, a refusal message).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connectSession } from '../../../src/clients/rlogin/session.js';
import { LocatorError } from '../../../src/core/errors.js';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { IS_ROOT as isRoot, parse, ROOT, rootGate, rootOnly, serversDir } from '../../helpers.js';
import { fakeServer } from '../gopher/fakes.js';
import { outputReader } from '../session-helpers.js';

const AT = 'rlogin://tester@127.0.0.1:5513';
const enc = (s: string) => new TextEncoder().encode(s);
/**
 * The compiled src/ as a child process of another user can read it: as root, the checkout may sit
 * where the user nobody cannot enter (/root, a 0700 folder), so a copy goes to a world-readable
 * temporary folder (the compiled src/ imports only itself and node: modules).
 */
function readableBuild(): string {
  if (!isRoot) return join(ROOT, '.build', 'src');
  const dir = mkdtempSync(join(tmpdir(), 'locator-rlogin-'));
  cpSync(join(ROOT, '.build', 'src'), join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n'); // the copy's .js files are ES modules
  execFileSync('chmod', ['-R', 'a+rX', dir]);
  return join(dir, 'src');
}
/** Why the tests that log in to rlogind need root. */
const RESERVED = 'rlogind answers only a reserved source port (RFC 1282), which only root can bind';
rootGate('rlogin session');
const code = (c: string) => (e: unknown) => e instanceof LocatorError && e.code === c;

test(
  'RFC 1282: rlogind trusts root on a reserved port; a command runs; "exit" ends the session',
  rootOnly(RESERVED),
  async () => {
    serversDir();
    const lines: string[] = [];
    const s = await connectSession(parse(AT), {
      localUser: 'root',
      term: 'xterm',
      cols: 100,
      rows: 30,
      transcript: (l) => lines.push(`${l.direction} ${l.text}`),
    });
    const out = outputReader(s);
    await out.until(/\$ $/m);
    s.write(enc('echo MARK$((40+2)); stty size; echo $TERM\r'));
    // The window size sent after the NUL (RFC 1282 Window Size) reached the pseudo-terminal.
    await out.until(/MARK42\r\n30 100\r\nxterm\r\n/);
    s.resize(120, 40);
    s.write(enc('stty size\r'));
    await out.until(/40 120\r\n/);
    assert.match(s.status().join('\n'), /server user tester, terminal xterm\/38400, window 120x40/);
    s.write(enc('exit\r'));
    await out.end();
    await s.closed;
    assert.ok(
      lines.some((l) => /^send <NUL>root<NUL>tester<NUL>xterm\/38400<NUL>$/.test(l)),
      lines.join('\n'),
    );
    assert.ok(lines.some((l) => l === 'receive <NUL> (handshake accepted)'));
    assert.ok(lines.some((l) => /^info connected from the reserved port (\d+)$/.test(l) && +RegExp.$1 < 1024));
  },
);

test(
  'RFC 1282: a client user rlogind does not trust gets the password prompt; the typed password is not in the transcript',
  rootOnly(RESERVED),
  async () => {
    const s = await connectSession(parse(AT), { localUser: 'nobody', transcript: true });
    const out = outputReader(s);
    await out.until(/Password: ?$/);
    s.write(enc('secret\r'));
    await out.until(/\$ $/m, 10000);
    s.write(enc('id -un; stty size\r'));
    // The window size waited for the end of the password (windowGate), then reached the pty.
    await out.until(/\r\ntester\r\n24 80\r\n/);
    s.close();
    s.close(); // idempotent
    await s.closed;
    assert.ok(!s.transcript.some((l) => l.text.includes('secret')));
  },
);

test(
  'RFC 1282: rlogind resets a client on an unreserved port without a word: connection-closed',
  rootOnly(RESERVED),
  async () => {
    await assert.rejects(
      connectSession(parse(AT), { localUser: 'root', reservedPorts: { first: 40513, last: 40513 } }),
      code('connection-closed'),
    );
  },
);

test('RFC 1282: without root no reserved port can be bound: rlogin-reserved-port, at once', async () => {
  // As root, the check runs in a child process with the uid of nobody (65534).
  const build = readableBuild();
  const SESSION_JS = pathToFileURL(join(build, 'clients', 'rlogin', 'session.js')).href;
  const REGISTRY_JS = pathToFileURL(join(build, 'schemes', 'registry.js')).href;
  const script = `
    const [{ connectSession }, { parse }] = await Promise.all([import(${JSON.stringify(SESSION_JS)}), import(${JSON.stringify(REGISTRY_JS)})]);
    try { await connectSession(parse('rlogin://127.0.0.1:5513'), { localUser: 'x' }); console.log('connected'); }
    catch (e) { console.log(e.code + ' ' + e.message); }`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 20000,
    ...(isRoot ? { uid: 65534, gid: 65534 } : {}),
  });
  if (isRoot) rmSync(join(build, '..'), { recursive: true, force: true });
  assert.match(
    r.stdout,
    /^rlogin-reserved-port .*binding port 1023 was refused \(EACCES\): run as root or grant CAP_NET_BIND_SERVICE/,
    r.stderr,
  );
});

test('RFC 1282: a reserved port in use is skipped for the next one', rootOnly(RESERVED), async () => {
  const { createServer } = await import('node:net');
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(1023, '0.0.0.0', r));
  const fake = await fakeServer((sock) => {
    sock.write('\0hello');
    return true;
  });
  try {
    const s = await connectSession(parse(`rlogin://u@127.0.0.1:${fake.port}`), {
      localUser: 'me',
      reservedPorts: { first: 1023, last: 1020 },
    });
    const out = outputReader(s);
    await out.until(/^hello$/);
    assert.match(s.status()[1], /:102[0-2] to/);
    s.close();
    await s.closed;
    assert.equal(fake.received[0].slice(0, 17), '\0me\0u\0network/38400\0'.slice(0, 17));
  } finally {
    blocker.close();
    await fake.close();
  }
});

test(
  "RFC 1282: a refusal message instead of the NUL is rlogin-refused, with the server's words",
  rootOnly(RESERVED),
  async () => {
    const fake = await fakeServer((sock) => {
      sock.end('\x01Permission denied.\n');
      return true;
    });
    try {
      await assert.rejects(
        connectSession(parse(`rlogin://127.0.0.1:${fake.port}`), { localUser: 'me' }),
        (e: unknown) => code('rlogin-refused')(e) && /Permission denied\./.test((e as Error).message),
      );
      await fake.allClosed();
    } finally {
      await fake.close();
    }
  },
);

test('a server that never answers the handshake: timeout, socket released', rootOnly(RESERVED), async () => {
  const fake = await fakeServer(() => true);
  try {
    const t0 = Date.now();
    await assert.rejects(
      connectSession(parse(`rlogin://127.0.0.1:${fake.port}`), { localUser: 'me', timeout: 300 }),
      code('timeout'),
    );
    assert.ok(Date.now() - t0 < 2000);
    await fake.allClosed();
  } finally {
    await fake.close();
  }
});

test(
  'a connection reset in the middle of a session: output errors and closed rejects with connection-closed',
  rootOnly(RESERVED),
  async () => {
    const fake = await fakeServer((sock, got) => {
      if (!got.endsWith('\0')) return false;
      sock.write('\0$ ');
      setTimeout(() => sock.resetAndDestroy(), 50);
      return true;
    });
    try {
      const s = await connectSession(parse(`rlogin://127.0.0.1:${fake.port}`), { localUser: 'me' });
      const out = outputReader(s);
      await out.until(/\$ /);
      await assert.rejects(out.end(), code('connection-closed'));
      await assert.rejects(s.closed, code('connection-closed'));
    } finally {
      await fake.close();
    }
  },
);

test('an abort ends the session: closed rejects with aborted', rootOnly(RESERVED), async () => {
  const fake = await fakeServer((sock) => {
    sock.write('\0');
    return true;
  });
  const ac = new AbortController();
  try {
    const s = await connectSession(parse(`rlogin://127.0.0.1:${fake.port}`), { localUser: 'me', signal: ac.signal });
    ac.abort();
    await assert.rejects(s.closed, code('aborted'));
    await fake.allClosed();
  } finally {
    await fake.close();
  }
});

test('RFC 1738 6: the policy is consulted before any byte is sent', async () => {
  await assert.rejects(
    connectSession(parse('rlogin://127.0.0.1:5513'), { localUser: 'me', policy: { refusePrivateAddresses: true } }),
    code('policy-refused'),
  );
});
