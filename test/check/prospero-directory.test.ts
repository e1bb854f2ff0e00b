// `check --recursive` through Prospero directories (Prospero v5 3.5 LIST; RFC 1738 3.11): the
// links of a directory of our Prospero server (test/servers/prospero-server.ts, the tree of
// test/clients/prospero/tree.ts) are checked, those that are directories on the same server are
// followed, within --max-depth and --max-urls as for FTP and Gopher; the EXTERNAL links lead to
// the real vsftpd and pygopherd of test/servers/*.sh.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, type CheckOptions, type CheckResult } from '../../src/check/index.js';
import { startProsperoServer, type ProsperoServer } from '../servers/prospero-server.js';
import { TREE_OBJECTS, tree } from '../clients/prospero/tree.js';

async function withTree(body: (s: ProsperoServer) => Promise<void>): Promise<void> {
  let port = 0;
  const s = await startProsperoServer({ objects: TREE_OBJECTS, directories: tree(() => port) });
  port = s.port;
  try {
    await body(s);
  } finally {
    await s.close();
  }
}

async function all(url: string, options: CheckOptions): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  for await (const r of check([url], options)) out.push(r);
  return out;
}

const shown = (rs: CheckResult[], P: number) =>
  rs.map((r) => `${r.depth} ${r.status} ${r.url.replace(`prospero://127.0.0.1:${P}/`, 'P:')}`).sort();

test('--recursive --max-depth 1: the links of a Prospero directory are checked, its sub-directories not followed', async () => {
  await withTree(async (s) => {
    const P = s.port;
    const rs = await all(`prospero://127.0.0.1:${P}//pros/dir;TARGET=DIRECTORY`, {
      recursive: true,
      maxDepth: 1,
      retries: 0,
      timeout: 3000,
    });
    assert.deepEqual(shown(rs, P), [
      '0 ok P:/pros/dir;TARGET=DIRECTORY',
      // (the union link "back" of the union directory, the directory itself, is the seed: each
      // URL is reported once, src/crawl/)
      // through the union link "more"
      '1 ok P:/pros/extra',
      '1 ok P:/pros/sub;TARGET=DIRECTORY',
      '1 ok P:/pros/union;TARGET=DIRECTORY',
      '1 ok P:/pros/unix',
      '1 ok P:/pros/unix;OBJECT-VERSION=2',
      '1 ok ftp://127.0.0.1:2121/pub/unix.txt;type=a',
      '1 ok gopher://127.0.0.1:7070/0/hello.txt',
    ]);
    assert.ok(
      rs.filter((r) => r.depth === 1).every((r) => r.parent === `prospero://127.0.0.1:${P}//pros/dir;TARGET=DIRECTORY`),
    );
    // the directory was listed once, its sub-directories not at all
    assert.equal(s.requests.filter((q) => q.includes('\nLIST ')).length, 2); // the directory and its union directory
    assert.ok(!s.requests.some((q) => q.includes("DIRECTORY ASCII '/pros/sub'")));
  });
});

test('--recursive --max-depth 2: a sub-directory and the filtered union directory are followed; a link found there is broken', async () => {
  await withTree(async (s) => {
    const P = s.port;
    const rs = await all(`prospero://127.0.0.1:${P}//pros/dir;TARGET=DIRECTORY`, {
      recursive: true,
      maxDepth: 2,
      retries: 0,
      timeout: 3000,
    });
    const deep = shown(rs, P).filter((l) => l.startsWith('2 '));
    // the union directory's own "unix", hidden in the listing of /pros/dir, is a link of /pros/union
    assert.ok(deep.includes('2 broken P:/pros/other-unix'), deep.join('\n'));
    assert.equal(rs.find((r) => r.url.endsWith('/pros/other-unix'))?.code, 'not-found');
    assert.ok(s.requests.some((q) => q.includes("DIRECTORY ASCII '/pros/sub'")));
  });
});

test('--recursive --max-urls 3: the reading of the directory stops at the limit, with a note', async () => {
  await withTree(async (s) => {
    const P = s.port;
    const rs = await all(`prospero://127.0.0.1:${P}//pros/dir;TARGET=DIRECTORY`, {
      recursive: true,
      maxUrls: 3,
      retries: 0,
      timeout: 3000,
    });
    assert.equal(new Set(rs.map((r) => r.url)).size, 3);
    assert.match(rs[0].notes.join(), /the limit of 3 URLs \(maxUrls\) was reached/);
    assert.ok(!rs.some((r) => r.url.startsWith('ftp:') || r.url.startsWith('gopher:')));
  });
});
