// check() reports the document as written (RFC 1738 2.2, appendix): a URL the text runs on past
// (through a character that may not appear unencoded) is an `invalid` row quoting the whole run,
// at its line and column, and the shorter URL before it is never probed in its place; an IPv6
// literal is found (and judged by the parser, as when given as an argument); a wrapped URL whose
// white space was ignored is checked as the appendix reads it, and its row says so. No network:
// the probe is a fake that records what it was asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, type CheckResult } from '../../src/check/index.js';
import type { ProbeResult } from '../../src/clients/probe/types.js';
import type { Url } from '../../src/core/url.js';
import { eachRow } from '../helpers.js';

const DOC = [
  'Where the files are:', // line 1
  '  one ftp://127.0.0.1:2121/pub/%zz here', // 2, column 7
  'two http://[::1]:18399/ there', // 3, column 5
  'three <URL:http://exa mple.com/x> four', // 4, column 7
  'five http://example.com/~user/a.txt, and ftp://ftp.example/pub/caf\u00e9.txt.', // 5, columns 6 and 42
  'six [http://example.com/ok] "http://example.com/q" http://example.com/a%', // 6, columns 6, 30 and 52
  'seven <URL:http://example.com/very-', // 7, column 7
  '       long>', // 8
].join('\n');

async function run(): Promise<{ rows: CheckResult[]; probed: string[] }> {
  const probed: string[] = [];
  const probe = async (u: Url): Promise<ProbeResult> => {
    probed.push(u.href);
    return { status: 'ok', reason: 'fine', temporary: false, redirects: [], transcript: [], ms: 1 };
  };
  const rows: CheckResult[] = [];
  for await (const r of check([{ file: 'doc.txt', text: DOC }], { probe, retries: 0 })) rows.push(r);
  return { rows, probed };
}

// url as reported | status | line:column | code | a note that says the white space was ignored
const WANT: [string, string, string, string | null, boolean][] = [
  ['ftp://127.0.0.1:2121/pub/%zz', 'invalid', '2:7', 'invalid-escape', false],
  ['http://[::1]:18399/', 'invalid', '3:5', 'ipv6-literal', false],
  ['http://example.com/x', 'ok', '4:7', null, true],
  ['http://example.com/~user/a.txt', 'invalid', '5:6', 'unsafe-char', false],
  ['ftp://ftp.example/pub/caf\u00e9.txt', 'invalid', '5:42', null, false],
  ['http://example.com/ok', 'ok', '6:6', null, false],
  ['http://example.com/q', 'ok', '6:30', null, false],
  ['http://example.com/a%', 'invalid', '6:52', 'invalid-escape', false],
  ['http://example.com/very-long', 'ok', '7:7', null, true],
];

test('the rows are the URLs as written, in order, one per URL of the document', async () => {
  const { rows } = await run();
  assert.deepEqual(
    rows.map((r) => r.url),
    WANT.map((w) => w[0]),
  );
});

eachRow(
  'a row quotes the document as written (RFC 1738 2.2, appendix)',
  WANT,
  async ([url, status, at, code, spaced]) => {
    const { rows } = await run();
    const r = rows.find((x) => x.url === url);
    assert.ok(r !== undefined, `no row for ${url}: ${rows.map((x) => x.url).join(' ')}`);
    assert.equal(r.status, status, r.reason);
    assert.equal(`${r.where?.line}:${r.where?.column}`, at);
    if (code !== null) assert.equal(r.code, code, r.reason);
    assert.equal(
      r.notes.some((n) => /white space in the wrapper ignored \(RFC 1738 appendix\)/.test(n)),
      spaced,
      r.notes.join('; '),
    );
  },
);

test('the shorter URL before a run-on is never probed in its place', async () => {
  const { probed } = await run();
  assert.deepEqual(probed.sort(), [
    'http://example.com/ok',
    'http://example.com/q',
    'http://example.com/very-long',
    'http://example.com/x',
  ]);
});

test('the note quotes the wrapped URL as written', async () => {
  const { rows } = await run();
  const r = rows.find((x) => x.url === 'http://example.com/x')!;
  assert.deepEqual(r.notes, [
    'white space in the wrapper ignored (RFC 1738 appendix): written "http://exa mple.com/x"',
  ]);
});
