// The built-in entries freeze their fields as they build them (`fieldsFrozen`), and the record
// takes what their fields() returns as it is, with no walk and no look: so every object and
// array a built-in fields() returns must be frozen already, in every form of every scheme
// (contract `fields`: the record is immutable through every part).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tryParse } from '../helpers.js';
import { Url } from '../../src/core/url.js';
import { BUILTIN_SCHEMES } from '../../src/schemes/builtin.js';

/** The path of the first part that is an object or array not frozen, or null when all are. */
function unfrozenPart(v: unknown, path = 'fields'): string | null {
  if (typeof v !== 'object' || v === null) return null;
  if (!Object.isFrozen(v)) return path;
  for (const [k, x] of Object.entries(v)) {
    const p = unfrozenPart(x, `${path}.${k}`);
    if (p !== null) return p;
  }
  return null;
}

// Every branch of every built-in fields(): no path, plain, escaped, the draft forms.
const URLS = [
  'ftp://h.com',
  'ftp://h.com/',
  'ftp://h.com/file',
  'ftp://h.com/a/b',
  'ftp://h.com/a/b/c/d;type=i',
  'ftp://h.com/a%2Fb/c%20d;TYPE=A',
  'http://h.com',
  'http://h.com/',
  'http://h.com/a/b/c/d/e?x+y',
  'http://h.com/a%20b/c?%2B+%20',
  'https://h.com/?',
  'gopher://h.com',
  'gopher://h.com/0about',
  'gopher://h.com/0a%20b',
  'gopher://h.com/7find%09red%20fox',
  'gopher://h.com/0doc%09%09+',
  'gopher://h.com/0doc%09%09+application/postscript%20Es_ES',
  'gopher://h.com/0doc%09%09!',
  'gopher://h.com/0doc%09%09$Abstract%20Views',
  'gopher://h.com/1form%09%09%3F',
  'gopher://h.com/1form%09%09+%091%0D%0A+-1%0D%0Aa%0D%0Ab%0D%0A.%0D%0A',
  'mailto:a@b.com',
  'news:*',
  'news:comp.infosystems',
  'news:1234@h.com',
  'nntp://h.com',
  'nntp://h.com/comp.x',
  'nntp://h.com/comp.x/12',
  'telnet://h.com',
  'rlogin://u@h.com',
  'tn3270://h.com:23/',
  'wais://h.com',
  'wais://h.com/db',
  'wais://h.com/db?red%20fox',
  'wais://h.com/db/TEXT',
  'wais://h.com/db/TEXT/abc',
  'wais://h.com/db/TEXT/636/x',
  'wais://h.com/db/TEXT/636/1=abc;7=%00;',
  'file:///etc/passwd',
  'file://localhost/a%20b',
  'file://h.com/x',
  'prospero://h.com',
  'prospero://h.com//pros/name',
  'prospero://h.com/n;OBJECT-VERSION=1;x=y',
  'prospero://h.com/n;__proto__=1',
  'prospero://h.com/n%002%00a1%00B2',
  'prospero://h.com/n%00',
  'mid:1234@h.com',
  'mid:1234@h.com/5678@h.com',
  'cid:foo@h.com',
  'afs://cell.com/usr/x',
];

test('every built-in entry that promises frozen fields returns them frozen through every part', () => {
  const schemes = new Set<string>();
  const lines = readFileSync(join(ROOT, 'test/data/corpus/schemes.txt'), 'utf8').split('\n');
  for (const s of [...URLS, ...lines.filter((l, i) => l !== '' && i % 25 === 0)]) {
    const u = tryParse(s);
    if (!(u instanceof Url)) {
      assert.ok(!URLS.includes(s), `${s}: ${u.message}`);
      continue; // a corpus line that no structure can be read from
    }
    const spec = u.spec;
    assert.ok(spec?.fields !== undefined, s);
    if (spec.fieldsFrozen !== true) continue;
    schemes.add(spec.name);
    // The entry's own result, as the record takes it (no walk).
    assert.equal(unfrozenPart(spec.fields(u)), null, `${s}: a part of the fields is not frozen`);
    assert.equal(unfrozenPart(u.fields), null, `${s}: a part of the record's fields is not frozen`);
  }
  const promised = BUILTIN_SCHEMES.filter((e) => e.fieldsFrozen === true).map((e) => e.name);
  assert.deepEqual([...schemes].sort(), [...promised].sort(), 'each entry that promises is checked');
  assert.deepEqual(
    BUILTIN_SCHEMES.filter((e) => e.fields !== undefined && e.fieldsFrozen !== true).map((e) => e.name),
    [],
    'every built-in entry with fields freezes them as it builds them',
  );
});
