// The gateway in a real browser (RFC 1738 4): Debian's Chromium (/usr/bin/chromium), driven by
// playwright-core, headless, no browser download. It types a gopher URL in the address field,
// follows a menu link, reads the document, submits a type-7 search, opens an FTP listing; axe-core
// runs in every page and any violation fails the test; any Content-Security-Policy report in the
// console fails it too (the pages must work under their own policy, without script). Screenshots
// are written to .build/test-output/gateway/ (docs/gateway.md describes them).
//
// The same browser loads the package root bundled for the browser by esbuild and parses and
// extracts URLs with it: the core runs in a browser.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startGateway, type Gateway } from '../../src/gateway/index.js';
import { fakeServer, type FakeServer } from '../clients/gopher/fakes.js';
import { ROOT, serversDir } from '../helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Where the screenshots go (docs/gateway.md). */
const SHOTS = join(ROOT, '.build', 'test-output', 'gateway');

const TS = serversDir();
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let gw: Gateway;
let browser: Browser;
let page: Page;
const cspReports: string[] = [];

before(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: test/servers/install.sh installs chromium`);
  mkdirSync(SHOTS, { recursive: true });
  gw = await startGateway({ port: 0, timeout: 10_000 });
  // Playwright gives the browser a fresh profile (--user-data-dir) of its own for each launch.
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS, timeout: 60_000 });
  page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  page.setDefaultTimeout(15_000);
  page.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) cspReports.push(m.text());
  });
});

after(async () => {
  await browser?.close();
  await gw?.close();
});

interface AxeResult {
  violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }>;
}

/** Runs axe-core in the page (through the DevTools protocol, which the page's CSP does not govern). */
async function assertAccessible(name: string): Promise<void> {
  await page.evaluate(axeSource);
  const result = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as AxeResult;
  const found = result.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  assert.deepEqual(found, [], `axe-core violations on the ${name} page`);
  assert.deepEqual(cspReports, [], 'Content-Security-Policy reports');
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

test('the home page: keyboard to the address field, type a gopher URL, Enter', async () => {
  await page.goto(`${gw.url}/`);
  await assertAccessible('home');
  // Keyboard use: the first Tab reaches the home link, the second the address field.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'address');
  await page.keyboard.type('gopher://127.0.0.1:7070/1/');
  await Promise.all([page.waitForURL(/\?url=gopher/), page.keyboard.press('Enter')]);
  assert.equal(await page.locator('h1').textContent(), 'Gopher menu');
  assert.equal(await page.getByLabel('URL').inputValue(), 'gopher://127.0.0.1:7070/1/');
  await assertAccessible('gopher-menu');
});

test('RFC 1436 3.8: follow a menu link and read the document', async () => {
  await Promise.all([page.waitForURL(/hello\.txt/), page.getByRole('link', { name: 'Hello text' }).click()]);
  assert.equal(await page.locator('h1').textContent(), 'Text');
  const want = readFileSync(join(TS, 'gopher', 'root', 'hello.txt'), 'utf8');
  assert.equal(await page.locator('pre.text').textContent(), want);
  await assertAccessible('gopher-text');
});

test('RFC 1738 3.4.2: submit a type-7 search', async () => {
  await page.goto(`${gw.url}/?url=${encodeURIComponent('gopher://127.0.0.1:7070/1/')}`);
  await Promise.all([page.waitForURL(/search\.sh/), page.getByRole('link', { name: 'Search the test index' }).click()]);
  assert.equal(await page.locator('h1').textContent(), 'Gopher search');
  await assertAccessible('gopher-search-form');
  await page.getByLabel('Search for').fill('browser words');
  await Promise.all([page.waitForURL(/search\.sh%2509browser/), page.getByRole('button', { name: 'Search' }).click()]);
  assert.equal(await page.locator('h1').textContent(), 'Gopher menu');
  assert.equal(await page.locator('li.info').first().textContent(), 'Results for: browser words');
  await assertAccessible('gopher-search-results');
});

test('RFC 1738 3.2.2: open an FTP listing and a file in it', async () => {
  await page.getByLabel('URL').fill('ftp://127.0.0.1:2121/pub/');
  await Promise.all([page.waitForURL(/ftp%3A/), page.getByLabel('URL').press('Enter')]);
  assert.equal(await page.locator('h1').textContent(), 'FTP directory');
  const names = await page.locator('ul.listing a').allTextContents();
  assert.ok(names.includes('unix.txt') && names.includes('with space.txt'), names.join(', '));
  await assertAccessible('ftp-listing');
  await Promise.all([page.waitForURL(/unix\.txt/), page.getByRole('link', { name: 'unix.txt' }).click()]);
  const want = readFileSync(join(TS, 'ftp', 'root', 'pub', 'unix.txt'), 'utf8');
  assert.equal(await page.locator('pre.text').textContent(), want);
});

test('an error page (FTP 550) and the access algorithm page are accessible too', async () => {
  const r = await page.goto(`${gw.url}/?url=${encodeURIComponent('ftp://127.0.0.1:2121/no-such-file.txt')}`);
  assert.equal(r?.status(), 404);
  assert.match((await page.locator('h1').textContent()) ?? '', /^Error 404: ftp-reply$/);
  await assertAccessible('error');
  await page.goto(`${gw.url}/?url=${encodeURIComponent('ftp://127.0.0.1:2121/pub/unix.txt')}&view=explain`);
  assert.equal(await page.locator('ol.steps li').first().textContent(), 'USER anonymous');
  await assertAccessible('explain');
});

test('a menu with --inline-images shows its image items; a text read as CP437 by its charset link', async () => {
  // A 1x1 GIF, and a text of CP437 box drawing, from a Gopher server of the test's own.
  const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
  const fake: FakeServer = await fakeServer((socket, received) => {
    if (!received.includes('\r\n')) return false;
    const sel = received.slice(0, received.indexOf('\r\n'));
    const item = (t: string, name: string, s: string) => `${t}${name}\t${s}\t127.0.0.1\t${fake.port}\r\n`;
    if (sel === '/pics') socket.end(item('g', 'A dot', '/dot.gif') + item('0', 'Box art', '/art.txt') + '.\r\n');
    else if (sel === '/dot.gif') socket.end(gif);
    else socket.end(Buffer.from([0xc9, 0xcd, 0xbb, 0x0d, 0x0a]));
    return true;
  });
  const inline = await startGateway({ port: 0, timeout: 10_000, inlineImages: true });
  try {
    await page.goto(`${inline.url}/?url=${encodeURIComponent(`gopher://127.0.0.1:${fake.port}/1/pics`)}`);
    const img = page.getByRole('img', { name: 'A dot' });
    await img.waitFor();
    await page.waitForFunction(() => (document.querySelector('img.inline') as HTMLImageElement | null)?.complete);
    assert.equal(await img.evaluate((e) => (e as HTMLImageElement).naturalWidth), 1);
    await assertAccessible('gopher-inline-images');
    await Promise.all([page.waitForURL(/art\.txt/), page.getByRole('link', { name: 'Box art' }).click()]);
    await Promise.all([page.waitForURL(/charset=cp437/), page.getByRole('link', { name: 'CP437 (IBM PC)' }).click()]);
    assert.equal(await page.locator('pre.text').textContent(), '\u2554\u2550\u2557\n');
    await assertAccessible('gopher-text-cp437');
  } finally {
    await inline.close();
    await fake.close();
  }
});

test('a menu of gophernicus with --caps: the breadcrumbs of its caps.txt, followed by keyboard', async () => {
  const caps = await startGateway({ port: 0, timeout: 10_000, caps: true });
  try {
    await page.goto(`${caps.url}/?url=${encodeURIComponent('gopher://127.0.0.1:7071/1/files')}`);
    const nav = page.getByRole('navigation', { name: 'Breadcrumbs' });
    assert.deepEqual(await nav.locator('li').allTextContents(), ['127.0.0.1:7071', 'files']);
    assert.equal(await nav.locator('li[aria-current="page"]').textContent(), 'files');
    await assertAccessible('gopher-breadcrumbs');
    await nav.getByRole('link', { name: '127.0.0.1:7071' }).focus();
    await Promise.all([page.waitForURL(/7071%2F1$/), page.keyboard.press('Enter')]);
    assert.equal(await page.locator('h1').textContent(), 'Gopher menu');
  } finally {
    await caps.close();
  }
});

test('the core runs in a browser: the package root bundled by esbuild parses and extracts URLs in the page', async () => {
  const built = await esbuild.build({
    entryPoints: [join(ROOT, 'src', 'index.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'locator',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  assert.deepEqual(built.warnings, []);
  const core = await browser.newPage();
  try {
    await core.setContent('<!DOCTYPE html><title>core</title>');
    await core.addScriptTag({ content: built.outputFiles[0].text });
    const got = await core.evaluate(() => {
      const l = (globalThis as unknown as { locator: typeof import('../../src/index.js') }).locator;
      const u = l.parse('gopher://127.0.0.1:7070/1/files');
      const found = [...l.extract('See <URL:ftp://ftp.example.test/pub/file.txt> and news:comp.lang.misc.')].map(
        (m) => m.url,
      );
      return {
        node: typeof (globalThis as { process?: unknown }).process,
        scheme: u.scheme,
        fields: u.fields as Record<string, unknown>,
        found,
      };
    });
    assert.equal(got.node, 'undefined', 'a browser page, not node');
    assert.equal(got.scheme, 'gopher');
    assert.equal(got.fields.gophertype, '1');
    assert.equal(got.fields.selector, '/files');
    assert.deepEqual(got.found, ['ftp://ftp.example.test/pub/file.txt', 'news:comp.lang.misc']);
  } finally {
    await core.close();
  }
});

/** An HTTP server of "another site" on `host` (port 0): every path is `html`. */
async function siteOn(host: string, html: string): Promise<{ origin: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(html);
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    origin: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

test('cross-site: a page of another origin cannot make the gateway write to a port (img, iframe, fetch, form, navigation)', async () => {
  // The port a page would like to reach (a Redis on 6380 in docs/gateway.md): it records every line.
  const target = await fakeServer((socket, received) => {
    if (!received.includes('\r\n')) return false;
    socket.end('iok\t\t\t0\r\n.\r\n');
    return true;
  });
  const log: string[] = [];
  const g = await startGateway({ port: 0, timeout: 5000, log: (l) => log.push(l) });
  const victim = `${g.url}/?url=${encodeURIComponent(`gopher://127.0.0.1:${target.port}/1FLUSHALL`)}`;
  const attack = `<!DOCTYPE html><title>another site</title>
<img src="${victim}&n=1">
<img referrerpolicy="no-referrer" src="${victim}&n=2">
<iframe src="${victim}&n=3"></iframe>
<form id="f" method="get" action="${g.url}/" target="sink"><input name="url" value="gopher://127.0.0.1:${target.port}/1FLUSHALL"></form>
<iframe name="sink"></iframe>
<script>
fetch(${JSON.stringify(victim + '&n=4')}, { mode: 'no-cors' }).catch(() => {});
document.getElementById('f').submit();
</script>`;
  const navigate = `<!DOCTYPE html><title>another site</title><script>location.href = ${JSON.stringify(victim + '&n=5')};</script>`;
  // 127.0.0.2 is another site; another port of 127.0.0.1 is the same site (ports do not count).
  const crossSite = await siteOn('127.0.0.2', attack);
  const sameSite = await siteOn('127.0.0.1', attack);
  const mover = await siteOn('127.0.0.2', navigate);
  const p = await browser.newPage();
  try {
    for (const site of [crossSite, sameSite]) {
      const before = log.length;
      await p.goto(`${site.origin}/`);
      // Wait (bounded) until the gateway has refused the page's five requests.
      for (let i = 0; i < 50 && log.slice(before).filter((l) => l.includes('from another site')).length < 5; i++)
        await new Promise((r) => setTimeout(r, 100));
      const refused = log.slice(before).filter((l) => l.includes('from another site'));
      assert.ok(
        refused.length >= 5,
        `the gateway saw the requests of ${site.origin}: ${log.slice(before).join(' | ')}`,
      );
    }
    await p.goto(`${mover.origin}/`);
    await p.waitForURL(/n=5/);
    assert.equal(await p.locator('h1').textContent(), 'Error 403: gateway-refused');
    assert.equal(target.connections, 0, `the port got: ${JSON.stringify(target.received)}`);
    // The same URL typed in the address bar (Sec-Fetch-Site: none) is opened: the port was reachable.
    const typed = await p.goto(victim);
    assert.equal(typed?.status(), 200);
    assert.deepEqual(target.received, ['FLUSHALL\r\n']);
  } finally {
    await p.close();
    await crossSite.close();
    await sameSite.close();
    await mover.close();
    await g.close();
    await target.close();
  }
});
