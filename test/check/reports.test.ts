// The reports of check() for CI, without servers: the Markdown summary (report-markdown.ts) read
// back by markdown-it, with a hostile server's reply and a hostile document's names in it, and the
// GitHub annotation (report-github.ts) against the escaping of the Actions toolkit
// (@actions/core command.ts: escapeData % CR LF; escapeProperty also ":" and ",").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import markdownIt from 'markdown-it';
import { MarkdownSummary, cell, code } from '../../src/check/report-markdown.js';
import { githubAnnotation } from '../../src/check/report-github.js';
import type { CheckResult } from '../../src/check/index.js';

function result(over: Partial<CheckResult>): CheckResult {
  return {
    url: 'ftp://h.example/x',
    status: 'broken',
    reason: '550 no',
    redirects: [],
    where: null,
    parent: null,
    depth: 0,
    attempts: 1,
    duplicate: false,
    notes: [],
    ms: 1,
    transcript: [],
    ...over,
  } as CheckResult;
}

const HOSTILE =
  '550 [click](https://evil.example/) ![x](https://evil.example/p.png) <img src=x onerror=alert(1)> ' +
  '<https://evil.example/> **b** _i_ ~~s~~ `c` &amp; &#60; $x$ @someone #12 a\\|b';

test('cell: every Markdown and HTML metacharacter escaped, controls shown; code: only "|", "\\" and controls', () => {
  assert.equal(
    cell(HOSTILE),
    '550 \\[click\\]\\(https\\://evil.example/\\) \\!\\[x\\]\\(https\\://evil.example/p.png\\) \\<img src=x onerror=alert\\(1\\)\\> ' +
      '\\<https\\://evil.example/\\> \\*\\*b\\*\\* \\_i\\_ \\~\\~s\\~\\~ \\`c\\` \\&amp; \\&\\#60; \\$x\\$ \\@someone \\#12 a\\\\\\|b',
  );
  assert.equal(cell('a\r\nb\u007f\tc'), 'a\\u000d\\u000ab\\u007f\\u0009c');
  assert.equal(code('ftp://h/a|b\\c\n'), '`ftp://h/a\\|b\\u005cc\\u000a`');
  assert.equal(code('a`b'), '``a`b``');
  assert.equal(code('`a'), '`` `a ``');
});

test('--format markdown: a hostile reply, file name and URLs make no link, image, HTML or emphasis', () => {
  const s = new MarkdownSummary(false);
  const file = 'docs/[x](https://evil.example/)<img src=y>.md';
  s.add(result({ reason: HOSTILE, where: { file, line: 3, column: 7 }, redirects: ['https://evil.example/<b>'] }));
  s.add(result({ url: 'gopher://h/1|<img src=z>`', parent: 'gopher://h/1<a href=q>[p](q)', reason: '<i>x</i>' }));
  const out = s.text('locator check <b>');
  const md = markdownIt({ html: true, linkify: true });
  const tokens = md.parse(out, {});
  const kinds = new Set<string>();
  for (const t of tokens) for (const c of [t, ...(t.children ?? [])]) kinds.add(c.type);
  for (const bad of ['link_open', 'image', 'html_inline', 'html_block', 'strong_open', 'em_open', 's_open'])
    assert.ok(!kinds.has(bad), `${bad} in\n${out}`);
  const html = md.render(out);
  assert.ok(!/<(a|img|b|i)\b/.test(html), html);
  assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'), html);
  const rows = out.split('\n');
  assert.equal(rows[0], '## locator check \\<b\\>');
  assert.ok(rows.includes('### docs/\\[x\\]\\(https\\://evil.example/\\)\\<img src=y\\>.md'), out);
  assert.ok(
    rows.includes(`| 3:7 | broken | \`ftp://h.example/x\` | ${cell(HOSTILE)}; -\\> https\\://evil.example/\\<b\\> |`),
    out,
  );
  assert.ok(
    rows.includes(
      '| in `gopher://h/1<a href=q>[p](q)` | broken | `` gopher://h/1\\|<img src=z>` `` | \\<i\\>x\\</i\\> |',
    ),
    out,
  );
  // The table keeps its four cells: no escaped "|" ended one.
  const cells = tokens.filter((t) => t.type === 'td_open').length;
  assert.equal(cells, 7 * 2 + 4 + 4, out);
});

test('githubAnnotation: file names with "," ":" "%" CR LF escaped as properties; the message as data', () => {
  const r = result({
    url: 'ftp://h/a%20b',
    reason: '550 100% gone,\r\nreally: yes',
    where: { file: 'dir,1/a:b%c\r\nd.md', line: 2, column: 5 },
    notes: ['n,1:2'],
  });
  assert.equal(
    githubAnnotation(r),
    '::error file=dir%2C1/a%3Ab%25c%0D%0Ad.md,line=2,col=5,title=broken link::broken ftp://h/a%2520b (550 100%25 gone,%0D%0Areally: yes); n,1:2',
  );
  assert.equal(
    githubAnnotation(result({ status: 'redirected', reason: '301', redirects: ['http://h/%0A'], url: 'http://h/' })),
    '::notice title=redirected link::redirected http://h/ (301) -> http://h/%250A',
  );
  assert.equal(githubAnnotation(result({ status: 'ok' })), null);
});
