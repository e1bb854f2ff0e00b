// Every line of the real URL lists in test/data/corpus (SOURCES.md says where each comes from):
// parse never throws anything but LocatorError, the offsets hold, and the known traps read as
// RFC 1738 says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shared } from '../helpers.js';
import { tryParse } from '../../src/schemes/registry.js';
import { Url } from '../../src/core/url.js';
import { LocatorError } from '../../src/core/errors.js';

function lines(name: string): string[] {
  const t = shared(`corpus/${name}`);
  const a = t.split('\n');
  if (a[a.length - 1] === '') a.pop();
  return a;
}

for (const name of ['kasztp.txt', 'node_files.txt', 'isaacs_files.txt', 'schemes.txt']) {
  test(`corpus ${name}: every line parses or fails with a LocatorError; offsets hold`, () => {
    let ok = 0;
    let fatal = 0;
    for (const line of lines(name)) {
      const r = tryParse(line);
      if (r instanceof Url) {
        r.assertInvariants();
        ok++;
      } else {
        assert.ok(r instanceof LocatorError);
        fatal++;
      }
    }
    assert.ok(ok > 0);
    assert.ok(fatal / (ok + fatal) < 0.01, `${fatal} fatal of ${ok + fatal}`);
  });
}

test('corpus kasztp.txt: line 1 starts with a byte order mark, fatal unless trimmed', () => {
  const first = lines('kasztp.txt')[0];
  const r = tryParse(first);
  assert.ok(r instanceof LocatorError && r.code === 'invalid-scheme' && r.offset === 0);
  const t = tryParse(first, { trim: true });
  assert.ok(t instanceof Url && t.href === 'https://www.sec.gov/edgar.shtml');
});

test('corpus kasztp.txt: the last line "https://" has an empty host', () => {
  const last = lines('kasztp.txt').at(-1)!;
  assert.equal(last, 'https://');
  const r = tryParse(last);
  assert.ok(r instanceof Url);
  assert.equal(r.host, '');
  assert.deepEqual(
    r.violations.map((d) => d.code),
    ['empty-host'],
  );
});

test('corpus kasztp.txt: a CSV quote inside the host is an unsafe character', () => {
  const line = lines('kasztp.txt').find((l) => l.startsWith('https://"'))!;
  const r = tryParse(line);
  assert.ok(r instanceof Url);
  assert.equal(r.valid, false);
  assert.ok(r.violations.some((d) => d.code === 'unsafe-char' && d.offset === 8));
});

test('corpus node_files.txt: file://<first segment> is a host (RFC 1738 3.10)', () => {
  const all = lines('node_files.txt');
  const r = tryParse(all[0]) as Url;
  assert.equal(r.host, 'node.gypi');
  assert.equal(r.path, null);
  const deep = tryParse('file://benchmark/v8/get-stats.js') as Url;
  assert.equal(deep.host, 'benchmark');
  assert.equal(deep.path, 'v8/get-stats.js');
});

test('corpus isaacs_files.txt: file:/// URLs have an empty host; node: and tapmock: are unknown schemes', () => {
  const all = lines('isaacs_files.txt');
  const f = tryParse(all[0]) as Url;
  assert.equal(f.host, '');
  assert.ok(f.path!.startsWith('Users/isaacs/'));
  const n = tryParse('node:url') as Url;
  assert.equal(n.scheme, 'node');
  assert.deepEqual(n.fields, { schemePart: 'url' });
});
