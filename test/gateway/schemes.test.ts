// The gateway (RFC 1738 4) over the clients that landed after it, against their servers: a news
// group and an article from the real INN (test/servers/nntp.sh, group local.test), WAIS
// headlines, a search form and a document from locator's WAIS server (RFC 1625), and a Prospero
// URL resolved by the ARDP test server to the real vsftpd. Every link of a page leads back
// through the gateway.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync, readdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { startGateway, type Gateway } from '../../src/gateway/index.js';
import { startWaisServer, type WaisServer } from '../../src/clients/wais/server.js';
import { startProsperoServer, type ProsperoServer } from '../servers/prospero-server.js';
import { SHARED, serversDir } from '../helpers.js';
import { messages, replaying, whole } from '../clients/wais/captures.js';

let gw: Gateway;
let wais: WaisServer;
let pros: ProsperoServer;
let savedNntp: string | undefined;
before(async () => {
  savedNntp = process.env.NNTPSERVER;
  process.env.NNTPSERVER = '127.0.0.1:1119'; // the reader's news server (RFC 1738 3.6)
  gw = await startGateway({ port: 0, timeout: 15_000 });
  wais = await startWaisServer({ dir: join(SHARED, 'fixtures', 'wais', 'docs'), database: 'demo' });
  pros = await startProsperoServer({
    objects: {
      '/pros/unix': ["ATTRIBUTE OBJECT FIELD ACCESS-METHOD AFTP INTERNET-D 127.0.0.1(2121) ASCII '/pub/unix.txt' TEXT"],
    },
  });
});
after(async () => {
  if (savedNntp === undefined) delete process.env.NNTPSERVER;
  else process.env.NNTPSERVER = savedNntp;
  await gw.close();
  await wais.close();
  await pros.close();
});

async function page(url: string): Promise<{ status: number; type: string; text: string }> {
  const r = await fetch(`${gw.url}/?url=${encodeURIComponent(url)}`);
  return { status: r.status, type: r.headers.get('content-type') ?? '', text: await r.text() };
}

/** The gateway links of a page, decoded: the URLs they lead to. */
function links(html: string): string[] {
  return [...html.matchAll(/href="\/\?url=([^"&]+)/g)].map((m) => decodeURIComponent(m[1]));
}

test('RFC 1738 3.6: a news group from INN is a page of articles whose links are news:<message-id> through the gateway', async () => {
  const g = await page('news:local.test');
  assert.equal(g.status, 200, g.text);
  assert.match(g.type, /^text\/html/);
  const articles = links(g.text).filter((u) => /^news:[^*]+@/.test(u));
  assert.ok(articles.length >= 3, g.text);
  const a = await page(articles[0]);
  assert.equal(a.status, 200, a.text);
  assert.match(a.text, /Message-ID|Subject/i);
  assert.ok(!/<script/i.test(a.text));
});

test('RFC 1738 3.9: a WAIS database is a search form; a search is headlines linked through the gateway; a document is text', async () => {
  const base = `wais://127.0.0.1:${wais.port}/demo`;
  const form = await page(base);
  assert.equal(form.status, 200, form.text);
  assert.match(form.text, /<form[^>]*>/);
  const hits = await page(`${base}?forecast`);
  assert.equal(hits.status, 200, hits.text);
  const docs = links(hits.text).filter((u) => u.startsWith(`${base}/`));
  assert.ok(docs.length >= 1, hits.text);
  const doc = await page(docs[0]);
  assert.equal(doc.status, 200, doc.text);
  assert.match(doc.text, /Weather notes/);
});

test("RFC 1625 3: a WAIS server's diagnostic beside its headlines (freeWAIS, capture 08) is shown on the results page", async () => {
  const f8 = await replaying(messages('08-help-query-diagnostic.s2c.bin').map(whole));
  try {
    const r = await page(`wais://127.0.0.1:${f8.port}/demo?%3F`);
    assert.equal(r.status, 200, r.text);
    assert.match(r.text, /<h1>WAIS search results<\/h1>/);
    assert.match(
      r.text,
      /<p class="diagnostic">The server reports beside its answer: <code>S1<\/code> query syntax error: \?\.<\/p>/,
    );
    assert.match(r.text, /Information on database: demo/);
  } finally {
    await f8.close();
  }
  // A search with no diagnostic has none on its page.
  const plain = await page(`wais://127.0.0.1:${wais.port}/demo?forecast`);
  assert.equal(plain.status, 200, plain.text);
  assert.doesNotMatch(plain.text, /class="diagnostic"/);
});

test('RFC 1738 3.11: a Prospero URL is resolved by the directory server and its FTP object shown', async () => {
  const r = await page(`prospero://127.0.0.1:${pros.port}//pros/unix`);
  assert.equal(r.status, 200, r.text);
  // the FTP file of test/servers/ftp.sh, followed from the access method (TYPE A)
  assert.match(r.text, /unix line 1\s+unix line 2/);
});

test('RFC 1738 3.5: with --smtp a mailto: page is a form; its POST (token and Origin of the gateway) is delivered by OpenSMTPD; without the token nothing is sent', async () => {
  const mg = await startGateway({ port: 0, timeout: 15_000, smtp: '127.0.0.1:2525' });
  try {
    const target = `${mg.url}/?url=${encodeURIComponent('mailto:tester@example.test')}`;
    const form = await (await fetch(target)).text();
    assert.match(form, /<form method="post"/);
    assert.match(form, /<label for="mail-from">/);
    const token = /name="token" value="([^"]+)"/.exec(form)?.[1];
    assert.ok(token, form);
    const mark = `gw-${randomBytes(6).toString('hex')}`;
    const post = (body: Record<string, string>, origin = mg.url) =>
      fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
        body: new URLSearchParams(body).toString(),
      });
    const forged = await post({ from: 'a@example.test', subject: `forged ${mark}`, body: 'x' });
    assert.equal(forged.status, 403);
    const other = await post(
      { token, from: 'a@example.test', subject: `other ${mark}`, body: 'x' },
      'http://evil.example',
    );
    assert.equal(other.status, 403);
    const ok = await post({
      token,
      from: 'Sender <sender@example.test>',
      subject: `sent ${mark}`,
      body: 'hello\n.\nbye\n',
    });
    const page = await ok.text();
    assert.equal(ok.status, 200, page);
    assert.match(page, /accepted the message for tester@example\.test: 250/);
    const dir = join(readFileSync(join(serversDir(), 'smtp', 'maildir'), 'utf8').trim(), 'new');
    let file = '';
    for (let i = 0; i < 100 && file === ''; i++) {
      for (const f of readdirSync(dir)) {
        const t = readFileSync(join(dir, f), 'utf8');
        if (t.includes(`sent ${mark}`)) file = t;
      }
      if (file === '') await new Promise((r) => setTimeout(r, 100));
    }
    assert.match(file, /\nFrom: Sender <sender@example.test>\n/);
    assert.match(file, /\n\nhello\n\.\nbye\n$/);
    assert.ok(!readdirSync(dir).some((f) => readFileSync(join(dir, f), 'utf8').includes(`forged ${mark}`)));
  } finally {
    await mg.close();
  }
});

/** One raw HTTP/1.0 exchange with the gateway (a request line Node's own client would not send). */
function raw(g: Gateway, requestLine: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = connect(g.port, '127.0.0.1', () => c.write(`${requestLine}\r\n\r\n`));
    let d = '';
    c.setEncoding('utf8');
    c.on('data', (x: string) => (d += x));
    c.on('error', reject);
    c.on('close', () => resolve(d));
  });
}

test('RFC 1945 5.1.2: a news_proxy request line without "//" (GET news:<group> HTTP/1.0) is answered as a proxy request', async () => {
  const r = await raw(gw, 'GET news:local.test HTTP/1.0');
  assert.match(r, /^HTTP\/1\.[01] 200 /);
  // a proxy request's page links absolutely back to the gateway
  assert.ok(r.includes(`href="${gw.url}/?url=news%3A`), r.slice(0, 2000));
  const m = await raw(gw, 'GET mailto:tester@example.test HTTP/1.0');
  assert.match(m, /^HTTP\/1\.[01] 200 /);
  assert.match(m, /tester@example\.test/);
  // an ordinary request on the same gateway is untouched
  const home = await raw(gw, `GET / HTTP/1.0\r\nHost: 127.0.0.1:${gw.port}`);
  assert.match(home, /^HTTP\/1\.[01] 200 /);
});

test('RFC 1738 3.6: newsServer (serve --nntp-server) names the news server without NNTPSERVER; without either, the page says how to name one', async () => {
  const saved = process.env.NNTPSERVER;
  delete process.env.NNTPSERVER;
  const named = await startGateway({ port: 0, timeout: 15_000, newsServer: '127.0.0.1:1119' });
  const unnamed = await startGateway({ port: 0, timeout: 15_000 });
  try {
    const g = await fetch(`${named.url}/?url=${encodeURIComponent('news:local.test')}`);
    const text = await g.text();
    assert.equal(g.status, 200, text);
    assert.ok(
      links(text).some((u) => /^news:[^*]+@/.test(u)),
      text,
    );
    const n = await fetch(`${unnamed.url}/?url=${encodeURIComponent('news:local.test')}`);
    const err = await n.text();
    assert.notEqual(n.status, 200);
    assert.match(err, /nntp-no-server/);
    assert.match(err, /--nntp-server host\[:port\] of locator fetch, check and serve/);
    // The home page says what works, not that some clients may be missing.
    const home = await (await fetch(`${named.url}/`)).text();
    assert.doesNotMatch(home, /when their clients are installed/);
    assert.match(home, /--nntp-server/);
  } finally {
    if (saved === undefined) delete process.env.NNTPSERVER;
    else process.env.NNTPSERVER = saved;
    await named.close();
    await unnamed.close();
  }
});
