// `locator connect` without a terminal (for scripts: standard input to the session, the session
// to standard output, still negotiating), its usage errors and exit codes, the escape prompt's
// commands, and `fetch`/`explain` of a telnet URL pointing at connect (RFC 1738 3.8). The runs
// in a real terminal are in test/clients/telnet/terminal.test.ts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, eachRow } from '../helpers.js';
import { escapeArg, promptAction, showEscape, type PromptAction } from '../../src/cli/connect.js';
import { UsageError } from '../../src/cli/command.js';
import { fakeTelnet } from '../clients/telnet/fakes.js';

const BIN = join(ROOT, 'dist', 'cli', 'main.js');

/** Runs the CLI without blocking the event loop (the fakes live in this process). */
function runAsync(args: string[], input: string, env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; out: Buffer; err: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, out: Buffer.concat(out), err }));
    child.stdin.end(input);
  });
}

test('connect without a terminal: standard input goes to the session, its data to standard output, commands taken out', async () => {
  const fake = await fakeTelnet((sock) => {
    sock.write(Buffer.from([255, 251, 1, 255, 253, 24, ...Buffer.from('welcome\r\n')])); // WILL ECHO, DO TERMINAL-TYPE
    let seen = '';
    sock.on('data', (d: Buffer) => {
      seen += d.toString('latin1');
      if (seen.includes('hello\r\n')) {
        seen = '';
        sock.write(Buffer.from([...Buffer.from('you said \xff\xff', 'latin1'), 255, 241, ...Buffer.from('hello\r\n')]));
      }
    });
  });
  try {
    const r = await runAsync(['connect', '--idle', '300', `telnet://guest@127.0.0.1:${fake.port}/`], 'hello\n', {
      TERM: 'vt100',
    });
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out.toString('latin1'), 'welcome\r\nyou said \xffhello\r\n');
    assert.match(r.err, /User name in the URL: "guest"/);
    const got = fake.received[0].toString('latin1');
    assert.ok(got.includes('\xff\xfd\x01'), 'DO ECHO');
    assert.ok(got.includes('\xff\xfb\x18'), 'WILL TERMINAL-TYPE');
    assert.ok(got.includes('hello\r\n'), 'LF from the script sent as CR LF');
    await fake.allClosed();
  } finally {
    await fake.close();
  }
});

test('connect -v prints the negotiation on standard error', async () => {
  const fake = await fakeTelnet((sock) => {
    sock.write(Buffer.from([255, 253, 31, 255, 251, 200]));
    setTimeout(() => sock.end(), 200);
  });
  try {
    const r = await runAsync(['connect', '-v', `telnet://127.0.0.1:${fake.port}/`], '');
    assert.equal(r.code, 0, r.err);
    // no window size without a terminal: NAWS is refused
    assert.match(r.err, /< DO NAWS\n> WONT NAWS\n< WILL 200\n> DONT 200\n/);
  } finally {
    await fake.close();
  }
});

test('connect exit status: 1 for a URL that is not valid, 2 for usage, 3 for no connection', async () => {
  const fake = await fakeTelnet(() => {});
  const port = fake.port;
  await fake.close();
  const refused = await runAsync(['connect', '--timeout', '5000', `telnet://u:pw@127.0.0.1:${port}/`], '');
  assert.equal(refused.code, 3);
  assert.match(refused.err, /cannot connect to 127.0.0.1:\d+: ECONNREFUSED/);
  assert.match(refused.err, /Password in the URL: \*\*\*\* \(advisory/);
  assert.doesNotMatch(refused.err, /pw/);
  const shown = await runAsync(['connect', '--show-secrets', `telnet://u:pw@127.0.0.1:${port}/`], '');
  assert.match(shown.err, /Password in the URL: "pw" \(advisory/);
  assert.equal((await runAsync(['connect', 'telnet://a b/'], '')).code, 1);
  assert.equal((await runAsync(['connect'], '')).code, 2);
  assert.equal((await runAsync(['connect', '--escape', 'xy', 'telnet://h/'], '')).code, 2);
  assert.equal((await runAsync(['connect', '--idle', '0', 'telnet://h/'], '')).code, 2);
  const http = await runAsync(['connect', 'http://127.0.0.1:8080/'], '');
  assert.equal(http.code, 2);
  assert.match(http.err, /no interactive service/);
});

test('fetch of a telnet URL says to use connect (exit 2); explain says so too (RFC 1738 3.8)', () => {
  const r = spawnSync(process.execPath, [BIN, 'fetch', 'telnet://tester@127.0.0.1:2323/'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /interactive service.*locator connect URL/);
  const e = spawnSync(process.execPath, [BIN, 'explain', 'telnet://tester@127.0.0.1:2323/'], { encoding: 'utf8' });
  assert.match(e.stdout, /locator connect URL/);
});

const PROMPT_ROWS: Array<[string, PromptAction]> = [
  ['', 'resume'],
  ['   ', 'resume'],
  ['quit', 'quit'],
  ['QUIT', 'quit'],
  ['close', 'quit'],
  ['send brk', 'break'],
  ['send  break', 'break'],
  ['status', 'status'],
  ['?', 'help'],
  ['send', 'unknown'],
  ['send ip', 'unknown'],
  ['quit now', 'unknown'],
];

eachRow('the escape prompt (after telnet(1))', PROMPT_ROWS, ([line, want]) => assert.equal(promptAction(line), want));

const ESCAPE_ROWS: Array<[string | undefined, number | null | 'usage']> = [
  [undefined, 0x1d],
  ['^]', 0x1d],
  ['^x', 0x18],
  ['^?', 0x7f],
  ['~', 0x7e],
  ['none', null],
  ['^1', 'usage'],
  ['ab', 'usage'],
  ['é', 'usage'],
];

eachRow('--escape', ESCAPE_ROWS, ([arg, want]) => {
  if (want === 'usage') assert.throws(() => escapeArg(arg), UsageError);
  else assert.equal(escapeArg(arg), want);
});

test('showEscape: ^] for a control character, the character otherwise', () => {
  assert.deepEqual([0x1d, 0x18, 0x7f, 0x7e].map(showEscape), ['^]', '^X', '^?', '~']);
});
