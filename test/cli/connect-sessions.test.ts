// `locator connect` of rlogin and tn3270 URLs (the drafts' "Telnet, rlogin, tn3270"), without a
// terminal (standard input and output copied), against the real servers of test/servers: Debian's
// in.rlogind on 127.0.0.1:5513 (root is trusted by ~tester/.rhosts, so no password is asked) and
// Hercules' TN3270 console on 127.0.0.1:3270 (its logo screen). The library-level tests are in
// test/clients/rlogin and test/clients/tn3270; these prove the command opens them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, rootGate, rootOnly } from '../helpers.js';
import { nestedWsf, onWire } from '../clients/tn3270/hostile.js';

const BIN = join(ROOT, 'dist', 'cli', 'main.js');

function runAsync(args: string[], input: string) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, TERM: 'xterm' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('latin1')));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(input);
  });
}

// rlogind accepts only a reserved source port (RFC 1282), which needs root: CI runs as root.
rootGate('locator connect rlogin');
test(
  'locator connect rlogin://tester@127.0.0.1:5513/: logs in as tester, runs a command, exits 0',
  rootOnly('rlogind answers only a reserved source port (RFC 1282), which only root can bind'),
  async () => {
    const r = await runAsync(
      ['connect', '--idle', '3000', 'rlogin://tester@127.0.0.1:5513/'],
      'echo MARK$((40+2)) $(id -un)\nexit\n',
    );
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /MARK42 tester/);
    assert.match(r.err, /rlogin/);
  },
);

test('locator connect tn3270://127.0.0.1:3270/: negotiates and draws the Hercules logo screen as text', async () => {
  const r = await runAsync(['connect', '--idle', '2000', 'tn3270://127.0.0.1:3270/'], '');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /Hercules Version/);
  assert.match(r.out, /The S\/370, ESA\/390 and z\/Architecture/);
});

test('locator connect tn3270: a host nesting Write Structured Field 50,000 deep, before or after the 3270 mode, exits 3 (protocol-error), not 70', async () => {
  const { createServer } = await import('node:net');
  const hostile = onWire(nestedWsf(50_000, true));
  // RFC 1576's negotiation (DO TERMINAL-TYPE, SEND; BINARY and END-OF-RECORD both ways).
  const negotiation = Buffer.from([
    255, 253, 24, 255, 250, 24, 1, 255, 240, 255, 253, 25, 255, 251, 25, 255, 253, 0, 255, 251, 0,
  ]);
  const write = Buffer.from([0xf5, 0xc2, 0xff, 0xef]); // an Erase/Write that restores the keyboard
  for (const [when, first, later] of [
    ['before', Buffer.concat([Buffer.from([255, 253, 24]), hostile]), null],
    ['after', Buffer.concat([negotiation, write]), hostile],
  ] as const) {
    const server = createServer((sock) => {
      sock.on('error', () => {});
      sock.write(first);
      if (later !== null) setTimeout(() => sock.write(later), 200);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as import('node:net').AddressInfo;
      const r = await runAsync(['connect', '--idle', '5000', `tn3270://127.0.0.1:${port}/`], '');
      assert.equal(r.code, 3, `${when}: ${r.err}`);
      assert.match(r.err, /nests Write Structured Field 17 levels deep, past the limit of 16/, when);
    } finally {
      server.close();
    }
  }
});
