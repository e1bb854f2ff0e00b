// `locator fetch` of WAIS URLs (RFC 1738 3.9) against locator's WAIS server, and runWaisServe
// (`locator serve --wais DIR`): the headlines, a document, the source description, a diagnostic.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { ROOT, SHARED } from '../helpers.js';
import { startWaisServer, type WaisServer } from '../../src/clients/wais/server.js';
import { runWaisServe } from '../../src/cli/wais-serve.js';
import { UsageError } from '../../src/cli/command.js';
import { open } from '../../src/clients/index.js';
import { messages, replaying, whole } from '../clients/wais/captures.js';

const BIN = join(ROOT, 'dist', 'cli', 'main.js');
const DOCS = join(SHARED, 'fixtures', 'wais', 'docs');

function run(args: string[]): Promise<{ code: number | null; out: Buffer; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH } });
    const out: Buffer[] = [];
    let err = '';
    p.stdout.on('data', (d) => out.push(d));
    p.stderr.on('data', (d) => {
      err += d;
    });
    p.stdin.end();
    p.on('close', (code) => resolve({ code, out: Buffer.concat(out), err }));
  });
}

let server: WaisServer;
before(async () => {
  server = await startWaisServer({ dir: DOCS, database: 'demo' });
});
after(() => server.close());

test('fetch wais://host:port/database?search prints the headlines: score, size, type, headline, URL (TAB-separated)', async () => {
  const r = await run(['fetch', `wais://127.0.0.1:${server.port}/demo?burrow`]);
  assert.equal(r.code, 0, r.err);
  const lines = r.out.toString().split('\n');
  assert.equal(lines.pop(), '', 'every line ends with LF');
  assert.deepEqual(
    lines.map((l) => l.split('\t').slice(1, 4)),
    [
      ['636', 'TEXT', 'Notes on pocket gophers'],
      ['552', 'TEXT', 'Notes on ferrets'],
    ],
  );
  // Each URL is fetched in turn: the document, byte for byte.
  const url = lines[1].split('\t')[4];
  const d = await run(['fetch', url]);
  assert.equal(d.code, 0, d.err);
  assert.ok(d.out.equals(readFileSync(join(DOCS, 'ferrets.txt'))));
});

test('fetch wais://host:port/database prints the source description', async () => {
  const r = await run(['fetch', `wais://127.0.0.1:${server.port}/demo`]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out.toString(), /^\(:source[\s\S]*:database-name "demo"/);
});

test('fetch of an unknown database: exit 3, the diagnostic text on standard error', async () => {
  const r = await run(['fetch', `wais://127.0.0.1:${server.port}/nosuch?burrow`]);
  assert.equal(r.code, 3);
  assert.match(r.err, /not available: nosuch/);
  assert.equal(r.out.length, 0);
});

function io() {
  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (d) => (err += d));
  return {
    io: { stdin: new PassThrough(), stdout: new PassThrough(), stderr, stderrIsTTY: false, env: {} },
    err: () => err,
  };
}

test('runWaisServe (serve --wais DIR --port 0): names the database after the folder, serves until stopped, exit 0', async () => {
  const { io: streams, err } = io();
  const stop = new AbortController();
  const running = runWaisServe({ wais: DOCS, port: '0' }, streams, stop.signal);
  for (let i = 0; i < 100 && !/:\d+\//.test(err()); i++) await new Promise((r) => setTimeout(r, 20));
  const m = /at (wais:\/\/127\.0\.0\.1:\d+\/docs)/.exec(err());
  assert.ok(m, err());
  const r = await open(`${m[1]}?forecast`, { gateway: false, timeout: 5000 });
  assert.match(Buffer.from(await new Response(r.body).arrayBuffer()).toString(), /Weather notes/);
  stop.abort();
  assert.equal(await running, 0);
});

for (const [what, values] of [
  ['no folder', { port: '0' }],
  ['a folder that does not exist', { wais: join(DOCS, 'nosuch') }],
  ['a file, not a folder', { wais: join(DOCS, 'ferrets.txt') }],
  ['a port out of range', { wais: DOCS, port: '70000' }],
  ['an empty database name', { wais: DOCS, database: '' }],
] as const) {
  test(`runWaisServe: ${what} is a usage error`, async () => {
    await assert.rejects(runWaisServe(values, io().io), UsageError);
  });
}

test("fetch: a WAIS diagnostic beside a partial answer (freeWAIS's S1 for the search ?) goes to standard error; the answer to standard output, exit 0", async () => {
  const fake = await replaying(messages('08-help-query-diagnostic.s2c.bin').map(whole));
  try {
    const r = await run(['fetch', `wais://127.0.0.1:${fake.port}/demo?%3F`]);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, 'locator fetch: the server reports S1: query syntax error: ?\n');
    assert.deepEqual(
      r.out
        .toString()
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => l.split('\t')[3]),
      ['Information on database: demo', 'Catalog for database: demo'],
    );
  } finally {
    await fake.close();
  }
});

test('runWaisServe --database "a/b c": the URL printed is one the client opens (the name escaped: a%2Fb%20c), searches and describes', async () => {
  const { io: streams, err } = io();
  const stop = new AbortController();
  const running = runWaisServe({ wais: DOCS, port: '0', database: 'a/b c' }, streams, stop.signal);
  try {
    for (let i = 0; i < 100 && !/:\d+\//.test(err()); i++) await new Promise((r) => setTimeout(r, 20));
    const m = /at (wais:\/\/127\.0\.0\.1:\d+\/\S+)\n/.exec(err());
    assert.ok(m, err());
    assert.match(m[1], /\/a%2Fb%20c$/);
    const hits = await open(`${m[1]}?forecast`, { gateway: false, timeout: 5000 });
    assert.match(Buffer.from(await new Response(hits.body).arrayBuffer()).toString(), /Weather notes/);
    const src = await open(m[1], { gateway: false, timeout: 5000 });
    assert.match(Buffer.from(await new Response(src.body).arrayBuffer()).toString(), /:database-name "a\/b c"/);
  } finally {
    stop.abort();
  }
  assert.equal(await running, 0);
});

test('runWaisServe: a database name beyond Latin-1 (the name travels as bytes) is a usage error naming it', async () => {
  await assert.rejects(
    // Stopped at once should it start (a failure, never a hang).
    runWaisServe({ wais: DOCS, port: '0', database: 'caf\u00e9\u65e5' }, io().io, AbortSignal.abort()),
    (e: unknown) => e instanceof UsageError && /Latin-1/.test(e.message) && e.message.includes('caf\u00e9\u65e5'),
  );
});
