// wget's archives replay: Debian's wget mirrors the test nginx site and the vsftpd tree into WARC
// files (`wget --mirror --warc-file`); locator's reader reads every record of them with every
// digest that they carry right, and `serve --warc` gives back each HTTP page and FTP file byte
// for byte as wget saved it (wget writes an FTP file as a `resource` record of its octets, and no
// record of the listings, which are then "not archived").

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type Gateway } from '../../src/gateway/index.js';
import { ReplayArchive, readWarc } from '../../src/archive/index.js';
import { entityOf } from './peer.js';

let dir: string;
let files: string[];
let archive: ReplayArchive;
let gw: Gateway;

function wget(name: string, url: string): void {
  const r = spawnSync(
    'wget',
    ['--mirror', '--no-verbose', `--warc-file=${join(dir, name)}`, '-P', join(dir, 'mirror'), url],
    { encoding: 'utf8', timeout: 120_000 },
  );
  // 8: a server error on some link (the site has broken links on purpose)
  assert.ok(r.status === 0 || r.status === 8, `wget ${url}: ${r.status} ${r.stderr}`);
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'locator-wget-'));
  wget('http', 'http://127.0.0.1:8080/');
  wget('ftp', 'ftp://127.0.0.1:2121/pub/');
  files = [join(dir, 'http.warc.gz'), join(dir, 'ftp.warc.gz')];
  archive = await ReplayArchive.open(files);
  gw = await startGateway({ port: 0, replay: archive });
});
after(async () => {
  await gw?.close();
  await archive?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Wrote {
  type: string;
  target: string | null;
  block: Buffer;
  contentType: string | null;
}

/** Every record of a file, as locator's reader reads it, with its digests checked. */
async function read(path: string): Promise<Wrote[]> {
  const out: Wrote[] = [];
  for await (const r of readWarc(path)) {
    const parts: Buffer[] = [];
    for await (const c of r.block) parts.push(c);
    const end = await r.end();
    const where = `${path} ${r.type} ${r.targetUri}`;
    assert.notEqual(end.blockDigest, false, `${where}: block digest`);
    assert.notEqual(end.payloadDigest, false, `${where}: payload digest`);
    if (r.get('WARC-Block-Digest') !== null) assert.equal(end.blockDigest, true, where);
    out.push({ type: r.type, target: r.targetUri, block: Buffer.concat(parts), contentType: r.get('Content-Type') });
  }
  return out;
}

/** The file wget saved for a URL of the mirror (a directory's: its index.html). */
function saved(url: string): string | null {
  const u = new URL(url);
  let path = join(dir, 'mirror', u.host, decodeURIComponent(u.pathname));
  if (u.pathname.endsWith('/')) path = join(path, 'index.html');
  return existsSync(path) && statSync(path).isFile() ? path : null;
}

async function raw(url: string): Promise<{ status: number; body: Buffer }> {
  const r = await fetch(`${gw.url}/?url=${encodeURIComponent(url)}&view=raw`);
  return { status: r.status, body: Buffer.from(await r.arrayBuffer()) };
}

test("wget's WARC files are read whole by locator's reader, every digest they carry right", async () => {
  const http = await read(files[0]);
  const ftp = await read(files[1]);
  const types = (rs: Wrote[]) => new Set(rs.map((r) => r.type));
  assert.deepEqual([...types(http)].sort(), ['metadata', 'request', 'resource', 'response', 'warcinfo']);
  assert.ok(ftp.some((r) => r.type === 'resource' && r.target?.startsWith('ftp://')));
});

test("serve --warc gives back every page of wget's mirror of nginx byte for byte (the entity of each 200 response)", async () => {
  const responses = (await read(files[0])).filter((r) => r.type === 'response');
  let compared = 0;
  for (const r of responses) {
    const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(r.block.toString('latin1'))?.[1]);
    if (status !== 200) continue;
    const got = await raw(r.target!);
    assert.equal(got.status, 200, `${r.target}: ${got.body.toString().slice(0, 300)}`);
    assert.ok(got.body.equals(entityOf(r.block)), `${r.target}: the record's entity`);
    const file = saved(r.target!);
    if (file !== null) {
      assert.ok(got.body.equals(readFileSync(file)), `${r.target}: the file wget saved`);
      compared++;
    }
  }
  assert.ok(compared >= 8, `${compared} pages compared with wget's files`);
  // a page of them, with the capture line
  const page = await fetch(`${gw.url}/?url=${encodeURIComponent('http://127.0.0.1:8080/site/')}`);
  const html = await page.text();
  assert.equal(page.status, 200, html);
  assert.match(html, /<p class="capture">Archived copy: captured <time datetime="20\d\d-/);
  assert.match(html, /from <code>http\.warc\.gz<\/code>/);
});

test("serve --warc gives back every FTP file of wget's mirror of vsftpd byte for byte (its resource records); its listings are not archived", async () => {
  const resources = (await read(files[1])).filter((r) => r.type === 'resource' && r.target?.startsWith('ftp://'));
  assert.ok(resources.length >= 4, `${resources.length} files`);
  for (const r of resources) {
    const got = await raw(r.target!);
    assert.equal(got.status, 200, r.target!);
    const file = saved(r.target!);
    assert.ok(file !== null, `wget saved ${r.target}`);
    assert.ok(got.body.equals(readFileSync(file)), `${r.target}: the file wget saved`);
    assert.ok(got.body.equals(r.block), `${r.target}: the record's block`);
  }
  assert.ok(
    resources.some((r) => r.block.length > 4 * 1024 * 1024),
    'a file past the size read whole (streamed)',
  );
  const listing = await fetch(`${gw.url}/?url=${encodeURIComponent('ftp://127.0.0.1:2121/pub/')}`);
  assert.equal(listing.status, 404);
  assert.match(await listing.text(), /Not archived/);
});
