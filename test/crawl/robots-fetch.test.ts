// robots.txt fetched the one way every crawl does it (src/crawl/robots-fetch.ts): the reply classed
// as RFC 9309 2.3.1 says, the same for check --recursive and archive. An in-process HTTP server
// gives the replies a real server gives only under load (429, 503): fault injection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Politeness } from '../../src/crawl/politeness.js';
import { robotsFetcher } from '../../src/crawl/robots-fetch.js';
import { archiveCrawl, type ArchiveSummary } from '../../src/archive/crawl.js';

/** A server answering each path with `routes[path]` (status, body, headers); its base URL. */
async function serve(
  routes: Record<string, [number, string, Record<string, string>?]>,
): Promise<{ base: string; server: Server }> {
  const server = createServer((req, res) => {
    const r = routes[req.url ?? '/'] ?? [404, 'not found'];
    res.writeHead(r[0], { 'content-type': req.url?.endsWith('.txt') ? 'text/plain' : 'text/html', ...(r[2] ?? {}) });
    res.end(r[1]);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const a = server.address();
  return { base: `http://127.0.0.1:${typeof a === 'object' && a !== null ? a.port : 0}`, server };
}

test('robotsFetcher: found, unavailable (4xx), unreachable (429, 5xx, no server), redirects followed (RFC 9309 2.3.1)', async () => {
  const { base, server } = await serve({
    '/ok.txt': [200, 'User-agent: *\nDisallow: /x/\n'],
    '/gone.txt': [404, 'no'],
    '/forbidden.txt': [403, 'no'],
    '/busy.txt': [429, 'slow down'],
    '/down.txt': [503, 'down'],
    '/error.txt': [500, 'oops'],
    '/moved.txt': [301, '', { location: '/ok.txt' }],
  });
  try {
    const fetch = robotsFetcher(new Politeness({ concurrency: 2, perServer: 2, delay: 0 }), {});
    const server_ = base.slice('http://'.length);
    const rows: [string, string][] = [
      ['/ok.txt', 'found'],
      ['/gone.txt', 'unavailable'],
      ['/forbidden.txt', 'unavailable'],
      ['/busy.txt', 'unreachable'],
      ['/down.txt', 'unreachable'],
      ['/error.txt', 'unreachable'],
      ['/moved.txt', 'found'],
    ];
    for (const [path, kind] of rows) {
      const got = await fetch(base + path, server_);
      assert.equal(got.kind, kind, `${path}: ${JSON.stringify(got)}`);
      if (got.kind === 'found') assert.equal(got.text, 'User-agent: *\nDisallow: /x/\n');
    }
  } finally {
    server.close();
  }
  const closed = await robotsFetcher(new Politeness({ concurrency: 1, perServer: 1, delay: 0 }), {})(
    base + '/ok.txt',
    base.slice('http://'.length),
  );
  assert.equal(closed.kind, 'unreachable');
});

test('archive asks robots.txt the same way: a 429 for robots.txt disallows the server (not "no robots.txt")', async () => {
  const { base, server } = await serve({ '/robots.txt': [429, 'slow down'], '/a.html': [200, 'a'] });
  // A Gopher menu (archive follows menus and listings) linking to a page of that web server.
  const gopher = createNetServer((sock) =>
    sock.once('data', (d) => {
      const selector = String(d).replace(/\r?\n$/, '');
      sock.end(
        selector === ''
          ? `hpage a\tURL:${base}/a.html\t127.0.0.1\t70\r\n.\r\n`
          : `3'${selector}' does not exist\t\terror.host\t1\r\n.\r\n`,
      );
    }),
  );
  await new Promise<void>((ok) => gopher.listen(0, '127.0.0.1', ok));
  const gport = (gopher.address() as { port: number }).port;
  const dir = await mkdtemp(join(tmpdir(), 'locator-robots-fetch-'));
  try {
    const out: Record<string, string> = {};
    const summary: Partial<ArchiveSummary> = {};
    const options = { output: dir + '/', concurrency: 1, perHost: 1, scope: 'host' as const };
    for await (const r of archiveCrawl([`gopher://127.0.0.1:${gport}/1`], options, summary)) out[r.url] = r.status;
    assert.equal(out[`${base}/a.html`], 'refused', JSON.stringify(out));
    const web = summary.robots?.find((r) => r.server === base.slice('http://'.length));
    assert.equal(web?.status, 'unreachable', JSON.stringify(summary.robots));
  } finally {
    server.close();
    gopher.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test(
  'robotsFetcher: a robots.txt trickled forever is unreachable at the deadline, not waited for',
  { timeout: 30_000 },
  async () => {
    // One octet every 100 ms: never silent for the timeout (2 s), never finished.
    const timers = new Set<NodeJS.Timeout>();
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      timers.add(setInterval(() => res.write('#'), 100));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = (server.address() as { port: number }).port;
    try {
      const fetch = robotsFetcher(
        new Politeness({ concurrency: 1, perServer: 1, delay: 0 }),
        { timeout: 2000 },
        undefined,
        500,
      );
      const got = await fetch(`http://127.0.0.1:${port}/robots.txt`, `127.0.0.1:${port}`);
      assert.equal(got.kind, 'unreachable', JSON.stringify(got));
      assert.match(got.kind === 'unreachable' ? got.why : '', /deadline of 500 ms/);
    } finally {
      for (const t of timers) clearInterval(t);
      server.closeAllConnections();
      server.close();
    }
  },
);
