// The gopher scheme: RFC 1738 3.4.1-3.4.9 and the section 5 production gopherurl; the Gopher
// section of draft-url-1994-03 (Gopher+ strings and what the client sends); RFC 1436 selectors.
// Rows: input, then "gophertype | selector | search | gopherPlus | request" (absent "-"; the
// request with TAB, CR, LF shown as <TAB>, <CR><LF>), then the violations as code@offset, then
// the section.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse, tryParse, codes, fixture, shared, eachRow } from '../helpers.js';
import { build, explain } from '../../src/operations/build.js';
import { LocatorError } from '../../src/core/errors.js';
import { formatRequest } from '../../src/schemes/notes.js';
import type { GopherPlus } from '../../src/schemes/gopher.js';

interface Fields {
  gophertype: string;
  selector: string;
  search: string | null;
  gopherPlus: string | null;
  request: string;
  plus: GopherPlus | null;
}

function row(u: ReturnType<typeof parse>): string {
  const f = u.fields as unknown as Fields;
  return [f.gophertype, f.selector, f.search ?? '-', f.gopherPlus ?? '-', formatRequest(f.request)].join(' | ');
}

const ROWS: Array<[string, string, string, string]> = [
  // 3.4.1: an empty gopher-path is type "1" and the empty selector; the "/" is optional then
  ['gopher://h.com', '1 |  | - | - | <CR><LF>', '', 'RFC 1738 3.4.1'],
  ['gopher://h.com/', '1 |  | - | - | <CR><LF>', '', 'RFC 1738 3.4.1'],
  ['gopher://h.com/1', '1 |  | - | - | <CR><LF>', '', 'RFC 1738 3.4.1 (the empty selector: the top directory)'],
  ['gopher://h.com:7070/0about', '0 | about | - | - | about<CR><LF>', '', 'RFC 1738 3.4.1'],
  // 3.4.1: a selector may begin with a copy of the gophertype
  ['gopher://h.com/11/pub', '1 | 1/pub | - | - | 1/pub<CR><LF>', '', 'RFC 1738 3.4.1 (type character twice)'],
  // 3.4.1: no characters are reserved in the gopher-path
  ['gopher://h.com/0a?b;c/d:e@f&g=h', '0 | a?b;c/d:e@f&g=h | - | - | a?b;c/d:e@f&g=h<CR><LF>', '', 'RFC 1738 3.4.1'],
  ['gopher://h.com/0%2509', '0 | %09 | - | - | %09<CR><LF>', '', 'RFC 1738 2.2 (an encoded "%" is no separator)'],
  [
    'gopher://h.com/0%E2%82%AC%FF',
    '0 | €\ufffd | - | - | €\ufffd<CR><LF>',
    '',
    'RFC 1738 2.2 (non-UTF-8 octets show as U+FFFD)',
  ],
  // 3.4.2: search after an encoded TAB
  ['gopher://h.com/7find%09red%20fox', '7 | find | red fox | - | find<TAB>red fox<CR><LF>', '', 'RFC 1738 3.4.2'],
  [
    'gopher://h.com/7find%09',
    '7 | find |  | - | find<CR><LF>',
    '',
    'draft 1994-03 Gopher 4 (an empty search: no search)',
  ],
  // 3.4.3: the Gopher+ string after a second encoded TAB; an empty search is not sent (3.4.9)
  ['gopher://h.com/0doc%09%09+', '0 | doc |  | + | doc<TAB>+<CR><LF>', '', 'RFC 1738 3.4.3, 3.4.9'],
  [
    'gopher://h.com/7find%09fox%09+',
    '7 | find | fox | + | find<TAB>fox<TAB>+<CR><LF>',
    '',
    'RFC 1738 3.4.3 (a Gopher+ search)',
  ],
  ['gopher://h.com/0doc%09%09', '0 | doc |  |  | doc<CR><LF>', '', 'RFC 1738 5 (gopher+_string = *xchar, empty)'],
  [
    'gopher://h.com/0doc%09%09+x%09y%09z',
    '0 | doc |  | +x\ty\tz | doc<TAB>+x<TAB>y<TAB>z<CR><LF>',
    '',
    'RFC 1738 5 (the rest is the gopher+_string)',
  ],
  // 3.4.5: "?" asks for the +ASK attribute first
  ['gopher://h.com/1form%09%09%3F', '1 | form |  | ? | form<TAB>!+ASK<CR><LF>', '', 'RFC 1738 3.4.5'],
  // gtype = xchar, which may be an escape
  ['gopher://h.com/%3Fsel', '? | sel | - | - | sel<CR><LF>', '', 'RFC 1738 5 (gtype = xchar: an escape)'],
  ['gopher://h.com/%09x', '\t | x | - | - | x<CR><LF>', 'invalid-gophertype@15', 'RFC 1738 3.4.1, RFC 1436'],
  ['gopher://h.com/%0Dx', '\r | x | - | - | x<CR><LF>', 'invalid-gophertype@15', 'RFC 1738 3.4.1, RFC 1436'],
  ['gopher://h.com/%E9x', '\ufffd | x | - | - | x<CR><LF>', 'invalid-gophertype@15', 'RFC 1738 3.4.1, RFC 1436'],
  ['gopher://h.com/%7Fx', '\x7f | x | - | - | x<CR><LF>', 'invalid-gophertype@15', 'RFC 1738 3.4.1, RFC 1436'],
  ['gopher://h.com/%20x', '  | x | - | - | x<CR><LF>', '', 'RFC 1738 5 (a printable escape is a gtype)'],
  // an encoded CR LF in the selector is allowed by the grammar; the linter flags it (RFC 1738 6)
  [
    'gopher://h.com/0a%0D%0Ab',
    '0 | a\r\nb | - | - | a<CR><LF>b<CR><LF>',
    'gopher-selector-line-end@17 gopher-selector-line-end@20',
    'RFC 1738 3.4.1 (selector = *xchar, but no TAB, LF or CR)',
  ],
  // raw characters that must be encoded are the scanner's findings
  ['gopher://h.com/0a\tb', '0 | a\tb | - | - | a<TAB>b<CR><LF>', 'control-char@17', 'RFC 1738 2.2'],
  ['gopher://h.com/0a b', '0 | a b | - | - | a b<CR><LF>', 'unsafe-char@17', 'RFC 1738 2.2'],
  ['gopher://h.com/%', '% |  | - | - | <CR><LF>', 'invalid-escape@15', 'RFC 1738 2.2'],
  // gopherurl = "gopher://" hostport: no user or password
  ['gopher://u@h.com/', '1 |  | - | - | <CR><LF>', 'unexpected-login@9', 'RFC 1738 5 (gopherurl)'],
  [
    '<URL:gopher://u:p@h.com/%09>',
    '\t |  | - | - | <CR><LF>',
    'unexpected-login@14 invalid-gophertype@24',
    'RFC 1738 appendix (offsets into the input)',
  ],
  // the fragment is not part of the gopher-path
  ['gopher://h.com/0a#b%09c', '0 | a | - | - | a<CR><LF>', '', 'draft 1993-10 fragmentaddress'],
];

eachRow(
  'RFC 1738 3.4: gopher fields and violations',
  ROWS,
  ([input, expected, violations, section]) => {
    const u = parse(input);
    assert.equal(row(u), expected, `${input} (${section})`);
    assert.equal(codes(u), violations, `${input} violations (${section})`);
    assert.equal(u.valid, violations === '', `${input} valid`);
  },
  { section: (r) => r[3] },
);

/** A "client sends" block of the texts, read: lines trimmed and joined, <tab> <cr> <lf> made real. */
function sent(lines: string[]): string {
  return lines
    .map((l) => l.trim())
    .join('')
    .replace(/<tab>/g, '\t')
    .replace(/<cr>/g, '\r')
    .replace(/<lf>/g, '\n')
    .replace(/<([a-z0-9_]+)>/g, '$1');
}

function specLines(source: string, from: number, to = from): string[] {
  return shared(`spec/${source}`)
    .split('\n')
    .slice(from - 1, to);
}

// The URL examples the texts print for gopher, word for word. The draft writes "host [port]"
// for "a host, optionally with a port"; each such example is tested as printed and with "host".
type UrlExample = { source: string; line: number; printed: string; concrete: string; expected: string; note: string };

/** A draft 1994-03 example "gopher://host [port]/<path>", made concrete with the host "host". */
function hostPort(line: number, path: string, expected: string, what: string): UrlExample {
  return {
    source: 'draft-url-1994-03.txt',
    line,
    printed: `gopher://host [port]/${path}`,
    concrete: `gopher://host/${path}`,
    expected,
    note: `${what}; "host [port]" replaced by "host"`,
  };
}

const URL_EXAMPLES: UrlExample[] = [
  hostPort(
    236,
    '0a_gopher_selector',
    '0 | a_gopher_selector | - | - | a_gopher_selector<CR><LF>',
    'a type 0 item (a document)',
  ),
  hostPort(
    240,
    '7a_gopher_selector%09foobar',
    '7 | a_gopher_selector | foobar | - | a_gopher_selector<TAB>foobar<CR><LF>',
    'a type 7 item (a search engine) with the search foobar',
  ),
  hostPort(
    244,
    '0a_gopher_selector%09%09some_gplus_stuff',
    '0 | a_gopher_selector |  | some_gplus_stuff | a_gopher_selector<TAB>some_gplus_stuff<CR><LF>',
    'a Gopher+ type 0 item',
  ),
  hostPort(
    248,
    '0a_gopher_selector%09%09!',
    '0 | a_gopher_selector |  | ! | a_gopher_selector<TAB>!<CR><LF>',
    "a Gopher+ item's attribute information",
  ),
  hostPort(
    252,
    '0a_gopher_selector%09%09+application/postscript%20Es_ES',
    '0 | a_gopher_selector |  | +application/postscript Es_ES | a_gopher_selector<TAB>+application/postscript Es_ES<CR><LF>',
    'the Spanish postscript view',
  ),
  {
    source: 'draft-url-1994-03.txt',
    line: 231,
    printed: 'gopher://host [port]/T[gopher_selector]%09[search_string]%09[gopher+_string]',
    concrete: 'gopher://host/Tgopher_selector%09search_string%09gopher+_string',
    expected:
      'T | gopher_selector | search_string | gopher+_string | gopher_selector<TAB>search_string<TAB>gopher+_string<CR><LF>',
    note: 'the general format: "host [port]" replaced by "host", the optional parts\' brackets removed, T kept as the type',
  },
  {
    source: 'draft-url-1994-03.txt',
    line: 489,
    printed: '<gopher://gopher.micro.umn.edu/00/Information About Gopher/About Gopher>',
    concrete: '<gopher://gopher.micro.umn.edu/00/Information About Gopher/About Gopher>',
    expected: '0 | 0/Information About Gopher/About Gopher | - | - | 0/Information About Gopher/About Gopher<CR><LF>',
    note: 'References; the selector repeats the type; the spaces are not encoded (unsafe-char)',
  },
  {
    source: 'draft-url-1993-10.txt',
    line: 1164,
    printed: '<gopher://gopher.micro.umn.edu/00/Information',
    concrete: 'gopher://gopher.micro.umn.edu/00/InformationAboutGopher/AboutGopher',
    expected: '0 | 0/InformationAboutGopher/AboutGopher | - | - | 0/InformationAboutGopher/AboutGopher<CR><LF>',
    note: 'References; printed across two lines with U+00A0 spaces, joined with the white space removed (RFC 1738 appendix)',
  },
  {
    source: 'rfc1738-1994-12.txt',
    line: 503,
    printed: '<gophertype><selector>%09<search>%09<gopher+_string>',
    concrete: 'gopher://host:70/0selector%09search%09+',
    expected: '0 | selector | search | + | selector<TAB>search<TAB>+<CR><LF>',
    note: 'the 3.4.1 template (lines 497, 501-503) filled in: type 0, "selector", "search", Gopher+ string "+"',
  },
];

eachRow(
  'draft 1994-03 and RFC 1738: every printed gopher URL, verbatim',
  URL_EXAMPLES,
  (e) => {
    {
      assert.ok(specLines(e.source, e.line)[0].includes(e.printed), `${e.source}:${e.line} prints ${e.printed}`);
      const u = parse(e.concrete);
      assert.equal(u.scheme, 'gopher');
      assert.equal(row(u), e.expected, `${e.concrete} (${e.note})`);
      if (e.line === 489) assert.equal(codes(u), 'unsafe-char@45 unsafe-char@51 unsafe-char@64');
      else assert.equal(codes(u), '', e.concrete);
      if (e.printed.startsWith('gopher://host [port]/')) {
        // as printed: the placeholder is read as the host (its space reported), the gopher-path the same
        const literal = parse(e.printed);
        assert.equal(literal.host, 'host [port]');
        if (e.concrete === e.printed.replace('host [port]', 'host')) {
          assert.equal(codes(literal), 'unsafe-char@13');
          assert.deepEqual(literal.fields, u.fields);
        } else assert.ok(codes(literal).startsWith('unsafe-char@13 '), "the template's brackets are unsafe too");
      }
    }
  },
  { input: (e) => e.printed, section: (e) => `${e.source}:${e.line}` },
);

test('spec-examples.json: no gopher example of the fixture is missing from the table', () => {
  const ex = JSON.parse(fixture('spec-examples.json')) as {
    examples: Array<{ url: string; source: string; line: number }>;
  };
  const mine = new Set(
    URL_EXAMPLES.flatMap((e) => [
      parse(e.printed.startsWith('gopher:') ? e.printed : e.concrete).href,
      parse(e.concrete).href,
    ]),
  );
  let n = 0;
  for (const e of ex.examples) {
    if (!/^gopher:/i.test(e.url)) continue;
    n++;
    assert.ok(mine.has(e.url), `${e.source}:${e.line} ${e.url} is not in the table`);
  }
  assert.equal(n, 7);
});

// Each Gopher+ string the texts print, in a URL with the draft's selector, against the text the
// texts say the client sends (lines given; <tab>, <cr>, <lf> made real, lines joined). The
// placeholders of RFC 1738 3.4.9 ("<ask_item1_value>", "<a_gopher_selector>") are written
// without their brackets, as the draft writes them.
const PLUS: Array<{
  source: string;
  line: number;
  printed: string;
  gplus: string;
  sends: [string, number, number] | null;
  plus: Partial<GopherPlus>;
}> = [
  {
    source: 'draft-url-1994-03.txt',
    line: 152,
    printed: 'A Gopher+ string which is only a "+"',
    gplus: '+',
    sends: ['draft-url-1994-03.txt', 153, 153],
    plus: { kind: 'item', view: null },
  },
  {
    source: 'rfc1738-1994-12.txt',
    line: 576,
    printed: 'Gopher+ string consisting of only a',
    gplus: '+',
    sends: null,
    plus: { kind: 'item' },
  },
  {
    source: 'rfc1738-1994-12.txt',
    line: 578,
    printed: 'containing only a "?"',
    gplus: '?',
    sends: null,
    plus: { kind: 'ask' },
  },
  { source: 'draft-url-1994-03.txt', line: 211, printed: '%3F', gplus: '%3F', sends: null, plus: { kind: 'ask' } },
  {
    source: 'draft-url-1994-03.txt',
    line: 159,
    printed: 'the Gopher+ string shall consist of "!" or "$"',
    gplus: '!',
    sends: ['draft-url-1994-03.txt', 161, 161],
    plus: { kind: 'attributes', attributes: [] },
  },
  {
    source: 'draft-url-1994-03.txt',
    line: 159,
    printed: 'the Gopher+ string shall consist of "!" or "$"',
    gplus: '$',
    sends: ['draft-url-1994-03.txt', 164, 164],
    plus: { kind: 'directory-attributes', attributes: [] },
  },
  {
    source: 'rfc1738-1994-12.txt',
    line: 595,
    printed: 'Gopher+ string consists of "!" or "$"',
    gplus: '$',
    sends: null,
    plus: { kind: 'directory-attributes', attributes: [] },
  },
  {
    source: 'rfc1738-1994-12.txt',
    line: 604,
    printed: '"!+ABSTRACT"',
    gplus: '!+ABSTRACT',
    sends: null,
    plus: { kind: 'attributes', attributes: ['+ABSTRACT'] },
  },
  {
    source: 'draft-url-1994-03.txt',
    line: 168,
    printed: '"!+ABSTRACT%20+SMELL"',
    gplus: '!+ABSTRACT%20+SMELL',
    sends: ['draft-url-1994-03.txt', 170, 170],
    plus: { kind: 'attributes', attributes: ['+ABSTRACT', '+SMELL'] },
  },
  {
    source: 'rfc1738-1994-12.txt',
    line: 608,
    printed: '"!+ABSTRACT%20+SMELL"',
    gplus: '!+ABSTRACT%20+SMELL',
    sends: null,
    plus: { kind: 'attributes', attributes: ['+ABSTRACT', '+SMELL'] },
  },
  {
    source: 'draft-url-1994-03.txt',
    line: 174,
    printed: '"+application/postscript%20Es_ES"',
    gplus: '+application/postscript%20Es_ES',
    sends: ['draft-url-1994-03.txt', 176, 176],
    plus: { kind: 'view', view: 'application/postscript', language: 'Es_ES' },
  },
  {
    source: 'rfc1738-1994-12.txt',
    line: 630,
    printed: '"+application/postscript%20Es_ES"',
    gplus: '+application/postscript%20Es_ES',
    sends: null,
    plus: { kind: 'view', view: 'application/postscript', language: 'Es_ES' },
  },
  {
    source: 'rfc1738-1994-12.txt',
    line: 628,
    printed: '+<view_name>%20<language_name>',
    gplus: '+view_name%20language_name',
    sends: null,
    plus: { kind: 'view', view: 'view_name', language: 'language_name' },
  },
  {
    source: 'draft-url-1994-03.txt',
    line: 182,
    printed: '+%091%0D%0A+-1%0D%0Aask_item1_value%0D%0Aask_item2_value%0D%0A.%0D%0A',
    gplus: '+%091%0D%0A+-1%0D%0Aask_item1_value%0D%0Aask_item2_value%0D%0A.%0D%0A',
    sends: ['draft-url-1994-03.txt', 185, 189],
    plus: {
      kind: 'form',
      view: null,
      language: null,
      dataBlock: '+-1\r\nask_item1_value\r\nask_item2_value\r\n.\r\n',
      askData: ['ask_item1_value', 'ask_item2_value'],
    },
  },
  {
    source: 'rfc1738-1994-12.txt',
    line: 641,
    printed: '+%091%0D%0A+-1%0D%0A<ask_item1_value>%0D%0A<ask_item2_value>%0D%0A.%0D%0A',
    gplus: '+%091%0D%0A+-1%0D%0Aask_item1_value%0D%0Aask_item2_value%0D%0A.%0D%0A',
    sends: ['rfc1738-1994-12.txt', 645, 649],
    plus: { kind: 'form', askData: ['ask_item1_value', 'ask_item2_value'] },
  },
  {
    // printed across two lines (196-197); joined with the white space removed (RFC 1738 appendix)
    source: 'draft-url-1994-03.txt',
    line: 196,
    printed: '+view_name%20language_name%091%0D%0A+-1%0D%0Aask_item1_value%0D%0A',
    gplus: '+view_name%20language_name%091%0D%0A+-1%0D%0Aask_item1_value%0D%0Aask_item2_value%0D%0A.%0D%0A',
    sends: ['draft-url-1994-03.txt', 200, 204],
    plus: {
      kind: 'form',
      view: 'view_name',
      language: 'language_name',
      askData: ['ask_item1_value', 'ask_item2_value'],
    },
  },
  // the draft's summary (lines 211-224), its optional parts instantiated
  {
    source: 'draft-url-1994-03.txt',
    line: 215,
    printed: '![attribute_name][%20attribute_name][%20attribute_name]...',
    gplus: '!attribute_name%20attribute_name%20attribute_name',
    sends: null,
    plus: { kind: 'attributes', attributes: ['attribute_name', 'attribute_name', 'attribute_name'] },
  },
  {
    source: 'draft-url-1994-03.txt',
    line: 219,
    printed: '$[attribute_name][%20attribute_name][%20attribute_name]...',
    gplus: '$attribute_name',
    sends: null,
    plus: { kind: 'directory-attributes', attributes: ['attribute_name'] },
  },
  {
    source: 'draft-url-1994-03.txt',
    line: 223,
    printed: '+[view_name[%20language_name]]',
    gplus: '+view_name',
    sends: null,
    plus: { kind: 'view', view: 'view_name', language: null },
  },
  {
    source: 'draft-url-1994-03.txt',
    line: 224,
    printed: '[%091%0D%0A+-1%0D%0Aask_item1_value%0D%0Aask_item2_value...%0D%0A.%0D%0A]',
    gplus: '+%091%0D%0A+-1%0D%0Aask_item1_value%0D%0Aask_item2_value%0D%0Aask_item3_value%0D%0A.%0D%0A',
    sends: null,
    plus: { kind: 'form', askData: ['ask_item1_value', 'ask_item2_value', 'ask_item3_value'] },
  },
];

eachRow(
  'RFC 1738 3.4.4-3.4.9, draft 1994-03: every printed Gopher+ string, and what the client sends',
  PLUS,
  (p) => {
    {
      assert.ok(specLines(p.source, p.line)[0].includes(p.printed), `${p.source}:${p.line} prints ${p.printed}`);
      const u = parse(`gopher://host/0a_gopher_selector%09%09${p.gplus}`);
      assert.equal(codes(u), '', p.gplus);
      const f = u.fields as unknown as Fields;
      assert.equal(f.selector, 'a_gopher_selector');
      assert.equal(f.search, '');
      for (const [k, v] of Object.entries(p.plus))
        assert.deepEqual(f.plus?.[k as keyof GopherPlus], v, `${p.gplus}: plus.${k}`);
      if (p.sends !== null) {
        const [src, from, to] = p.sends;
        assert.equal(f.request, sent(specLines(src, from, to)), `${p.gplus}: ${src}:${from}-${to}`);
      }
    }
  },
  { input: (p) => p.gplus, section: (p) => `${p.source}:${p.line}` },
);

test('RFC 1738 3.4.5: "?" sends the +ASK request, then the filled-in form', () => {
  const e = explain('gopher://host/0a_gopher_selector%09%09?');
  assert.deepEqual(e.steps, [
    'a_gopher_selector<TAB>!+ASK<CR><LF>',
    'a_gopher_selector<TAB>+<TAB>1<CR><LF>+-1<CR><LF><each answer><CR><LF>.<CR><LF>',
  ]);
  assert.ok(e.notes.some((n) => n.includes('3.4.5')));
});

test('explain: the request with <TAB> and <CR><LF>, host and port (RFC 1738 3.4, RFC 1436)', () => {
  const e = explain('gopher://host:7070/7a_gopher_selector%09foobar#x');
  assert.equal(e.protocol, 'gopher');
  assert.equal(e.host, 'host');
  assert.equal(e.port, 7070);
  assert.deepEqual(e.steps, ['a_gopher_selector<TAB>foobar<CR><LF>']);
  assert.ok(e.notes.some((n) => n.includes('"#x" is not sent')));
  assert.ok(e.notes.some((n) => n.includes('menu')));

  const top = explain('gopher://host');
  assert.equal(top.port, 70);
  assert.deepEqual(top.steps, ['<CR><LF>']);
  assert.ok(top.notes.some((n) => n.includes('top directory')));

  const plus = explain('gopher://host/0doc%09%09+');
  assert.deepEqual(plus.steps, ['doc<TAB>+<CR><LF>']);
  assert.ok(
    plus.notes.some((n) => n.includes('"+-1"') && n.includes('"+-2"')),
    'the Gopher+ length header is explained',
  );

  const attrs = explain('gopher://host/1dir%09%09$+VIEWS');
  assert.deepEqual(attrs.steps, ['dir<TAB>$+VIEWS<CR><LF>']);
  assert.ok(attrs.notes.some((n) => n.includes('every item in the directory')));
});

test('explain: type 7 without a search prompts; type h "URL:"; types 8 and T; unknown types; CR LF in the selector', () => {
  const seven = explain('gopher://host/7find');
  assert.deepEqual(seven.steps, ['find<TAB><search string><CR><LF>']);
  assert.ok(seven.notes.some((n) => n.includes('prompts')));
  assert.equal((parse('gopher://host/7find').fields as unknown as Fields).request, 'find\r\n');
  assert.deepEqual(explain('gopher://host/7find%09').steps, ['find<TAB><search string><CR><LF>']);

  const h = explain('gopher://host/hURL:http://www.w3.org/');
  assert.deepEqual(h.steps, ['URL:http://www.w3.org/<CR><LF>']);
  assert.ok(h.notes.some((n) => n.includes('(http://www.w3.org/)')));

  assert.ok(explain('gopher://host/8guest').notes.some((n) => n.includes('Telnet session')));
  assert.ok(explain('gopher://host/Tguest').notes.some((n) => n.includes('tn3270 session')));
  assert.ok(explain('gopher://host/sx').notes.some((n) => n.includes('not one of the RFC 1436 item types')));
  assert.ok(!explain('gopher://host/gx').notes.some((n) => n.includes('not one of the RFC 1436')));
  assert.ok(explain('gopher://host/0a%0D%0Ab').notes.some((n) => n.includes('CR or LF')));
  assert.ok(explain('gopher://host/0a?b').notes.some((n) => n.includes('1993 drafts')));
  assert.ok(explain('gopher://host/0%FF').notes.some((n) => n.includes('U+FFFD')));
  assert.ok(!explain('gopher://host/0%C3%A9').notes.some((n) => n.includes('U+FFFD')));

  const bad = explain('gopher://u@host/%09x');
  assert.deepEqual(bad.steps, ['x<CR><LF>']);
  assert.equal(bad.notes.filter((n) => n.startsWith('not a valid gopher URL:')).length, 2);
  const none = explain('gopher:x');
  assert.deepEqual(none.steps, []);
  assert.ok(none.notes.some((n) => n.includes('no host')));
});

test('build: gopher-path parts encoded, TAB refused where it would separate (RFC 1738 3.4.1, RFC 1436)', () => {
  assert.equal(build('gopher', { host: 'h.com' }), 'gopher://h.com/1');
  assert.equal(
    build('gopher', { host: 'h.com', port: 70, gophertype: '0', selector: 'a b%c#d?e;f/g' }),
    'gopher://h.com/0a%20b%25c%23d?e;f/g',
  );
  assert.equal(
    build('gopher', { host: 'h.com', port: 7070, gophertype: '7', selector: 's', search: 'red fox' }),
    'gopher://h.com:7070/7s%09red%20fox',
  );
  assert.equal(
    build('gopher', {
      host: 'h.com',
      gophertype: '0',
      selector: 'a_gopher_selector',
      search: null,
      gopherPlus: '+\t1\r\n+-1\r\nv\r\n.\r\n',
    }),
    'gopher://h.com/0a_gopher_selector%09%09+%091%0D%0A+-1%0D%0Av%0D%0A.%0D%0A',
  );
  assert.equal(
    build('gopher', { host: 'h.com', gophertype: '0', selector: 'x', search: '', gopherPlus: '!+ABSTRACT +SMELL' }),
    'gopher://h.com/0x%09%09!+ABSTRACT%20+SMELL',
  );
  assert.throws(() => build('gopher', { host: 'h.com', gophertype: '0', selector: 'a\r\nb' }), /LF and CR/);
  assert.equal(build('gopher', { host: 'h.com', gophertype: '%', selector: 'x' }), 'gopher://h.com/%25x');
  assert.equal(build('gopher', { host: 'h.com', gophertype: '#', selector: '' }), 'gopher://h.com/%23');
  assert.equal(build('gopher', { host: 'h.com', gophertype: '?', selector: '' }), 'gopher://h.com/?');
  assert.equal(build('gopher', { host: 'h.com', gophertype: ' ' }), 'gopher://h.com/%20');
  // derived fields are ignored
  assert.equal(
    build('gopher', { host: 'h.com', gophertype: '0', selector: 'x', request: 'junk', plus: { kind: 'ask' } } as never),
    'gopher://h.com/0x',
  );
  const refused = (f: Record<string, unknown>) =>
    assert.throws(
      () => build('gopher', { host: 'h.com', ...f }),
      (e: unknown) => e instanceof LocatorError && e.code === 'invalid-field',
      JSON.stringify(f),
    );
  refused({ selector: 'a\tb' });
  refused({ search: 'a\tb' });
  refused({ gophertype: '' });
  refused({ gophertype: '01' });
  refused({ gophertype: '\t' });
  refused({ gophertype: '\n' });
  refused({ gophertype: 'é' });
  refused({ gophertype: 1 });
  refused({ user: 'u' });
});

// Property tests (fixed seed).
const special = fc.constantFrom(
  '%',
  '%09',
  '/',
  '?',
  '#',
  ' ',
  '\r',
  '\n',
  '\r\n',
  '+',
  '!',
  '$',
  ';',
  'é',
  '€',
  '😀',
  '\u0000',
);
const unit = fc.oneof(special, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
const noTab = fc.string({ unit: unit.filter((s) => !s.includes('\t')), maxLength: 12 });
const withTab = fc.string({ unit: fc.oneof(unit, fc.constant('\t')), maxLength: 12 });
// RFC 1738 3.4.1: a selector holds no TAB, LF or CR.
const selectorText = fc.string({ unit: unit.filter((s) => !/[\t\r\n]/.test(s)), maxLength: 12 });
const gtype = fc.integer({ min: 32, max: 126 }).map((c) => String.fromCharCode(c));

test('property: parse(build(f)).fields deepEquals f, and parse(href).href === href', () => {
  fc.assert(
    fc.property(
      gtype,
      selectorText,
      fc.option(noTab, { nil: null }),
      fc.option(withTab, { nil: null }),
      fc.option(fc.integer({ min: 1, max: 65535 }), { nil: null }),
      (gophertype, selector, search, gopherPlus, port) => {
        const href = build('gopher', { host: 'h.example', port, gophertype, selector, search, gopherPlus });
        const u = parse(href);
        assert.equal(u.href, href);
        assert.equal(u.valid, true, `${href}: ${codes(u)}`);
        const f = u.fields as unknown as Fields;
        assert.equal(f.gophertype, gophertype);
        assert.equal(f.selector, selector);
        assert.equal(f.search, gopherPlus !== null && search === null ? '' : search); // 3.4.3: the search must be supplied
        assert.equal(f.gopherPlus, gopherPlus);
        assert.ok(f.request.startsWith(selector));
        if (!gopherPlus && search) assert.equal(f.request, `${selector}\t${search}\r\n`);
        if (gopherPlus === null && !search) assert.equal(f.request, `${selector}\r\n`);
        const again = build('gopher', { ...f, host: u.host, port: u.port });
        assert.equal(again, href);
        assert.deepEqual(parse(again).fields, u.fields);
      },
    ),
    { seed: 1738, numRuns: 500 },
  );
});

test('property: a TAB in the selector or search is refused, never silently moved', () => {
  fc.assert(
    fc.property(noTab, noTab, fc.boolean(), (a, b, inSelector) => {
      const v = `${a}\t${b}`;
      assert.throws(
        () =>
          build('gopher', {
            host: 'h.example',
            gophertype: '0',
            selector: inSelector ? v : 'x',
            search: inSelector ? null : v,
          }),
        (e: unknown) => e instanceof LocatorError && e.code === 'invalid-field',
      );
    }),
    { seed: 1738, numRuns: 200 },
  );
});

test('property: any gopher-path parses or fails cleanly; fields and explain never throw', () => {
  fc.assert(
    fc.property(withTab, (path) => {
      const u = tryParse(`gopher://h.example/${path}`);
      if (u instanceof LocatorError) return;
      assert.equal(parse(u.href).href, u.href);
      const f = u.fields as unknown as Fields;
      assert.equal(typeof f.request, 'string');
      assert.ok(f.request.endsWith('\r\n') || f.gopherPlus?.includes('\r\n'), JSON.stringify(f.request));
      assert.equal(explain(u).protocol, 'gopher');
    }),
    { seed: 1738, numRuns: 500 },
  );
});
