// Soft errors of Gopher documents (src/check/gopher-soft.ts): against the real gophernicus of the
// test servers (test/servers/gophernicus.sh, 127.0.0.1:7071), which answers a missing text with a
// plain-text page, seen through a recording proxy that counts the requests; in-process servers
// only for shapes no test server sends (fault injection): a server that answers everything with
// the same page, one that echoes the selector in its error, an error item followed by info lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createConnection, createServer, type AddressInfo, type Server } from 'node:net';
import { check, type CheckOptions, type CheckResult, type PolitenessReport } from '../../src/check/index.js';
import { NO_SUCH_SELECTOR, looksLikeError, normalise } from '../../src/check/gopher-soft.js';
import { runCli } from '../helpers.js';

const GOPHERNICUS = { host: '127.0.0.1', port: 7071 };

async function all(urls: string[], options: CheckOptions = {}): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  for await (const r of check(urls, { timeout: 10_000, retries: 0, ...options })) out.push(r);
  return out;
}

interface Recorder {
  port: number;
  /** The selectors asked, in the order they came (the request line without CR LF). */
  selectors: string[];
  close: () => Promise<void>;
}

/**
 * A Gopher server on a free loopback port: `answer(selector)` gives the reply (the connection is
 * then closed), or, with no `answer`, a proxy to gophernicus. Each request's selector is recorded.
 */
async function gopherServer(answer?: (selector: string) => string): Promise<Recorder> {
  const selectors: string[] = [];
  const server: Server = createServer((sock) => {
    let buf = '';
    let upstream: ReturnType<typeof createConnection> | null = null;
    sock.on('error', () => {});
    sock.on('data', (d) => {
      if (upstream !== null) return void upstream.write(d);
      buf += d.toString('latin1');
      const lf = buf.indexOf('\n');
      if (lf < 0) return;
      selectors.push(buf.slice(0, lf).replace(/\r$/, '').split('\t')[0]);
      if (answer !== undefined) return void sock.end(Buffer.from(answer(selectors[selectors.length - 1]), 'latin1'));
      upstream = createConnection(GOPHERNICUS, () => upstream!.write(buf));
      upstream.on('error', () => sock.destroy());
      upstream.pipe(sock);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    selectors,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const baselines = (s: Recorder) => s.selectors.filter((x) => x.includes(NO_SUCH_SELECTOR));

test('gophernicus: a missing text is broken (its answer equals the answer to a selector that cannot exist), an existing one ok; one baseline request', async () => {
  const proxy = await gopherServer();
  try {
    const g = `gopher://127.0.0.1:${proxy.port}`;
    let report: PolitenessReport | null = null;
    const rs = await all(
      [
        `${g}/0/hello.txt`,
        `${g}/0/no-such.txt`,
        `${g}/0/files/missing`,
        `${g}/0/files/with%20space.txt`,
        `${g}/1/files`,
      ],
      { perHost: 2, onPoliteness: (p) => (report = p) },
    );
    assert.deepEqual(
      rs.map((r) => `${r.status} ${r.code ?? ''}`),
      ['ok ', 'broken gopher-soft-error', 'broken gopher-soft-error', 'ok ', 'ok '],
    );
    assert.match(
      rs[1].reason,
      /^the server's answer equals its answer to a selector that cannot exist \(\/locator-no-such-selector-[0-9a-f]{16}\): a soft error, its first line "Error: File or directory not found!/,
    );
    // Asked once for the server, though four documents needed it, two at once.
    assert.equal(baselines(proxy).length, 1, proxy.selectors.join(' | '));
    assert.match(baselines(proxy)[0], /^\/locator-no-such-selector-[0-9a-f]{16}$/);
    // In a turn of the server, as every request: counted by the politeness engine (5 probes and it).
    assert.equal((report as PolitenessReport | null)?.servers[0].requests, 6);
    // Off: the missing text is taken for the text again, and nothing more is asked.
    proxy.selectors.length = 0;
    const off = await all([`${g}/0/no-such.txt`], { gopherSoftErrors: false });
    assert.equal(off[0].status, 'ok');
    assert.deepEqual(proxy.selectors, ['/no-such.txt']);
  } finally {
    await proxy.close();
  }
});

test('gophernicus: no baseline is asked before a document needs one (menus only)', async () => {
  const proxy = await gopherServer();
  try {
    await all([`gopher://127.0.0.1:${proxy.port}/1/files`, `gopher://127.0.0.1:${proxy.port}/1/`]);
    assert.deepEqual(baselines(proxy), []);
  } finally {
    await proxy.close();
  }
});

test('a server that answers every selector with the same page (a hole of one page) has none of its documents flagged', async () => {
  const s = await gopherServer(() => 'Welcome to my little hole.\r\nNothing else here yet.\r\n.\r\n');
  try {
    const g = `gopher://127.0.0.1:${s.port}`;
    const rs = await all([`${g}/0/a.txt`, `${g}/0/b.txt`, `${g}/h/c.html`]);
    assert.deepEqual(
      rs.map((r) => r.status),
      ['ok', 'ok', 'ok'],
    );
    // The baseline was asked (once) and refused as no error page.
    assert.equal(baselines(s).length, 1);
  } finally {
    await s.close();
  }
});

test('a server that echoes the selector in its error page: flagged all the same (the selector removed before comparing)', async () => {
  const s = await gopherServer((sel) =>
    sel === '/there.txt' ? 'a real text\r\n' : `Sorry, the file '${sel}' does not exist on this server.\r\n.\r\n`,
  );
  try {
    const g = `gopher://127.0.0.1:${s.port}`;
    const rs = await all([`${g}/0/there.txt`, `${g}/0/a/much/longer/missing/selector.txt`, `${g}/9/x.bin`]);
    assert.deepEqual(
      rs.map((r) => `${r.status} ${r.code ?? ''}`),
      ['ok ', 'broken gopher-soft-error', 'broken gopher-soft-error'],
    );
    assert.match(rs[1].reason, /its first line "Sorry, the file '' does not exist on this server\."/);
  } finally {
    await s.close();
  }
});

test('a text answered with an error item followed by info lines is an error, as Lynx shows it (no baseline needed)', async () => {
  const s = await gopherServer(
    () => '3Error: File or directory not found!\tTITLE\tnull.host\t1\r\ni____\t\tnull.host\t1\r\n.\r\n',
  );
  try {
    const rs = await all([`gopher://127.0.0.1:${s.port}/0/x.txt`], { gopherSoftErrors: false });
    assert.equal(rs[0].status, 'broken');
    assert.equal(rs[0].code, 'gopher-error');
    assert.match(
      rs[0].reason,
      /^Error: File or directory not found! \(the answer is an error item, type 3, followed by info lines only/,
    );
  } finally {
    await s.close();
  }
});

test('--recursive: the baseline obeys the server robots.txt (a Disallow of it: no baseline, nothing flagged)', async () => {
  const s = await gopherServer((sel) => {
    if (sel === 'robots.txt') return 'User-agent: *\r\nDisallow: /locator-no-such\r\n';
    if (sel === '' || sel === '/') return `0Missing\t/gone.txt\t127.0.0.1\t${port}\r\n.\r\n`;
    return 'Error: not found\r\n';
  });
  const port = s.port;
  try {
    const rs = await all([`gopher://127.0.0.1:${port}/1/`], { recursive: true });
    assert.deepEqual(
      rs.map((r) => `${r.depth} ${r.status}`),
      ['0 ok', '1 ok'],
    );
    assert.deepEqual(baselines(s), []);
    assert.ok(s.selectors.includes('robots.txt'), s.selectors.join(' | '));
  } finally {
    await s.close();
  }
});

test('normalise() and looksLikeError(): line ends, the "." line, an echoed selector; short error wording only', () => {
  const b = (t: string) => new TextEncoder().encode(t);
  assert.equal(normalise(b('Error: /x/y not found \r\n.\r\n'), '/x/y'), 'Error:  not found');
  assert.equal(normalise(b("'x/y' missing\n"), '/x/y'), "'' missing");
  assert.equal(normalise(b('.\r\n'), '/a'), '');
  // Blanks at the ends of lines go, blanks inside a line stay; a long run of them followed by
  // text is kept whole (and read in one pass).
  assert.equal(normalise(b('a \t\r\nb  c\t \nd'), '/zz'), 'a\nb  c\nd');
  assert.equal(normalise(b(`${' '.repeat(3000)}x\n`), '/zz'), 'x');
  assert.equal(normalise(b(`x${' \t'.repeat(1500)}y \n`), '/zz'), `x${' \t'.repeat(1500)}y`);
  assert.equal(looksLikeError('Error: File or directory not found! (null)\n____'), true);
  assert.equal(looksLikeError("'' does not exist (no handler found)"), true);
  assert.equal(looksLikeError('Welcome to my hole'), false);
  assert.equal(looksLikeError(`Error: ${'x'.repeat(1100)}`), false);
  assert.equal(looksLikeError(''), false);
});

test('the CLI: --no-gopher-soft-errors, in --help', async () => {
  const help = await runCli(['check', '--help']);
  assert.match(help.out, /--no-gopher-soft-errors/);
  const on = await runCli(['check', 'gopher://127.0.0.1:7071/0/no-such.txt']);
  assert.equal(on.code, 1, on.out + on.err);
  assert.match(on.out, /^broken gopher:\/\/127\.0\.0\.1:7071\/0\/no-such\.txt \(the server's answer equals/m);
  const off = await runCli(['check', '--no-gopher-soft-errors', 'gopher://127.0.0.1:7071/0/no-such.txt']);
  assert.equal(off.code, 0, off.out + off.err);
});

test('the bounds held exactly: a document of 4,096 octets is sampled whole, of 4,097 not; a baseline of 1,024 octets can be an error page, of 1,025 not', async () => {
  const { probe } = await import('../../src/clients/index.js');
  const { answering } = await import('../clients/gopher/fakes.js');
  for (const [octets, sampled] of [
    [4096, true],
    [4097, false],
  ] as const) {
    const f = await answering(Buffer.alloc(octets, 0x61));
    try {
      const r = await probe(`gopher://127.0.0.1:${f.port}/0/doc`, { gateway: false, timeout: 3000 });
      assert.ok(!('redirect' in r) && r.status === 'ok', JSON.stringify(r));
      assert.equal(r.sample !== undefined, sampled, `${octets} octets`);
      if (sampled) assert.equal(r.sample!.bytes.length, octets);
    } finally {
      await f.close();
    }
  }
  const page = (n: number) => `Error: ${'x'.repeat(n - 7)}`;
  assert.equal(looksLikeError(page(1024)), true);
  assert.equal(looksLikeError(page(1025)), false);
});
