// A scheme that is not in the specs, registered through the public API alone (issue 11; RFC 1738
// section 4): examples/x-finger.mjs, the Finger protocol of RFC 1288 as `x-finger://host[:port]/user`.
// Everything here is imported from the package by its name (`locator`, `locator/clients`: dist/),
// as a user of the package would, and the scheme module imports the same; parse, build, explain,
// lint, normalize, resolve, open() and `locator fetch` handle it through the registry alone.
// open() runs against Debian's in.fingerd on 127.0.0.1:7079 (test/servers/finger.sh), whose
// capture keeps the bytes of every request line in $LOCATOR_TEST_SERVERS/finger/requests.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { readdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  parse,
  build,
  explain,
  lint,
  normalize,
  resolve,
  isHierarchical,
  registerScheme,
  unregisterScheme,
  getScheme,
  LocatorError,
  PolicyError,
  type SchemeSpec,
  type Url,
} from 'locator';
import { open } from 'locator/clients';
import { ROOT, serversDir, readAll, runCli } from '../helpers.js';

interface FingerFields {
  user: string;
  verbose: boolean;
}

const MODULE = join(ROOT, 'examples', 'x-finger.mjs');
const PORT = 7079;
const AT = `x-finger://127.0.0.1:${PORT}`;
let finger: SchemeSpec<FingerFields>;

before(async () => {
  finger = ((await import(pathToFileURL(MODULE).href)) as { default: SchemeSpec<FingerFields> }).default;
});

const codes = (u: Url) => u.violations.map((d) => `${d.code}@${d.offset}`).join(' ');

test('before registration x-finger is only an experimental name, read with the generic syntax', () => {
  assert.equal(getScheme('x-finger'), undefined);
  const u = parse('x-finger://h.com/root');
  assert.equal(codes(u), 'experimental-scheme@0');
  assert.equal(u.port, null);
  assert.deepEqual(u.fields, { schemePart: '//h.com/root' });
  // Unknown to lint: an escaped CR LF is only the generic warning.
  assert.deepEqual(
    lint('x-finger://h/a%0D%0Ab').map((d) => `${d.code}@${d.offset}`),
    ['experimental-scheme@0', 'encoded-control@14', 'encoded-control@17'],
  );
});

test('registerScheme takes the entry of examples/x-finger.mjs', () => {
  registerScheme(finger);
  assert.equal(getScheme('x-finger')?.defaultPort, 79);
  assert.throws(
    () => registerScheme(finger),
    (e: unknown) => e instanceof LocatorError && e.code === 'scheme-clash',
  );
});

// [input, fields, violations (code@offset), why]
const ROWS: ReadonlyArray<readonly [string, FingerFields, string, string]> = [
  ['x-finger://h.com/root', { user: 'root', verbose: false }, '', 'RFC 1288 2.3 {Q1}: a user'],
  ['x-finger://h.com/', { user: '', verbose: false }, '', 'RFC 1288 2.5.1: the empty query'],
  ['x-finger://h.com', { user: '', verbose: false }, '', 'RFC 1288 2.5.1: no path is the empty query too'],
  ['x-finger://h.com/root;W', { user: 'root', verbose: true }, '', 'RFC 1288 2.3 {W}: the verbose switch'],
  ['x-finger://h.com/;W', { user: '', verbose: true }, '', 'RFC 1288 2.3 {W} alone'],
  ['x-finger://h.com/J%2eDoe', { user: 'J.Doe', verbose: false }, '', 'RFC 1738 2.2: escapes decode'],
  ['x-finger://h.com/a/b', { user: 'a/b', verbose: false }, 'invalid-char@18', 'no further path segment'],
  ['x-finger://h.com/a@b', { user: 'a@b', verbose: false }, 'invalid-char@18', 'RFC 1288 {Q2}: "@" would forward'],
  ['x-finger://h.com/a%40b', { user: 'a@b', verbose: false }, 'invalid-char@18', 'RFC 1288 {Q2}: an escaped "@" too'],
  [
    'x-finger://h.com/a%20b',
    { user: 'a b', verbose: false },
    'invalid-char@18',
    'RFC 1288 {S}: a space separates tokens',
  ],
  ['x-finger://h.com/%2FW', { user: '/W', verbose: false }, 'invalid-char@17', 'RFC 1288 {W}: "/" starts a token'],
  ['x-finger://h.com/root;X', { user: 'root;X', verbose: false }, 'invalid-char@21', 'only ";W"'],
  ['x-finger://h.com/a?b', { user: 'a?b', verbose: false }, 'invalid-char@18', 'RFC 1738 2.2: reserved'],
  [
    'x-finger://me@h.com/root',
    { user: 'root', verbose: false },
    'unexpected-login@11',
    'no login: the user is the path',
  ],
  [
    '<URL:x-finger://h.com/a@b>',
    { user: 'a@b', verbose: false },
    'invalid-char@23',
    'offsets count the input as given',
  ],
];
for (const [input, want, wantCodes, why] of ROWS) {
  test(`parse ${JSON.stringify(input)} (${why})`, () => {
    const u = parse(input);
    assert.equal(u.scheme, 'x-finger');
    assert.equal(u.port, 79);
    assert.deepEqual({ ...u.fields }, want);
    assert.equal(codes(u), wantCodes);
    assert.equal(u.valid, wantCodes === '');
  });
}

test('parse: an explicit port, and characters the parser itself reports', () => {
  assert.equal(parse(`${AT}/root`).port, PORT);
  assert.equal(codes(parse('x-finger://h.com/a b')), 'unsafe-char@18');
});

test('build writes the fields back, encoding what must be encoded; refuses what one query cannot carry', () => {
  assert.equal(build('x-finger', { host: 'h.com', user: 'root' }), 'x-finger://h.com/root');
  assert.equal(
    build('x-finger', { host: 'h.com', port: 7079, user: 'root', verbose: true }),
    'x-finger://h.com:7079/root;W',
  );
  assert.equal(build('x-finger', { host: 'h.com', port: 79 }), 'x-finger://h.com');
  assert.equal(build('x-finger', { host: 'h.com', user: 'J;D' }), 'x-finger://h.com/J%3BD');
  for (const [input] of ROWS.filter((r) => r[2] === '' && !r[0].includes('%'))) {
    const u = parse(input);
    assert.equal(build('x-finger', { host: u.host, ...u.fields }), input.replace(/\/$/, ''));
  }
  for (const bad of [
    { host: 'h', user: 'a b' },
    { host: 'h', user: 'a@b' },
    { host: 'h', user: 'a\r\nb' },
    { user: 'root' },
    { host: 'h', user: 7 },
  ]) {
    assert.throws(
      () => build('x-finger', bad),
      (e: unknown) => e instanceof LocatorError && e.code === 'invalid-field',
      JSON.stringify(bad),
    );
  }
});

test('explain gives the exact bytes of the query (RFC 1288 2.3)', () => {
  const x = explain(`${AT}/root`);
  assert.deepEqual(
    { protocol: x.protocol, host: x.host, port: x.port, steps: x.steps },
    { protocol: 'finger', host: '127.0.0.1', port: PORT, steps: ['root<CR><LF>'] },
  );
  assert.deepEqual(explain('x-finger://h.com/').steps, ['<CR><LF>']);
  assert.deepEqual(explain('x-finger://h.com/root;W').steps, ['/W root<CR><LF>']);
  assert.deepEqual(explain('x-finger://h.com/;W').steps, ['/W<CR><LF>']);
  assert.match(explain('x-finger://h.com').notes.join('\n'), /empty query/);
});

test("lint: an escaped CR, LF or NUL in the user is an encoded-delimiter error, from the entry's wire()", () => {
  const ds = lint('x-finger://h/a%0D%0Ab%00');
  assert.deepEqual(
    ds.map((d) => `${d.code}@${d.offset}:${d.severity}`),
    ['encoded-delimiter@14:error', 'encoded-delimiter@17:error', 'encoded-delimiter@21:error'],
  );
  assert.match(ds[0].message, /the user name decodes to CR/);
  assert.deepEqual(lint('x-finger://h/root%09;W'), []);
  // The offsets count the input as given.
  assert.deepEqual(
    lint('<URL:x-finger://h/a%0Ab>').map((d) => `${d.code}@${d.offset}`),
    ['encoded-delimiter@19'],
  );
});

test('normalize: the generic rules for host and port, the path as written', () => {
  assert.equal(normalize('X-FINGER://H.COM:79/root'), 'x-finger://h.com/root');
  assert.equal(normalize('x-finger://h.com:7079/root;W'), 'x-finger://h.com:7079/root;W');
  assert.equal(normalize('x-finger://h.com/%72oot'), 'x-finger://h.com/%72oot');
});

test('resolve: the path is no hierarchy, so a relative path is the typed error; absolute forms work', () => {
  const base = 'x-finger://h.com/root';
  assert.equal(isHierarchical(base), false);
  assert.throws(
    () => resolve(base, 'other'),
    (e: unknown) => e instanceof LocatorError && e.code === 'non-hierarchical-base',
  );
  assert.equal(resolve(base, '/other'), 'x-finger://h.com/other');
  assert.equal(resolve(base, '//k.org/x'), 'x-finger://k.org/x');
  assert.equal(resolve(base, 'x-finger://k.org/y'), 'x-finger://k.org/y');
});

/** The request lines in.fingerd got, oldest first (file names start with the time in ns). */
function captured(): string[] {
  return readdirSync(join(serversDir(), 'finger', 'requests'))
    .filter((f) => !f.endsWith('.part'))
    .sort();
}

/** Opens `url` and returns the reply, the transcript and the one request line in.fingerd got. */
async function fingerOnce(url: string): Promise<{ reply: string; request: string; sent: string[] }> {
  const was = new Set(captured());
  const r = await open(url, { transcript: true, timeout: 10_000 });
  const reply = (await readAll(r.body)).toString('latin1');
  const added = captured().filter((f) => !was.has(f));
  assert.equal(added.length, 1, `one connection reached in.fingerd for ${url}, got ${added.length}`);
  const request = readFileSync(join(serversDir(), 'finger', 'requests', added[0])).toString('latin1');
  return { reply, request, sent: r.meta.transcript.filter((l) => l.direction === 'send').map((l) => l.text) };
}

const shown = (bytes: string) => bytes.replace(/\r/g, '<CR>').replace(/\n/g, '<LF>').replace(/\0/g, '<NUL>');

test("open(): in.fingerd answers for root; the request it got is explain's step, byte for byte", async () => {
  const url = `${AT}/root`;
  const { reply, request, sent } = await fingerOnce(url);
  assert.match(reply, /Login: root\b/);
  assert.equal(request, 'root\r\n');
  assert.deepEqual([shown(request)], explain(url).steps);
  assert.deepEqual(sent, explain(url).steps);
});

test('open(): the empty query lists the users logged in (RFC 1288 2.5.1)', async () => {
  const url = `${AT}/`;
  const { reply, request } = await fingerOnce(url);
  assert.match(reply, /No one logged on|Login\s+Name/);
  assert.equal(request, '\r\n');
  assert.deepEqual([shown(request)], explain(url).steps);
});

test('open(): ";W" sends "/W root" (RFC 1288 2.5.2)', async () => {
  const url = `${AT}/root;W`;
  const { reply, request } = await fingerOnce(url);
  assert.match(reply, /Login: root\b/);
  assert.equal(request, '/W root\r\n');
  assert.deepEqual([shown(request)], explain(url).steps);
});

test('open(): the policy refuses before any connection (encoded CR LF; a private address on request)', async () => {
  const was = captured().length;
  await assert.rejects(
    open(`${AT}/root%0D%0Aadmin`),
    (e: unknown) => e instanceof PolicyError && e.diagnostic.code === 'encoded-delimiter' && e.offset === 30,
  );
  await assert.rejects(
    open(`${AT}/root`, { policy: { refusePrivateAddresses: true } }),
    (e: unknown) => e instanceof PolicyError && e.diagnostic.code === 'private-address',
  );
  assert.equal(captured().length, was, 'no connection reached in.fingerd');
});

/** A listener on an ephemeral loopback port that reads and never answers; counts connections. */
async function silentServer(): Promise<{ server: Server; port: number; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((s) => {
    sockets.push(s);
    s.on('error', () => {});
    s.resume(); // read and drop what the client sends, so that its end is seen
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as { port: number }).port, sockets };
}

test('open(): timeout, abort and maxBytes end with their typed errors', async () => {
  const { server, port, sockets } = await silentServer();
  try {
    const r = await open(`x-finger://127.0.0.1:${port}/root`, { timeout: 100 });
    await assert.rejects(readAll(r.body), (e: unknown) => e instanceof LocatorError && e.code === 'timeout');
    const ac = new AbortController();
    const r2 = await open(`x-finger://127.0.0.1:${port}/root`, { signal: ac.signal });
    ac.abort();
    await assert.rejects(readAll(r2.body), (e: unknown) => e instanceof LocatorError && e.code === 'aborted');
    await assert.rejects(
      open(`x-finger://127.0.0.1:${port}/root`, { signal: AbortSignal.abort() }),
      (e: unknown) => e instanceof LocatorError && e.code === 'aborted',
    );
    assert.equal(sockets.length, 2, 'an aborted signal opens no connection');
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  }
  // Nothing listens there any more.
  await assert.rejects(
    open(`x-finger://127.0.0.1:${port}/root`),
    (e: unknown) => e instanceof LocatorError && e.code === 'connect-failed',
  );
  const r3 = await open(`${AT}/root`, { maxBytes: 10 });
  await assert.rejects(readAll(r3.body), (e: unknown) => e instanceof LocatorError && e.code === 'too-large');
});

test('open(): a reader that cancels the body ends the connection; nothing fails later', async () => {
  const { server, port, sockets } = await silentServer();
  try {
    const r = await open(`x-finger://127.0.0.1:${port}/root`);
    const closed = new Promise(
      (done) => sockets[0]?.once('close', done) ?? server.once('connection', (s) => s.once('close', done)),
    );
    await r.body.cancel();
    await closed;
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  }
  const { reply } = await fingerOnce(`${AT}/root`);
  assert.match(reply, /Login: root\b/);
});

test('open(): a reader slower than the timeout is no timeout; only a silent server is', async () => {
  const big = Buffer.alloc(4 << 20, 0x61);
  const server = createServer((s) => {
    s.on('error', () => {});
    s.resume();
    s.end(big);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const port = (server.address() as { port: number }).port;
    const r = await open(`x-finger://127.0.0.1:${port}/root`, { timeout: 100 });
    await new Promise((done) => setTimeout(done, 500)); // the reader waits; the server has sent all it had
    assert.equal((await readAll(r.body)).length, big.length);
  } finally {
    await new Promise((r) => server.close(r));
  }
});

const cli = runCli;

test('locator fetch --scheme examples/x-finger.mjs fetches from in.fingerd', async () => {
  const was = new Set(captured());
  const r = await cli(['fetch', '--scheme', 'examples/x-finger.mjs', `${AT}/root`]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /Login: root\b/);
  const added = captured().filter((f) => !was.has(f));
  assert.equal(added.length, 1);
  assert.equal(readFileSync(join(serversDir(), 'finger', 'requests', added[0]), 'latin1'), 'root\r\n');
});

test('LOCATOR_SCHEMES loads the module for every command; explain and lint then know the scheme', async () => {
  const env = { LOCATOR_SCHEMES: 'examples/x-finger.mjs' };
  const x = await cli(['explain', '--json', 'x-finger://h.com/root;W'], env);
  assert.equal(x.code, 0, x.err);
  assert.deepEqual(JSON.parse(x.out).steps, ['/W root<CR><LF>']);
  const l = await cli(['lint', '--json', 'x-finger://h.com/a%0Db'], env);
  assert.equal(l.code, 1);
  assert.equal(JSON.parse(l.out).diagnostics[0].code, 'encoded-delimiter');
  const f = await cli(['fetch', `${AT}/`], env);
  assert.equal(f.code, 0, f.err);
  assert.match(f.out, /No one logged on|Login\s+Name/);
});

test('--help documents --scheme and LOCATOR_SCHEMES', async () => {
  const h = await cli(['--help']);
  assert.equal(h.code, 0);
  for (const s of ['--scheme MODULE', 'LOCATOR_SCHEMES', 'a --scheme module that does not load'])
    assert.ok(h.out.includes(s), s);
});

test('a scheme module that does not load, or is no scheme entry, is a usage error (exit 2)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-scheme-'));
  writeFileSync(join(dir, 'number.mjs'), 'export default 42;\n');
  writeFileSync(join(dir, 'noport.mjs'), "export default { name: 'x-a', syntax: 'internet', status: 'later' };\n");
  writeFileSync(
    join(dir, 'ftp.mjs'),
    "export default { name: 'ftp', defaultPort: 21, syntax: 'internet', status: 'later' };\n",
  );
  writeFileSync(join(dir, 'throws.mjs'), "throw new Error('boom');\n");
  const cases: Array<[string, RegExp]> = [
    [join(dir, 'missing.mjs'), /cannot load the scheme module .*missing\.mjs.*\(scheme-module\)/],
    [join(dir, 'throws.mjs'), /cannot load the scheme module .*boom \(scheme-module\)/],
    [join(dir, 'number.mjs'), /no scheme entry: its default export is number.*\(scheme-module\)/],
    [join(dir, 'noport.mjs'), /no scheme entry: the entry "x-a" has no "defaultPort".*\(scheme-module\)/],
    [join(dir, 'ftp.mjs'), /the scheme "ftp" is registered already \(scheme-clash at offset 0\)/],
  ];
  for (const [module, message] of cases) {
    const r = await cli(['parse', '--scheme', module, 'x-finger://h/root']);
    assert.equal(r.code, 2, module);
    assert.match(r.err, message);
    assert.equal(r.out, '');
  }
  const r = await cli(['parse', 'x-finger://h/root'], { LOCATOR_SCHEMES: join(dir, 'number.mjs') });
  assert.equal(r.code, 2);
  // The same module named twice is loaded once.
  const twice = await cli(
    ['parse', '--scheme', 'examples/x-finger.mjs', '--scheme', './examples/x-finger.mjs', 'x-finger://h/root'],
    { LOCATOR_SCHEMES: MODULE },
  );
  assert.equal(twice.code, 0, twice.err);
});

test('unregistering the scheme leaves records parsed before unchanged', () => {
  const u = parse(`x-finger://h.com/root;W`);
  assert.equal(unregisterScheme('x-finger'), true);
  assert.equal(u.port, 79);
  assert.deepEqual({ ...u.fields }, { user: 'root', verbose: true });
  assert.deepEqual(
    lint(u).map((d) => d.code),
    [],
  );
  assert.equal(normalize(u), 'x-finger://h.com/root;W');
  const again = parse('x-finger://h.com/root;W');
  assert.equal(again.port, null);
  assert.equal(codes(again), 'experimental-scheme@0');
});
