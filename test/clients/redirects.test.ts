// One redirect loop (RFC 1945 9.3; RFC 1738 6): HTTP 3xx answers and Gopher "URL:" links are
// followed by open() alone, with one budget for the whole chain. The peer that redirects is an
// in-process HTTP server on loopback (fault injection: a real server does not loop on purpose);
// the Gopher links are read from their URLs, so no gopher server is contacted for them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { open } from '../../src/clients/index.js';
import { DEFAULT_POLICY, PolicyError, isCrossScheme, type Policy } from '../../src/operations/policy.js';
import { parse } from '../../src/schemes/registry.js';
import type { TranscriptLine } from '../../src/clients/types.js';
import { rejects } from '../helpers.js';

/** A server whose every answer is a 302 to `location(path)`; counts the requests it gets. */
async function redirector(
  location: (path: string, base: string) => string,
): Promise<{ base: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  let base = '';
  const server: Server = createServer((req, res) => {
    hits++;
    res.writeHead(302, { location: location(req.url ?? '/', base) });
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, hits: () => hits, close: () => new Promise((r) => server.close(() => r())) };
}

const policy = (p: Partial<Policy>): Policy => ({ ...DEFAULT_POLICY, ...p });
const code = (e: unknown) => (e instanceof PolicyError ? e.diagnostic.code : (e as { code?: string }).code);

test('an HTTP server redirecting to a Gopher link back to itself stops at once: redirect-loop, one request', async () => {
  const s = await redirector((_p, base) => `gopher://127.0.0.1:7070/hURL:${base}/loop`);
  try {
    const lines: TranscriptLine[] = [];
    const e = await rejects(
      open(`${s.base}/loop`, {
        gateway: false,
        policy: policy({ maxCrossSchemeRedirects: 2 }),
        transcript: (l) => lines.push(l),
      }),
    );
    assert.equal(code(e), 'redirect-loop');
    assert.equal(s.hits(), 1);
    const hops = lines.filter((l) => l.direction === 'info' && /redirect \d/.test(l.text)).map((l) => l.text);
    assert.deepEqual(hops, [
      `HTTP 302: redirect 1 to gopher://127.0.0.1:7070/hURL:${s.base}/loop`,
      `the Gopher "URL:" link: redirect 2 to ${s.base}/loop`,
    ]);
  } finally {
    await s.close();
  }
});

test('a chain that never repeats stops at maxRedirects (one budget across schemes): too-many-redirects', async () => {
  let n = 0;
  const s = await redirector((_p, base) => `gopher://127.0.0.1:7070/hURL:${base}/step${++n}`);
  try {
    const e = await rejects(
      open(`${s.base}/start`, { gateway: false, policy: policy({ maxRedirects: 6, maxCrossSchemeRedirects: 100 }) }),
    );
    assert.equal(code(e), 'too-many-redirects');
    // 6 hops are followed (http -> link -> http -> link -> http -> link -> http), the 7th refused:
    // the first request and the three that hops 2, 4 and 6 lead to.
    assert.equal(s.hits(), 4);
  } finally {
    await s.close();
  }
});

test('the cross-scheme budget is counted over the whole chain; maxCrossSchemeRedirects: 1 follows exactly one', async () => {
  const s = await redirector((_p, base) => `gopher://127.0.0.1:7070/hURL:${base}/again`);
  try {
    const none = await rejects(open(`${s.base}/a`, { gateway: false }));
    assert.equal(code(none), 'cross-scheme-redirect', 'the default policy follows no change of scheme');
    const lines: TranscriptLine[] = [];
    const one = await rejects(
      open(`${s.base}/a`, {
        gateway: false,
        policy: policy({ maxCrossSchemeRedirects: 1 }),
        transcript: (l) => lines.push(l),
      }),
    );
    assert.equal(code(one), 'cross-scheme-redirect');
    // The first change of scheme (http -> gopher) was followed, the second (gopher -> http) refused.
    assert.equal(lines.filter((l) => /redirect \d/.test(l.text)).length, 2);
    assert.equal(s.hits(), 2);
  } finally {
    await s.close();
  }
});

test('a redirect through a Gopher link to a local file is refused (redirect-to-file), whatever the budget', async () => {
  const s = await redirector(() => 'gopher://127.0.0.1:7070/hURL:file:///etc/hostname');
  try {
    const e = await rejects(open(`${s.base}/x`, { gateway: false, policy: policy({ maxCrossSchemeRedirects: 2 }) }));
    assert.equal(code(e), 'redirect-to-file');
  } finally {
    await s.close();
  }
});

test('an HTTP 302 to file://127.0.0.1/etc/passwd is refused (redirect-to-file) whatever the budget: no file is read, nothing fetched by FTP', async () => {
  // The client reads the Location against the request's URL (WHATWG URL): "LOCALHOST" becomes the empty host.
  for (const [target, read] of [
    ['file://127.0.0.1/etc/passwd', 'file://127.0.0.1/etc/passwd'],
    ['file://LOCALHOST/etc/passwd', 'file:///etc/passwd'],
    ['file://otherhost.invalid/etc/passwd', 'file://otherhost.invalid/etc/passwd'],
  ]) {
    const s = await redirector(() => target);
    try {
      for (const p of [DEFAULT_POLICY, policy({ maxCrossSchemeRedirects: 2 })]) {
        const lines: TranscriptLine[] = [];
        const e = await rejects(open(`${s.base}/x`, { gateway: false, policy: p, transcript: (l) => lines.push(l) }));
        assert.ok(e instanceof PolicyError, String(e));
        assert.equal(e.code, 'policy-refused');
        assert.equal(e.diagnostic.code, 'redirect-to-file', target);
        assert.equal(
          e.message,
          "refused before any connection: a http answer redirects to a file URL, which names files of a machine rather than a server's object: that could make the client read its own files for a remote server (RFC 1738 3.10, 6) (redirect-to-file, RFC 1738 3.10) (policy-refused at offset 0)",
        );
        // The hop was announced and refused: no line of an FTP exchange (or of anything) after it.
        const last = lines.at(-1)!;
        assert.equal(last.direction, 'info');
        assert.equal(last.text, `HTTP 302: redirect 1 to ${read}`);
      }
      assert.equal(s.hits(), 2);
    } finally {
      await s.close();
    }
  }
});

test('http and https are one scheme for the redirect budget, in the policy and in open()', () => {
  assert.equal(isCrossScheme(parse('http://a.com/'), parse('https://a.com/')), false);
  assert.equal(isCrossScheme(parse('https://a.com/'), parse('http://a.com/')), false);
  assert.equal(isCrossScheme(parse('http://a.com/'), parse('gopher://a.com/')), true);
});

test('followRedirects: false returns an HTTP 3xx as it is', async () => {
  const s = await redirector(() => 'http://127.0.0.1:1/never');
  try {
    const r = await open(`${s.base}/x`, { gateway: false, followRedirects: false });
    assert.equal(r.meta.status, 302);
    await r.body.cancel();
    assert.equal(s.hits(), 1);
  } finally {
    await s.close();
  }
});
