// `scripts/dask-locator.py archive` (docs/archive.md, "Dask"): a crawl spread over a LocalCluster
// of 2 workers, the seeds partitioned by server, against the shared real servers (pygopherd,
// gophernicus, vsftpd, nginx) and a local folder. It must write the same records (target URI and
// payload digest) as one `locator archive` process, no server in two partitions, and one merged
// CDXJ, sorted, whose every line leads to its record. Needs Debian's python3-distributed for
// /usr/bin/python3 (test/servers/install.sh, run by test/servers/start.sh).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ROOT } from '../helpers.js';
import { assertDigests, type PeerRecord } from './peer.js';

const PYTHON = '/usr/bin/python3';
const DRIVER = join(ROOT, 'scripts', 'dask-locator.py');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');

/** A small folder for the file: seed (a listing and two files). */
function folder(dir: string): string {
  const root = join(dir, 'tree');
  mkdirSync(join(root, 'sub'), { recursive: true });
  writeFileSync(join(root, 'a.txt'), 'the file a\n');
  writeFileSync(join(root, 'sub', 'b.txt'), 'the file b\r\nin a sub-folder\r\n');
  return root;
}

function seedsOf(tree: string): string[] {
  return [
    'gopher://127.0.0.1:7070/',
    // A second seed on pygopherd's server: it must go to the same partition as the first.
    'gopher://127.0.0.1:7070/0/hello.txt',
    'gopher://127.0.0.1:7071/',
    'ftp://127.0.0.1:2121/pub/nested/',
    'http://127.0.0.1:8080/',
    // A folder's listing (its links are not followed) and a file in it: one server, `file:`.
    `file://${tree}/`,
    `file://${tree}/sub/b.txt`,
  ];
}

function driver(args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(PYTHON, [DRIVER, 'archive', ...args], { encoding: 'utf8', timeout: 600_000 });
  return { status: r.status, stderr: `${r.stderr}${r.error ? String(r.error) : ''}` };
}

/** Every record of every WARC file under `dir` (its sub-folders too), read by warcio with every digest recomputed. */
async function recordsUnder(dir: string): Promise<Map<string, PeerRecord[]>> {
  const out = new Map<string, PeerRecord[]>();
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    if (name.endsWith('.open')) assert.fail(`${name} left open`);
    if (name.endsWith('.warc.gz')) out.set(name, await assertDigests(join(dir, name)));
  }
  return out;
}

/** `type target payload-digest` of each record with a target (metadata has no payload digest: `-`). */
function keysOf(records: Iterable<PeerRecord>): string[] {
  const out: string[] = [];
  for (const r of records)
    if (r.targetUri !== null) out.push(`${r.type} ${r.targetUri} ${r.fields.get('warc-payload-digest') ?? '-'}`);
  return out.sort();
}

/** The server of a target (host and port, as the politeness engine keys it; `file:` for a file URL). */
function serverOf(target: string): string {
  const m = /^[a-z]+:\/\/([^/]+)\//.exec(target);
  return m && m[1] !== '' ? m[1] : target.slice(0, target.indexOf(':') + 1);
}

test('dask archive: a LocalCluster of 2 workers writes the records one process writes, each server in one partition, one merged sorted CDXJ', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-dask-archive-'));
  try {
    const seeds = seedsOf(folder(dir));
    const out = join(dir, 'dask');
    const r = driver(['--workers', '2', '--out', out, ...seeds]);
    // The crawl follows the nginx root's HTML links to the crawl site's one broken link
    // (test/servers/http.sh): locator's exit 3, passed on by the driver, in both runs.
    assert.equal(r.status, 3, r.stderr);
    assert.match(r.stderr, /\(\d+ archived, 1 failed, /);
    const m = /archive: (\d+) URLs \(.*\) from (\d+) servers in (\d+) partitions on (\d+) workers/.exec(r.stderr);
    assert.ok(m, r.stderr);
    assert.deepEqual([m[2], m[3], m[4]], ['5', '2', '2'], 'five servers, two partitions, each on its own worker');

    // One process over the same seeds.
    const single = join(dir, 'single');
    const s = spawnSync(process.execPath, [CLI, 'archive', '--index', '-o', single + '/', ...seeds], {
      encoding: 'utf8',
      timeout: 300_000,
    });
    assert.equal(s.status, 3, s.stdout + s.stderr);
    const one = [...(await recordsUnder(single)).values()].flat();
    const parts = await recordsUnder(out);

    // The same records, by type, target URI and payload digest; each object once.
    const many = [...parts.values()].flat();
    assert.deepEqual(keysOf(many), keysOf(one), 'the same set of records as one process');
    // Objects are resource records, an http object a response record (with its request).
    const resources = keysOf(many)
      .filter((k) => k.startsWith('resource ') || k.startsWith('response '))
      .map((k) => k.replace(/^response /, 'resource '));
    assert.equal(new Set(resources).size, resources.length, 'each object once');
    for (const u of [
      'gopher://127.0.0.1:7070/0/hello.txt',
      'gopher://127.0.0.1:7071/1/files',
      'http://127.0.0.1:8080/',
    ])
      assert.ok(
        resources.some((k) => k.startsWith(`resource ${u} `)),
        `${u} archived`,
      );
    assert.ok(
      resources.some((k) => k.includes('/tree/sub/b.txt ')),
      'the file: tree archived',
    );

    // Each partition in its own folder; no server in two of them.
    const folders = new Map<string, Set<string>>();
    for (const [name, rs] of parts) {
      const part = name.split('/')[0];
      assert.match(part, /^part-\d{5}$/, name);
      for (const rec of rs)
        if (rec.targetUri) (folders.get(part) ?? folders.set(part, new Set()).get(part)!).add(serverOf(rec.targetUri));
    }
    assert.equal(folders.size, 2, 'two partitions wrote records');
    const [a, b] = [...folders.values()];
    assert.deepEqual(
      [...a].filter((x) => b.has(x)),
      [],
      'no server in two partitions',
    );
    assert.equal(a.size + b.size, 5);

    // The merged index: sorted by octets, one line for each line of the partitions' indexes, and
    // each line, read at its offset in the file it names (relative to the output root), is its record.
    const merged = readFileSync(join(out, 'locator.cdxj'));
    const lines = merged.toString('utf8').trimEnd().split('\n');
    const sorted = [...lines].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    assert.deepEqual(lines, sorted, 'the merged CDXJ is sorted');
    const partLines = [...folders.keys()].flatMap((p) =>
      readFileSync(join(out, p, 'locator.cdxj'), 'utf8')
        .trimEnd()
        .split('\n'),
    );
    assert.equal(lines.length, partLines.length);
    assert.equal(lines.length, many.filter((x) => x.targetUri !== null).length, 'a line for each record with a target');
    const seen = new Set<string>();
    for (const line of lines) {
      const j = JSON.parse(line.slice(line.indexOf('{')));
      assert.match(j.filename, /^part-\d{5}\/locator-\d{17}-\d{5}\.warc\.gz$/, line);
      const file = readFileSync(join(out, j.filename));
      const member = gunzipSync(file.subarray(Number(j.offset), Number(j.offset) + Number(j.length))).toString(
        'latin1',
      );
      assert.ok(member.startsWith(`WARC/1.1\r\nWARC-Type: ${j.type ?? 'response'}\r\n`), line);
      assert.ok(member.includes(`\r\nWARC-Target-URI: ${j.url}\r\n`), line);
      // A line's digest is its record's WARC-Payload-Digest (a request has neither).
      if (j.digest) assert.ok(member.includes(`\r\nWARC-Payload-Digest: sha1:${j.digest}\r\n`), line);
      seen.add(`${j.filename} ${j.offset}`);
    }
    assert.equal(seen.size, lines.length, 'no two lines lead to one record');
    // The same lines as one process's index but for the place of the record.
    const place = (l: string) => {
      const j = JSON.parse(l.slice(l.indexOf('{')));
      return `${l.split(' ')[0]} ${j.url} ${j.type ?? 'response'} ${j.mime} ${j.digest ?? '-'}`;
    };
    const singleLines = readFileSync(join(single, 'locator.cdxj'), 'utf8').trimEnd().split('\n');
    assert.deepEqual(lines.map(place).sort(), singleLines.map(place).sort());
    // Each partition's rows are there, and nothing is left half written.
    for (const p of folders.keys()) assert.ok(existsSync(join(out, p, 'archive.ndjson')));
    assert.deepEqual(
      readdirSync(out).filter((n) => n.endsWith('.tmp')),
      [],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('dask archive: a partition whose run fails fails the driver, and no merged index is written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-dask-archive-'));
  try {
    const out = join(dir, 'out');
    // An unknown option is a usage error of locator archive (exit 2) in every partition.
    const r = driver(['--workers', '1', '--arg=--no-such-option', '--out', out, 'gopher://127.0.0.1:7070/']);
    assert.equal(r.status, 4, r.stderr);
    assert.match(r.stderr, /locator archive \(partition 0\) exited 2/);
    assert.ok(!existsSync(join(out, 'locator.cdxj')));
    // A domain scope could put a server in two partitions: refused before anything runs.
    const d = driver(['--scope', 'domain', '--out', out, 'gopher://127.0.0.1:7070/']);
    assert.equal(d.status, 2);
    assert.match(d.stderr, /--scope/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('dask archive --state: run again, each partition resumes its own crawl; nothing is written twice and the merged index is the same', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-dask-archive-'));
  try {
    const out = join(dir, 'out');
    const seeds = ['gopher://127.0.0.1:7070/', 'ftp://127.0.0.1:2121/pub/nested/'];
    const first = driver(['--state', '--workers', '2', '--out', out, ...seeds]);
    assert.equal(first.status, 0, first.stderr);
    const files = (readdirSync(out, { recursive: true }) as string[]).filter((n) => n.endsWith('.warc.gz')).sort();
    const index = readFileSync(join(out, 'locator.cdxj'), 'utf8');
    const records = keysOf([...(await recordsUnder(out)).values()].flat());
    const again = driver(['--state', '--workers', '2', '--out', out, ...seeds]);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stderr, /part-00000 on .*: locator archive: \d+ URLs, 0 records written in 0 files, resumed/);
    assert.match(again.stderr, /part-00001 on .*: locator archive: \d+ URLs, 0 records written in 0 files, resumed/);
    assert.deepEqual(
      (readdirSync(out, { recursive: true }) as string[]).filter((n) => n.endsWith('.warc.gz')).sort(),
      files,
      'no new file',
    );
    assert.deepEqual(keysOf([...(await recordsUnder(out)).values()].flat()), records);
    assert.equal(readFileSync(join(out, 'locator.cdxj'), 'utf8'), index);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
