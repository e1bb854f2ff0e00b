// The report formats of `locator check` (src/cli/check.ts, issue 18) on results made here: the
// text line, the NDJSON record, the HTML page and the JUnit XML (every value escaped), passwords
// hidden (RFC 1738 6), and the progress line (src/cli/progress.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { htmlReport, jsonRecord, junitReport, shown, textLine } from '../../src/cli/check.js';
import { countLine } from '../../src/cli/progress.js';
import type { CheckResult } from '../../src/check/index.js';

function result(over: Partial<CheckResult>): CheckResult {
  return {
    url: 'http://h.example/',
    status: 'ok',
    reason: '200',
    redirects: [],
    where: null,
    parent: null,
    depth: 0,
    attempts: 1,
    duplicate: false,
    notes: [],
    ms: 5,
    transcript: [],
    ...over,
  };
}

test('textLine: FILE:LINE:COLUMN: STATUS URL (REASON), redirects, the menu a link was found in, notes', () => {
  const rows: [Partial<CheckResult>, string][] = [
    [{}, 'ok http://h.example/ (200)'],
    [
      { status: 'broken', reason: '550 No such file', where: { file: 'a.txt', line: 3, column: 7 } },
      'a.txt:3:7: broken http://h.example/ (550 No such file)',
    ],
    [
      { status: 'redirected', redirects: ['http://h.example/a', 'http://h.example/b'] },
      'redirected http://h.example/ (200) -> http://h.example/a -> http://h.example/b',
    ],
    [
      { parent: 'gopher://g.example/1/', depth: 1, notes: ['2 link(s) not checked'] },
      'ok http://h.example/ (200) in gopher://g.example/1/; 2 link(s) not checked',
    ],
  ];
  for (const [over, line] of rows) assert.equal(textLine(result(over)), line);
});

test('shown: passwords hidden in the URL, the redirects, the parent and the reason (RFC 1738 6)', () => {
  const r = shown(
    result({
      url: 'ftp://u:secret@h.example/f',
      reason: 'the FTP server at ftp://u:secret@h.example/f answered 530',
      redirects: ['ftp://v:other@h.example/g'],
      parent: 'ftp://u:secret@h.example/',
    }),
    false,
  );
  assert.equal(JSON.stringify(jsonRecord(r)).includes('secret'), false);
  assert.equal(r.url, 'ftp://u:****@h.example/f');
  assert.deepEqual(r.redirects, ['ftp://v:****@h.example/g']);
  assert.equal(shown(result({ url: 'ftp://u:secret@h.example/f' }), true).url, 'ftp://u:secret@h.example/f');
});

test('htmlReport and junitReport escape every value; JUnit counts failures and errors', () => {
  const evil = '"><script>alert(1)</script>&';
  const results = [
    result({
      url: `http://h.example/${evil}`,
      status: 'invalid',
      reason: evil,
      where: { file: `f${evil}`, line: 1, column: 1 },
    }),
    result({ status: 'unreachable', reason: 'timeout' }),
    result({}),
  ];
  const page = htmlReport(results);
  assert.ok(!page.includes('<script>'));
  assert.ok(page.includes('&lt;script&gt;alert(1)&lt;/script&gt;&amp;'));
  const xml = junitReport(results, 1.5);
  assert.ok(!xml.includes('<script>'));
  assert.match(xml, /<testsuite name="locator check" tests="3" failures="1" errors="1" skipped="0" time="1\.500">/);
  assert.match(xml, /<failure type="invalid" message="&quot;&gt;&lt;script&gt;/);
  assert.match(xml, /<error type="unreachable" message="timeout"><\/error>/);
  // Every attribute value is quoted and holds no raw "<" or "&" (well-formed XML).
  for (const m of xml.matchAll(/="([^"]*)"/g)) assert.ok(!/[<]|&(?!(amp|lt|gt|quot|#39);)/.test(m[1]), m[1]);
});

test('countLine: the URLs reported so far by status, the rate and the time', () => {
  assert.equal(countLine({ ok: 3, broken: 1, invalid: 0 }, 2000), 'checked 4 (ok 3, broken 1)  2.0 URLs/s  00:02');
  assert.equal(countLine({}, 0), 'checked 0  0.0 URLs/s  00:00');
});
