// The news and nntp clients against the real INN that npm test starts (test/servers/nntp.sh,
// test/data/docs/test-servers.md section 5) on 127.0.0.1:1119, group local.test. INN greets
// 127.0.0.1 in transit mode, so every session goes through CAPABILITIES and MODE READER. A
// recording proxy in front of INN proves that the commands received are those of explain().

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { open } from '../../../src/clients/index.js';
import { explain } from '../../../src/operations/build.js';
import { parse } from '../../../src/schemes/registry.js';
import { LocatorError } from '../../../src/core/errors.js';
import type { OpenOptions, TranscriptLine } from '../../../src/clients/types.js';
import { rejects, serversDir } from '../../helpers.js';
import { matchesSteps, recordingProxy } from './fakes.js';

const TS = serversDir();
const INN = '127.0.0.1:1119';
const BASE: OpenOptions = { gateway: false, timeout: 10_000, env: { NNTPSERVER: INN } };
const art = (name: string) => readFileSync(join(TS, 'nntp', name), 'latin1');

async function fetchText(url: string, options: OpenOptions = {}) {
  const lines: TranscriptLine[] = [];
  const r = await open(url, { ...BASE, transcript: (l) => lines.push(l), ...options });
  const body = Buffer.from(await new Response(r.body).arrayBuffer());
  return { meta: r.meta, body, text: body.toString('utf8'), sent: lines.filter((l) => l.direction === 'send') };
}

/** The body of an article in its file under $TS/nntp (LF), as delivered (CR LF). */
function bodyOf(file: string): string {
  const t = art(file);
  return t.slice(t.indexOf('\n\n') + 2).replace(/\n/g, '\r\n');
}

/** The listing of local.test, parsed: [number, subject, from, date, bytes, url] per line. */
async function listing(options: OpenOptions = {}): Promise<string[][]> {
  const r = await fetchText('news:local.test', options);
  assert.equal(r.meta.contentType, 'text/x-locator-news-overview; charset=utf-8');
  assert.ok(r.text.endsWith('\n'));
  return r.text
    .slice(0, -1)
    .split('\n')
    .map((l) => l.split('\t'));
}

test('RFC 1738 3.6: news:<message-id> is the article, dot-stuffing undone, CR LF line ends', async () => {
  const r = await fetchText('news:first.1@example.test');
  assert.equal(r.meta.contentType, 'message/rfc822');
  assert.equal(r.meta.scheme, 'news');
  assert.equal(r.meta.ip, '127.0.0.1', 'the peer of the connection (WARC-IP-Address)');
  const split = r.text.indexOf('\r\n\r\n');
  assert.ok(split > 0, 'a header, an empty line, a body');
  assert.match(r.text.slice(0, split), /^Message-ID: <first\.1@example\.test>$/m);
  assert.equal(r.text.slice(split + 4), bodyOf('art1'));
  assert.ok(r.text.includes('\r\n.A line starting with a dot.\r\n..Two dots.\r\n.\r\nLast line.\r\n'));
});

test('RFC 3977 6.2.1: a message-id the server does not have is not-found (430), no body', async () => {
  const e = await rejects(open('news:no.such.article@example.test', BASE));
  assert.equal(e.code, 'not-found');
  assert.equal((e as LocatorError & { replyCode: number }).replyCode, 430);
  assert.match(e.message, /no such article/);
});

test('RFC 1738 3.6: news:<group> lists the articles oldest first, encoded-words decoded, each with its news: URL', async () => {
  const rows = await listing();
  const byId = new Map(rows.map((r) => [r[5], r]));
  for (const id of ['first.1', 'second.2', 'umlaut.3', 'big.6']) assert.ok(byId.has(`news:${id}@example.test`), id);
  const numbers = rows.map((r) => Number(r[0]));
  assert.deepEqual(
    numbers,
    [...numbers].sort((a, b) => a - b),
    'oldest first',
  );
  for (const r of rows) assert.equal(r.length, 6, r.join('|'));
  const u = byId.get('news:umlaut.3@example.test')!;
  assert.equal(u[1], 'Grüße aus Köln');
  assert.equal(u[2], 'Jörg Müller <joerg@example.test>');
  const big = byId.get('news:big.6@example.test')!;
  assert.equal(big[1], 'A large article');
  assert.ok(Number(big[4]) > Number(readFileSync(join(TS, 'nntp', 'big.bytes'), 'utf8')), 'the size covers the body');
  // Each URL of the listing names the article.
  const first = await fetchText(byId.get('news:first.1@example.test')![5]);
  assert.match(first.text, /^Subject: First test article\r$/m);
});

test('limit: only the last N articles of the group', async () => {
  const all = await listing();
  const last2 = await listing({ limit: 2 });
  assert.deepEqual(last2, all.slice(-2));
  assert.deepEqual(await listing({ limit: 1000 }), all);
  await assert.rejects(open('news:local.test', { ...BASE, limit: 0 }), RangeError);
});

test('RFC 1738 3.6: news:* lists every group (LIST ACTIVE) with its news: URL', async () => {
  const r = await fetchText('news:*');
  assert.equal(r.meta.contentType, 'text/x-locator-news-groups; charset=utf-8');
  const rows = r.text
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));
  const lt = rows.find((x) => x[0] === 'local.test')!;
  const all = await listing();
  assert.deepEqual(lt, ['local.test', all[all.length - 1][0], lt[2], 'y', 'news:local.test']);
  assert.ok(rows.some((x) => x[0] === 'local.general'));
});

test('RFC 1738 3.7: nntp://host:port/group/number is the same article as its news: URL', async () => {
  const rows = await listing();
  const n = rows.find((r) => r[5] === 'news:second.2@example.test')![0];
  const byNumber = await fetchText(`nntp://${INN}/local.test/${n}`, { env: {} });
  const byId = await fetchText('news:second.2@example.test');
  assert.equal(byNumber.meta.contentType, 'message/rfc822');
  assert.deepEqual(byNumber.body, byId.body);
});

test('RFC 1738 3.7: nntp://host:port/group lists the group, each article with its nntp URL', async () => {
  const r = await fetchText(`nntp://${INN}/local.test`, { env: {}, limit: 3 });
  const rows = r.text
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));
  assert.equal(rows.length, 3);
  for (const row of rows) assert.equal(row[5], `nntp://${INN}/local.test/${row[0]}`);
  const again = await fetchText(rows[0][5], { env: {} });
  assert.equal(again.meta.contentType, 'message/rfc822');
});

test('RFC 3977 6.1.1, 6.2.1: no such group (411), no such article number (423): not-found', async () => {
  const g = await rejects(open(`nntp://${INN}/no.such.group`, { ...BASE, env: {} }));
  assert.equal(g.code, 'not-found');
  assert.equal((g as LocatorError & { replyCode: number }).replyCode, 411);
  const a = await rejects(open(`nntp://${INN}/local.test/999999`, { ...BASE, env: {} }));
  assert.equal(a.code, 'not-found');
  assert.equal((a as LocatorError & { replyCode: number }).replyCode, 423);
});

test('the large article is streamed whole (sha256 of the body)', async () => {
  const want = createHash('sha256').update(bodyOf('art4')).digest('hex');
  const r = await open('news:big.6@example.test', BASE);
  const hash = createHash('sha256');
  let head = Buffer.alloc(0);
  let inBody = false;
  let size = 0;
  const t0 = Date.now();
  const reader = r.body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    size += next.value.length;
    const b = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.length);
    if (inBody) hash.update(b);
    else {
      head = Buffer.concat([head, b]);
      const at = head.indexOf('\r\n\r\n');
      if (at >= 0) {
        inBody = true;
        hash.update(head.subarray(at + 4));
      }
    }
  }
  assert.equal(hash.digest('hex'), want);
  console.log(`# the large article: ${size} octets in ${Date.now() - t0} ms`);
});

test('the large article: the client stops reading while its consumer does (back-pressure, bounded memory)', async () => {
  const proxy = await recordingProxy('127.0.0.1', 1119);
  try {
    const r = await open('news:big.6@example.test', { ...BASE, env: { NNTPSERVER: `127.0.0.1:${proxy.port}` } });
    const reader = r.body.getReader();
    let got = (await reader.read()).value!.length;
    await new Promise((resolve) => setTimeout(resolve, 700));
    const ahead = proxy.forwarded[0];
    const total = Number(readFileSync(join(TS, 'nntp', 'big.bytes'), 'utf8'));
    console.log(`# read ahead while the consumer waited: ${ahead} of more than ${total} octets`);
    assert.ok(ahead < total * 0.75, `the client read ${ahead} octets ahead of a consumer that took ${got}`);
    // Cancelling the stream closes the connection: the proxy sees it go.
    await reader.cancel();
    for (let i = 0; i < 100 && proxy.open() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(proxy.open(), 0, 'the sockets are closed');
  } finally {
    await proxy.close();
  }
});

// explain() gives exactly the commands sent: a recording proxy in front of INN shows them.
const FORMS: Array<[string, OpenOptions, string]> = [
  ['news:first.1@example.test', {}, 'RFC 1738 3.6: an article'],
  ['news:local.test', {}, 'RFC 1738 3.6: a group'],
  ['news:local.test', { limit: 2 }, 'RFC 1738 3.6: a group, the last 2'],
  ['news:*', {}, 'RFC 1738 3.6: every group'],
  ['nntp://HOST/local.test/1', {}, 'RFC 1738 3.7: an article by number'],
  ['nntp://HOST/local.test', {}, 'RFC 1738 3.7: a group'],
];

for (const [template, options, section] of FORMS) {
  test(`${section}: the commands INN received are those of explain() (${template})`, async () => {
    const proxy = await recordingProxy('127.0.0.1', 1119);
    try {
      const url = template.replace('HOST', `127.0.0.1:${proxy.port}`);
      const env = { NNTPSERVER: `127.0.0.1:${proxy.port}` };
      const r = await fetchText(url, { env, ...options });
      const got = proxy.commands();
      assert.deepEqual(
        got,
        r.sent.map((l) => l.text),
        'the transcript is what was sent',
      );
      const steps = explain(parse(url)).steps;
      assert.ok(matchesSteps(got, steps), `${JSON.stringify(got)} against ${JSON.stringify(steps)}`);
      // INN greets 127.0.0.1 in transit mode: the conditional steps are taken.
      assert.deepEqual(got.slice(0, 3), ['CAPABILITIES', 'MODE READER', 'CAPABILITIES']);
      assert.equal(got[got.length - 1], 'QUIT');
    } finally {
      await proxy.close();
    }
  });
}

test('RFC 1738 3.6: the news server is NNTPSERVER, then the newsServer option; with neither a clear error', async () => {
  const viaOption = await fetchText('news:second.2@example.test', { env: {}, newsServer: INN });
  assert.match(viaOption.text, /Second article body\./);
  const viaEnv = await fetchText('news:second.2@example.test', { newsServer: '127.0.0.1:1' });
  assert.deepEqual(viaEnv.body, viaOption.body, 'NNTPSERVER is used before the option');
  const e = await rejects(open('news:second.2@example.test', { ...BASE, env: {} }));
  assert.equal(e.code, 'nntp-no-server');
  assert.match(e.message, /NNTPSERVER/);
  assert.match(e.message, /newsServer/);
});

test('RFC 1738 3.6: NNTPSERVER may name an IPv6 literal in brackets ([::1]:1119, where INN listens too)', async () => {
  const r = await fetchText('news:second.2@example.test', { env: { NNTPSERVER: '[::1]:1119' } });
  assert.match(r.text, /Second article body\./);
  assert.ok(r.sent.length > 0);
});
