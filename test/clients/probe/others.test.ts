// The wais, prospero and file probes (issue 18; RFC 1738 3.9, 3.11, 3.10), the probe of a scheme
// registered by a user (its own, or open() and the first bytes), and what every probe shares:
// a URL the policy refuses is `refused` and connects to nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probe, explainProbe, statusOf } from '../../../src/clients/index.js';
import { registerScheme, unregisterScheme } from '../../../src/schemes/registry.js';
import type { SchemeSpec } from '../../../src/schemes/spec.js';
import { startWaisServer, type WaisServer } from '../../../src/clients/wais/server.js';
import { startProsperoServer, type ProsperoServer } from '../../servers/prospero-server.js';
import { LocatorError } from '../../../src/core/errors.js';
import { NOT_FOUND, TIMEOUT, CONNECT_FAILED } from '../../../src/clients/types.js';
import { FtpReplyError } from '../../../src/clients/ftp/errors.js';
import { eachRow } from '../../helpers.js';
import { DOCS_DIR } from '../wais/captures.js';
import { OPTS, closedPort, countingServer, sent } from './common.js';

let wais: WaisServer;
let pros: ProsperoServer;
let dir: string;
before(async () => {
  wais = await startWaisServer({ dir: DOCS_DIR, database: 'demo' });
  pros = await startProsperoServer({
    objects: {
      '/pros/hello': ["ATTRIBUTE OBJECT FIELD ACCESS-METHOD GOPHER INTERNET-D 127.0.0.1(7070) ASCII '/hello.txt' 0"],
      '/pros/dir': ['NONE-FOUND'],
    },
  });
  dir = mkdtempSync(join(tmpdir(), 'locator-probe-'));
  writeFileSync(join(dir, 'here.txt'), 'here\n');
});
after(async () => {
  await wais.close();
  await pros.close();
});

test('RFC 1738 3.9: a wais database and a search are ok; an unknown database is broken (its diagnostic)', async () => {
  const w = `wais://127.0.0.1:${wais.port}`;
  for (const url of [`${w}/demo`, `${w}/demo?burrow`]) {
    const r = await probe(url, OPTS);
    assert.equal(r.status, 'ok', `${url}: ${r.reason}`);
    assert.deepEqual(
      sent(r.transcript).map((l) => l.split(' ')[0]),
      ['InitRequest', 'search'],
      'Init and the search; no retrieval',
    );
  }
  const r = await probe(`${w}/nodb?x`, OPTS);
  assert.equal(r.status, 'broken', r.reason);
  assert.equal(r.code, 'wais-diagnostic');
  assert.ok(r.reply !== undefined && r.reply !== '', 'the diagnostic code is the reply');
  const closed = await probe(`wais://127.0.0.1:${await closedPort()}/demo`, OPTS);
  assert.equal(closed.status, 'unreachable');
});

test('RFC 1738 3.11: a prospero object the server knows is ok, its access URL not retrieved; NOT-FOUND is broken', async () => {
  const p = `prospero://127.0.0.1:${pros.port}`;
  const r = await probe(`${p}//pros/hello`, OPTS);
  assert.equal(r.status, 'ok', r.reason);
  assert.deepEqual(r.redirects, []);
  assert.match(r.reason, /1 access method, 1 of them a URL/);
  assert.equal((await probe(`${p}//pros/dir`, OPTS)).status, 'ok');
  const missing = await probe(`${p}//pros/nope`, OPTS);
  assert.equal(missing.status, 'broken', missing.reason);
  assert.equal(missing.code, 'not-found');
});

test('RFC 1738 3.10: a local file that exists is ok, one that does not is broken (ENOENT)', async () => {
  const ok = await probe(`file://${dir}/here.txt`, OPTS);
  assert.equal(ok.status, 'ok', ok.reason);
  assert.equal((await probe(`file://localhost${dir}/`, OPTS)).status, 'ok');
  const missing = await probe(`file://${dir}/gone.txt`, OPTS);
  assert.deepEqual([missing.status, missing.code, missing.reply], ['broken', 'not-found', 'ENOENT']);
  assert.deepEqual(explainProbe(`file://${dir}/here.txt`), [
    `open ${dir}/here.txt: a document for reading (no octet read), a directory for listing`,
  ]);
});

test('issue 18: explainProbe(wais, prospero) is Init and the search, and the directory lookup', () => {
  assert.deepEqual(explainProbe('wais://h.example/db').slice(1), [
    'init (InitRequest: Z39.50-1988 with the WAIS extensions, RFC 1625)',
    'search db with no words (SearchRequest, query type 3: Database-Names "db"): the answer names its source description',
    'close',
  ]);
  assert.deepEqual(explainProbe('prospero://h.example/a/b'), [
    'VERSION 5',
    "GET-OBJECT-INFO ACCESS-METHOD ASCII 'a/b' 0",
    'the object is there when the reply names an access method',
  ]);
});

test('RFC 1738 5 (fileurl): the steps of a file URL of this machine with no path open nothing', () => {
  assert.deepEqual(explainProbe('file://'), ['nothing is opened: the file URL names no path (RFC 1738 3.10)']);
});

test('RFC 1738 3.10: a file URL of another host is probed as its ftp URL', () => {
  assert.deepEqual(explainProbe('file://ftp.example/pub/x.txt'), [
    'the file is on ftp.example: its ftp URL is probed (RFC 1738 3.10)',
  ]);
});

// The policy is asked before anything is sent (RFC 1738 6): a server that counts connections
// sees none. url (PORT is the counting server's) | section
const REFUSED: Array<[string, string]> = [
  ['ftp://127.0.0.1:PORT/x.txt', 'RFC 1738 6'],
  ['http://127.0.0.1:PORT/', 'RFC 1738 6'],
  ['gopher://127.0.0.1:PORT/', 'RFC 1738 6'],
  ['nntp://127.0.0.1:PORT/g.x', 'RFC 1738 6'],
  ['telnet://127.0.0.1:PORT', 'RFC 1738 6'],
  ['rlogin://127.0.0.1:PORT', 'RFC 1738 6'],
  ['tn3270://127.0.0.1:PORT', 'RFC 1738 6'],
  ['wais://127.0.0.1:PORT/db', 'RFC 1738 6'],
  ['prospero://127.0.0.1:PORT/x', 'RFC 1738 6'],
  ['file:///etc/passwd', 'RFC 1738 6'],
];

eachRow(
  'a refused URL connects to nothing',
  REFUSED,
  async ([pattern]) => {
    const s = await countingServer();
    try {
      const url = pattern.replace('PORT', String(s.port));
      const r = await probe(url, { ...OPTS, policy: { refusePrivateAddresses: true } });
      assert.equal(r.status, 'refused', r.reason);
      assert.equal(r.code, 'policy-refused');
      assert.deepEqual(r.transcript, []);
      assert.equal(s.count(), 0);
    } finally {
      await s.close();
    }
  },
  { section: (row) => row[1] },
);

test('RFC 1738 6: a reserved port is refused by the default policy, before any connection', async () => {
  const r = await probe('http://127.0.0.1:25/', OPTS);
  assert.equal(r.status, 'refused');
  assert.deepEqual(r.transcript, []);
});

const spec = (name: string, extra: Partial<SchemeSpec>): SchemeSpec =>
  ({ name, defaultPort: null, syntax: 'internet', status: 'later', ...extra }) as SchemeSpec;

test('issue 18: a scheme registered with its own probe is probed by it', async () => {
  const seen: string[] = [];
  registerScheme(
    spec('x-probed', {
      probe: async () => ({
        probe: async (u: { href: string }) => {
          seen.push(u.href);
          return { status: 'broken', reason: 'gone', temporary: false, redirects: [], transcript: [], ms: 0 };
        },
      }),
    }),
  );
  try {
    const r = await probe('x-probed://h.example/a', OPTS);
    assert.deepEqual([r.status, r.reason], ['broken', 'gone']);
    assert.deepEqual(seen, ['x-probed://h.example/a']);
    assert.match(explainProbe('x-probed://h.example/a')[0], /the probe of the x-probed scheme's entry/);
  } finally {
    unregisterScheme('x-probed');
  }
});

test('issue 18: a scheme registered with only a client is opened, its first bytes read, the rest cancelled', async () => {
  let cancelled = false;
  let pulls = 0;
  registerScheme(
    spec('x-opened', {
      client: async () => ({
        open: async () => ({
          meta: { scheme: 'x-opened', url: '', size: null, contentType: null, transcript: [] },
          body: new ReadableStream<Uint8Array>({
            pull(c) {
              pulls++;
              c.enqueue(new Uint8Array(10));
            },
            cancel() {
              cancelled = true;
            },
          }),
        }),
      }),
    }),
  );
  try {
    const r = await probe('x-opened://h.example/a', OPTS);
    assert.equal(r.status, 'ok', r.reason);
    assert.match(r.reason, /10 octets read/);
    assert.ok(cancelled, 'the endless body is cancelled');
    assert.ok(pulls <= 2);
  } finally {
    unregisterScheme('x-opened');
  }
});

// error | status | temporary | section
const STATUSES: Array<[string, () => LocatorError, string, boolean, string]> = [
  ['connect refused', () => new LocatorError(CONNECT_FAILED, -1, 'refused'), 'unreachable', false, 'issue 18'],
  ['timeout', () => new LocatorError(TIMEOUT, -1, 'slow'), 'unreachable', true, 'issue 18'],
  ['not found', () => new LocatorError(NOT_FOUND, -1, 'gone'), 'broken', false, 'issue 18'],
  [
    'FTP 450',
    () => new FtpReplyError({ code: 450, text: 'busy', lines: ['450 busy'] } as never, 'SIZE x'),
    'broken',
    true,
    'RFC 959 4.2',
  ],
  [
    'FTP 550',
    () => new FtpReplyError({ code: 550, text: 'no', lines: ['550 no'] } as never, 'SIZE x'),
    'broken',
    false,
    'RFC 959 4.2',
  ],
];

eachRow(
  'statusOf',
  STATUSES,
  ([, make, status, temporary]) => {
    const r = statusOf(make());
    assert.equal(r.status, status);
    assert.equal(r.temporary, temporary);
  },
  { section: (row) => row[4] },
);

test('issue 18: statusOf throws on what is not a LocatorError (API misuse)', () => {
  assert.throws(() => statusOf(new TypeError('bad option')), TypeError);
});
