// The gateway's page of a Prospero directory (RFC 1738 3.11; Prospero v5 3.5 LIST): a page of
// links through the gateway, each named by its link's name, against our Prospero server
// (test/servers/prospero-server.ts, the tree of test/clients/prospero/tree.ts).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway, type Gateway } from '../../src/gateway/index.js';
import { startProsperoServer, type ProsperoServer } from '../servers/prospero-server.js';
import { TREE_OBJECTS, tree } from '../clients/prospero/tree.js';
import { runCli } from '../helpers.js';

let gw: Gateway;
let pros: ProsperoServer;
before(async () => {
  let port = 0;
  gw = await startGateway({ port: 0, timeout: 15_000 });
  pros = await startProsperoServer({ objects: TREE_OBJECTS, directories: tree(() => port) });
  port = pros.port;
});
after(async () => {
  await gw.close();
  await pros.close();
});

async function page(url: string): Promise<{ status: number; text: string }> {
  const r = await fetch(`${gw.url}/?url=${encodeURIComponent(url)}`);
  return { status: r.status, text: await r.text() };
}

/** The gateway links of a page with their text: [URL, text]. */
function links(html: string): Array<[string, string]> {
  return [...html.matchAll(/<a href="\/\?url=([^"&]+)">([^<]*)<\/a>/g)].map((m) => [decodeURIComponent(m[1]), m[2]]);
}

test("RFC 1738 3.11, Prospero v5 3.5: a Prospero directory is a page of links named by the links' names", async () => {
  const P = pros.port;
  const r = await page(`prospero://127.0.0.1:${P}//pros/dir`);
  assert.equal(r.status, 200, r.text);
  assert.match(r.text, /<h1>Prospero directory<\/h1>/);
  const pu = `prospero://127.0.0.1:${P}/`;
  assert.deepEqual(links(r.text), [
    [`${pu}/pros/unix`, 'unix'],
    [`${pu}/pros/sub;TARGET=DIRECTORY`, 'sub'],
    ['ftp://127.0.0.1:2121/pub/unix.txt;type=a', 'unix.txt'],
    ['gopher://127.0.0.1:7070/0/hello.txt', 'hello'],
    [`${pu}/pros/unix;OBJECT-VERSION=2`, 'v2'],
    [`${pu}/pros/extra`, 'extra'],
    [`${pu}/pros/dir;TARGET=DIRECTORY`, 'back'],
    [`${pu}/pros/union;TARGET=DIRECTORY`, 'filtered'],
  ]);
  // what each is, and the links with no URL, with the reason
  assert.match(r.text, /<span class="kind">directory<\/span> <a [^>]*>sub<\/a>/);
  assert.match(r.text, /<span class="kind">external<\/span> <a [^>]*>unix\.txt<\/a>/);
  assert.match(r.text, /<span class="kind">symbolic<\/span> sym <span class="info">\(a symbolic link to \/usr\/foo/);
  assert.match(
    r.text,
    /<span class="kind">union<\/span> <a [^>]*>filtered<\/a> <span class="info">\(not expanded: the union link carries the filter/,
  );
  assert.match(r.text, /odd name <span class="info">\(NFS: /);
});

test("the gateway: a sub-directory's page, an empty directory, and an EXTERNAL link's FTP file", async () => {
  const P = pros.port;
  const sub = await page(`prospero://127.0.0.1:${P}//pros/sub;TARGET=DIRECTORY`);
  assert.equal(sub.status, 200, sub.text);
  assert.deepEqual(links(sub.text), [[`prospero://127.0.0.1:${P}//pros/unix`, 'unix']]);
  const empty = await page(`prospero://127.0.0.1:${P}//pros/empty-dir;TARGET=DIRECTORY`);
  assert.equal(empty.status, 200, empty.text);
  assert.match(empty.text, /<p>The directory is empty\.<\/p>/);
  const file = await page('ftp://127.0.0.1:2121/pub/unix.txt;type=a');
  assert.match(file.text, /unix line 1\s+unix line 2/);
});

test('locator fetch of a Prospero directory writes its listing, one line per link with its URL', async () => {
  const P = pros.port;
  const r = await runCli(['fetch', `prospero://127.0.0.1:${P}//pros/sub`]);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, `unix\tL\tFILE\t127.0.0.1(${P})\tprospero://127.0.0.1:${P}//pros/unix\t\n`);
  const v = await runCli(['fetch', '-v', `prospero://127.0.0.1:${P}//pros/moved;TARGET=DIRECTORY`]);
  assert.equal(v.code, 0, v.err);
  assert.match(v.err, /^> DIRECTORY ASCII '\/pros\/moved'$/m);
  assert.match(v.err, /^> LIST ATTRIBUTES COMPONENTS$/m);
  assert.match(v.err, /FORWARDED: asking prospero:\/\/127\.0\.0\.1:\d+\/\/pros\/sub/);
  assert.equal(v.out, r.out);
});
