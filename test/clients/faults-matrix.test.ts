// The faults of issue 17, for every client that reads replies from a server (ftp, http, gopher,
// news/nntp, smtp, wais), in one matrix: a scripted fake answers the client normally up to a
// chosen point (the greeting, or the request that fetches the object) and then misbehaves:
// it stalls, closes, resets, sends one line that never ends, a reply that never ends, or
// garbage. Each cell asserts what the issue asks of every client: a typed LocatorError (never
// another kind of error, never a hang) within the configured time, every socket released (the
// fake sees them all closed), and no buffer grown without bound (the fake stops being read:
// it can push only a bounded number of octets before the client gives up). A refused
// connection is the first row. The same faults through `locator fetch -o FILE` leave nothing
// under FILE, an existing FILE intact, and no temporary file (test/cli/fetch.test.ts has the
// interrupted cases). Protocol-specific faults (FTP's data connection, a Gopher+ length that
// lies, 426 mid-transfer, endless telnet subnegotiations ...) are in each client's own tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, send } from '../../src/clients/index.js';
import { LocatorError } from '../../src/core/errors.js';
import { fakeLifecycle } from './fake-lifecycle.js';
import { closedPort } from './probe/common.js';
import { ROOT } from '../helpers.js';

type Fault = 'stall' | 'close' | 'reset' | 'endless-line' | 'endless-reply' | 'garbage';
const FAULTS: Fault[] = ['stall', 'close', 'reset', 'endless-line', 'endless-reply', 'garbage'];

/** The configured time of every cell, and the bound on octets a client may take from a fault. */
const TIMEOUT = 400;
const MAX_BYTES = 1 << 20;
/** A client that stops reading lets the fake push at most what the socket buffers hold. */
const BOUND = 24 << 20;

interface Client {
  name: string;
  /** Answers a line the client sent (without CR LF) normally; undefined when it is the trigger. */
  answer(line: string): string | undefined;
  greeting?: string;
  /** Where the fault starts: at connect (instead of the greeting), at the first octets received, or at a line. */
  at: 'connect' | 'data' | RegExp;
  /** A line of a reply that never ends (the fault "endless-reply"): repeated until the client gives up. */
  replyHead: string;
  replyLine: string;
  /** Runs the client against the fake's port; rejects with its error. */
  run(port: number): Promise<unknown>;
  /** `locator fetch` arguments for the fake's port, when the CLI can fetch this scheme. */
  fetch?(port: number): string[];
}

const opts = { gateway: false as const, timeout: TIMEOUT, maxBytes: MAX_BYTES, env: {} };
const readBody = async (port: number, url: string, extra: object = {}) => {
  const r = await open(url.replace('PORT', String(port)), { ...opts, ...extra });
  const reader = r.body.getReader();
  for (;;) if ((await reader.read()).done) return;
};

/** send() of a short message through the relay at `port`. */
const sendThrough = (port: number) =>
  send(
    'mailto:someone@example.org',
    { from: 'me@example.org', subject: 'x', body: 'hi\n' },
    { smtp: `127.0.0.1:${port}`, timeout: TIMEOUT, env: {} },
  );

const nntpAnswer = (line: string): string | undefined => {
  if (/^CAPABILITIES/i.test(line)) return '101 list\r\nVERSION 2\r\nREADER\r\nOVER\r\n.\r\n';
  if (/^MODE READER/i.test(line)) return '200 reader\r\n';
  if (/^QUIT/i.test(line)) return '205 bye\r\n';
  return undefined;
};
const ftpAnswer = (line: string): string | undefined => {
  if (/^USER/i.test(line)) return '331 password\r\n';
  if (/^PASS/i.test(line)) return '230 in\r\n';
  if (/^QUIT/i.test(line)) return '221 bye\r\n';
  return undefined;
};
const smtpAnswer = (line: string): string | undefined => {
  if (/^(EHLO|HELO)/i.test(line)) return '250 fake\r\n';
  if (/^QUIT/i.test(line)) return '221 bye\r\n';
  return undefined;
};

const CLIENTS: Client[] = [
  {
    name: 'ftp (the greeting)',
    greeting: undefined,
    at: 'connect',
    answer: ftpAnswer,
    replyHead: '220-welcome\r\n',
    replyLine: ' and more\r\n',
    run: (port) => readBody(port, 'ftp://127.0.0.1:PORT/f.txt'),
    fetch: (port) => ['--allow-port', String(port), `ftp://127.0.0.1:${port}/f.txt`],
  },
  {
    name: 'ftp (after login)',
    greeting: '220 fake\r\n',
    at: /^(?!USER|PASS)/i,
    answer: ftpAnswer,
    replyHead: '200-type\r\n',
    replyLine: ' more\r\n',
    run: (port) => readBody(port, 'ftp://127.0.0.1:PORT/dir/f.txt'),
  },
  {
    name: 'http',
    at: /^GET /,
    answer: () => undefined,
    replyHead: 'HTTP/1.0 200 OK\r\n',
    replyLine: 'X-Filler: yes\r\n',
    run: (port) => readBody(port, 'http://127.0.0.1:PORT/x'),
    fetch: (port) => ['--allow-port', String(port), `http://127.0.0.1:${port}/x`],
  },
  {
    name: 'gopher menu',
    at: /.*/,
    answer: () => undefined,
    replyHead: '',
    replyLine: '1Menu\t/m\texample.org\t70\r\n',
    run: (port) => readBody(port, 'gopher://127.0.0.1:PORT/1/m'),
    fetch: (port) => ['--allow-port', String(port), `gopher://127.0.0.1:${port}/1/m`],
  },
  {
    name: 'gopher document',
    at: /.*/,
    answer: () => undefined,
    replyHead: '',
    replyLine: 'text of the document\r\n',
    run: (port) => readBody(port, 'gopher://127.0.0.1:PORT/0/doc'),
    fetch: (port) => ['--allow-port', String(port), `gopher://127.0.0.1:${port}/0/doc`],
  },
  {
    name: 'news (the article)',
    greeting: '200 fake\r\n',
    at: /^ARTICLE/i,
    answer: nntpAnswer,
    replyHead: '220 0 <a@b.example>\r\n',
    replyLine: 'a line of the article\r\n',
    run: (port) => readBody(port, 'news:a@b.example', { newsServer: `127.0.0.1:${port}` }),
    fetch: (port) => ['--nntp-server', `127.0.0.1:${port}`, 'news:a@b.example'],
  },
  {
    name: 'nntp (the greeting)',
    at: 'connect',
    answer: nntpAnswer,
    replyHead: '101 capabilities\r\n',
    replyLine: 'VERSION 2\r\n',
    run: (port) => readBody(port, 'nntp://127.0.0.1:PORT/comp.misc/1'),
  },
  {
    name: 'smtp (the greeting)',
    at: 'connect',
    answer: smtpAnswer,
    replyHead: '',
    replyLine: '220-hello\r\n',
    run: sendThrough,
  },
  {
    name: 'smtp (MAIL FROM)',
    greeting: '220 fake\r\n',
    at: /^MAIL/i,
    answer: smtpAnswer,
    replyHead: '',
    replyLine: '250-ok\r\n',
    run: sendThrough,
  },
  {
    name: 'wais (the Init response)',
    at: 'data',
    answer: () => undefined,
    replyHead: '',
    replyLine: '0000000000',
    run: (port) => readBody(port, 'wais://127.0.0.1:PORT/db?word'),
  },
];

/** A scripted fake: answers normally, then performs `fault` at the client's trigger. */
async function scripted(client: Client, fault: Fault) {
  const sockets = new Set<net.Socket>();
  const state = { pushed: 0, faulted: false };
  let seed = 1738;
  const garbage = (n: number) =>
    Buffer.from(
      Array.from({ length: n }, () => {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        return (seed >>> 16) & 0xff;
      }),
    );
  const perform = async (s: net.Socket) => {
    state.faulted = true;
    if (fault === 'stall') return;
    if (fault === 'close') return void s.end();
    if (fault === 'reset') return void s.resetAndDestroy();
    if (fault === 'garbage') {
      s.write(garbage(4096));
      return;
    }
    // An endless line or reply: written as fast as the client reads, for at most 8 s.
    const chunk =
      fault === 'endless-line'
        ? Buffer.alloc(64 * 1024, 0x41)
        : Buffer.from(client.replyLine.repeat(Math.ceil(65536 / client.replyLine.length)), 'latin1');
    if (fault === 'endless-reply' && client.replyHead) s.write(client.replyHead);
    const until = Date.now() + 8000;
    while (!s.destroyed && !s.writableEnded && Date.now() < until) {
      state.pushed += chunk.length;
      if (!s.write(chunk)) {
        const drained = await Promise.race([
          new Promise<boolean>((r) => s.once('drain', () => r(true))),
          new Promise<boolean>((r) => s.once('close', () => r(false))),
          new Promise<boolean>((r) => setTimeout(() => r(false), until - Date.now())),
        ]);
        if (!drained) break;
      }
    }
  };
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
    if (client.at === 'connect') {
      void perform(s);
      return;
    }
    if (client.greeting) s.write(client.greeting);
    let buf = '';
    s.on('data', (d) => {
      if (state.faulted) return;
      if (client.at === 'data') return void perform(s);
      buf += d.toString('latin1');
      for (let i = buf.indexOf('\n'); i >= 0 && !state.faulted; i = buf.indexOf('\n')) {
        const line = buf.slice(0, i).replace(/\r$/, '');
        buf = buf.slice(i + 1);
        if ((client.at as RegExp).test(line)) {
          void perform(s);
          return;
        }
        const a = client.answer(line);
        if (a !== undefined) s.write(a);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as net.AddressInfo).port, state, ...fakeLifecycle(server, sockets) };
}

/** The codes a fault may end in: each is the client's typed account of what went wrong. */
const EXPECTED: Record<Fault, string[]> = {
  stall: ['timeout'],
  close: ['connection-closed', 'protocol-error'],
  reset: ['connection-closed', 'connect-failed'],
  'endless-line': ['protocol-error', 'too-large', 'line-too-long'],
  'endless-reply': ['protocol-error', 'too-large', 'line-too-long'],
  garbage: ['protocol-error', 'connection-closed', 'timeout', 'wais-diagnostic'],
};

for (const client of CLIENTS) {
  test(`faults: ${client.name}: connection refused is connect-failed`, async () => {
    const e = await client.run(await closedPort()).then(
      () => assert.fail('no error'),
      (err: unknown) => err,
    );
    assert.ok(e instanceof LocatorError, String(e));
    assert.equal(e.code, 'connect-failed');
  });
  for (const fault of FAULTS) {
    test(`faults: ${client.name}: ${fault}`, async () => {
      const fake = await scripted(client, fault);
      try {
        const t0 = Date.now();
        const outcome = await client.run(fake.port).then(
          () => null,
          (err: unknown) => err,
        );
        const ms = Date.now() - t0;
        // A document may legitimately end cleanly when the server closes after nothing: an empty
        // object. Every other cell must fail.
        if (outcome === null) {
          assert.ok(
            client.name === 'gopher document' && (fault === 'close' || fault === 'garbage'),
            `${client.name}/${fault}: the client succeeded`,
          );
        } else {
          assert.ok(outcome instanceof LocatorError, `not a LocatorError: ${String(outcome)}`);
          assert.ok(
            EXPECTED[fault].includes(outcome.code),
            `${client.name}/${fault}: code ${outcome.code} (${outcome.message}) not in ${EXPECTED[fault].join(', ')}`,
          );
          assert.equal(typeof outcome.message, 'string');
        }
        assert.ok(ms < 6000, `${client.name}/${fault}: took ${ms} ms`);
        assert.ok(fake.state.pushed <= BOUND, `${client.name}/${fault}: read ${fake.state.pushed} octets`);
        await fake.allClosed(3000);
      } finally {
        await fake.close();
      }
    });
  }
}

const BIN = join(ROOT, 'dist', 'cli', 'main.js');
function fetchCli(args: string[]): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(
      process.execPath,
      [BIN, 'fetch', '--timeout', String(TIMEOUT), '--max-bytes', String(MAX_BYTES), ...args],
      {
        env: { PATH: process.env.PATH },
      },
    );
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    p.stdout.resume();
    p.on('close', (code) => resolve({ code, err }));
  });
}

for (const client of CLIENTS.filter((c) => c.fetch)) {
  for (const fault of ['stall', 'reset', 'endless-line', 'endless-reply'] as Fault[]) {
    test(`faults: locator fetch -o of ${client.name} with ${fault}: exit 3, nothing under FILE, an existing FILE intact`, async () => {
      for (const existing of [false, true]) {
        const fake = await scripted(client, fault);
        const dir = mkdtempSync(join(tmpdir(), 'locator-faults-'));
        try {
          const file = join(dir, 'out.bin');
          if (existing) writeFileSync(file, 'the old contents\n');
          const r = await fetchCli(['-o', file, ...client.fetch!(fake.port)]);
          assert.equal(r.code, 3, r.err);
          if (existing) {
            assert.equal(readFileSync(file, 'utf8'), 'the old contents\n');
            assert.deepEqual(readdirSync(dir), ['out.bin']);
          } else {
            assert.deepEqual(readdirSync(dir), []);
          }
          await fake.allClosed(3000);
        } finally {
          await fake.close();
          rmSync(dir, { recursive: true, force: true });
        }
      }
    });
  }
}
