// The faces of the clients (src/clients/client-face.ts, builtin-faces.ts, face-of.ts): one per built-in scheme
// with a client, cheap to load (the protocol modules load when a URL is first opened), asked by
// open(), probe(), connect(), the checker, `locator fetch` and the gateway instead of the name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUILTIN_FACES } from '../../src/clients/builtin-faces.js';
import {
  faceOf,
  kindOfUrl,
  interactiveSchemes,
  retrievableSchemes,
  gatewaySchemes,
} from '../../src/clients/face-of.js';
import { open } from '../../src/clients/index.js';
import { BUILTIN_SCHEMES } from '../../src/schemes/builtin.js';
import { ROOT, parse } from '../helpers.js';

const GOPHER = 'gopher://127.0.0.1:7070';
const FTP = 'ftp://127.0.0.1:2121';

/** The node: modules a fresh process has loaded after importing these built modules of src/. */
function builtinsLoadedBy(...modules: string[]): string[] {
  const urls = modules.map((m) => pathToFileURL(join(ROOT, '.build', 'src', m)).href);
  const script = `for (const u of ${JSON.stringify(urls)}) await import(u);
console.log(JSON.stringify(process.moduleLoadList.filter((m) => /^NativeModule (net|tls|http|https|dns|dgram|fs\\/promises)$/.test(m))));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as string[];
}

test('the table of faces loads no protocol module: node:net and the rest load when a URL is first opened', () => {
  assert.deepEqual(builtinsLoadedBy('clients/builtin-faces.js', 'clients/face-of.js'), []);
  // The same check sees a client that is loaded with the table.
  assert.ok(builtinsLoadedBy('clients/builtin-faces.js', 'clients/ftp/client.js').includes('NativeModule net'));
});

test('RFC 1738 4: every built-in scheme with an access algorithm has a face; mid, cid and afs have none', () => {
  const names = BUILTIN_SCHEMES.map((s) => s.name).filter((n) => !['mid', 'cid', 'afs'].includes(n));
  assert.deepEqual(Object.keys(BUILTIN_FACES).sort(), names.sort());
  for (const [name, face] of Object.entries(BUILTIN_FACES)) {
    assert.ok(face.kinds.length > 0, `${name}: its kinds of object`);
    assert.ok((face.open === undefined) !== (face.session === undefined), `${name}: open() or a session, not both`);
    assert.ok(face.steps !== undefined && face.probe !== undefined, `${name}: a probe and its steps`);
  }
  assert.deepEqual(interactiveSchemes(), ['telnet', 'rlogin', 'tn3270']);
});

test("the lists of schemes that `locator fetch --help` and the gateway's home page print are read from the faces", () => {
  // Every face that opens, but mailto's (a mailbox: its open() says so).
  assert.deepEqual(retrievableSchemes(), [
    'ftp',
    'http',
    'https',
    'gopher',
    'news',
    'nntp',
    'wais',
    'file',
    'prospero',
  ]);
  assert.deepEqual(
    gatewaySchemes().map((l) => `${l.schemes.join(' ')}: ${l.shows}`),
    [
      'ftp: directories and files',
      'gopher: menus, documents, type 7 searches, Gopher+ forms',
      'mailto telnet rlogin tn3270: the command to run',
      'news nntp: groups and articles (news: from the news server of --nntp-server or NNTPSERVER)',
      'wais: searches and documents',
      'prospero: objects (through their access method) and directories',
    ],
  );
});

for (const [url, kind] of [
  [`${GOPHER}/1/files`, 'menu'],
  [`${GOPHER}/7/search`, 'search'],
  [`${GOPHER}/1sel%09%09!`, 'document'],
  [`${GOPHER}/0/hello.txt`, 'document'],
  [`${GOPHER}/8host`, 'session'],
  [`${FTP}/pub/`, 'listing'],
  [`${FTP}/pub;type=d`, 'listing'],
  [`${FTP}/pub/hello.txt`, 'document'],
  [FTP, 'document'], // no "/" after the host: no name, not a directory URL (RFC 1738 3.2.2)
  ['wais://h/db', 'search'],
  ['wais://h/db/TEXT/doc', 'document'],
  ['telnet://h/', 'session'],
  ['http://h/', 'document'],
  ['mid:a@b', 'document'],
] as const) {
  test(`kindOfUrl: ${url} designates a ${kind} (RFC 1738 3)`, () => {
    assert.equal(kindOfUrl(parse(url)), kind);
  });
}

test('open() names what it retrieved by the face: a Gopher menu, an FTP listing, a document (meta.kind, meta.view)', async () => {
  const seen: Array<[string | undefined, string | null | undefined]> = [];
  for (const url of [`${GOPHER}/1/`, `${FTP}/`, `${GOPHER}/0/hello.txt`]) {
    const r = await open(url, { gateway: false, policy: { allowPorts: [2121, 7070] } });
    await r.body.cancel();
    seen.push([r.meta.kind, r.meta.view]);
  }
  assert.deepEqual(seen, [
    ['menu', 'gopher-menu'],
    ['listing', 'ftp-listing'],
    ['document', null],
  ]);
});

test('a scheme registered with its own client brings its face through its entry alone (x-finger, RFC 1738 4)', async () => {
  const { registerScheme, unregisterScheme } = await import('../../src/schemes/registry.js');
  const open = async () => ({ meta: {}, body: new ReadableStream() });
  registerScheme({
    name: 'x-face',
    defaultPort: 1,
    syntax: 'internet',
    status: 'later',
    client: async () => ({ open }),
  });
  try {
    const face = faceOf(parse('x-face://h/'));
    assert.ok(face.open !== undefined && face.session === undefined && face.probe === undefined);
    assert.deepEqual(face.kinds, ['document']);
    assert.equal(kindOfUrl(parse('x-face://h/')), 'document');
  } finally {
    unregisterScheme('x-face');
  }
});

test("the face table is keyed by the built-in schemes' names: a misspelt name does not compile", () => {
  // @ts-expect-error: "fpt" is not the name of a built-in scheme (BuiltinSchemeName, src/schemes/builtin.ts)
  const misspelt: typeof BUILTIN_FACES = { fpt: BUILTIN_FACES.ftp };
  assert.equal(Object.keys(misspelt).length, 1);
});
