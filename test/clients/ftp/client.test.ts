// The ftp client against the real vsftpd of test/servers/ftp.sh (127.0.0.1:2121, anonymous,
// passive ports 30000-30100; test/data/docs/test-servers.md section 3). Bytes are compared with
// the server's own fixture files under $LOCATOR_TEST_SERVERS/ftp/root, and the command sequence
// vsftpd logs (log_ftp_protocol=YES) with explain(url).steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parse } from '../../helpers.js';
import { explain } from '../../../src/operations/build.js';
import { open } from '../../../src/clients/index.js';
import { LocatorError } from '../../../src/core/errors.js';
import { FtpReplyError } from '../../../src/clients/ftp/client.js';
import { FtpReplyError as RootFtpReplyError } from '../../../src/clients/index.js';
import type { OpenOptions, TranscriptLine } from '../../../src/clients/types.js';
import { drain, socketsSettle, tcpSockets } from './fakes.js';

const TS = process.env.LOCATOR_TEST_SERVERS;
if (!TS)
  throw new Error(
    'LOCATOR_TEST_SERVERS is not set: run the tests with `node scripts/test.mjs` (it starts the servers)',
  );
const ROOT = join(TS, 'ftp', 'root');
const LOG = join(TS, 'ftp', 'vsftpd.log');
const FTP = 'ftp://127.0.0.1:2121';
const OPTS: OpenOptions = { gateway: false, timeout: 10_000, email: 'locator-test@example.test' };

const fixture = (p: string) => readFileSync(join(ROOT, p));
/** What TYPE A does to a Unix file on the wire: LF becomes CR LF (RFC 959 3.1.1.1; vsftpd ascii_download_enable). */
const ascii = (b: Buffer) => Buffer.from(b.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');
/** The text as this (POSIX) system stores it: the wire's CR LF made LF again (RFC 959 3.1.1.1). */
const local = (b: Buffer) => Buffer.from(b.toString('latin1').replace(/\r\n/g, '\n'), 'latin1');

async function fetch(
  url: string,
  options: OpenOptions = {},
): Promise<{ bytes: Buffer; size: number | null; lines: TranscriptLine[] }> {
  const lines: TranscriptLine[] = [];
  const r = await open(url, { ...OPTS, transcript: (l) => lines.push(l), ...options });
  const parts: Uint8Array[] = [];
  await drain(r.body, (c) => parts.push(c));
  assert.deepEqual(r.meta.transcript, lines);
  return { bytes: Buffer.concat(parts), size: r.meta.size, lines };
}

// --- objects: text, binary, names, directories, typecodes (RFC 1738 3.2.2, 3.2.3) ---

// url path | fixture | how the bytes arrive: TYPE A text with local line ends (the default,
// RFC 959 3.1.1.1), TYPE A as it crossed the wire (ftpLineEnds: 'wire'), TYPE I as stored
const FILES: Array<[string, string, 'as-is' | 'local' | 'wire']> = [
  ['hello.txt', 'hello.txt', 'local'], // CRLF text, TYPE A guessed from .txt: LF here
  ['hello.txt', 'hello.txt', 'wire'], // ... CR LF on the wire
  ['hello.txt;type=i', 'hello.txt', 'as-is'],
  ['pub/unix.txt', 'pub/unix.txt', 'local'], // guessed TYPE A: the file as stored
  ['pub/unix.txt', 'pub/unix.txt', 'wire'], // ... LF -> CR LF on the wire
  ['pub/unix.txt;type=a', 'pub/unix.txt', 'local'],
  ['pub/unix.txt;type=a', 'pub/unix.txt', 'wire'],
  ['pub/unix.txt;type=i', 'pub/unix.txt', 'as-is'], // image: the octets as stored
  ['pub/with%20space.txt', 'pub/with space.txt', 'local'], // a name with a space
  ['pub/nested/deeper/inner.txt', 'pub/nested/deeper/inner.txt', 'local'], // one CWD per segment
  ['%2Fpub/nested/deeper/inner.txt;type=i', 'pub/nested/deeper/inner.txt', 'as-is'], // "CWD /pub"
];

for (const [path, file, how] of FILES) {
  test(`vsftpd: ${FTP}/${path} gives the bytes of ${file} (${how})`, async () => {
    const { bytes, size } = await fetch(`${FTP}/${path}`, how === 'wire' ? { ftpLineEnds: 'wire' } : {});
    const want = fixture(file);
    assert.deepEqual(bytes, how === 'wire' ? ascii(want) : how === 'local' ? local(want) : want);
    // A size is given only when it is the size of what the body delivers (TYPE I).
    assert.ok(size === null || size === bytes.length, `meta.size ${size} for ${bytes.length} octets`);
    if (how !== 'as-is') assert.equal(size, null);
  });
}

test('vsftpd: TYPE A with local line ends: the file as the server stores it (pub/unix.txt), no CR left', async () => {
  const { bytes } = await fetch(`${FTP}/pub/unix.txt`);
  assert.deepEqual(bytes, fixture('pub/unix.txt'));
  assert.ok(!bytes.includes(13));
});

test('vsftpd: maxBytes counts the octets delivered (local form): exactly the local size passes, one less fails', async () => {
  const want = local(fixture('hello.txt'));
  const { bytes } = await fetch(`${FTP}/hello.txt`, { maxBytes: want.length });
  assert.deepEqual(bytes, want);
  await assert.rejects(
    fetch(`${FTP}/hello.txt`, { maxBytes: want.length - 1 }),
    (e: unknown) => e instanceof LocatorError && e.code === 'too-large',
  );
});

test('ftpLineEnds: a value other than "local" or "wire" is a RangeError naming the option', async () => {
  await assert.rejects(
    open(`${FTP}/hello.txt`, { ...OPTS, ftpLineEnds: 'crlf' as never }),
    (e: unknown) => e instanceof RangeError && /ftpLineEnds/.test(e.message),
  );
});

test('vsftpd: the transcript shows one CWD per segment, TYPE, EPSV, RETR and hides the password', async () => {
  const { lines } = await fetch(`${FTP}/pub/nested/deeper/inner.txt`);
  const sent = lines.filter((l) => l.direction === 'send').map((l) => l.text);
  assert.deepEqual(sent, [
    'USER anonymous',
    'PASS ****',
    'CWD pub',
    'CWD nested',
    'CWD deeper',
    'TYPE A',
    'EPSV',
    'RETR inner.txt',
    'QUIT',
  ]);
  assert.ok(lines.some((l) => l.direction === 'receive' && l.text.startsWith('229 ')));
  assert.ok(lines.every((l) => !l.text.includes('locator-test@example.test')));
});

test('vsftpd: ;type=d lists the directory with NLST (RFC 1738 3.2.2)', async () => {
  const { bytes } = await fetch(`${FTP}/pub;type=d`);
  // A listing is ASCII (RFC 959 3.1.1.1, the default type): local line ends.
  const names = bytes
    .toString()
    .split('\n')
    .filter((n) => n !== '')
    .map((n) => n.replace(/^pub\//, ''));
  assert.ok(bytes.toString().endsWith('\n'));
  assert.ok(!bytes.includes(13));
  assert.deepEqual(names.sort(), readdirSync(join(ROOT, 'pub')).sort());
});

test('vsftpd: a URL ending in "/" lists the directory (NLST after CWD)', async () => {
  const { bytes, lines } = await fetch(`${FTP}/pub/`);
  assert.deepEqual(
    bytes
      .toString()
      .split('\n')
      .filter((n) => n !== '')
      .sort(),
    readdirSync(join(ROOT, 'pub')).sort(),
  );
  assert.ok(lines.some((l) => l.direction === 'send' && l.text === 'NLST'));
});

test('vsftpd: ;type=d on a directory URL, and no path at all, list the start directory', async () => {
  const top = readdirSync(ROOT).sort();
  for (const url of [`${FTP}/;type=d`, FTP, `${FTP}/`]) {
    const { bytes } = await fetch(url);
    assert.deepEqual(
      bytes
        .toString()
        .split('\n')
        .filter((n) => n !== '')
        .sort(),
      top,
      url,
    );
  }
});

test('vsftpd: a missing file is ftp-reply 550, nothing left open', async () => {
  const base = tcpSockets();
  await assert.rejects(open(`${FTP}/pub/missing.txt`, OPTS), (e: unknown) => {
    assert.ok(e instanceof FtpReplyError && e instanceof LocatorError && e instanceof RootFtpReplyError);
    assert.equal(e.code, 'ftp-reply');
    assert.equal(e.replyCode, 550);
    assert.equal(e.replyText, 'Failed to open file.');
    assert.equal(e.command, 'RETR missing.txt');
    return true;
  });
  assert.ok((await socketsSettle(base)) <= base, 'no TCP socket left open');
});

test('vsftpd: a missing directory is ftp-reply 550 on its CWD', async () => {
  await assert.rejects(
    open(`${FTP}/nodir/x.txt`, OPTS),
    (e: unknown) => e instanceof FtpReplyError && e.replyCode === 550 && e.command === 'CWD nodir',
  );
});

test('vsftpd: an empty segment sends "CWD " (RFC 1738 3.2.2), which vsftpd refuses with 550', async () => {
  await assert.rejects(
    open(`${FTP}//hello.txt`, OPTS),
    (e: unknown) => e instanceof FtpReplyError && e.replyCode === 550 && e.command === 'CWD ',
  );
});

// --- the 50 MB file: streamed, bounded memory, SHA-256 (issue 7) ---

/**
 * A gc() for the memory test: without it, V8 collects the octets already handed over only when
 * its external-memory heuristics say so (about 17 MiB of garbage here), so RSS would measure the
 * collector, not the client. Collecting every 8 MiB leaves what the client holds on to.
 */
function gcFunction(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

test('vsftpd: pub/big.bin (50 MB) streamed with bounded memory, SHA-256 and size match', async () => {
  const gc = gcFunction();
  gc();
  const want = readFileSync(join(TS, 'ftp', 'big.sha256'), 'utf8').trim();
  const length = statSync(join(ROOT, 'pub', 'big.bin')).size;
  const base = tcpSockets();
  const rss0 = process.memoryUsage.rss();
  let peak = rss0;
  let n = 0;
  const hash = createHash('sha256');
  const r = await open(`${FTP}/pub/big.bin`, OPTS);
  assert.equal(r.meta.size, length, 'meta.size from the 150 reply');
  await drain(r.body, (c) => {
    hash.update(c);
    n += c.length;
    if ((n & 0xfffff) < c.length) peak = Math.max(peak, process.memoryUsage.rss());
    if ((n & 0x7fffff) < c.length) gc();
  });
  peak = Math.max(peak, process.memoryUsage.rss());
  assert.equal(n, length);
  assert.equal(hash.digest('hex'), want);
  const growth = (peak - rss0) / 2 ** 20;
  assert.ok(growth < 30, `RSS grew by ${growth.toFixed(1)} MiB while reading ${(length / 2 ** 20).toFixed(0)} MiB`);
  assert.ok((await socketsSettle(base)) <= base, 'no TCP socket left open');
});

// --- what the server saw = explain(url).steps (issue 7) ---

/** One logged line: `[pid N] [user] FTP command: Client "127.0.0.1", "RETR x"`. */
interface LogLine {
  pid: number;
  kind: string;
  text: string;
}

function readLog(from: number): LogLine[] {
  const out: LogLine[] = [];
  for (const line of readFileSync(LOG).subarray(from).toString('latin1').split('\n')) {
    const m = /\[pid (\d+)\](?: \[[^\]]*\])? ([A-Z][A-Za-z ]*?): Client "[^"]*", (.*)$/.exec(line);
    if (m) out.push({ pid: Number(m[1]), kind: m[2], text: m[3] });
  }
  return out;
}

const unquote = (s: string) => s.slice(1, -1);

/**
 * The commands of the session that logged in with `password` and used the passive `port`:
 * vsftpd logs the login exchange from one process and the rest from another, so the pre-login
 * part is the USER/PASS of the process whose PASS precedes the privileged parent's
 * "OK LOGIN ... anon password", and the post-login part that of the process that answered EPSV
 * with the port the client was given.
 */
function sessionCommands(log: LogLine[], password: string, port: number): string[] {
  const ok = log.findIndex((l) => l.kind === 'OK LOGIN' && l.text.endsWith(`anon password "${password}"`));
  assert.ok(ok >= 0, `vsftpd logged the login with ${password}`);
  let pass = ok - 1;
  while (pass >= 0 && !(log[pass].kind === 'FTP command' && log[pass].text === '"PASS <password>"')) pass--;
  assert.ok(pass >= 0);
  const pre = log[pass].pid;
  const epsv = log.find((l) => l.kind === 'FTP response' && l.text.includes(`(|||${port}|)`));
  assert.ok(epsv, `vsftpd logged the EPSV reply with port ${port}`);
  const commands = (pid: number, from: number, to: number) =>
    log
      .slice(from, to)
      .filter((l) => l.pid === pid && l.kind === 'FTP command')
      .map((l) => unquote(l.text));
  return [...commands(pre, 0, pass + 1), ...commands(epsv.pid, ok, log.length)];
}

const LOGGED: string[] = [
  `${FTP}/hello.txt`,
  `${FTP}/pub/nested/deeper/inner.txt`,
  `${FTP}/pub/with%20space.txt`,
  `${FTP}/pub/unix.txt;type=a`,
  `${FTP}/hello.txt;type=i`,
  `${FTP}/%2Fpub/unix.txt`,
  `${FTP}/pub;type=d`,
  `${FTP}/pub/;type=d`,
  `${FTP}/pub/nested/`,
  FTP,
  `ftp://anonymous@127.0.0.1:2121/pub/unix.txt`,
  `ftp://anonymous:PASSWORD@127.0.0.1:2121/pub/nested/deeper/inner.txt;type=i`,
];

test('vsftpd: the commands vsftpd logs for each URL are explain(url).steps', async () => {
  for (const [i, template] of LOGGED.entries()) {
    const password = `locator-${process.pid}-${i}@example.test`;
    const url = template.replace('PASSWORD', encodeURIComponent(password));
    const from = statSync(LOG).size;
    const { lines } = await fetch(url, { email: password });
    const port = Number(/\(\|\|\|(\d+)\|\)/.exec(lines.find((l) => l.text.startsWith('229 '))!.text)![1]);
    let seen: string[] = [];
    for (let tries = 0; tries < 50; tries++) {
      // vsftpd writes its log as it goes; allow it a moment
      const log = readLog(from);
      if (log.some((l) => l.text === '"QUIT"' && l.pid !== 0) && log.some((l) => l.kind === 'OK LOGIN')) {
        seen = sessionCommands(log, password, port);
        if (seen.at(-1) === 'QUIT') break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // vsftpd logs PASS as "PASS <password>" whatever was sent; explain shows a placeholder.
    const steps = explain(parse(url)).steps.map((s) => (s.startsWith('PASS ') ? 'PASS <password>' : s));
    assert.deepEqual(seen, steps, url);
  }
});
