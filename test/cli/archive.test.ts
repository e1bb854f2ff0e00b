// `locator archive` against the real test servers (pygopherd, gophernicus, vsftpd, nginx): the
// WARC files read whole by warcio with every digest recomputed here, the CDXJ index, the help,
// and a run killed with SIGKILL at random points and resumed from its state: every file valid,
// every object written once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers.js';
import { assertDigests, type PeerRecord } from '../archive/peer.js';

const BIN = join(ROOT, 'dist', 'cli', 'main.js');

const SEEDS = [
  'gopher://127.0.0.1:7070/',
  'gopher://127.0.0.1:7071/',
  'ftp://127.0.0.1:2121/pub/nested/',
  'http://127.0.0.1:8080/hello.txt',
];

/** Runs the built CLI; `onOut` sees standard output as it comes. */
function start(args: string[], onOut: (text: string) => void = () => {}) {
  const p = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH } });
  let out = '';
  let err = '';
  p.stdout.on('data', (d) => {
    out += d;
    onOut(out);
  });
  p.stderr.on('data', (d) => (err += d));
  const done = new Promise<{ code: number | null; signal: string | null; out: string; err: string }>((resolve) =>
    p.on('close', (code, signal) => resolve({ code, signal, out, err })),
  );
  return { p, done };
}

/** Every record of every WARC file in `dir` (warcio, digests checked); no file is left open. */
async function records(dir: string): Promise<PeerRecord[]> {
  const names = readdirSync(dir);
  assert.deepEqual(
    names.filter((n) => n.endsWith('.open')),
    [],
    'no file left under a temporary name',
  );
  const out: PeerRecord[] = [];
  for (const n of names.filter((n) => /\.warc\.gz$/.test(n)).sort()) out.push(...(await assertDigests(join(dir, n))));
  return out;
}

/** The crawl test site's broken link (test/servers/http.sh), reached from the nginx root: the one failure. */
const BROKEN = 'http://127.0.0.1:8080/site/missing.html';

function failed(out: string): string[] {
  return [...out.matchAll(/^failed {2}(\S+) /gm)].map((m) => m[1]);
}

function targets(rs: PeerRecord[], type: string): string[] {
  return rs
    .filter((r) => r.type === type)
    .map((r) => r.targetUri!)
    .sort();
}

test('archive: Gopher menus, FTP listings and files as resource and metadata records, an http object as response and request records, read whole by warcio, the CDXJ index beside', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-archive-'));
  try {
    const r = await start(['archive', '-o', dir + '/site', '--index', '--operator', 'tester', ...SEEDS]).done;
    // The nginx root's links (reached from the Gopher hole's h item) lead to the crawl site's broken link.
    assert.equal(r.code, 3, r.out + r.err);
    assert.deepEqual(failed(r.out), [BROKEN]);
    const rs = await records(dir);
    const resources = targets(rs, 'resource');
    assert.deepEqual(resources, [...new Set(resources)], 'each object once');
    for (const u of [
      'gopher://127.0.0.1:7070/',
      'gopher://127.0.0.1:7070/0/hello.txt',
      'gopher://127.0.0.1:7070/1/files/sub',
      'gopher://127.0.0.1:7070/0/files/sub/nested.txt',
      'gopher://127.0.0.1:7071/1/files',
      'ftp://127.0.0.1:2121/pub/nested/deeper/inner.txt',
    ])
      assert.ok(resources.includes(u), `${u} archived`);
    assert.deepEqual(targets(rs, 'metadata'), resources, 'a metadata record for each resource');
    // http: the exchange as it crossed the connection (test/archive/http.test.ts says more).
    const responses = targets(rs, 'response');
    assert.deepEqual(responses, [...new Set(responses)], 'each http exchange once');
    for (const u of [
      'http://127.0.0.1:8080/hello.txt',
      'http://127.0.0.1:8080/',
      BROKEN,
      'http://127.0.0.1:8080/site/sub/deep.html',
    ])
      assert.ok(responses.includes(u), `${u} archived`);
    assert.deepEqual(targets(rs, 'request'), responses, 'a request record for each response');
    const response = rs.find((x) => x.type === 'response' && x.targetUri === 'http://127.0.0.1:8080/hello.txt')!;
    assert.ok(response.block.toString('latin1').startsWith('HTTP/1.1 200 OK\r\n'));
    assert.ok(response.block.toString('latin1').endsWith('\r\n\r\nplain text\n'));
    const info = rs.find((x) => x.type === 'warcinfo')!;
    assert.match(info.block.toString(), /^robots: obey\r?$/m);
    assert.match(info.block.toString(), /^operator: tester\r?$/m);
    const menu = rs.find((x) => x.type === 'resource' && x.targetUri === 'gopher://127.0.0.1:7070/1/files/sub')!;
    assert.equal(menu.fields.get('content-type'), 'application/gopher-menu');
    assert.equal(menu.fields.get('warc-protocol'), 'gopher');
    const listing = rs.find((x) => x.type === 'resource' && x.targetUri === 'ftp://127.0.0.1:2121/pub/nested/')!;
    assert.equal(listing.fields.get('content-type'), 'text/x-locator-ftp-listing');
    // The index: a line per record with a target, sorted, naming files that exist.
    const index = readFileSync(join(dir, 'site.cdxj'), 'utf8').split('\n').filter(Boolean);
    assert.equal(index.length, rs.filter((x) => x.targetUri !== null).length);
    assert.deepEqual(
      index,
      [...index].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
    );
    for (const l of index) assert.ok(readdirSync(dir).includes(JSON.parse(l.slice(l.indexOf('{'))).filename));
    assert.match(
      r.out,
      /^skipped {2}gopher:\/\/127\.0\.0\.1:7070\/7\/search\.sh {2}.*\(RFC 1738 3\.4\.2\) \(needs-input\)$/m,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('archive: killed with SIGKILL at random points and resumed from --state, every WARC file is valid and each object is written once', async () => {
  const whole = mkdtempSync(join(tmpdir(), 'locator-archive-whole-'));
  let want: string[];
  let wantHttp: string[];
  try {
    await start(['archive', '-o', whole + '/', ...SEEDS]).done;
    const rs = await records(whole);
    want = targets(rs, 'resource');
    wantHttp = targets(rs, 'response');
  } finally {
    rmSync(whole, { recursive: true, force: true });
  }
  // A fixed seed for the kill times (the test reproduces).
  let seed = 20261129;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  let killedMidway = 0;
  for (let round = 0; round < 3; round++) {
    const dir = mkdtempSync(join(tmpdir(), 'locator-archive-kill-'));
    try {
      const args = [
        'archive',
        '-o',
        join(dir, 'warc') + '/',
        '--state',
        join(dir, 'state'),
        '--delay',
        '120',
        ...SEEDS,
      ];
      for (let kill = 0; kill < 2; kill++) {
        let first!: () => void;
        const begun = new Promise<void>((r) => (first = r));
        const run = start(args, (out) => out.length > 0 && first());
        await Promise.race([begun, run.done]);
        await new Promise((r) => setTimeout(r, random() * 1200));
        run.p.kill('SIGKILL');
        const end = await run.done;
        if (end.signal === 'SIGKILL') killedMidway++;
      }
      const last = await start(args).done;
      assert.ok(last.code === 0 || last.code === 3, last.err);
      const rs = await records(join(dir, 'warc'));
      const resources = targets(rs, 'resource');
      assert.deepEqual(resources, [...new Set(resources)], 'each object written once');
      assert.deepEqual(resources, want, 'the same objects as a run never killed');
      const responses = targets(rs, 'response');
      assert.deepEqual(responses, [...new Set(responses)], 'each http exchange written once');
      assert.deepEqual(responses, wantHttp, 'the same http exchanges as a run never killed');
      // A kill between a resource and its metadata record loses that metadata record: never two.
      const metadata = targets(rs, 'metadata');
      assert.deepEqual(metadata, [...new Set(metadata)]);
      for (const m of metadata) assert.ok(resources.includes(m));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  assert.ok(killedMidway >= 4, `${killedMidway} of 6 runs were killed before they ended`);
});

test('archive --help lists its options; no --output is a usage error', async () => {
  const h = await start(['archive', '--help']).done;
  assert.equal(h.code, 0);
  for (const o of [
    '--output',
    '--max-size',
    '--dedup',
    '--index',
    '--operator',
    '--contact',
    '--scope',
    '--max-depth',
    '--max-urls',
    '--state',
    '--ignore-robots',
    '--delay',
    '--per-host',
    '--concurrency',
  ])
    assert.ok(h.out.includes(o), o);
  const u = await start(['archive', 'gopher://127.0.0.1:7070/']).done;
  assert.equal(u.code, 2);
  assert.match(u.err, /archive needs --output DIR\|PREFIX/);
});

test('archive: objects written whose verdicts never reached the state (a kill between the two) are not written again on resume', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-archive-lost-'));
  try {
    const args = ['archive', '-o', join(dir, 'warc') + '/', '--state', join(dir, 'state'), ...SEEDS];
    const first = await start(args).done;
    assert.equal(first.code, 3, first.err);
    assert.deepEqual(failed(first.out), [BROKEN]);
    const before = targets(await records(join(dir, 'warc')), 'resource');
    // The state as a kill just after the records were written leaves it: the last verdicts not on disk.
    const done = join(dir, 'state', 'done.log');
    const lines = readFileSync(done, 'utf8').split('\n').filter(Boolean);
    assert.ok(lines.length > 10);
    writeFileSync(done, lines.slice(0, 4).join('\n') + '\n');
    const again = await start(args).done;
    assert.ok(again.code === 0 || again.code === 3, again.err);
    assert.match(
      again.out,
      /^earlier {2}gopher:\/\/127\.0\.0\.1:70[0-9]+\/.* was archived before; not written again$/m,
    );
    const rs = await records(join(dir, 'warc'));
    assert.deepEqual(targets(rs, 'resource'), before, 'each object once');
    assert.deepEqual(targets(rs, 'metadata'), before);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('archive: a password in a URL given is "****" in every row (text and --json: url, parent, reason) unless --show-secrets', async () => {
  const seeds = [
    'ftp://anonymous:s3cret-pw@127.0.0.1:2121/pub/nested/deeper/',
    'ftp://anonymous:s3cret-pw@127.0.0.1:2121/pub/missing.txt',
  ];
  for (const json of [false, true]) {
    const dir = mkdtempSync(join(tmpdir(), 'locator-archive-secret-'));
    try {
      const run = await start(['archive', '-o', dir + '/', ...(json ? ['--json'] : []), ...seeds]).done;
      assert.equal(run.code, 3, run.err);
      assert.doesNotMatch(run.out + run.err, /s3cret-pw/);
      assert.match(run.out, /ftp:\/\/anonymous:\*\*\*\*@127\.0\.0\.1:2121\/pub\/nested\/deeper\//);
      if (json)
        assert.ok(
          run.out.split('\n').some((l) => l.includes('"parent":"ftp://anonymous:****@')),
          run.out,
        );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'locator-archive-secret-'));
  try {
    const run = await start(['archive', '-o', dir + '/', '--show-secrets', seeds[0]]).done;
    assert.match(run.out, /^archived {2}ftp:\/\/anonymous:s3cret-pw@127\.0\.0\.1:2121\/pub\/nested\/deeper\/ /m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('archive: -o or --state naming a file, or a folder that cannot be made, is a usage error (exit 2) before any fetch', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-archive-out-'));
  try {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder\n');
    for (const [args, says] of [
      [['-o', file + '/'], /--output .*a-file\/: not a folder/],
      [['-o', file + '/prefix'], /--output .*a-file: not a folder/],
      [['-o', dir + '/', '--state', file], /--state .*a-file: not a folder/],
      [['-o', '/proc/self/status/x/'], /--output \/proc\/self\/status\/x\/: not a folder/],
    ] as const) {
      const run = await start(['archive', ...args, 'gopher://127.0.0.1:7070/0/hello.txt']).done;
      assert.equal(run.code, 2, run.err);
      assert.match(run.err, says);
      assert.equal(run.out, '');
    }
    assert.deepEqual(readdirSync(dir), ['a-file']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
