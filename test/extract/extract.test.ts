// extract() (RFC 1738 appendix, "Recommendations for URLs in Context"; the "Wrappers for URIs
// in plain text" appendix of the 1993-10 and 1994-03 drafts): the appendix examples word for
// word, the fixture texts of test/fixtures/extract with their expected matches, the one-line
// cases and not_urls, the four spec texts against test/fixtures/spec-examples.json, and the
// rules one by one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, fixture, shared, eachRow } from '../helpers.js';
import { extract, createExtractor, type Match } from '../../src/extract/index.js';
import { registerScheme, unregisterScheme } from '../../src/schemes/registry.js';
import { LocatorError } from '../../src/core/errors.js';

const all = (text: string, options?: Parameters<typeof extract>[1]) => [...extract(text, options)];
const urls = (text: string, options?: Parameters<typeof extract>[1]) => all(text, options).map((m) => m.url);

/** The same text pushed in chunks of the given sizes (cycled), then end(). */
function streamed(text: string, sizes: number[], options?: Parameters<typeof extract>[1]): Match[] {
  const ex = createExtractor(options);
  const out: Match[] = [];
  for (let i = 0, k = 0; i < text.length; k++) {
    const n = sizes[k % sizes.length];
    out.push(...ex.push(text.slice(i, i + n)));
    i += n;
  }
  out.push(...ex.end());
  return out;
}

// ---- the appendix examples, verbatim -------------------------------------------------------

test('RFC 1738 appendix: the three examples come out exactly (prefixed, wrapped, fragment inside)', () => {
  const text = [
    '      Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;',
    '      type=d> but you can probably pick it up from <URL:ftp://ds.in',
    '      ternic.net/rfc>.  Note the warning in <URL:http://ds.internic.',
    '      net/instructions/overview.html#WARNING>.',
  ].join('\n');
  assert.deepEqual(
    all(text).map((m) => [m.url, m.form, m.line, m.column, m.alternatives]),
    [
      ['ftp://info.cern.ch/pub/www/doc;type=d', 'prefixed', 1, 34, []],
      ['ftp://ds.internic.net/rfc', 'prefixed', 2, 52, []],
      ['http://ds.internic.net/instructions/overview.html#WARNING', 'prefixed', 3, 45, []],
    ],
  );
  const m = all(text);
  assert.equal(text.slice(m[0].start, m[0].end), '<URL:ftp://info.cern.ch/pub/www/doc;\n      type=d>');
});

test('draft 1994-03 appendix: the example without "URL:" (bracketed)', () => {
  const text =
    'Yes, Jim, I found it under <ftp://ftp.w3.org/pub/www/doc> but\n    you can probably pick it up from <ftp://ds.internic.net/rfc>.';
  assert.deepEqual(
    all(text).map((m) => [m.url, m.form, m.line, m.column]),
    [
      ['ftp://ftp.w3.org/pub/www/doc', 'bracketed', 1, 28],
      ['ftp://ds.internic.net/rfc', 'bracketed', 2, 38],
    ],
  );
});

test('draft 1993-10 appendix: U+00A0 spaces, "bu"/"t" broken prose, a URL wrapped to column 0', () => {
  const nb = '\u00a0';
  const text =
    `${nb.repeat(16)}Yes,${nb}Jim,${nb}I${nb}found${nb}it${nb}under${nb}<ftp://info.cern.ch/pub>${nb}bu\nt\n` +
    `${nb.repeat(16)}you${nb}can${nb}probably${nb}pick${nb}it${nb}up${nb}from${nb}<ftp://ds.internic.ne\nt/rfc>.\n`;
  assert.deepEqual(urls(text), ['ftp://info.cern.ch/pub', 'ftp://ds.internic.net/rfc']);
});

// ---- fixture texts with their expected matches ---------------------------------------------

const FIXTURES = join(ROOT, 'test', 'fixtures', 'extract');
const documents = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.expected.json'))
  .map((f) => f.replace('.expected.json', ''));

test('the fixture documents are all there', () => {
  assert.deepEqual(documents.sort(), [
    'appendix-draft-1993-10',
    'appendix-draft-1994-03',
    'appendix-rfc1738',
    'mail-crlf',
    'news',
    'page-break',
    'references-draft-1993-10',
    'references-rfc1738',
  ]);
});

for (const name of documents) {
  test(`fixture ${name}: the expected matches, whole and in chunks`, () => {
    const text = fixture(`extract/${name}.txt`);
    const expected = JSON.parse(fixture(`extract/${name}.expected.json`)) as {
      source: string;
      matches: Array<Match & { text: string }>;
    };
    assert.ok(expected.source.length > 20, 'the fixture names its source');
    const got = all(text);
    assert.deepEqual(
      got,
      expected.matches.map(({ text: _t, ...m }) => m),
    );
    for (const m of expected.matches) assert.equal(text.slice(m.start, m.end), m.text);
    for (const sizes of [[1], [2, 3], [7], [64, 1, 5], [4096]])
      assert.deepEqual(streamed(text, sizes), got, `chunks ${sizes}`);
  });
}

// The expected matches were first written by the extractor, then checked by hand against the
// RFC 1738 appendix and docs/extract.md (test/fixtures/extract/README.md). This reading keeps
// them checked apart from the extractor: for each match, the line and column of its start, its
// form from its first characters, and its URL as the appendix says to read a wrapper (the "<",
// "URL:" and ">" removed, every white space ignored) with the two shapes docs/extract.md adds (a
// page footer and header inside a wrapper, the "> " of quoted mail at the start of a line), and,
// for each line break right after a hyphen, the alternative without it.

/** The 1-based line and column of `offset` (LF, CR LF, a lone CR end a line; UTF-16 columns). */
function lineColumn(text: string, offset: number): [number, number] {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const c = text[i];
    if (c === '\r' && text[i + 1] === '\n' && i + 1 < offset) i++;
    if (c === '\r' || c === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return [line, offset - lineStart + 1];
}

/** A line of a page's footer or header in the fixtures (RFC and draft layout). */
const PAGE_LINE = /^\s*(Berners-Lee\b.*(\[Page \d+\]|\d+)\s*$|Internet\sDraft\s{3,}|RFC\s(XXXX|\d+)\s{3,})/u;

/** The URL, its alternatives and form of a match's text, read by the appendix's rules. */
function readByHand(matchText: string): { url: string; alternatives: string[]; form: string } {
  const form = matchText.startsWith('<URL:') ? 'prefixed' : matchText.startsWith('<') ? 'bracketed' : 'bare';
  if (form !== 'bare') assert.ok(matchText.endsWith('>'), `a wrapper ends with ">": ${matchText}`);
  const inner =
    form === 'prefixed' ? matchText.slice(5, -1) : form === 'bracketed' ? matchText.slice(1, -1) : matchText;
  const pieces = inner
    .split(/\r\n|\r|\n/)
    .filter((l) => !PAGE_LINE.test(l))
    .map((l, k) => (k === 0 ? l : l.replace(/^\s*(>[ \u00a0]?)*/u, '')).replace(/\s+/gu, ''));
  const alternatives: string[] = [];
  for (let k = 0; k + 1 < pieces.length; k++)
    if (pieces[k].endsWith('-') && pieces[k + 1] !== '')
      alternatives.push(
        pieces
          .slice(0, k + 1)
          .join('')
          .slice(0, -1) + pieces.slice(k + 1).join(''),
      );
  return { url: pieces.join(''), alternatives, form };
}

for (const name of documents) {
  test(`fixture ${name}: each expected match reads back by the appendix's rules, apart from the extractor`, () => {
    const text = fixture(`extract/${name}.txt`);
    const expected = JSON.parse(fixture(`extract/${name}.expected.json`)) as {
      matches: Array<Match & { text: string }>;
    };
    for (const m of expected.matches) {
      const where = `${name} ${m.line}:${m.column}`;
      assert.equal(text.slice(m.start, m.end), m.text, where);
      assert.deepEqual(lineColumn(text, m.start), [m.line, m.column], where);
      const read = readByHand(m.text);
      assert.deepEqual([read.form, read.url, read.alternatives], [m.form, m.url, m.alternatives], where);
      if (m.form === 'bare') assert.doesNotMatch(m.text, /\s/u, `${where}: a bare URL holds no white space`);
    }
  });
}

test('fixture mail-crlf really has CR LF line ends; line numbers count each CR LF once', () => {
  const text = fixture('extract/mail-crlf.txt');
  assert.ok(text.includes('\r\n') && !/[^\r]\n/.test(text));
  const lines = text.split('\r\n');
  for (const m of all(text)) assert.equal(lines[m.line - 1].charCodeAt(m.column - 1), text.charCodeAt(m.start));
});

/** The one-line cases: a text line, then "=" and the URLs; "%" lines cite the source. */
function cases(name: string): Array<[string, string[]]> {
  const out: Array<[string, string[]]> = [];
  let input: string | null = null;
  for (const line of fixture(`extract/${name}`).split('\n')) {
    if (line === '' || line.startsWith('%')) continue;
    if (line.startsWith('=')) {
      assert.notEqual(input, null, `"=" line without a text: ${line}`);
      const rest = line.slice(1).trim();
      out.push([input!, rest === '' ? [] : rest.split(' ')]);
      input = null;
    } else {
      assert.equal(input, null, `text without an "=" line: ${input}`);
      input = line;
    }
  }
  return out;
}

const BARE = cases('bare.txt');

test('bare.txt: at least 35 one-line cases', () => {
  assert.ok(BARE.length >= 35);
});

eachRow('bare.txt: the line gives exactly its URLs (RFC 1738 2.2, appendix)', BARE, ([input, expected]) => {
  assert.deepEqual(urls(input), expected, input);
});

const NOT_URLS_TEXT = fixture('extract/not_urls.txt');
const NOT_URLS = NOT_URLS_TEXT.split('\n').filter((l) => l !== '' && !l.startsWith('%'));

test('not_urls.txt: at least 20 lines, and the whole text gives no URL', () => {
  assert.ok(NOT_URLS.length >= 20);
  assert.deepEqual(urls(NOT_URLS_TEXT), []);
});

eachRow('not_urls.txt: the line gives no URL (RFC 1738 appendix)', NOT_URLS, (l) => {
  assert.deepEqual(urls(l), [], l);
});

// ---- the four spec texts against spec-examples.json ----------------------------------------

interface Example {
  source: string;
  line: number;
  printed: string;
  url: string;
}
const examples = (JSON.parse(fixture('spec-examples.json')) as { examples: Example[] }).examples;
const SPECS = ['rfc1738-1994-12.txt', 'draft-url-1994-03.txt', 'draft-url-1993-10.txt', 'draft-url-1993-07.txt'];

/** Where extract departs from the `url` of spec-examples.json, and why. */
const DIFFERENT: Record<string, string> = {
  // RFC 1738 appendix: "The whitespace should be ignored when extracting the URL" (the
  // fixture keeps the spaces of this one-line example; its note gives this reading).
  'draft-url-1994-03.txt:489:<gopher://gopher.micro.umn.edu/00/Information About Gopher/About Gopher>':
    'gopher://gopher.micro.umn.edu/00/InformationAboutGopher/AboutGopher',
};

function lineOffset(text: string, line: number): number {
  let at = 0;
  for (let n = 1; n < line; n++) at = text.indexOf('\n', at) + 1;
  return at;
}

/** The text of a spec and what extract() finds in it, read once per spec. */
const specFound = new Map<string, { text: string; found: Match[] }>();
function foundIn(spec: string): { text: string; found: Match[] } {
  let r = specFound.get(spec);
  if (r === undefined) {
    const text = shared(`spec/${spec}`);
    r = { text, found: all(text) };
    specFound.set(spec, r);
  }
  return r;
}

const WRAPPED = examples.filter((e) => SPECS.includes(e.source) && e.printed.startsWith('<'));
eachRow(
  'spec texts: the wrapped example of spec-examples.json comes out as its url (RFC 1738 appendix)',
  WRAPPED,
  (e) => {
    const spec = e.source;
    const { text, found } = foundIn(spec);
    const byStart = new Map(found.map((m) => [m.start, m]));
    const at = text.indexOf(e.printed, lineOffset(text, e.line));
    assert.ok(at >= 0, `${spec}:${e.line} printed text not found`);
    const m = byStart.get(at);
    assert.ok(m, `${spec}:${e.line}: no match at ${e.printed}`);
    assert.equal(m.end, at + e.printed.length, `${spec}:${e.line}: the match is the printed text`);
    assert.equal(m.line, e.line);
    assert.equal(m.form, e.printed.startsWith('<URL:') ? 'prefixed' : 'bracketed');
    assert.equal(m.url, DIFFERENT[`${spec}:${e.line}:${e.printed}`] ?? e.url, `${spec}:${e.line}`);
  },
  { input: (e) => e.printed, section: (e) => `${e.source}:${e.line}` },
);

for (const spec of SPECS) {
  test(`spec text ${spec}: extract finds the wrapped examples of spec-examples.json and nothing else`, () => {
    const { text, found } = foundIn(spec);
    const wrapped = examples.filter((e) => e.source === spec && e.printed.startsWith('<'));
    // ... and nothing else in wrappers: the fixture lists every wrapper of the texts.
    assert.equal(found.filter((m) => m.form !== 'bare').length, wrapped.length);
    // The bare URLs: only the gopher examples of the 1994-03 draft, cut at the space of their
    // "host [port]" placeholder (a bare URL ends at white space).
    const bare = found.filter((m) => m.form === 'bare').map((m) => `${m.line}:${m.url}`);
    assert.deepEqual(
      bare,
      spec === 'draft-url-1994-03.txt'
        ? [
            '231:gopher://host',
            '236:gopher://host',
            '240:gopher://host',
            '244:gopher://host',
            '248:gopher://host',
            '252:gopher://host',
          ]
        : [],
    );
    for (const sizes of [[1, 2, 3], [97], [1000, 1]]) assert.deepEqual(streamed(text, sizes), found, `chunks ${sizes}`);
  });
}

test('spec-examples.json: all 30 <URL:...> examples of RFC 1738 are checked', () => {
  assert.equal(examples.filter((e) => e.printed.startsWith('<URL:')).length, 30);
  assert.ok(examples.filter((e) => e.printed.startsWith('<') && !e.printed.startsWith('<URL:')).length >= 20);
});

// ---- wrappers (RFC 1738 appendix) ----------------------------------------------------------

const WRAPPERS: Array<[string, string, Match['form'], string[]]> = [
  // line break right after a hyphen: the hyphen stays, the reading without it is listed
  ['<URL:ftp://a.com/draft-\n   notes.txt>', 'ftp://a.com/draft-notes.txt', 'prefixed', ['ftp://a.com/draftnotes.txt']],
  // ... with white space between the hyphen and the line break (the appendix: "ignore all
  // unencoded whitespace around the line break")
  [
    '<URL:ftp://a.com/draft- \t\n   notes.txt>',
    'ftp://a.com/draft-notes.txt',
    'prefixed',
    ['ftp://a.com/draftnotes.txt'],
  ],
  // a hyphen with no line break after it is just a hyphen
  ['<URL:ftp://a.com/draft-notes\n.txt>', 'ftp://a.com/draft-notes.txt', 'prefixed', []],
  ['<URL:ftp://a.com/draft -notes.txt>', 'ftp://a.com/draft-notes.txt', 'prefixed', []],
  // two hyphen breaks: one removed (either), then both
  [
    '<ftp://a-\nb.com/c-\nd>',
    'ftp://a-b.com/c-d',
    'bracketed',
    ['ftp://ab.com/c-d', 'ftp://a-b.com/cd', 'ftp://ab.com/cd'],
  ],
  // CR LF and a lone CR are line breaks too
  ['<ftp://a.com/x-\r\n  y>', 'ftp://a.com/x-y', 'bracketed', ['ftp://a.com/xy']],
  ['<ftp://a.com/x-\r  y>', 'ftp://a.com/x-y', 'bracketed', ['ftp://a.com/xy']],
  // the fragment belongs to the match (RFC 1738 appendix)
  ['<URL:http://a.com/p#frag>', 'http://a.com/p#frag', 'prefixed', []],
  // white space anywhere inside is removed, also in "URL:" and in the scheme
  ['< URL : http : //a.com/ >', 'http://a.com/', 'prefixed', []],
  ['<ht\n  tp://a.com/>', 'http://a.com/', 'bracketed', []],
  // tabs, U+00A0 and the other Unicode spaces are white space
  ['<http://a.com/\t\u00a0\u2003\u3000b>', 'http://a.com/b', 'bracketed', []],
  // a wrapper holds what a bare URL may not (the parser judges it)
  ['<http://a.com/~u/{x}|"y">', 'http://a.com/~u/{x}|"y"', 'bracketed', []],
  ['<http://müller.de/>', 'http://müller.de/', 'bracketed', []],
  // "URL:" takes any scheme name; the scheme is kept as written
  ['<URL:X-Foo:bar>', 'X-Foo:bar', 'prefixed', []],
  ['<HTTP://A.COM/>', 'HTTP://A.COM/', 'bracketed', []],
];
eachRow(
  'wrappers: rows of text | url | form | alternatives (RFC 1738 appendix)',
  WRAPPERS,
  ([text, url, form, alternatives]) => {
    const got = all(text);
    assert.equal(got.length, 1, text);
    assert.deepEqual(
      [got[0].url, got[0].form, got[0].alternatives, got[0].start, got[0].end],
      [url, form, alternatives, 0, text.length],
      text,
    );
  },
);

test('wrappers: five hyphen breaks list only the reading without all of them; four list all 15', () => {
  const four = all('<ftp://a-\nb-\nc-\nd-\ne>')[0];
  assert.equal(four.url, 'ftp://a-b-c-d-e');
  assert.equal(four.alternatives.length, 15);
  assert.equal(four.alternatives[0], 'ftp://ab-c-d-e');
  assert.equal(four.alternatives[14], 'ftp://abcde');
  assert.equal(new Set(four.alternatives).size, 15);
  const five = all('<ftp://a-\nb-\nc-\nd-\ne-\nf>')[0];
  assert.deepEqual(five.alternatives, ['ftp://abcdef']);
});

const NOT_WRAPPERS: Array<[string, string[]]> = [
  ['<uri@bunyip.com>', []], // an address (RFC 1738 line 42)
  ['<foo:bar>', []], // an unregistered scheme needs "URL:"
  ['<xsl:template match="/">', []],
  ['<http:>', []],
  ['<URL:>', []],
  ['<URL:http>', []],
  ['<URL::x>', []],
  // a paragraph break is not a line break: the wrapper is abandoned, the bare URL found
  ['<http://a.com/b\n\nc>', ['http://a.com/b']],
  ['<http://a.com/b\n   \t\n   c>', ['http://a.com/b']],
  // a nested "<" abandons the outer wrapper
  ['<http://a.com/b <http://c.com/>', ['http://a.com/b', 'http://c.com/']],
  // a control character abandons it
  ['<http://a.com/\u0007b>', ['http://a.com/']],
  // no ">" at all
  ['see <http://a.com/b and more', ['http://a.com/b']],
];
eachRow(
  'wrappers that are not URLs: rows of text | what is found instead (RFC 1738 appendix)',
  NOT_WRAPPERS,
  ([text, expected]) => {
    assert.deepEqual(urls(text), expected, JSON.stringify(text));
  },
);

test('wrappers in quoted mail: the "> " prefix of the next line is skipped (as deep as the first line)', () => {
  assert.deepEqual(urls('> see <URL:http://a.com/very/\n> long/path>'), ['http://a.com/very/long/path']);
  assert.deepEqual(urls('> > see <http://a.com/b-\n> >  c>.'), ['http://a.com/b-c']);
  assert.deepEqual(all('> > see <http://a.com/b-\n> >  c>.')[0].alternatives, ['http://a.com/bc']);
  // Not quoted: a ">" at the start of the next line closes the wrapper.
  assert.deepEqual(urls('see <http://a.com/b\n> c'), ['http://a.com/b']);
  // A quoted blank line inside is a paragraph break.
  assert.deepEqual(urls('> <http://a.com/b\n>\n> c>'), ['http://a.com/b']);
});

test('page breaks: footer and header lines between two parts of a URL are skipped', () => {
  const page = (footer: string, header: string) =>
    `   <URL:ftp://a.com/pub/\n\n\n${footer}\n\n${header}\n\n\n   file.txt>`;
  assert.deepEqual(
    urls(
      page(
        'Berners-Lee, Masinter & McCahill     [Page 21]',
        'RFC 1738   Uniform Resource Locators (URL)   December 1994',
      ),
    ),
    ['ftp://a.com/pub/file.txt'],
  );
  assert.deepEqual(
    urls(page('Berners-Lee                          20', 'RFC XXXX   Uniform Resource Locators (URL)   October 1993')),
    ['ftp://a.com/pub/file.txt'],
  );
  // a form feed line between footer and header
  assert.deepEqual(urls('<URL:ftp://a.com/pub/\n\nAuthor    [Page 3]\n\f\nRFC 1738    URLs\n\n   x>'), [
    'ftp://a.com/pub/x',
  ]);
  // not a footer (no page number): a paragraph break
  assert.deepEqual(urls(page('Berners-Lee, Masinter & McCahill', 'RFC 1738')), ['ftp://a.com/pub/']);
  // no blank line after the header
  assert.deepEqual(urls('<URL:ftp://a.com/pub/\n\nAuthor   [Page 3]\nRFC 1738\n   x>'), ['ftp://a.com/pub/']);
});

// ---- bare URLs (RFC 1738 2.1, 2.2, 3.1) ----------------------------------------------------

test('bare URLs: registered schemes only, Internet schemes with "//" and something after it', () => {
  assert.deepEqual(urls('a:b 3:4 foo:bar http:x mailto:a@b.c news:*'), ['mailto:a@b.c', 'news:*']);
  assert.deepEqual(urls('http:// and http://x and file:/// and file:///etc'), ['http://x', 'file:///', 'file:///etc']);
  // the scheme is the whole run of scheme characters before ":"
  assert.deepEqual(urls('xhttp://a.com/ 1http://a.com/ .http://a.com/'), ['http://a.com/']);
  // a scheme name of more than 64 characters is not looked up
  assert.deepEqual(urls(`${'a'.repeat(70)}http://a.com/`), []);
});

const TRAILING: Array<[string, string]> = [
  ['http://a.com/x.', 'http://a.com/x'],
  ['http://a.com/x.,;:!?', 'http://a.com/x'],
  ['(http://a.com/x)', 'http://a.com/x'],
  ['(http://a.com/x_(y))', 'http://a.com/x_(y)'],
  ['http://a.com/x))', 'http://a.com/x'],
  ["'http://a.com/x'", 'http://a.com/x'],
  ["http://a.com/it's", "http://a.com/it's"],
  ['http://a.com/x).', 'http://a.com/x'],
  ['mailto:a@b.c.', 'mailto:a@b.c'],
];
eachRow(
  'bare URLs: trailing punctuation and unbalanced closers are left out (RFC 1738 appendix)',
  TRAILING,
  ([text, url]) => {
    assert.deepEqual(urls(text), [url], text);
  },
);

test('bare URLs: the match of "see (http://a.com/x)." leaves out the closer and the period', () => {
  const [m] = all('see (http://a.com/x).');
  assert.deepEqual([m.start, m.end], [5, 19]);
});

test('a scheme registered at run time is found, bare and bracketed; gone once unregistered (RFC 1738 4)', () => {
  registerScheme({ name: 'locx', defaultPort: null, syntax: 'opaque', status: 'later' });
  try {
    assert.deepEqual(urls('see locx:thing and <locx:other>'), ['locx:thing', 'locx:other']);
  } finally {
    unregisterScheme('locx');
  }
  assert.deepEqual(urls('see locx:thing and <locx:other>'), []);
});

// ---- offsets, lines, columns ---------------------------------------------------------------

test('offsets are UTF-16 code units; columns count them from the line start; CR LF and lone CR end lines', () => {
  const text = 'ü 🙂 http://a.com/\r\nx\ry\n\n  <URL:news:*>';
  const m = all(text);
  assert.deepEqual(
    m.map((x) => [x.start, x.end, x.line, x.column]),
    [
      [5, 18, 1, 6],
      [27, 39, 5, 3],
    ],
  );
  assert.equal(text.slice(m[0].start, m[0].end), 'http://a.com/');
});

eachRow(
  'the same URLs in LF and CR LF text, at the same lines and columns (RFC 1738 appendix)',
  ['news.txt', 'page-break.txt', 'references-rfc1738.txt'],
  (name) => {
    const lf = fixture(`extract/${name}`);
    const crlf = lf.replace(/\n/g, '\r\n');
    const a = all(lf);
    const b = all(crlf);
    assert.deepEqual(
      b.map((m) => [m.url, m.line, m.column, m.form, m.alternatives]),
      a.map((m) => [m.url, m.line, m.column, m.form, m.alternatives]),
    );
    assert.ok(a.length > 2);
  },
);

// ---- options, errors, laziness -------------------------------------------------------------

test('maxLength: a longer wrapper is abandoned (what it holds is scanned again); a longer bare run is no URL', () => {
  const long = `<URL:http://a.com/${'x'.repeat(40)}>`;
  assert.deepEqual(urls(long, { maxLength: 64 }), [`http://a.com/${'x'.repeat(40)}`]);
  assert.equal(all(long, { maxLength: 64 })[0].form, 'prefixed');
  assert.equal(all(long, { maxLength: 56 })[0].form, 'bare'); // the wrapper is 59 long, the bare URL 53
  // a run of URL characters over maxLength is skipped whole: no URL found inside it
  assert.deepEqual(urls(`http://a.com/${'y'.repeat(60)}http://b.com/ http://c.com/`, { maxLength: 40 }), [
    'http://c.com/',
  ]);
  assert.deepEqual(urls(`http://a.com/${'y'.repeat(20)}`, { maxLength: 40 }), [`http://a.com/${'y'.repeat(20)}`]);
});

test('bare: false finds only the wrapped forms', () => {
  assert.deepEqual(urls('http://a.com/ <http://b.com/> <URL:news:*>', { bare: false }), ['http://b.com/', 'news:*']);
});

test('bad options, inputs and calls after end are API misuse: RangeError or TypeError', () => {
  const code = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      assert.ok(e instanceof LocatorError);
      return e.code;
    }
    return 'no error';
  };
  assert.throws(() => extract('x', { maxLength: 0 }), RangeError);
  assert.throws(() => extract('x', { maxLength: 1.5 }), RangeError);
  assert.throws(() => extract('x', { bare: 'yes' as unknown as boolean }), TypeError);
  // API misuse (a text of the wrong type) is a TypeError naming the argument.
  assert.throws(
    () => extract(42 as unknown as string),
    (e: unknown) => e instanceof TypeError && /extract: the text must be a string, not number 42/.test(e.message),
  );
  assert.throws(
    () => createExtractor().push(null as unknown as string),
    (e: unknown) => e instanceof TypeError && /push: the chunk must be a string, not null/.test(e.message),
  );
  const ex = createExtractor();
  ex.end();
  assert.throws(
    () => ex.push('x'),
    (e: unknown) => e instanceof TypeError && /has ended/.test(e.message),
  );
  assert.throws(() => ex.end(), TypeError);
  assert.equal(
    code(() => extract('x')),
    'no error',
  );
});

test('extract is lazy and can be iterated again', () => {
  const found = extract('http://a.com/ http://b.com/ http://c.com/');
  const it = found[Symbol.iterator]();
  assert.equal(it.next().value?.url, 'http://a.com/');
  assert.deepEqual(
    [...found].map((m) => m.url),
    ['http://a.com/', 'http://b.com/', 'http://c.com/'],
  );
  assert.equal(it.next().value?.url, 'http://b.com/');
});

test('createExtractor: a match that spans chunks comes back with the chunk that completes it; CR | LF is one line end', () => {
  const ex = createExtractor();
  assert.deepEqual(ex.push('x\r'), []);
  assert.deepEqual(ex.push('\nsee <URL:ftp://a.com/'), []);
  assert.deepEqual(
    ex.push('\n   b>').map((m) => [m.url, m.line, m.column, m.start, m.end]),
    [['ftp://a.com/b', 2, 5, 7, 30]],
  );
  // a bare URL at the end of a chunk may go on in the next one
  assert.deepEqual(ex.push(' http://a.com/'), []);
  assert.deepEqual(
    ex.push('b c').map((m) => m.url),
    ['http://a.com/b'],
  );
  assert.deepEqual(ex.push(' news:x'), []);
  assert.deepEqual(
    ex.end().map((m) => [m.url, m.line, m.column]),
    [['news:x', 3, 24]],
  );
});

// ---- the text as written (option `written`), IPv6 literals ----------------------------------

// text | url | written (why text), or null when the match is the text as written
const WRITTEN: Array<[string, string, [string, string] | null]> = [
  ['see ftp://host/pub/%zz now', 'ftp://host/pub/', ['run-on', 'ftp://host/pub/%zz']],
  ['http://a.com/x%', 'http://a.com/x', ['run-on', 'http://a.com/x%']],
  ['http://a.com/~user/a.', 'http://a.com/', ['run-on', 'http://a.com/~user/a']],
  ['http://a.com/caf\u00e9 ok', 'http://a.com/caf', ['run-on', 'http://a.com/caf\u00e9']],
  ['http://a.com/a[1] b', 'http://a.com/a', ['run-on', 'http://a.com/a[1]']],
  ['http://a.com/x#a#b', 'http://a.com/x#a', ['run-on', 'http://a.com/x#a#b']],
  // closers and quotes around a URL are not a run-on; nor is a URL that stops at a delimiter of
  // URLs in free text (RFC 1738 2.2: "<", ">", the quote mark; the backquote of Markdown code)
  ['(http://a.com/x"y").', 'http://a.com/x', null],
  ['{"u":"ftp://h/pub/f.txt","status":"broken"}', 'ftp://h/pub/f.txt', null],
  ['http://a.com/x<b>', 'http://a.com/x', null],
  ['`http://a.com/x`y', 'http://a.com/x', null],
  ['[ftp://h/].', 'ftp://h/', null],
  ['"http://a.com/"', 'http://a.com/', null],
  ['`http://a.com/`,', 'http://a.com/', null],
  ['{http://a.com/}', 'http://a.com/', null],
  ['http://a.com/x\u00a0next', 'http://a.com/x', null],
  ['http://a.com/x\tnext', 'http://a.com/x', null],
  // the appendix rule: white space inside a wrapper is ignored, and the match says so
  ['<URL:http://exa mple.com/x>', 'http://example.com/x', ['white-space', 'http://exa mple.com/x']],
  ['<URL:http://a.com/very-\n   long>', 'http://a.com/very-long', ['white-space', 'http://a.com/very-\n   long']],
  ['<URL: http://a.com/x >', 'http://a.com/x', null],
  ['<URL:http://a.com/x>', 'http://a.com/x', null],
];
eachRow(
  'written: true tells where a match is not the text as written (RFC 1738 2.2, appendix)',
  WRITTEN,
  ([text, url, w]) => {
    const found = all(text, { written: true });
    assert.equal(found.length, 1, JSON.stringify(found));
    const [m] = found;
    assert.equal(m.url, url);
    if (w === null) assert.equal(m.written, undefined);
    else {
      assert.deepEqual([m.written?.why, m.written?.text], w);
      assert.equal(text.slice(m.written!.start, m.written!.end), w[1], 'start and end are offsets in the text');
    }
    // The same in chunks of every size; and without the option, the same match with no `written`.
    for (const n of [1, 2, 3, 5]) assert.deepEqual(streamed(text, [n], { written: true }), found, `chunks of ${n}`);
    const { written: _written, ...rest } = m;
    assert.deepEqual(all(text), [rest]);
  },
);

test('written must be a boolean (API misuse: TypeError)', () => {
  assert.throws(() => extract('x', { written: 1 as unknown as boolean }), TypeError);
});

// text | urls found (RFC 2732 2: an IPv6 literal is a host in brackets)
const IPV6: Array<[string, string[]]> = [
  ['x http://[::1]:18399/ y', ['http://[::1]:18399/']],
  ['http://[2001:db8::7]/c=GB?objectClass?one.', ['http://[2001:db8::7]/c=GB?objectClass?one']],
  ['ftp://u@[fe80::1]/x', ['ftp://u@[fe80::1]/x']],
  ['http://[::ffff:192.0.2.1]', ['http://[::ffff:192.0.2.1]']],
  // not where a host starts, or not a literal: the URL stops before "["
  ['http://a.com/[::1]', ['http://a.com/']],
  ['http://[]/', []],
  ['http://[zz]/', []],
  ['http://[::1', []],
];
eachRow('bare URLs: an IPv6 literal host is found (RFC 2732 2)', IPV6, ([text, want]) => {
  assert.deepEqual(urls(text), want);
  for (const n of [1, 2, 4])
    assert.deepEqual(
      streamed(text, [n]).map((m) => m.url),
      want,
      `chunks of ${n}`,
    );
});
