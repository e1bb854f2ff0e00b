// `locator send` (issue 12): standard input or --body-file as a message to the mailto address,
// through OpenSMTPD (127.0.0.1:2525) and aiosmtpd with STARTTLS and AUTH (127.0.0.1:2526),
// started by scripts/test.mjs (test/servers/smtp.sh). Exit codes: 0 sent, 1 refused, 2 usage,
// 3 the relay said no.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { countingServer } from '../clients/probe/common.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ROOT, serversDir } from '../helpers.js';
import { echoing, assertRelayCert, relay as fakeRelay } from '../clients/smtp/relay.js';

const BIN = join(ROOT, 'dist', 'cli', 'main.js');

/** Runs the built CLI; `node` are options for node itself; killed after `limit` ms (code null). */
function run(
  args: string[],
  stdin: string,
  env: Record<string, string> = {},
  { node = [] as string[], limit = 60_000 } = {},
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [...node, BIN, ...args], { env: { PATH: process.env.PATH, ...env } });
    let out = '';
    let err = '';
    const timer = setTimeout(() => p.kill('SIGKILL'), limit);
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.stdin.on('error', () => {});
    p.stdin.end(stdin);
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

async function delivered(marker: string): Promise<string> {
  const dir = join(readFileSync(join(serversDir(), 'smtp', 'maildir'), 'utf8').trim(), 'new');
  for (let i = 0; i < 100; i++) {
    for (const f of readdirSync(dir)) {
      const t = readFileSync(join(dir, f), 'latin1');
      if (t.includes(marker)) return t;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing with ${marker} arrived in ${dir} within 5 s`);
}

const mark = () => `cli-${randomBytes(6).toString('hex')}`;

test('RFC 1738 3.5: locator send delivers standard input through OpenSMTPD, exit 0', async () => {
  const m = mark();
  const body = `Hello from the CLI\n.\n..x\n${m}\n`;
  const r = await run(
    [
      'send',
      '--smtp',
      '127.0.0.1:2525',
      '--from',
      'Sender <sender@example.test>',
      '--subject',
      m,
      'mailto:tester@example.test',
    ],
    body,
  );
  assert.equal(r.code, 0, r.err);
  assert.match(
    r.out,
    /^sent to tester@example\.test via 127\.0\.0\.1:2525: 250 2\.0\.0 [0-9a-f]+ Message accepted for delivery \[queue id [0-9a-f]+\]\n$/,
  );
  const file = await delivered(`Subject: ${m}`);
  assert.equal(file.slice(file.indexOf('\n\n') + 2), body);
  assert.match(file, /\nFrom: Sender <sender@example.test>\nTo: tester@example.test\n/);
});

test('locator send --json --body-file, sender from EMAIL and relay from SMTP_RELAY', async () => {
  const m = mark();
  const dir = mkdtempSync(join(tmpdir(), 'locator-send-'));
  writeFileSync(join(dir, 'body.txt'), `from a file ${m}\n`);
  const r = await run(['send', '--json', '--body-file', join(dir, 'body.txt'), 'mailto:tester@localhost'], 'ignored', {
    EMAIL: 'env-sender@example.test',
    SMTP_RELAY: '127.0.0.1:2525',
  });
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.ok, true);
  assert.equal(j.recipient, 'tester@localhost');
  assert.equal(j.relay, '127.0.0.1:2525');
  assert.equal(j.reply.code, 250);
  assert.equal(j.error, null);
  const file = await delivered(m);
  assert.match(file, /\nFrom: env-sender@example.test\n/);
  assert.ok(file.includes(`\nMessage-ID: ${j.messageId}\n`));
  assert.ok(!file.includes('ignored'), 'standard input is not read with --body-file');
});

test('RFC 3207, RFC 4954: --smtp-ca, --smtp-user and SMTP_PASSWORD; -v shows the exchange with the secret hidden', async () => {
  const m = mark();
  const r = await run(
    [
      'send',
      '-v',
      '--smtp',
      '127.0.0.1:2526',
      '--smtp-ca',
      join(serversDir(), 'smtp', 'ca.pem'),
      '--smtp-user',
      'tester',
      '--starttls',
      'required',
      '--from',
      'sender@example.test',
      '--subject',
      m,
      'mailto:tester@example.test',
    ],
    'over TLS\n',
    { SMTP_PASSWORD: 'secret' },
  );
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /\(TLS\)/);
  assert.match(r.err, /^> STARTTLS$/m);
  assert.match(r.err, /^> AUTH PLAIN \*\*\*\*$/m);
  assert.ok(!r.err.includes('secret'), r.err);
  assert.ok(!r.err.includes(Buffer.from('\0tester\0secret').toString('base64')));
  await delivered(`Subject: ${m}`);
});

test('RFC 5321 4.2.1: a refused recipient exits 3 with the reply code; --json carries it', async () => {
  const r = await run(
    ['send', '--json', '--smtp', '127.0.0.1:2525', '--from', 'a@example.test', 'mailto:x@example.org'],
    'x',
  );
  assert.equal(r.code, 3);
  assert.match(r.err, /\[reply 550\]/);
  const j = JSON.parse(r.out);
  assert.deepEqual([j.ok, j.error.code, j.error.replyCode, j.error.transient], [false, 'smtp-reply', 550, false]);
});

test('RFC 1738 6: an encoded CR LF in the address exits 1 and nothing reaches the relay', async () => {
  const server = await countingServer();
  try {
    const port = server.port;
    const r = await run(
      [
        'send',
        '--smtp',
        `127.0.0.1:${port}`,
        '--from',
        'a@example.test',
        'mailto:x%0D%0ARCPT%20TO:%3Cv@example.org%3E@example.test',
      ],
      'x',
    );
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /policy-refused/);
    const s = await run(
      ['send', '--smtp', `127.0.0.1:${port}`, '--from', 'a@example.test\r\nX: y', 'mailto:x@example.test'],
      'x',
    );
    assert.equal(s.code, 1, s.err);
    assert.match(s.err, /smtp-line-break/);
    assert.equal(server.count(), 0);
  } finally {
    await server.close();
  }
});

// args | what stderr says                                         -- usage errors, exit 2
const USAGE: Array<[string[], RegExp]> = [
  [['send', '--smtp', '127.0.0.1:2525', 'mailto:tester@example.test'], /no sender/],
  [['send', '--from', 'a@example.test', 'mailto:tester@example.test'], /no SMTP relay/],
  [['send', '--from', 'a@example.test', 'http://example.test/'], /mailto URL/],
  [['send', '--from', 'a@example.test', '--starttls', 'maybe', 'mailto:t@example.test'], /--starttls/],
  [['send', '--from', 'a@example.test', '--smtp-user', 'u', 'mailto:t@example.test'], /SMTP_PASSWORD/],
];
for (const [args, message] of USAGE) {
  test(`usage: ${args.slice(1).join(' ')} exits 2`, async () => {
    const r = await run(args, 'x');
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, message);
  });
}

test('RFC 4954 4: a relay that echoes the AUTH line and password in 334 and 535: no form of the password in -v, --json or the message', async () => {
  assertRelayCert();
  const password = 'pa"ss-wörd-9137';
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
  const forms = [
    password,
    JSON.stringify(password).slice(1, -1),
    b64(password),
    b64(`\0tester\0${password}`),
    b64(`tester:${password}`).slice(12, 24),
  ];
  for (const mech of ['PLAIN', 'LOGIN'] as const) {
    const relay = await fakeRelay(echoing('tester', mech, 'in 334 and 535'));
    try {
      const args = ['send', '-v', '--json', '--smtp', `127.0.0.1:${relay.port}`, '--smtp-ca'];
      args.push(join(serversDir(), 'smtp', 'ca.pem'), '--smtp-user', 'tester', '--starttls', 'required');
      args.push('--from', 'a@example.test', '--body-file', '/dev/null', 'mailto:tester@example.test');
      const r = await run(args, '', { SMTP_PASSWORD: password });
      assert.equal(r.code, 3, r.err);
      const j = JSON.parse(r.out);
      assert.equal(j.error.replyCode, 535);
      assert.ok(relay.lines.some((l) => l.includes(b64(password)) || l.includes(b64(`\0tester\0${password}`))));
      assert.match(r.err, /\*\*\*\*/);
      for (const f of forms) {
        assert.ok(!r.err.includes(f), `${JSON.stringify(f)} in -v output:\n${r.err}`);
        assert.ok(!r.out.includes(f), `${JSON.stringify(f)} in --json output:\n${r.out}`);
      }
    } finally {
      await relay.close();
    }
  }
});

test('--body-file /dev/zero: refused once past the 32 MiB limit (exit 2), without reading on, memory bounded', async () => {
  const server = await countingServer();
  try {
    const port = server.port;
    const args = ['send', '--smtp', `127.0.0.1:${port}`, '--from', 'a@example.test', '--body-file', '/dev/zero'];
    // The child reports its peak resident set when it exits (a --require preload).
    const dir = mkdtempSync(join(tmpdir(), 'locator-send-'));
    const preload = join(dir, 'peak.cjs');
    writeFileSync(
      preload,
      "process.on('exit', () => require('fs').writeSync(2, `peak-rss ${process.resourceUsage().maxRSS}\\n`));\n",
    );
    const r = await run(
      [...args, 'mailto:tester@example.test'],
      '',
      {},
      { node: ['--require', preload], limit: 20_000 },
    );
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /--body-file is larger than 33554432 octets/);
    const peakKiB = Number(/peak-rss (\d+)/.exec(r.err)?.[1]);
    // Before: the whole file was read first (13.7 GB in 60 s); the limit is 32 MiB, and the
    // process needs about 60 MiB of its own: 256 MiB is a generous bound.
    assert.ok(peakKiB > 0 && peakKiB < 256 * 1024, `peak RSS ${peakKiB} KiB`);
    assert.equal(server.count(), 0);
  } finally {
    await server.close();
  }
});
