// `locator check --cache FILE`, `--max-cache-age` and `--accept` against the real servers (nginx
// 8080, vsftpd 2121): a second run takes the fresh ok verdicts from the file and probes the broken
// one again; a stale file is probed whole; a corrupt file is reported and ignored, then replaced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  readdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROOT, serversDir } from '../helpers.js';

serversDir();
const BIN = join(ROOT, 'dist', 'cli', 'main.js');
const DIR = mkdtempSync(join(tmpdir(), 'locator-check-cache-'));
test.after(() => rmSync(DIR, { recursive: true, force: true }));

/** `locator check ARGS`; `started` is called with the child's pid as soon as it is spawned. */
function run(
  args: string[],
  cwd = DIR,
  started: (pid: number) => void = () => {},
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [BIN, 'check', ...args], {
      cwd,
      env: { PATH: process.env.PATH, HOME: '/nonexistent' },
    });
    started(p.pid!);
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.stdin.end('');
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

const URLS = [
  'http://127.0.0.1:8080/hello.txt',
  'ftp://127.0.0.1:2121/hello.txt',
  'http://127.0.0.1:8080/missing.html',
];
const reasons = (out: string) =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { url: string; status: string; reason: string; notes: string[] });

test('--cache: the second run takes the fresh ok verdicts from the file, probes the broken one again; a stale one is probed', async () => {
  const cache = join(DIR, 'verdicts.json');
  const first = reasons((await run(['--json', '--cache', cache, ...URLS])).out);
  assert.ok(first.every((r) => !/from the cache/.test(r.reason)));
  const saved = JSON.parse(readFileSync(cache, 'utf8')) as { version: number; entries: Record<string, unknown> };
  assert.equal(Object.keys(saved.entries).length, 2, 'only the ok verdicts are kept');
  assert.deepEqual(
    readdirSync(DIR).filter((n) => n.endsWith('.tmp')),
    [],
    'no temporary file left',
  );
  const second = reasons((await run(['--json', '--cache', cache, ...URLS])).out);
  assert.deepEqual(
    second.map((r) => [r.status, /from the cache/.test(r.reason)]),
    [
      ['ok', true],
      ['ok', true],
      ['broken', false],
    ],
  );
  await new Promise((r) => setTimeout(r, 1100));
  const stale = reasons((await run(['--json', '--cache', cache, '--max-cache-age', '1s', ...URLS])).out);
  assert.ok(
    stale.every((r) => !/from the cache/.test(r.reason)),
    JSON.stringify(stale),
  );
});

test('--cache: a corrupt file is reported on standard error and ignored, then replaced by a whole one', async () => {
  const cache = join(DIR, 'corrupt.json');
  writeFileSync(cache, '{"version":1,"entries":{"x":{"status":"ok"');
  const r = await run(['--json', '--cache', cache, URLS[0]]);
  assert.equal(r.code, 0);
  assert.match(r.err, /--cache .*corrupt\.json ignored: not JSON/);
  assert.ok(!/from the cache/.test(reasons(r.out)[0].reason));
  assert.equal(JSON.parse(readFileSync(cache, 'utf8')).version, 1);
  const bad = await run(['--max-cache-age', '1w', URLS[0]]);
  assert.equal(bad.code, 2);
});

test('--accept http:404 makes the missing page ok, with a note; ftp codes are not touched by it', async () => {
  const r = await run(['--json', '--accept', 'http:404', URLS[2], 'ftp://127.0.0.1:2121/pub/missing.txt']);
  const rows = reasons(r.out);
  assert.equal(rows[0].status, 'ok');
  assert.deepEqual(rows[0].notes, ['reply 404 accepted (--accept)']);
  assert.equal(rows[1].status, 'broken');
  assert.equal(r.code, 1);
  assert.equal((await run(['--accept', 'http', URLS[0]])).code, 2);
});

test('locator-check.json: options from the file, the command line wins; an unknown key or a bad value is a usage error', async () => {
  const sub = join(DIR, 'configured');
  mkdirSync(sub);
  writeFileSync(join(sub, 'locator-check.json'), JSON.stringify({ accept: ['http:404'], json: true, timeout: 5000 }));
  const fromFile = await run([URLS[2]], sub);
  assert.equal(fromFile.code, 0, fromFile.err);
  assert.equal(reasons(fromFile.out)[0].status, 'ok', 'accept and json from the file');
  const cli = await run(['--accept', 'http:500', URLS[2]], sub);
  assert.equal(cli.code, 1);
  assert.equal(reasons(cli.out)[0].status, 'broken', 'the command line replaces the file');
  writeFileSync(join(sub, 'other.json'), JSON.stringify({ exclude: 'hello', recursive: 'yes' }));
  const bad = await run(['--config', 'other.json', URLS[0]], sub);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /"recursive" takes true or false/);
  writeFileSync(join(sub, 'unknown.json'), JSON.stringify({ 'no-such': 1 }));
  assert.equal((await run(['--config', 'unknown.json', URLS[0]], sub)).code, 2);
  assert.equal((await run(['--config', 'missing.json', URLS[0]], sub)).code, 2);
});

test('--cache: a symbolic link planted at a temporary name is never followed; the write lands in FILE alone', async () => {
  const sub = mkdtempSync(join(DIR, 'planted-'));
  const cache = join(sub, 'verdicts.json');
  const victim = join(sub, 'victim.txt');
  writeFileSync(victim, 'precious\n');
  // Planted before the child runs any code, at the name older versions wrote to (FILE.<pid>.tmp).
  const r = await run(['--json', '--cache', cache, URLS[0]], sub, (pid) => symlinkSync(victim, `${cache}.${pid}.tmp`));
  assert.equal(r.code, 0, r.err);
  assert.equal(readFileSync(victim, 'utf8'), 'precious\n', 'the planted link was followed');
  assert.ok(lstatSync(cache).isFile(), 'FILE is a file of its own');
  assert.equal(JSON.parse(readFileSync(cache, 'utf8')).version, 1);
  const planted = readdirSync(sub).filter((n) => n.endsWith('.tmp'));
  assert.equal(planted.length, 1, planted.join());
  assert.equal(readlinkSync(join(sub, planted[0])), victim, 'the planted link is left as it was');
});

test('--cache interrupted (SIGINT, SIGTERM) while a probe waits on a server that never answers: the verdicts so far written whole, no temporary file left, exit 130 / 143', async () => {
  // An in-process HTTP server: /ok answers, /stall is read and never answered.
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(req.url ?? '');
    if (req.url === '/ok') res.end('ok\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const) {
      const sub = mkdtempSync(join(DIR, 'interrupted-'));
      const tmp = mkdtempSync(join(tmpdir(), 'locator-check-tmp-'));
      try {
        const cache = join(sub, 'verdicts.json');
        const args = ['check', '--json', '--cache', cache, '--html', 'report.html', '--junit', 'report.xml'];
        const p = spawn(process.execPath, [BIN, ...args, `${origin}/ok`, `${origin}/stall`], {
          cwd: sub,
          env: { PATH: process.env.PATH, HOME: '/nonexistent', TMPDIR: tmp },
        });
        let out = '';
        let err = '';
        p.stdout.on('data', (d) => (out += d));
        p.stderr.on('data', (d) => (err += d));
        const ended = new Promise<number | null>((r) => p.on('close', (c) => r(c)));
        // Signalled once /ok is reported and /stall is waiting on the server.
        asked.length = 0;
        await new Promise<void>((resolve) => {
          const look = setInterval(() => {
            if (out.includes('/ok"') && asked.includes('/stall')) {
              clearInterval(look);
              resolve();
            }
          }, 20);
        });
        p.kill(signal);
        assert.equal(await ended, code, `${signal}: ${err}`);
        assert.match(err, new RegExp(`interrupted \\(${signal}\\); the verdicts so far kept in --cache`));
        const saved = JSON.parse(readFileSync(cache, 'utf8')) as { version: number; entries: Record<string, unknown> };
        assert.equal(saved.version, 1);
        assert.deepEqual(Object.keys(saved.entries), [`${origin}/ok`], signal);
        assert.deepEqual(readdirSync(sub), ['verdicts.json'], `${signal}: no temporary file, no half report`);
        assert.deepEqual(readdirSync(tmp), [], `${signal}: no temporary folder of the reports`);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
