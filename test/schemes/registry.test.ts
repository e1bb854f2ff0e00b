// The scheme registry (RFC 1738 4): a new scheme brings its syntax and its access algorithm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, eachRow } from '../helpers.js';
import { registerScheme, unregisterScheme, getScheme, listSchemes, schemeTable } from '../../src/schemes/registry.js';
import { schemeHash } from '../../src/core/scheme.js';
import { build, explain } from '../../src/operations/build.js';
import { LocatorError, defineCode } from '../../src/core/errors.js';

eachRow(
  'RFC 1738 4: a name that is not a scheme name is refused with a clear error',
  [
    ['', 0],
    ['Upper', 0],
    ['a_b', 1],
    ['a b', 1],
    ['é', 0],
  ] as const,
  ([name, offset]) => {
    assert.throws(
      () => registerScheme({ name, defaultPort: null, syntax: 'opaque', status: 'later' }),
      (e: unknown) => e instanceof LocatorError && e.code === 'invalid-scheme-name' && e.offset === offset,
      name,
    );
  },
);

test('RFC 1738 4: a clash with a registered scheme is refused unless replace is asked for', () => {
  assert.throws(
    () => registerScheme({ name: 'ftp', defaultPort: 2121, syntax: 'internet', status: 'later' }),
    (e: unknown) => e instanceof LocatorError && e.code === 'scheme-clash',
  );
  assert.equal(getScheme('ftp')?.defaultPort, 21);
});

test('every scheme of the specs is registered, with its default port (RFC 1738 3, drafts)', () => {
  const ports = Object.fromEntries(listSchemes().map((s) => [s.name, s.defaultPort]));
  assert.deepEqual(
    {
      ftp: ports.ftp,
      http: ports.http,
      gopher: ports.gopher,
      mailto: ports.mailto,
      news: ports.news,
      nntp: ports.nntp,
      telnet: ports.telnet,
      wais: ports.wais,
      file: ports.file,
      prospero: ports.prospero,
      rlogin: ports.rlogin,
      tn3270: ports.tn3270,
      mid: ports.mid,
      cid: ports.cid,
      afs: ports.afs,
    },
    {
      ftp: 21,
      http: 80,
      gopher: 70,
      mailto: null,
      news: null,
      nntp: 119,
      telnet: 23,
      wais: 210,
      file: null,
      prospero: 1525,
      rlogin: 513,
      tn3270: 23,
      mid: null,
      cid: null,
      afs: null,
    },
  );
});

test('RFC 1738 4: a registered scheme brings its syntax, fields, build and access algorithm', () => {
  const BAD_ROOM = defineCode('x-room-number', 'error', 'x-room (test scheme)', 'a room is digits');
  registerScheme({
    name: 'x-room',
    defaultPort: 4242,
    syntax: 'internet',
    status: 'later',
    validate(url, report) {
      const p = url.path ?? '';
      for (let i = 0; i < p.length; i++) {
        const c = p.charCodeAt(i);
        if (c < 48 || c > 57) {
          report(BAD_ROOM, url.inputOffset + url.components().path![0] + i);
          return;
        }
      }
    },
    fields: (url) => ({ room: Number(url.path) }),
    build: (f) => `//${String(f.host)}/${String(f.room)}`,
    explain: (url) => ({ protocol: 'knock', host: url.host, port: url.port, steps: [`KNOCK ${url.path}`], notes: [] }),
  });
  try {
    const u = parse('X-ROOM://door.example/12');
    assert.equal(u.scheme, 'x-room');
    assert.equal(u.port, 4242);
    assert.deepEqual(u.fields, { room: 12 });
    assert.deepEqual(u.violations, [], 'a registered x- scheme is not "experimental" any more');
    const bad = parse('<x-room://door.example/1a>');
    assert.deepEqual(
      bad.violations.map((d) => [d.code, d.offset, d.section]),
      [['x-room-number', 24, 'x-room (test scheme)']],
    );
    assert.equal(bad.valid, false);
    assert.equal(build('x-room', { host: 'door.example', room: 7 }), 'x-room://door.example/7');
    assert.deepEqual(explain('x-room://door.example/7').steps, ['KNOCK 7']);
  } finally {
    assert.equal(unregisterScheme('x-room'), true);
  }
  assert.deepEqual(
    parse('x-room://door.example/1a').violations.map((d) => d.code),
    ['experimental-scheme'],
  );
  assert.throws(
    () => explain('x-room://door.example/1'),
    (e: unknown) => e instanceof LocatorError && e.code === 'no-access-algorithm',
  );
});

test('the scanner finds schemes by hash and case-insensitive compare, without slicing', () => {
  const s = 'xxGoPhEr://h';
  assert.equal(schemeTable().lookup(s, 2, 8, schemeHash('gopher'))?.name, 'gopher');
  assert.equal(schemeTable().lookup(s, 2, 7, schemeHash('gophe')), undefined);
});

test('a registered entry runs its rules: the usual-form promise of the built-in entries is dropped from it', () => {
  const ODD = defineCode('x-odd-door', 'error', 'x-odd (test scheme)', 'every door is odd');
  registerScheme({
    name: 'x-odd',
    defaultPort: null,
    syntax: 'internet',
    status: 'later',
    // A promise that every URL is of the usual form, which this entry's own rules contradict.
    usual: /.*/y,
    validate(url, report) {
      report(ODD, url.inputOffset);
    },
  } as Parameters<typeof registerScheme>[0]);
  try {
    assert.equal(getScheme('x-odd')?.usual, undefined);
    const u = parse('x-odd://door.example/1');
    assert.deepEqual(
      u.violations.map((d) => d.code),
      ['x-odd-door'],
    );
    assert.equal(u.valid, false);
  } finally {
    assert.equal(unregisterScheme('x-odd'), true);
  }
});
