// Every URL example printed in the four spec texts (test/fixtures/spec-examples.json, each with
// its source line), parsed with the reading the text gives it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture, shared, parse } from '../helpers.js';

interface Example {
  source: string;
  line: number;
  section: string;
  printed: string;
  url: string;
  partial: boolean;
  reading: {
    scheme: string;
    user: string | null;
    password: string | null;
    host: string | null;
    port: number | null;
    path: string | null;
    schemePart: string;
    fragment: string | null;
  };
  says: string;
  validRfc1738: boolean;
  note: string;
}
const { examples } = JSON.parse(fixture('spec-examples.json')) as { examples: Example[] };

test('the fixture holds the examples of every spec text that prints any', () => {
  const by = new Map<string, number>();
  for (const e of examples) by.set(e.source, (by.get(e.source) ?? 0) + 1);
  assert.ok((by.get('rfc1738-1994-12.txt') ?? 0) >= 30);
  assert.ok((by.get('draft-url-1994-03.txt') ?? 0) >= 20);
  assert.ok((by.get('draft-url-1993-10.txt') ?? 0) >= 13);
});

for (const e of examples) {
  test(`${e.source}:${e.line} (${e.section}) ${e.url}`, () => {
    // The example is printed at that line, as the fixture quotes it.
    const lines = shared(`spec/${e.source}`).split('\n');
    assert.ok(
      lines
        .slice(e.line - 1)
        .join('\n')
        .startsWith(e.printed.split('\n')[0].trimStart()) ||
        lines[e.line - 1].includes(e.printed.split('\n')[0].trim()),
      'printed at that line',
    );
    const u = parse(e.printed.includes('\n') ? e.url : e.printed.replace(/\u00a0/g, ' '));
    const r = e.reading;
    assert.equal(u.href, e.url);
    assert.equal(u.scheme, r.scheme);
    assert.equal(u.user, r.user);
    assert.equal(u.password, r.password);
    assert.equal(u.host, r.host);
    assert.equal(u.explicitPort ? u.port : null, r.port);
    assert.equal(u.path, r.path);
    assert.equal(u.schemePart, r.schemePart);
    assert.equal(u.fragment, r.fragment);
    assert.equal(u.valid, e.validRfc1738, u.violations.map((d) => `${d.code}@${d.offset}`).join(' ') + ' ' + e.note);
  });
}
