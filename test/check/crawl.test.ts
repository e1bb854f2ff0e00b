// check --recursive as a crawl (src/crawl/, src/check/crawl.ts): through HTML and Markdown pages
// of the test nginx (test/servers/http.sh, /site/) with its robots.txt, to the FTP and Gopher
// servers; the rates a server sees, recorded by an in-process server (arrival times), with
// Crawl-delay, Retry-After and --delay; the CLI's options and report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { check, type CheckOptions, type CheckResult, type PolitenessReport } from '../../src/check/index.js';
import { runCli } from '../helpers.js';

const TS = process.env.LOCATOR_TEST_SERVERS ?? '';
const SITE = 'http://127.0.0.1:8080/site/';

async function all(urls: string[], options: CheckOptions): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  for await (const r of check(urls, options)) out.push(r);
  return out;
}

const byUrl = (rs: CheckResult[]) =>
  Object.fromEntries(rs.map((r) => [r.url.replace(SITE, ''), `${r.depth} ${r.status}`]));

test('a site of HTML and Markdown pages is crawled through its links, robots.txt honoured, verbatim text left out', async () => {
  const logBefore = readFileSync(join(TS, 'http', 'access.log'), 'utf8').length;
  let report: PolitenessReport | null = null;
  const rs = await all([`${SITE}index.html`], {
    recursive: true,
    maxDepth: 5,
    timeout: 10_000,
    retries: 0,
    onPoliteness: (p) => (report = p),
  });
  assert.deepEqual(byUrl(rs), {
    'index.html': '0 ok',
    'page1.html': '1 ok',
    'page2.md': '1 ok',
    'missing.html': '1 broken',
    'private/secret.html': '1 refused',
    'ftp://127.0.0.1:2121/pub/unix.txt': '1 ok',
    'gopher://127.0.0.1:7070/0/hello.txt': '1 ok',
    // found on page1 and page2: one URL, reported once, depth 2
    'sub/deep.html': '2 ok',
  });
  const secret = rs.find((r) => r.url.endsWith('private/secret.html'))!;
  assert.equal(secret.code, 'robots-disallowed');
  assert.equal(
    secret.reason,
    "not fetched: the server's robots.txt disallows it (Disallow: /site/private/, RFC 9309 2.2.2)",
  );
  assert.equal(rs.find((r) => r.url.endsWith('sub/deep.html'))!.parent?.startsWith(SITE), true);
  // What nginx saw: robots.txt once, nothing under /site/private/, no verbatim link.
  const log = readFileSync(join(TS, 'http', 'access.log'), 'utf8').slice(logBefore);
  assert.equal(log.match(/GET \/robots\.txt /g)?.length, 1, log);
  assert.ok(!log.includes('/site/private/'), log);
  assert.ok(!log.includes('verbatim-missing') && !log.includes('code-missing'), log);
  const p = report as PolitenessReport | null;
  assert.ok(p !== null);
  const robots = p.robots.find((r) => r.server === '127.0.0.1:8080')!;
  assert.deepEqual([robots.status, robots.rules, robots.disallowed], ['found', 1, 1]);
  assert.equal(p.robotsIgnored, false);
  // The Gopher server's robots.txt selector is asked too (pygopherd has none: an error item).
  assert.equal(p.robots.find((r) => r.server === '127.0.0.1:7070')?.status, 'unavailable');
});

test('--include-verbatim and --ignore-robots: the verbatim links are checked, the disallowed page fetched', async () => {
  const rs = await all([`${SITE}index.html`], {
    recursive: true,
    maxDepth: 5,
    timeout: 10_000,
    retries: 0,
    includeVerbatim: true,
    ignoreRobots: true,
  });
  const got = byUrl(rs);
  assert.equal(got['private/secret.html'], '1 ok');
  assert.equal(got['verbatim-missing.html'], '1 broken');
  assert.equal(got['code-missing.html'], '2 broken');
});

test('--scope prefix: links outside the folder of the URL given are checked, not followed', async () => {
  const rs = await all([`${SITE}sub/deep.html`], { recursive: true, maxDepth: 5, timeout: 10_000, scope: 'prefix' });
  assert.deepEqual(byUrl(rs), { 'sub/deep.html': '0 ok', 'page1.html': '1 ok' });
  const server = await all([`${SITE}sub/deep.html`], { recursive: true, maxDepth: 5, timeout: 10_000 });
  assert.ok(byUrl(server)['index.html'] !== undefined, 'scope server follows page1 and reaches the index');
});

/** An HTTP server that records when each request arrives; `answer` decides each reply. */
async function recording(
  answer: (path: string, n: number) => { status: number; body: string | Uint8Array; headers?: Record<string, string> },
): Promise<{ url: string; times: { path: string; at: number }[]; agents: string[]; close: () => Promise<void> }> {
  const times: { path: string; at: number }[] = [];
  const agents: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    times.push({ path, at: performance.now() });
    agents.push(req.headers['user-agent'] ?? '');
    const a = answer(path, times.filter((t) => t.path === path).length);
    res.writeHead(a.status, { 'content-type': 'text/html', ...(a.headers ?? {}) });
    res.end(a.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    times,
    agents,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const page = (links: string[]) =>
  `<!DOCTYPE html><html><body>${links.map((l) => `<a href="${l}">x</a>`).join(' ')}</body></html>`;

test('politeness: --delay 200 --per-host 1 spaces every request to a server by 200 ms; a Disallow is never fetched', async () => {
  const s = await recording((path) => {
    if (path === '/robots.txt') return { status: 200, body: 'User-agent: *\nDisallow: /no\n' };
    if (path === '/') return { status: 200, body: page(['/a', '/b', '/c', '/d', '/no/x']) };
    return { status: 200, body: page([]) };
  });
  try {
    const rs = await all([`${s.url}/`], { recursive: true, delay: 200, perHost: 1, concurrency: 8, timeout: 10_000 });
    assert.equal(rs.length, 6);
    assert.ok(!s.times.some((t) => t.path.startsWith('/no')));
    const at = s.times.map((t) => t.at);
    for (let i = 1; i < at.length; i++)
      assert.ok(at[i] - at[i - 1] >= 199, `requests ${i - 1} and ${i} ${(at[i] - at[i - 1]).toFixed(1)} ms apart`);
  } finally {
    await s.close();
  }
});

test('politeness: Crawl-delay raises the delay for its server; a 429 with Retry-After holds every request to it that long', async () => {
  const s = await recording((path, n) => {
    if (path === '/robots.txt') return { status: 200, body: 'User-agent: *\nCrawl-delay: 0.3\n' };
    if (path === '/') return { status: 200, body: page(['/a', '/busy', '/b', '/c']) };
    if (path === '/busy' && n === 1) return { status: 429, body: 'slow down', headers: { 'retry-after': '1' } };
    return { status: 200, body: page([]) };
  });
  try {
    let report: PolitenessReport | null = null;
    const rs = await all([`${s.url}/`], {
      recursive: true,
      perHost: 1,
      retries: 1,
      timeout: 10_000,
      onPoliteness: (p) => (report = p),
    });
    assert.equal(rs.find((r) => r.url.endsWith('/busy'))?.status, 'ok');
    // Requests after robots.txt was read are 300 ms apart at least (the seed's own request came before it).
    const after = s.times.slice(s.times.findIndex((t) => t.path === '/robots.txt'));
    for (let i = 1; i < after.length; i++)
      assert.ok(
        after[i].at - after[i - 1].at >= 299,
        `${after[i - 1].path} -> ${after[i].path}: ${(after[i].at - after[i - 1].at).toFixed(1)} ms`,
      );
    // Nothing reached the server within the second it asked for after the 429.
    const busy = s.times.find((t) => t.path === '/busy')!;
    const next = s.times.find((t) => t.at > busy.at)!;
    assert.ok(next.at - busy.at >= 999, `the next request came ${(next.at - busy.at).toFixed(1)} ms after the 429`);
    const server = (report as PolitenessReport | null)!.servers.find((x) => s.url.endsWith(x.server))!;
    assert.equal(server.retryAfterWaits, 1);
    assert.equal(server.crawlDelay, 300);
  } finally {
    await s.close();
  }
});

test('the CLI: --scope, --state, --rate, --max-wait, --user-agent and --contact are checked; the report names what politeness did', async () => {
  for (const [args, message] of [
    [['--scope', 'planet'], /--scope takes server, host, domain, prefix, not "planet"/],
    [['--rate', '0'], /--rate takes a number of requests a second above 0/],
    [['--contact', 'not a url'], /--contact takes a URL/],
    [['--user-agent', 'a\u0007b'], /--user-agent takes printable US-ASCII text/],
  ] as const) {
    const r = await runCli(['check', ...args, 'http://127.0.0.1:8080/']);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, message);
  }
  const s = await recording((path) =>
    path === '/robots.txt' ? { status: 404, body: '' } : { status: 200, body: page(path === '/' ? ['/a'] : []) },
  );
  try {
    const r = await runCli([
      'check',
      '--recursive',
      '--user-agent',
      'archivist/1.0',
      '--contact',
      'mailto:keeper@example.org',
      `${s.url}/`,
    ]);
    assert.equal(r.code, 0, r.err);
    // A page robots.txt disallows is reported refused, and the run still exits 0.
    const r2 = await recording((path) =>
      path === '/robots.txt'
        ? { status: 200, body: 'User-agent: *\nDisallow: /no\n' }
        : { status: 200, body: page(path === '/' ? ['/a', '/no/x'] : []) },
    );
    try {
      const site = await runCli(['check', '--recursive', `${r2.url}/`]);
      assert.match(site.out, /^refused .*\/no\/x \(not fetched: the server's robots\.txt disallows it/m);
      assert.equal(site.code, 0, site.out + site.err);
    } finally {
      await r2.close();
    }
    // The seed's HEAD, robots.txt, the page read for its links... counted per server.
    assert.match(r.err, /locator check: 127\.0\.0\.1:\d+ \d+ requests, no robots\.txt/);
    assert.ok(
      s.agents.length > 0 && s.agents.every((a) => a === 'archivist/1.0 (+mailto:keeper@example.org)'),
      s.agents.join(' | '),
    );
    const json = await runCli(['check', '--recursive', '--json', `${s.url}/`]);
    const last = JSON.parse(json.err.trim().split('\n').pop()!);
    assert.equal(last.politeness.robots[0].status, 'unavailable');
  } finally {
    await s.close();
  }
});

test('politeness: an FTP 421 ("too many users", RFC 959 4.2) is a busy server: probe() says so, check pauses the server and tries again', async () => {
  const { createServer: tcp } = await import('node:net');
  const arrivals: number[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = tcp((socket) => {
    sockets.add(socket);
    arrivals.push(performance.now());
    socket.on('error', () => {});
    socket.end('421 Too many users, try later.\r\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  try {
    const { probe } = await import('../../src/clients/index.js');
    const r = await probe(`ftp://127.0.0.1:${port}/pub/x.txt`, { timeout: 5000 });
    assert.equal(r.busy, true, r.reason);
    assert.equal(r.reply, '421');
    arrivals.length = 0;
    let report: PolitenessReport | null = null;
    const rs = await all([`ftp://127.0.0.1:${port}/pub/x.txt`], {
      retries: 2,
      retryDelay: 200,
      timeout: 5000,
      onPoliteness: (p) => (report = p),
    });
    assert.equal(rs[0].status, 'broken');
    assert.equal(rs[0].attempts, 3);
    assert.equal(arrivals.length, 3);
    // Backoff with jitter in its upper half: at least 100 ms, then 200 ms.
    assert.ok(arrivals[1] - arrivals[0] >= 99, `${arrivals[1] - arrivals[0]} ms`);
    assert.ok(arrivals[2] - arrivals[1] >= 199, `${arrivals[2] - arrivals[1]} ms`);
    assert.equal((report as PolitenessReport | null)!.servers[0].backoffWaits, 3);
  } finally {
    for (const so of sockets) so.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test('sitemaps: the Sitemap lines of robots.txt (an index, gzip) give the crawl its pages (RFC 9309 2.2.4, sitemaps.org)', async () => {
  const { gzipSync } = await import('node:zlib');
  let base = '';
  const s = await recording((path) => {
    if (path === '/robots.txt')
      return { status: 200, body: `User-agent: *\nDisallow: /s2\nSitemap: ${base}/index.xml\n` };
    if (path === '/index.xml')
      return { status: 200, body: `<sitemapindex><sitemap><loc>${base}/pages.xml.gz</loc></sitemap></sitemapindex>` };
    if (path === '/pages.xml.gz')
      return {
        status: 200,
        body: gzipSync(`<urlset><url><loc>${base}/s1</loc></url><url><loc>${base}/s2</loc></url></urlset>`),
        headers: { 'content-type': 'application/gzip' },
      };
    return { status: 200, body: page([]) };
  });
  base = s.url;
  try {
    const rs = await all([`${s.url}/`], { recursive: true, timeout: 10_000 });
    const got = rs.map((r) => `${r.depth} ${r.status} ${r.url.replace(s.url, '')}`).sort();
    assert.deepEqual(got, ['0 ok /', '1 ok /s1', '1 refused /s2']);
    assert.ok(!s.times.some((t) => t.path === '/s2'));
  } finally {
    await s.close();
  }
});

test(
  'check --recursive: a robots.txt or a sitemap trickled forever is read only until --deadline, and the crawl ends',
  { timeout: 60_000 },
  async () => {
    // Two servers answering one octet every 100 ms, never silent for the timeout (2 s), never done:
    // one for its robots.txt, the other for the sitemap its robots.txt names (after one <url>).
    const timers = new Set<NodeJS.Timeout>();
    const trickle = (res: import('node:http').ServerResponse, type: string, head: string) => {
      res.writeHead(200, { 'content-type': type });
      res.write(head);
      timers.add(setInterval(() => res.write(' '), 100));
    };
    let base2 = '';
    const servers = [
      createServer((req, res) => {
        if (req.url === '/robots.txt') trickle(res, 'text/plain', '# ');
        else res.writeHead(200, { 'content-type': 'text/html' }).end(page(['/a']));
      }),
      createServer((req, res) => {
        if (req.url === '/robots.txt') res.end(`User-agent: *\nSitemap: ${base2}/sitemap.xml\n`);
        else if (req.url === '/sitemap.xml')
          trickle(res, 'application/xml', `<urlset><url><loc>${base2}/listed</loc></url>`);
        else res.end(page([]));
      }),
    ];
    const bases: string[] = [];
    for (const server of servers) {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      bases.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    }
    base2 = bases[1];
    try {
      const rs = await all([`${bases[0]}/`, `${bases[1]}/`], {
        recursive: true,
        timeout: 2000,
        deadline: 500,
        retries: 0,
      });
      const got = rs.map((r) => `${r.depth} ${r.status} ${r.url.replace(bases[0], 'A').replace(bases[1], 'B')}`).sort();
      // A robots.txt not read whole is unreachable: everything on its server disallowed (RFC 9309 2.3.1.4).
      assert.deepEqual(got, ['0 ok A/', '0 ok B/', '1 ok B/listed', '1 refused A/a']);
      assert.match(rs.find((r) => r.url === `${bases[0]}/a`)?.reason ?? '', /deadline of 500 ms/);
    } finally {
      for (const t of timers) clearInterval(t);
      for (const server of servers) {
        server.closeAllConnections();
        server.close();
      }
    }
  },
);

test(
  'check --recursive: a page read to the close of its connection and cut by --deadline has a note saying its links were not all read',
  { timeout: 60_000 },
  async () => {
    // No Content-Length, not chunked: the page ends when the server closes, which it never does.
    const timers = new Set<NodeJS.Timeout>();
    const server = createServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      if (req.method === 'HEAD' || req.url !== '/')
        return void res.writeHead(200, { 'content-type': 'text/html' }).end();
      res.socket?.write('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n\r\n<a href="/b">b</a>');
      timers.add(setInterval(() => res.socket?.write(' '), 100));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const rs = await all([`${base}/`], { recursive: true, timeout: 2000, deadline: 500, retries: 0 });
      const seed = rs.find((r) => r.url === `${base}/`);
      assert.ok(
        seed?.notes.some((n) => /reading the page stopped at the deadline of 500 ms/.test(n)),
        JSON.stringify(seed),
      );
      assert.ok(rs.some((r) => r.url === `${base}/b`));
    } finally {
      for (const t of timers) clearInterval(t);
      server.closeAllConnections();
      server.close();
    }
  },
);

test('--state: a resumed crawl reports the URLs robots.txt disallowed in the run before, as that run did', async () => {
  const s = await recording((path) => {
    if (path === '/robots.txt') return { status: 200, body: 'User-agent: *\nDisallow: /no\n' };
    if (path === '/') return { status: 200, body: page(['/a', '/no/x', '/no/y']) };
    return { status: 200, body: page([]) };
  });
  const dir = mkdtempSync(join(tmpdir(), 'locator-check-state-'));
  try {
    const reports: PolitenessReport[] = [];
    const options: CheckOptions = {
      recursive: true,
      state: dir,
      timeout: 10_000,
      onPoliteness: (p) => reports.push(p),
    };
    const first = await all([`${s.url}/`], options);
    const again = await all([`${s.url}/`], options);
    for (const rs of [first, again])
      assert.deepEqual(rs.map((r) => `${r.url.replace(s.url, '')} ${r.status}`).sort(), [
        '/ ok',
        '/a ok',
        '/no/x refused',
        '/no/y refused',
      ]);
    assert.ok(
      again.filter((r) => r.depth > 0).every((r) => (r as CheckResult & { resumed?: boolean }).resumed === true),
    );
    assert.equal(reports[0].robots[0].disallowed, 2);
    // The second run fetched nothing disallowed, and says what the first one skipped.
    assert.equal(reports[1].robots[0].disallowed, 2);
    assert.equal(reports[1].robots[0].resumed, 2);
    assert.equal(reports[1].robots[0].status, 'found');
    // The CLI's report says so (a third run on the same state).
    const cli = await runCli(['check', '--recursive', '--state', dir, `${s.url}/`]);
    assert.match(cli.err, /2 URLs disallowed, not fetched \(2 in the runs before the resume\)/, cli.err);
    assert.ok(!s.times.some((t) => t.path.startsWith('/no')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await s.close();
  }
});
