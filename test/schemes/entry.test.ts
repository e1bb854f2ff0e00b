// The scheme entry as the one home of a scheme (RFC 1738 4): a record keeps the entry it was
// parsed with; the operations ask the entry; fields are typed by scheme.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parse,
  registerScheme,
  unregisterScheme,
  getScheme,
  listSchemes,
  entryOf,
  schemeTable,
} from '../../src/schemes/registry.js';
import { BUILTIN_SCHEMES } from '../../src/schemes/builtin.js';
import { fieldsOf, type GopherFields } from '../../src/schemes/fields.js';
import { build, explain } from '../../src/operations/build.js';
import { normalize } from '../../src/operations/normalize.js';
import { resolve, isHierarchical } from '../../src/operations/resolve.js';
import { refusals, isCrossScheme } from '../../src/operations/policy.js';

test('a record keeps its scheme entry: unregistering the scheme later changes nothing (port, fields, spec)', () => {
  const u = parse('gopher://h.com/0about');
  const entry = getScheme('gopher')!;
  assert.ok(unregisterScheme('gopher'));
  try {
    assert.equal(getScheme('gopher'), undefined);
    assert.equal(u.port, 70);
    assert.equal(u.spec, entry);
    assert.equal((u.fields as unknown as GopherFields).selector, 'about');
    assert.equal(explain(u).steps[0], 'about<CR><LF>', 'explain uses the entry the record was parsed with');
    // A URL parsed now is of an unknown scheme.
    const later = parse('gopher://h.com/0about');
    assert.equal(later.port, null);
    assert.ok(later.violations.some((d) => d.code === 'unknown-scheme'));
  } finally {
    registerScheme(entry);
  }
  assert.equal(parse('gopher://h.com/0about').port, 70);
});

test('replacing an entry: records parsed before keep the old one, new ones get the new one', () => {
  const old = getScheme('telnet')!;
  const before = parse('telnet://h.com/');
  registerScheme({ ...old, defaultPort: 2323 }, { replace: true });
  try {
    assert.equal(before.port, 23);
    assert.equal(parse('telnet://h.com/').port, 2323);
  } finally {
    registerScheme(old, { replace: true });
  }
});

test('the registry starts from the static table of built-in entries, in the order of the specs', () => {
  assert.deepEqual(
    BUILTIN_SCHEMES.map((s) => s.name),
    [
      'ftp',
      'http',
      'https',
      'gopher',
      'mailto',
      'news',
      'nntp',
      'telnet',
      'rlogin',
      'tn3270',
      'wais',
      'file',
      'prospero',
      'mid',
      'cid',
      'afs',
    ],
  );
  // (An earlier test here unregisters and registers gopher again, which moves it to the end.)
  assert.deepEqual(
    listSchemes()
      .map((s) => s.name)
      .sort(),
    BUILTIN_SCHEMES.map((s) => s.name).sort(),
  );
  assert.equal(schemeTable().size, listSchemes().length);
});

test('resolve, normalize and the policy ask the entry: a registered scheme brings its own rules', () => {
  registerScheme({
    name: 'x-flat',
    defaultPort: 9,
    syntax: 'internet',
    status: 'later',
    hierarchical: false,
    normal: { section: 'test', path: (raw) => (raw === null ? '' : raw.toLowerCase()) },
    readsThisMachine: () => true,
    family: 'x-family',
  });
  registerScheme({ name: 'x-family2', defaultPort: null, syntax: 'internet', status: 'later', family: 'x-family' });
  try {
    const u = parse('x-flat://h.com/A/B');
    assert.equal(entryOf(u)?.name, 'x-flat');
    assert.equal(isHierarchical(u), false);
    assert.throws(
      () => resolve('x-flat://h.com/a/b', 'c'),
      (e: Error & { code?: string }) => e.code === 'non-hierarchical-base',
    );
    assert.equal(resolve('x-flat://h.com/a/b', '/c'), 'x-flat://h.com/c');
    assert.equal(normalize('X-FLAT://H.COM:9/A/B'), 'x-flat://h.com/a/b');
    assert.ok(
      refusals(u, { refusePrivateAddresses: true }).some((d) => d.code === 'private-address'),
      'reads this machine',
    );
    assert.equal(isCrossScheme(u, parse('x-family2://h.com/')), false, 'the same family');
  } finally {
    unregisterScheme('x-flat');
    unregisterScheme('x-family2');
  }
});

test("build() is typed by scheme, and fieldsOf() reads a record's fields typed, refusing another scheme", () => {
  const href = build('gopher', { host: 'h.com', gophertype: '0', selector: 'a b' });
  assert.equal(href, 'gopher://h.com/0a%20b');
  const f = fieldsOf(parse(href), 'gopher');
  assert.equal(f.selector, 'a b');
  assert.equal(f.gophertype, '0');
  assert.throws(() => fieldsOf(parse('ftp://h.com/x'), 'gopher'), TypeError);
  // @ts-expect-error: selector is no ftp field
  assert.throws(() => build('ftp', { host: 'h.com', selector: 'x', segments: 5 }));
});

test('registerScheme: API misuse is a TypeError/RangeError; a bad or clashing name a LocatorError', () => {
  assert.throws(() => registerScheme(null as never), TypeError);
  assert.throws(
    () => registerScheme({ name: 'x-bad', defaultPort: null, syntax: 'weird' as never, status: 'later' }),
    RangeError,
  );
  assert.throws(
    () => registerScheme({ name: 'Bad', defaultPort: null, syntax: 'internet', status: 'later' }),
    (e: Error & { code?: string }) => e.code === 'invalid-scheme-name',
  );
  assert.throws(
    () => registerScheme({ name: 'ftp', defaultPort: null, syntax: 'internet', status: 'later' }),
    (e: Error & { code?: string }) => e.code === 'scheme-clash',
  );
});
