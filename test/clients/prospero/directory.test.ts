// Prospero directories (Prospero v5 3.3 DIRECTORY, 3.5 LIST; RFC 1738 3.11): the request and the
// reading of a reply, by hand from the document; then open() against our Prospero server
// (test/servers/prospero-server.ts) on the tree of ./tree.ts: a link of each kind, union links
// expanded by the client, a forwarded directory, an empty one, and huge ones cut at a typed error.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open } from '../../../src/clients/index.js';
import type { OpenOptions, TranscriptLine } from '../../../src/clients/types.js';
import { LocatorError } from '../../../src/core/errors.js';
import {
  DIRECTORY_TYPE,
  buildListRequest,
  linkUrl,
  namesDirectory,
  parseListReply,
  readEntryLine,
  entryLine,
} from '../../../src/clients/prospero/directory.js';
import { MAX_LINKS, MAX_UNIONS } from '../../../src/clients/prospero/client.js';
import { parse, readAll } from '../../helpers.js';
import { startProsperoServer, type ProsperoServer, type ServerOptions } from '../../servers/prospero-server.js';
import { TREE_OBJECTS, tree } from './tree.js';

const OPTS: OpenOptions = { gateway: false, timeout: 3000 };

async function withTree(o: Partial<ServerOptions>, body: (s: ProsperoServer) => Promise<void>): Promise<void> {
  let port = 0;
  const s = await startProsperoServer({ objects: TREE_OBJECTS, directories: tree(() => port), ...o });
  port = s.port;
  try {
    await body(s);
  } finally {
    await s.close();
  }
}

const code = (c: string) => (e: unknown) => e instanceof LocatorError && e.code === c;

test('Prospero v5 3.3, 3.5: the request, as the historic p_get_dir() sends it (no version when it is 0)', () => {
  assert.equal(
    buildListRequest({ hsoname: '/pros/dir', version: '0' }),
    "VERSION 5\nDIRECTORY ASCII '/pros/dir'\nLIST ATTRIBUTES COMPONENTS\n",
  );
  assert.equal(
    buildListRequest({ hsoname: 'a b', version: '3', remoteId: '7' }),
    "VERSION 5\nDIRECTORY ASCII 'a b' 3\nSELECT OBJECT FIELD ID REMOTE 7\nLIST ATTRIBUTES COMPONENTS\n",
  );
  assert.throws(() => buildListRequest({ hsoname: 'a\0', version: '0' }), code('prospero-unsendable'));
});

test("Prospero v5 3.5.3: LINK lines with the attributes after each; those before the first LINK are the directory's", () => {
  const r = parseListReply(
    [
      'ATTRIBUTE OBJECT FIELD ACCESS-METHOD AFTP INTERNET-D x ASCII /x TEXT',
      "LINK L EXTERNAL 'a b' INTERNET-D h(21) ASCII /p 0 DEST-EXP 19940101000000Z ID REMOTE 3",
      'ATTRIBUTE CACHED FIELD ACCESS-METHOD SEQUENCE AFTP INTERNET-D h(21) ASCII /p BINARY',
      'ATTRIBUTE> LINK FIELD ACCESS-METHOD NFS a b c d',
      'ATTRIBUTE LINK FIELD FILTER FILTER DIRECTORY CLIENT POST PREDEFINED f ARGS 1',
      'ATTRIBUTE LINK APPLICATION NOTE SEQUENCE hi',
      'LINK U DIRECTORY u INTERNET-D h ASCII /u 0',
      'WARNING MESSAGE hello',
      '',
    ].join('\n'),
    10,
  );
  assert.equal(r.links.length, 2);
  assert.deepEqual(r.links[0], {
    linkType: 'L',
    target: 'EXTERNAL',
    name: 'a b',
    hostType: 'INTERNET-D',
    host: 'h(21)',
    hsonameType: 'ASCII',
    hsoname: '/p',
    version: '0',
    accessMethods: [['AFTP', 'INTERNET-D', 'h(21)', 'ASCII', '/p', 'BINARY']],
    filters: [['DIRECTORY', 'CLIENT', 'POST', 'PREDEFINED', 'f', 'ARGS', '1']],
  });
  assert.equal(r.links[1].linkType, 'U');
  assert.deepEqual(r.warnings, ['MESSAGE hello']);
  assert.deepEqual(parseListReply('NONE-FOUND\n', 10).links, []);
});

test('Prospero v5 3.3, 3.5.3.4, 4: failures, UNRESOLVED, a short LINK, and more links than the bound', () => {
  assert.throws(() => parseListReply('FAILURE NOT-A-DIRECTORY\n', 10), code('prospero-not-a-directory'));
  assert.throws(() => parseListReply('FAILURE NOT-FOUND DIRECTORY /x\n', 10), code('not-found'));
  assert.throws(() => parseListReply('ERROR bad\n', 10), code('prospero-failure'));
  assert.throws(() => parseListReply('UNRESOLVED a/b\n', 10), code('protocol-error'));
  assert.throws(() => parseListReply('LINK L FILE a INTERNET-D h ASCII\n', 10), code('protocol-error'));
  assert.throws(() => parseListReply('HELLO\n', 10), code('protocol-error'));
  const three = 'LINK L FILE a INTERNET-D h ASCII /a 0\n'.repeat(3);
  assert.equal(parseListReply(three, 3).links.length, 3);
  assert.throws(() => parseListReply(three, 2), code('prospero-directory-too-large'));
});

test('RFC 1738 3.11: a link as a URL; a directory carries ;TARGET=, which kindOf reads', () => {
  const l = {
    linkType: 'L',
    target: 'DIRECTORY+FILE',
    name: 'd',
    hostType: 'INTERNET-D',
    host: 'h.example(1526)',
    hsonameType: 'ASCII',
    hsoname: '/pros/d',
    version: '0',
    accessMethods: [],
    filters: [],
  };
  const u = linkUrl(l).url!;
  assert.equal(u, 'prospero://h.example:1526//pros/d;TARGET=DIRECTORY+FILE');
  assert.equal(namesDirectory(parse(u)), true);
  assert.equal(namesDirectory(parse('prospero://h.example//pros/d;TARGET=FILE')), false);
  assert.equal(
    linkUrl({ ...l, target: 'FILE', host: 'h.example', version: '4' }).url,
    'prospero://h.example//pros/d;OBJECT-VERSION=4',
  );
  assert.match(linkUrl({ ...l, hsonameType: 'NUMERIC' }).why!, /hsoname type "NUMERIC"/);
  assert.match(linkUrl({ ...l, target: 'EXTERNAL' }).why!, /names no access method/);
  const e = { name: 'a\tb', linkType: 'L', target: 'FILE', host: 'h', url: null, note: 'n\r\n' };
  assert.equal(entryLine(e), 'a b\tL\tFILE\th\t\tn  \n');
  assert.deepEqual(readEntryLine(entryLine(e)), { ...e, name: 'a b', note: 'n  ' });
});

test('Prospero v5 3.5: open() lists a directory: a line per link with its URL, union links expanded, the rest said', async () => {
  await withTree({}, async (s) => {
    const P = s.port;
    const lines: TranscriptLine[] = [];
    const r = await open(`prospero://127.0.0.1:${P}//pros/dir`, { ...OPTS, transcript: (l) => lines.push(l) });
    assert.equal(r.meta.kind, 'listing');
    assert.equal(r.meta.view, 'prospero-directory');
    assert.equal(r.meta.contentType, DIRECTORY_TYPE);
    const text = (await readAll(r.body)).toString();
    assert.equal(r.meta.size, Buffer.byteLength(text));
    const me = `127.0.0.1(${P})`;
    const pu = `prospero://127.0.0.1:${P}/`;
    assert.deepEqual(text.split('\n'), [
      `unix\tL\tFILE\t${me}\t${pu}/pros/unix\t`,
      `sub\tL\tDIRECTORY\t${me}\t${pu}/pros/sub;TARGET=DIRECTORY\t`,
      'unix.txt\tL\tEXTERNAL\t127.0.0.1(2121)\tftp://127.0.0.1:2121/pub/unix.txt;type=a\t',
      'hello\tL\tEXTERNAL\t127.0.0.1(7070)\tgopher://127.0.0.1:7070/0/hello.txt\t',
      'odd name\tL\tEXTERNAL\tfs.example\t\tNFS: the NFS access method needs a mount of the server file system',
      'sym\tL\tSYMBOLIC\tVIRTUAL-SYSTEM ISI.EDU\t\ta symbolic link to /usr/foo in the virtual system ISI.EDU, which this client does not keep',
      'secret\tNULL\tNULL\t\t\tthe server gives no read access to the link (its fields are NULL)',
      `v2\tL\tOBJECT\t${me}\t${pu}/pros/unix;OBJECT-VERSION=2\t`,
      // through the union link: "unix" of the union directory is hidden by the directory's own
      `extra\tL\tFILE\t${me}\t${pu}/pros/extra\tthrough the union link more`,
      `back\tU\tDIRECTORY\t${me}\t${pu}/pros/dir;TARGET=DIRECTORY\tnot expanded: it leads back to a directory already listed; through the union link more`,
      `filtered\tU\tDIRECTORY\t${me}\t${pu}/pros/union;TARGET=DIRECTORY\tnot expanded: the union link carries the filter DIRECTORY CLIENT POST PREDEFINED hide-dotfiles, which this client does not apply`,
      '',
    ]);
    // GET-OBJECT-INFO first (the URL does not say it is a directory; it has no access method),
    // then the listing, then the union directory
    assert.deepEqual(s.requests, [
      "VERSION 5\nGET-OBJECT-INFO ACCESS-METHOD ASCII '/pros/dir' 0\n",
      "VERSION 5\nDIRECTORY ASCII '/pros/dir'\nLIST ATTRIBUTES COMPONENTS\n",
      "VERSION 5\nDIRECTORY ASCII '/pros/union'\nLIST ATTRIBUTES COMPONENTS\n",
    ]);
    assert.ok(lines.some((l) => l.direction === 'info' && l.text.startsWith('the union link more: 3 links')));
  });
});

test('Prospero v5 3.5: a URL with ;TARGET=DIRECTORY is listed at once; a forwarded directory is asked where it went', async () => {
  await withTree({}, async (s) => {
    const r = await open(`prospero://127.0.0.1:${s.port}//pros/moved;TARGET=DIRECTORY`, OPTS);
    const text = (await readAll(r.body)).toString();
    assert.equal(text, `unix\tL\tFILE\t127.0.0.1(${s.port})\tprospero://127.0.0.1:${s.port}//pros/unix\t\n`);
    assert.deepEqual(s.requests, [
      "VERSION 5\nDIRECTORY ASCII '/pros/moved'\nLIST ATTRIBUTES COMPONENTS\n",
      "VERSION 5\nDIRECTORY ASCII '/pros/sub'\nLIST ATTRIBUTES COMPONENTS\n",
    ]);
  });
});

test('Prospero v5 3.5.3.5: an empty directory (NONE-FOUND) is an empty listing', async () => {
  await withTree({}, async (s) => {
    const r = await open(`prospero://127.0.0.1:${s.port}//pros/empty-dir;TARGET=DIRECTORY`, OPTS);
    assert.equal(r.meta.kind, 'listing');
    assert.equal(r.meta.size, 0);
    assert.equal((await readAll(r.body)).length, 0);
  });
});

test('Prospero v5 3.3: an object with no access method that is not a directory is still prospero-no-access-method', async () => {
  const directories = {
    ...tree(() => 0),
    // a server that knows the object by GET-OBJECT-INFO only: NOT-FOUND to DIRECTORY
    '/pros/bare2': () => ['FAILURE NOT-FOUND DIRECTORY /pros/bare2'],
  };
  const objects = { ...TREE_OBJECTS, '/pros/bare': ['NONE-FOUND'], '/pros/bare2': ['NONE-FOUND'] };
  await withTree({ objects, directories }, async (s) => {
    await assert.rejects(open(`prospero://127.0.0.1:${s.port}//pros/bare2`, OPTS), code('prospero-no-access-method'));
    s.requests.length = 0;
    await assert.rejects(open(`prospero://127.0.0.1:${s.port}//pros/bare`, OPTS), code('prospero-no-access-method'));
    assert.match(s.requests[1], /^VERSION 5\nDIRECTORY ASCII '\/pros\/bare'\n/);
    // ;TARGET=DIRECTORY on a file: the server's FAILURE NOT-A-DIRECTORY
    await assert.rejects(
      open(`prospero://127.0.0.1:${s.port}//pros/unix;TARGET=DIRECTORY`, OPTS),
      code('prospero-not-a-directory'),
    );
  });
});

test(`Prospero v5 3.5: a huge directory is a typed error: more than ${MAX_LINKS} links, or a reply over 1 MiB`, async () => {
  // large packets, so that a burst of datagrams does not overflow the loopback socket's buffer
  // (datagrams lost in the burst are sent again: a generous silence limit for a loaded machine)
  const o = { ...OPTS, timeout: 6000 };
  await withTree({ packetSize: 16_000 }, async (s) => {
    await assert.rejects(
      open(`prospero://127.0.0.1:${s.port}//pros/huge;TARGET=DIRECTORY`, o),
      code('prospero-directory-too-large'),
    );
    await assert.rejects(open(`prospero://127.0.0.1:${s.port}//pros/huger;TARGET=DIRECTORY`, o), code('too-large'));
  });
});

test('Prospero v5 A.2.2: union links within union links stop at a depth of 4; one that cannot be listed is an entry with why', async () => {
  let port = 0;
  const chain: Record<string, () => string[]> = {};
  for (let i = 0; i < 7; i++) {
    chain[`/u${i}`] = () => [
      `LINK L FILE f${i} INTERNET-D 127.0.0.1(${port}) ASCII /f${i} 0`,
      `LINK U DIRECTORY next${i} INTERNET-D 127.0.0.1(${port}) ASCII /u${i + 1} 0`,
    ];
  }
  chain['/start'] = () => [
    `LINK U DIRECTORY gone INTERNET-D 127.0.0.1(${port}) ASCII /nowhere 0`,
    `LINK U DIRECTORY chain INTERNET-D 127.0.0.1(${port}) ASCII /u0 0`,
  ];
  const s = await startProsperoServer({ objects: {}, directories: chain });
  port = s.port;
  try {
    const r = await open(`prospero://127.0.0.1:${port}//start;TARGET=DIRECTORY`, OPTS);
    const got = (await readAll(r.body))
      .toString()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => {
        const e = readEntryLine(l)!;
        return `${e.name} ${e.linkType} ${e.note}`;
      });
    assert.deepEqual(got, [
      'gone U not expanded: the Prospero server answered "FAILURE NOT-FOUND DIRECTORY /nowhere" (Prospero v5 4.4) (not-found)',
      'f0 L through the union link chain',
      'f1 L through the union link next0',
      'f2 L through the union link next1',
      'f3 L through the union link next2',
      'next3 U not expanded: more than 4 union links deep; through the union link next2',
    ]);
  } finally {
    await s.close();
  }
});

test(`Prospero v5 A.2.2: at most ${MAX_UNIONS} union directories are listed for one listing; the next union link is an entry that says so`, async () => {
  let port = 0;
  const dirs: Record<string, () => string[]> = {};
  const n = MAX_UNIONS + 1;
  for (let i = 0; i < n; i++) dirs[`/d${i}`] = () => [`LINK L FILE f${i} INTERNET-D 127.0.0.1(${port}) ASCII /f${i} 0`];
  dirs['/start'] = () =>
    Array.from({ length: n }, (_, i) => `LINK U DIRECTORY u${i} INTERNET-D 127.0.0.1(${port}) ASCII /d${i} 0`);
  const s = await startProsperoServer({ objects: {}, directories: dirs });
  port = s.port;
  try {
    const lines: TranscriptLine[] = [];
    const r = await open(`prospero://127.0.0.1:${port}//start;TARGET=DIRECTORY`, {
      ...OPTS,
      transcript: (l) => lines.push(l),
    });
    const got = (await readAll(r.body))
      .toString()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => {
        const e = readEntryLine(l)!;
        return `${e.name} ${e.linkType} ${e.note}`;
      });
    assert.equal(MAX_UNIONS, 32);
    assert.deepEqual(got, [
      ...Array.from({ length: MAX_UNIONS }, (_, i) => `f${i} L through the union link u${i}`),
      `u${MAX_UNIONS} U not expanded: ${MAX_UNIONS} union directories were listed already`,
    ]);
    // The listing and exactly 32 union directories were asked for; the 33rd never was.
    const asked = lines.filter((l) => l.direction === 'info' && /^the union link u\d+: 1 links/.test(l.text));
    assert.equal(asked.length, MAX_UNIONS);
  } finally {
    await s.close();
  }
});
