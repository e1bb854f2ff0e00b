// The octets a scheme puts on the wire live in its entry (issue 11): lint's delimiter check reads
// entryOf(url).wire, the gopher client and the gopher fields cut the gopher-path with the same
// gopherParts(); a Gopher+ data block off the default port is gopher-plus-data-block (issue 10).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lint, lintRecord } from '../../src/operations/lint.js';
import { describeCodes } from '../../src/core/errors.js';
import { BUILTIN_SCHEMES } from '../../src/schemes/builtin.js';
import { getScheme, registerScheme, unregisterScheme } from '../../src/schemes/registry.js';
import { gopherParts } from '../../src/schemes/gopher.js';
import { wireParts } from '../../src/lint/delimiters.js';
import { decode } from '../../src/core/percent.js';
import { text as rangeText } from '../../src/schemes/read.js';
import { requestFromOctets, requestOctets } from '../../src/clients/gopher/client.js';
import { Url } from '../../src/core/url.js';
import { tryParse } from '../helpers.js';
import { SEED } from '../properties/runs.js';

const show = (input: string) =>
  lint(input)
    .map((d) => `${d.code}@${d.offset}`)
    .join(' ');

const SMUGGLE =
  'gopher://127.0.0.1:6380/1x%09%09+%091%0D%0A+-1%0D%0ASET%20pwned%201%0D%0ACONFIG%20SET%20dir%20/tmp%0D%0AFLUSHALL%0D%0A.%0D%0A';

test('issue 10: a Gopher+ data block to port 6380 is an error, gopher-plus-data-block, at its first line end', () => {
  const at = SMUGGLE.indexOf('%0D');
  assert.equal(show(SMUGGLE), `private-address@9 nondefault-port@19 gopher-plus-data-block@${at}`);
  const d = lint(SMUGGLE).find((x) => x.code === 'gopher-plus-data-block')!;
  assert.equal(d.severity, 'error');
  assert.equal(d.section, 'RFC 1738 3.4.9, 6');
  assert.match(d.message, /to port 6380, not the default port 70 of gopher/);
  assert.equal(lintRecord(SMUGGLE).ok, false);
  const code = describeCodes().find((c) => c.code === 'gopher-plus-data-block');
  assert.equal(code?.severity, 'error');
});

test('RFC 1738 3.4.9: the same form on port 70 (written or not) is no finding; on any other port it is', () => {
  const form = '/1x%09%09+%091%0D%0A+-1%0D%0Av%0D%0A.%0D%0A';
  assert.equal(show(`gopher://h.com${form}`), '');
  assert.equal(show(`gopher://h.com:70${form}`), '');
  assert.equal(show(`gopher://h.com:7070${form}`), 'nondefault-port@15 gopher-plus-data-block@33');
  assert.equal(show(`gopher://h.com:25${form}`), 'reserved-port@15 gopher-plus-data-block@31');
  // no line end, no data block: a plain Gopher+ request to another port is a warning only
  assert.equal(show('gopher://h.com:7070/1x%09%09+'), 'nondefault-port@15');
  // a line end outside the form is a smuggled line (encoded-delimiter), and a data block as well
  assert.equal(
    show('gopher://h.com:7070/1x%09%09!%0D%0AX'),
    'nondefault-port@15 encoded-delimiter@29 gopher-plus-data-block@29',
  );
});

test('every built-in entry says what its client sends (wire); lint asks the entry, not a table', () => {
  for (const spec of BUILTIN_SCHEMES) assert.equal(typeof spec.wire, 'function', spec.name);
  const original = getScheme('news')!;
  try {
    // the same scheme without a wire hook: the generic encoded-control scan of the scheme part
    registerScheme({ ...original, wire: undefined }, { replace: true });
    assert.equal(show('news:a%0D%0AQUIT'), 'invalid-newsgroup@6 encoded-control@6 encoded-control@9');
    // with a wire hook of its own: its parts, its delimiters, its words
    registerScheme(
      {
        ...original,
        wire: (u: Url) => [
          {
            what: 'the whole group',
            start: u.schemePartStart,
            end: u.bodyEnd,
            line: 'a made-up line',
            delimiters: [0x51],
          },
        ],
      },
      { replace: true },
    );
    assert.equal(show('news:a%51b%0D'), 'invalid-newsgroup@6 encoded-delimiter@6');
    assert.match(
      lint('news:a%51b%0D')[1].message,
      /"%51" in the whole group decodes to the octet 51, which breaks the protocol: the client sends the whole group decoded in a made-up line/,
    );
  } finally {
    registerScheme(original, { replace: true });
  }
  assert.equal(show('news:a%0D%0AQUIT'), 'invalid-newsgroup@6 encoded-delimiter@6 encoded-delimiter@9');
  // a scheme no one registered: the generic scan
  unregisterScheme('x-none');
  assert.equal(show('x-none:a%0D'), 'experimental-scheme@0 encoded-control@8');
});

// A gopher-path made of the pieces where the copies used to differ: "%09" separators, escapes of
// line ends and of "%", a non-ASCII gophertype, raw TABs and "?", ";", "/" (no reserved characters).
const piece = fc.constantFrom(
  'a',
  'Z',
  '0',
  '1',
  '+',
  '?',
  ';',
  '/',
  '.',
  '%09',
  '%09',
  '%0D',
  '%0A',
  '%00',
  '%25',
  '%2509',
  '%3F',
  '%C3%A9',
  'é',
  '😀',
  '\t',
  '%',
  '%0',
  ' ',
);
const gopherPath = fc.array(piece, { maxLength: 14 }).map((a) => a.join(''));

const TAB = Uint8Array.of(9);
const CRLF = Uint8Array.of(13, 10);
const cat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

test("property: the gopher fields, the validator, lint's wire parts and the client's request read the same ranges (one cut: gopherParts)", () => {
  fc.assert(
    fc.property(gopherPath, (path) => {
      const url = tryParse(`gopher://h.com/${path}`);
      if (!(url instanceof Url)) return;
      const p = gopherParts(url);
      const wire = wireParts(url);
      const f = url.fields as {
        selector: string;
        search: string | null;
        gopherPlus: string | null;
        request: string;
        plus: { kind: string } | null;
      };
      if (p === null) {
        assert.deepEqual(wire, []);
        return;
      }
      const ranges = [p.selector, p.search, p.gopherPlus].filter((r) => r !== null).map((r) => [r!.start, r!.end]);
      assert.deepEqual(
        wire.map((w) => [w.start, w.end]),
        ranges,
        'lint reads the ranges gopherParts cuts',
      );
      const h = url.href;
      const octets = (r: { start: number; end: number }) => decode(h, { strict: false }, r.start, r.end);
      // the fields decode those ranges
      assert.equal(f.selector, rangeText(url, p.selector));
      assert.equal(f.search, p.search === null ? null : rangeText(url, p.search));
      assert.equal(f.gopherPlus, p.gopherPlus === null ? null : rangeText(url, p.gopherPlus));
      // the validator reads the same selector: gopher-selector-line-end at each %0D, %0A in it
      const lineEnds: number[] = [];
      for (let i = h.indexOf('%', p.selector.start); i >= 0 && i + 2 < p.selector.end; i = h.indexOf('%', i + 1)) {
        if (/^%0[aAdD]$/.test(h.slice(i, i + 3))) lineEnds.push(i);
      }
      assert.deepEqual(
        url.violations.filter((d) => d.code === 'gopher-selector-line-end').map((d) => d.offset),
        lineEnds,
      );
      // the client sends those ranges' octets (RFC 1738 3.4.2-3.4.9, with the module's DEVIATION)
      const sel = octets(p.selector);
      let expected: Uint8Array;
      if (f.plus?.kind === 'ask') expected = cat(sel, new TextEncoder().encode('\t!+ASK\r\n'));
      else {
        expected = sel;
        if (p.search !== null && p.search.end > p.search.start) expected = cat(expected, TAB, octets(p.search));
        const plus = p.gopherPlus === null ? null : octets(p.gopherPlus);
        if (plus !== null && plus.length > 0) expected = cat(expected, TAB, plus);
        if (!(plus !== null && plus.length > 0 && f.gopherPlus!.includes('\r\n'))) expected = cat(expected, CRLF);
      }
      assert.deepEqual([...requestFromOctets(url)], [...expected], `the client's request of ${url.href}`);
      // and the request the fields show is the same octets whenever they are UTF-8
      if (!f.request.includes('\uFFFD'))
        assert.deepEqual([...requestOctets(url)], [...new TextEncoder().encode(f.request)]);
    }),
    { seed: SEED, numRuns: 2000 },
  );
});
