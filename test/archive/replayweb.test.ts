// replayweb.page (webrecorder's viewer, the npm package replaywebpage: its built ui.js and the
// service worker sw.js of wabac.js) in Debian's Chromium, driven by playwright-core, replays an
// archive that locator wrote of the test nginx site (test/servers/http.sh): the page shows with
// its text, and following its links in the viewer shows the pages linked to, from the archive.
// The viewer and the WARC file are served by a small static server of this test on loopback (a
// service worker needs a page served over http: from localhost it is a secure context). A
// screenshot of each page goes to .build/test-output/archive/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { archiveCrawl } from '../../src/archive/index.js';
import { ROOT } from '../helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const SITE = 'http://127.0.0.1:8080/site/';
const SHOTS = join(ROOT, '.build', 'test-output', 'archive');
const VIEWER = dirname(createRequire(import.meta.url).resolve('replaywebpage/index.html'));

let dir: string;
let warc: string;
let server: http.Server;
let base: string;
let browser: Browser;
let page: Page;

/** The embedding page (replayweb.page's <replay-web-page> element, the viewer without its app frame). */
function embedding(url: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>replay</title><script src="/ui.js"></script></head>
<body><replay-web-page style="display:block;height:640px" source="/archive.warc.gz" url="${url}" replayBase="/replay/" embed="replayonly"></replay-web-page></body></html>`;
}

before(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: test/servers/install.sh installs chromium`);
  mkdirSync(SHOTS, { recursive: true });
  dir = mkdtempSync(join(tmpdir(), 'locator-replayweb-'));
  for await (const _ of archiveCrawl([SITE], { output: dir + '/', open: { gateway: false, timeout: 10_000 } }));
  const names = readdirSync(dir).filter((n) => n.endsWith('.warc.gz'));
  assert.equal(names.length, 1);
  warc = join(dir, names[0]);
  const files: Record<string, [string, string]> = {
    '/ui.js': [join(VIEWER, 'ui.js'), 'application/javascript'],
    '/replay/ui.js': [join(VIEWER, 'ui.js'), 'application/javascript'],
    '/replay/sw.js': [join(VIEWER, 'sw.js'), 'application/javascript'],
    '/archive.warc.gz': [warc, 'application/octet-stream'],
  };
  server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    let body: Buffer;
    let type: string;
    if (path === '/') [body, type] = [Buffer.from(embedding(SITE)), 'text/html; charset=utf-8'];
    else if (Object.hasOwn(files, path)) [body, type] = [readFileSync(files[path][0]), files[path][1]];
    else {
      res.writeHead(404, { 'Content-Length': 0 });
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://localhost:${(server.address() as { port: number }).port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    timeout: 60_000,
  });
  page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  page.setDefaultTimeout(30_000);
});

after(async () => {
  await browser?.close();
  await new Promise((r) => (server ? server.close(r) : r(null)));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The viewer's frame replaying `url` (wabac's `.../mp_/<url>`), once its body has `text`. */
async function replayed(url: string, text: RegExp, ms = 30_000): Promise<Frame> {
  const deadline = Date.now() + ms;
  let seen = '';
  while (Date.now() < deadline) {
    for (const f of page.frames()) {
      if (!f.url().endsWith('mp_/' + url)) continue;
      seen = await f.innerText('body').catch(() => '');
      if (text.test(seen)) return f;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const frames = page.frames().map((f) => f.url());
  throw new Error(`no frame replays ${url} with ${text} (frames: ${frames.join(', ')}; text: ${JSON.stringify(seen)})`);
}

/**
 * The viewer on the archive, its frame replaying the site's page. On the first visit the viewer's
 * service worker installs and loads the archive before any frame replays; on a loaded machine
 * (the whole suite beside it) that has been seen to take over 30 s with no frame at all, so the
 * viewer is loaded once more, as a reader would, before the test gives up.
 */
async function homePage(): Promise<Frame> {
  await page.goto(base + '/');
  try {
    return await replayed(SITE, /one\s+two\s+gone/, 45_000);
  } catch {
    await page.reload();
    return await replayed(SITE, /one\s+two\s+gone/, 45_000);
  }
}

test('replayweb.page replays the archived site: the page, then the pages its links lead to', async () => {
  const home = await homePage();
  await page.screenshot({ path: join(SHOTS, 'replayweb-site.png') });
  // Follow a link in the viewer: the page it leads to comes from the archive.
  await home.click('a[href="page1.html"]');
  const one = await replayed(SITE + 'page1.html', /home\s+deep/);
  await one.click('a[href="sub/deep.html"]');
  await replayed(SITE + 'sub/deep.html', /^\s*up\s*$/);
  await page.screenshot({ path: join(SHOTS, 'replayweb-deep.png') });
});

test('replayweb.page: a page the archive kept with its 404 status is replayed as the server answered', async () => {
  const home = await homePage();
  await home.click('a[href="missing.html"]');
  // nginx's own page of the 404, as it answered, not the viewer's "not in the archive".
  await replayed(SITE + 'missing.html', /404 Not Found\s+nginx\//);
});
