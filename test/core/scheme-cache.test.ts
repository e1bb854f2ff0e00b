// The scan tries the scheme entry it last read for the same first letter before the table's
// probe (src/core/parse.ts): that entry must be the one the table gives, whatever came before
// (RFC 1738 2.1: the scheme name, case-insensitive), with any table, in any order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseWith, tryParseWith } from '../../src/core/parse.js';
import { SchemeTable, type SchemeSyntax } from '../../src/core/scheme.js';
import { schemeTable } from '../../src/schemes/registry.js';
import { Url } from '../../src/core/url.js';

const INPUTS = [
  'http://a/b',
  'https://a/b',
  'HTTP://a/b',
  'hTtPs://a/b',
  'httpx://a/b',
  'http:',
  'h:x',
  'ftp://a/b',
  'file:///a',
  'FILE:///a',
  'fi://a',
  'gopher://a/',
  'news:a',
  'nntp://a/g/1',
  'mailto:a@b',
  'mid:x',
  'telnet://a',
  'tn3270://a',
  'prospero://a/b',
  'pr://a',
  'wais://a/db',
  'ftpx://a',
  ' http://a/',
];

function answer(table: SchemeTable, s: string): string {
  const u = tryParseWith(table, s, { trim: true });
  return u instanceof Url ? `${u.scheme} ${u.host ?? '-'} ${u.valid}` : `${u.code}@${u.offset}`;
}

test('each input reads the same after any other, as it reads first (RFC 1738 2.1)', () => {
  const table = schemeTable();
  const alone = new Map<string, string>();
  for (const s of INPUTS) {
    // A table of its own makes the scan start with nothing kept for this input's letter.
    const fresh = new SchemeTable(table.list());
    alone.set(s, answer(fresh, s));
  }
  for (const a of INPUTS) {
    for (const b of INPUTS) {
      answer(table, a);
      assert.equal(answer(table, b), alone.get(b), `${b} read after ${a}`);
    }
  }
});

test('two tables read in turn: an entry kept for one is never taken for the other', () => {
  const table = schemeTable();
  const http = table.get('http') as SchemeSyntax;
  // "hx" starts with the same letter as "http"; the small table has no http at all.
  const small = new SchemeTable([{ ...http, name: 'hx' } as SchemeSyntax]);
  for (let round = 0; round < 3; round++) {
    assert.equal(parseWith(table, 'http://a/').scheme, 'http');
    const u = parseWith(small, 'http://a/');
    assert.equal(u.scheme, 'http');
    assert.equal(u.spec, undefined, 'http is not in the small table');
    assert.equal(parseWith(small, 'hx://a/').scheme, 'hx');
    assert.equal(parseWith(table, 'hx://a/').spec, undefined, 'hx is not in the built-in table');
  }
});
