// explain()'s notes on the violations of its URL (src/schemes/notes.ts): one wording for every
// scheme, so the same violation (an unencoded space, RFC 1738 2.2) reads the same in an ftp, a
// telnet, an http or a mailto explanation, and a warning is noted as a warning everywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eachRow } from '../helpers.js';
import { parse } from '../../src/schemes/registry.js';
import { explain } from '../../src/operations/build.js';
import { violationNote } from '../../src/schemes/notes.js';

// One URL per scheme with an explain(), each with an unencoded space (and for afs and mid a
// draft-only warning).
const ROWS: Array<[string]> = [
  ['ftp://host/a b'],
  ['file://host/a b'],
  ['afs://cell/a b'],
  ['telnet://host/ x'],
  ['prospero://host/a b'],
  ['wais://host/db/a b'],
  ['http://host/a b'],
  ['gopher://host/1a b'],
  ['mailto:a b@c'],
  ['news:a b'],
  ['nntp://host/g/1 2'],
  ['mid:a b'],
];

eachRow('every violation is noted in the one wording', ROWS, ([href]) => {
  const url = parse(href);
  assert.ok(url.violations.length > 0, `${href} has a violation`);
  const { notes } = explain(url);
  for (const d of url.violations) {
    const where = `${d.code} at offset ${d.offset}${d.section === null ? '' : `, ${d.section}`}`;
    const want =
      d.severity === 'error'
        ? `not a valid ${url.scheme} URL: ${d.message} (${where})`
        : `warning: ${d.message} (${where})`;
    assert.equal(violationNote(d, url), want);
    assert.equal(notes.filter((n) => n === want).length, 1, `${href}: ${want} in ${JSON.stringify(notes)}`);
  }
});

test('the same violation reads the same in every scheme but for the scheme name', () => {
  const worded = new Set(
    ROWS.map(([href]) => {
      const url = parse(href);
      const d = url.violations.find((v) => v.code === 'unsafe-char');
      assert.ok(d !== undefined, `${href} has an unsafe-char`);
      return explain(url)
        .notes.find((n) => n.includes('(unsafe-char at offset'))
        ?.replace(`${url.scheme} URL`, 'X URL')
        .replace(/offset \d+/, 'offset N');
    }),
  );
  assert.deepEqual(
    [...worded],
    ['not a valid X URL: the unsafe character space must be encoded (unsafe-char at offset N, RFC 1738 2.2)'],
  );
});
