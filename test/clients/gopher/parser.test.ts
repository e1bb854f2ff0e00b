// The pure Gopher parsers (src/clients/gopher/parser.ts): Gopher+ headers (Gopher+ 2.3),
// period-terminated data (RFC 1436), error texts, menus (RFC 1436 3.8 and appendix) with their
// URLs, attribute replies and +ASK forms. Every resumable parser is fed the same input split
// at every byte position and must give the same result.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse } from '../../helpers.js';
import {
  concat,
  parseAsk,
  parseAttributes,
  parseErrorText,
  parseMenu,
  parseMenuLine,
  parsePlusHeader,
  readDotData,
} from '../../../src/clients/gopher/parser.js';
import type { MenuItem } from '../../../src/clients/gopher/types.js';
import { requestFromOctets, requestOctets } from '../../../src/clients/gopher/client.js';
import { build } from '../../../src/operations/build.js';

const bytes = (s: string) => Buffer.from(s, 'latin1');
const str = (b: Uint8Array) => Buffer.from(b).toString('latin1');

// ---------------------------------------------------------------------------------------------
// Gopher+ header (Gopher+ 2.3)

// input | ok | length | rest          (Gopher+ 2.3: "+" or "-", then n >= 0, -1 or -2, CR LF)
const HEADERS: Array<[string, boolean, number, string]> = [
  ['+32\r\nHello', true, 32, 'Hello'],
  ['+0\r\n', true, 0, ''],
  ['+-1\r\ndata\r\n.\r\n', true, -1, 'data\r\n.\r\n'],
  ['+-2\r\n+INFO: x', true, -2, '+INFO: x'],
  ['--1\r\n1 <admin>\r\n', false, -1, '1 <admin>\r\n'],
  ['--2\r\n1 Test Admin\r\n', false, -2, '1 Test Admin\r\n'],
  ['-45\r\nx', false, 45, 'x'],
  ['+5\nabcde', true, 5, 'abcde'], // a bare LF is accepted
  ['+7  \r\n', true, 7, ''], // trailing spaces
];

test('parsePlusHeader reads the Gopher+ 2.3 header line', () => {
  for (const [input, ok, length, rest] of HEADERS) {
    const r = parsePlusHeader(bytes(input));
    assert.equal(r.error, null, input);
    assert.ok(r.header, input);
    assert.equal(r.header.ok, ok, input);
    assert.equal(r.header.length, length, input);
    assert.equal(str(r.rest), rest, input);
  }
});

test('parsePlusHeader waits for the whole line: every prefix is incomplete, never an error', () => {
  for (const [input] of HEADERS) {
    const line = input.slice(0, input.indexOf('\n') + 1);
    for (let i = 0; i < line.length; i++) {
      const r = parsePlusHeader(bytes(line.slice(0, i)));
      assert.equal(r.header, null, JSON.stringify(line.slice(0, i)));
      assert.equal(r.error, null, JSON.stringify(line.slice(0, i)));
    }
  }
});

test('parsePlusHeader refuses what is not a Gopher+ header', () => {
  for (const input of [
    'Hello from Gopher.\n',
    'HTTP/1.0 200 OK\r\n',
    '0Hello\t/x\th\t70\r\n',
    '+abc\r\n',
    '+\r\n',
    '++1\r\n',
    '+-3\r\n',
    '+-\r\n',
    '+12x\r\n',
    '+ 12\r\n',
    '+' + '9'.repeat(60),
  ]) {
    const r = parsePlusHeader(bytes(input));
    assert.equal(r.header, null, input);
    assert.match(r.error ?? '', /Gopher\+ header/, input);
  }
  // The first octet decides at once: no need to wait for a line end.
  assert.match(parsePlusHeader(bytes('F')).error ?? '', /does not start with a Gopher\+ header/);
});

// ---------------------------------------------------------------------------------------------
// Period-terminated data (RFC 1436; Gopher+ 2.3 length -1)

function dotAll(chunks: Uint8Array[]): { data: string; rest: string; done: boolean } {
  const state = { atLineStart: true };
  let rest: Uint8Array = new Uint8Array(0);
  let data = '';
  for (let k = 0; k < chunks.length; k++) {
    const r = readDotData(concat(rest, chunks[k]), state);
    data += str(r.data);
    rest = r.rest;
    if (r.done)
      return {
        data,
        rest:
          str(rest) +
          chunks
            .slice(k + 1)
            .map(str)
            .join(''),
        done: true,
      };
  }
  return { data, rest: str(rest), done: false };
}

// input | data | rest | done
const DOTS: Array<[string, string, string, boolean]> = [
  ['line one\r\nline two\r\n.\r\n', 'line one\r\nline two\r\n', '', true],
  ['.\r\n', '', '', true],
  ['.\n', '', '', true],
  ['a\n.\nafter', 'a\n', 'after', true],
  ['..dot\r\n.\r\n', '.dot\r\n', '', true], // RFC 1436: a stuffed line loses one period
  ['...\r\n.\r\n', '..\r\n', '', true],
  ['.x not stuffed\r\n.\r\n', '.x not stuffed\r\n', '', true],
  ['a.\r\n .\r\n.\r\n', 'a.\r\n .\r\n', '', true], // "." not at a line start is data
  ['.\rx\r\n.\r\n', '.\rx\r\n', '', true],
  ['no end\r\n', 'no end\r\n', '', false],
  ['no end\r\n.', 'no end\r\n', '.', false],
];

test('readDotData reads up to the "." line and undoes dot-stuffing', () => {
  for (const [input, data, rest, done] of DOTS) {
    assert.deepEqual(dotAll([bytes(input)]), { data, rest, done }, JSON.stringify(input));
  }
});

test('readDotData gives the same result for input split at every byte position', () => {
  for (const [input, data, rest, done] of DOTS) {
    for (let i = 0; i <= input.length; i++) {
      for (let j = i; j <= input.length; j += 3) {
        const got = dotAll([bytes(input.slice(0, i)), bytes(input.slice(i, j)), bytes(input.slice(j))]);
        assert.deepEqual(got, { data, rest, done }, `${JSON.stringify(input)} split at ${i}, ${j}`);
      }
    }
  }
});

// ---------------------------------------------------------------------------------------------
// Gopher+ error text (Gopher+ 2.3)

test('parseErrorText reads the error number, the contact and the message (Gopher+ 2.3)', () => {
  // pygopherd's reply to a missing selector, after its "--2" header (test-servers.md section 4).
  assert.deepEqual(
    parseErrorText("1 Test Admin <admin@example.test>\r\n'/nope' does not exist (no handler found)\r\n"),
    {
      errorNumber: 1,
      contact: 'Test Admin <admin@example.test>',
      message: "'/nope' does not exist (no handler found)",
    },
  );
  assert.deepEqual(parseErrorText('2 <root@host>\r\nMy load is too high right now.\r\nTry later.\r\n.\r\n'), {
    errorNumber: 2,
    contact: '<root@host>',
    message: 'My load is too high right now.\nTry later.',
  });
  assert.deepEqual(parseErrorText('3\r\n'), { errorNumber: 3, contact: null, message: '' });
  assert.deepEqual(parseErrorText('Something broke\r\n'), {
    errorNumber: null,
    contact: null,
    message: 'Something broke',
  });
  assert.deepEqual(parseErrorText(''), { errorNumber: null, contact: null, message: '' });
});

// ---------------------------------------------------------------------------------------------
// Menus (RFC 1436 appendix)

/** pygopherd's root menu, verbatim (test-servers.md section 4): no "." line. */
const PYGOPHERD_ROOT =
  'iWelcome to the test gopher server\t/fake\t(NULL)\t0\r\n' +
  '0Hello text\t/hello.txt\t127.0.0.1\t7070\t+\r\n' +
  '1Files directory\t/files\t127.0.0.1\t7070\t+\r\n' +
  '7Search the test index\t/search.sh\t127.0.0.1\t7070\t+\r\n' +
  'hAn HTTP link\tURL:http://127.0.0.1:8080/\t127.0.0.1\t7070\r\n' +
  '9Binary file\t/files/data.bin\t127.0.0.1\t7070\t+\r\n';

/** A menu in the style of gophernicus: "." at the end, "#040" for a space in a selector. */
const GOPHERNICUS =
  'i[/files/]\tTITLE\tnull.host\t1\r\n' + '0with space.txt\t/files/with#040space.txt\t127.0.0.1\t7071\r\n' + '.\r\n';

type Row = Pick<MenuItem, 'type' | 'display' | 'selector' | 'host' | 'port' | 'gopherPlus' | 'url'>;
const pick = (i: MenuItem): Row => ({
  type: i.type,
  display: i.display,
  selector: i.selector,
  host: i.host,
  port: i.port,
  gopherPlus: i.gopherPlus,
  url: i.url,
});

const PYGOPHERD_ITEMS: Row[] = [
  {
    type: 'i',
    display: 'Welcome to the test gopher server',
    selector: '/fake',
    host: '(NULL)',
    port: 0,
    gopherPlus: null,
    url: null,
  },
  {
    type: '0',
    display: 'Hello text',
    selector: '/hello.txt',
    host: '127.0.0.1',
    port: 7070,
    gopherPlus: '+',
    url: 'gopher://127.0.0.1:7070/0/hello.txt',
  },
  {
    type: '1',
    display: 'Files directory',
    selector: '/files',
    host: '127.0.0.1',
    port: 7070,
    gopherPlus: '+',
    url: 'gopher://127.0.0.1:7070/1/files',
  },
  {
    type: '7',
    display: 'Search the test index',
    selector: '/search.sh',
    host: '127.0.0.1',
    port: 7070,
    gopherPlus: '+',
    url: 'gopher://127.0.0.1:7070/7/search.sh',
  },
  {
    type: 'h',
    display: 'An HTTP link',
    selector: 'URL:http://127.0.0.1:8080/',
    host: '127.0.0.1',
    port: 7070,
    gopherPlus: null,
    url: 'http://127.0.0.1:8080/',
  },
  {
    type: '9',
    display: 'Binary file',
    selector: '/files/data.bin',
    host: '127.0.0.1',
    port: 7070,
    gopherPlus: '+',
    url: 'gopher://127.0.0.1:7070/9/files/data.bin',
  },
];

function menuAll(chunks: Uint8Array[]): { items: Row[]; rest: string; done: boolean } {
  let rest: Uint8Array = new Uint8Array(0);
  const items: Row[] = [];
  for (let k = 0; k < chunks.length; k++) {
    const r = parseMenu(concat(rest, chunks[k]), k === chunks.length - 1);
    items.push(...r.items.map(pick));
    rest = r.rest;
    if (r.done)
      return {
        items,
        rest:
          str(rest) +
          chunks
            .slice(k + 1)
            .map(str)
            .join(''),
        done: true,
      };
  }
  return { items, rest: str(rest), done: false };
}

test('parseMenu reads a menu without a "." line (pygopherd) when the data ends', () => {
  assert.deepEqual(menuAll([bytes(PYGOPHERD_ROOT)]), { items: PYGOPHERD_ITEMS, rest: '', done: false });
  // Without `final`, nothing is lost: a last line without a line end waits in rest.
  const r = parseMenu(bytes('0a\t/a\th\t70\r\n1b\t/b\th\t70'));
  assert.equal(r.items.length, 1);
  assert.equal(str(r.rest), '1b\t/b\th\t70');
  assert.equal(parseMenu(r.rest, true).items[0].url, 'gopher://h/1/b');
});

test('parseMenu stops at the "." line (gophernicus) and leaves what follows', () => {
  const r = parseMenu(bytes(GOPHERNICUS + 'junk after the end\r\n'));
  assert.equal(r.done, true);
  assert.equal(str(r.rest), 'junk after the end\r\n');
  assert.deepEqual(r.items.map(pick), [
    { type: 'i', display: '[/files/]', selector: 'TITLE', host: 'null.host', port: 1, gopherPlus: null, url: null },
    // The server's own "#040" is part of the selector: sent back as is, so "#" is encoded in the URL.
    {
      type: '0',
      display: 'with space.txt',
      selector: '/files/with#040space.txt',
      host: '127.0.0.1',
      port: 7071,
      gopherPlus: null,
      url: 'gopher://127.0.0.1:7071/0/files/with%23040space.txt',
    },
  ]);
});

test('parseMenu accepts LF line ends and skips empty lines', () => {
  const lf = PYGOPHERD_ROOT.replace(/\r\n/g, '\n');
  assert.deepEqual(menuAll([bytes(lf)]).items, PYGOPHERD_ITEMS);
  assert.deepEqual(menuAll([bytes('\r\n\n' + lf + '\n.\n')]), { items: PYGOPHERD_ITEMS, rest: '', done: true });
});

test('parseMenu gives the same items for input split at every byte position', () => {
  for (const [menu, done] of [
    [PYGOPHERD_ROOT, false],
    [GOPHERNICUS, true],
  ] as const) {
    const whole = menuAll([bytes(menu)]);
    assert.equal(whole.done, done);
    for (let i = 0; i <= menu.length; i++) {
      const got = menuAll([bytes(menu.slice(0, i)), bytes(menu.slice(i))]);
      assert.deepEqual(got, whole, `split at ${i}`);
    }
  }
});

test('menu items carry their own URLs, exactly encoded (RFC 1738 3.4.1; RFC 1436 3.8)', () => {
  // line | url
  const rows: Array<[string, string | null]> = [
    ['0With space\t/files/with space.txt\th.example\t70', 'gopher://h.example/0/files/with%20space.txt'],
    ['0Percent\t/a%b#c\th.example\t70', 'gopher://h.example/0/a%25b%23c'],
    ['0Query\t/cgi?x=1;y\th.example\t7070', 'gopher://h.example:7070/0/cgi?x=1;y'], // nothing is reserved in a selector
    ['1Top\t\th.example\t70', 'gopher://h.example/1'],
    ['7Search\t/s\th.example\t70', 'gopher://h.example/7/s'],
    ['IImage\t/i.png\th.example\t70', 'gopher://h.example/I/i.png'],
    ['hPage\t/page.html\th.example\t70', 'gopher://h.example/h/page.html'],
    ['hLink\tURL:ftp://ftp.example/pub/\th.example\t70', 'ftp://ftp.example/pub/'],
    ['hLink\t/URL:http://w.example/x\th.example\t70', 'http://w.example/x'],
    ['8Login\tguest\tbbs.example\t23', 'telnet://guest@bbs.example/'],
    ['8Telnet\t\tbbs.example\t2323', 'telnet://bbs.example:2323/'],
    ['8Telnet\t\tbbs.example\t0', 'telnet://bbs.example/'],
    ['TIBM\t\tmvs.example\t23', 'tn3270://mvs.example/'],
    ['3Error\t\terror.host\t1', null],
    ['iInfo\tfake\t(NULL)\t0', null],
  ];
  for (const [line, url] of rows) {
    const item = parseMenuLine(bytes(line));
    assert.equal(item.url, url, line);
    assert.equal(item.problem, null, line);
  }
});

test('a selector that is not UTF-8 keeps its octets in the URL', () => {
  const item = parseMenuLine(
    Buffer.concat([bytes('0Caf'), Buffer.from([0xe9]), bytes('\t/caf'), Buffer.from([0xe9]), bytes('.txt\th\t70')]),
  );
  assert.equal(item.url, 'gopher://h/0/caf%E9.txt');
  assert.equal(item.selector, '/caf\uFFFD.txt');
  const u = parse(item.url!);
  assert.deepEqual([...requestOctets(u)], [...bytes('/caf'), 0xe9, ...bytes('.txt\r\n')]);
  // UTF-8 selectors and display strings are decoded.
  const utf = parseMenuLine(Buffer.from('0Café\t/café\th\t70', 'utf8'));
  assert.equal(utf.display, 'Café');
  assert.equal(utf.url, 'gopher://h/0/caf%C3%A9');
});

test('lines that name no item are kept with a problem and no URL', () => {
  for (const [line, problem] of [
    ['Just text with no fields', /a line with no TAB is plain text, not a menu line/],
    ['0Two\tfields', /four TAB-separated fields/],
    ['0Bad port\t/x\th\tseventy', /not a port number/],
    ['0Big port\t/x\th\t70000', /not a port number/],
  ] as const) {
    const item = parseMenuLine(bytes(line));
    assert.equal(item.url, null, line);
    assert.match(item.problem ?? '', problem, line);
  }
  const host = parseMenuLine(bytes('0Odd host\t/x\tbad/host\t70'));
  assert.equal(host.url, null);
  assert.match(host.problem ?? '', /no URL can be written/);
  const invalid = parseMenuLine(bytes('0Odd host\t/x\t(NULL)\t70'));
  assert.equal(invalid.url, 'gopher://(NULL)/0/x');
  assert.match(invalid.problem ?? '', /not valid/);
});

test('property: an item URL parses back to the type, selector, host and port of its line (seed 1738)', () => {
  const selector = fc.string({ unit: 'grapheme', maxLength: 30 }).filter((s) => !/[\t\r\n]/.test(s));
  const type = fc.constantFrom('0', '1', '4', '5', '6', '7', '9', 'g', 'I', 's', 'd', 'h', '+');
  const host = fc.constantFrom('gopher.example', '127.0.0.1', 'a-b.c.example');
  const port = fc.integer({ min: 1, max: 65535 });
  fc.assert(
    fc.property(type, selector, host, port, (t, s, h, p) => {
      if (t === 'h' && (s.startsWith('URL:') || s.startsWith('/URL:'))) return;
      const item = parseMenuLine(Buffer.from(`${t}Display\t${s}\t${h}\t${p}`, 'utf8'));
      assert.equal(item.problem, null);
      const u = parse(item.url!);
      assert.equal(u.valid, true, item.url!);
      assert.deepEqual([u.host, u.port, u.fields.gophertype, u.fields.selector], [h, p, t, s]);
      assert.equal(u.fields.request, s + '\r\n');
    }),
    { seed: 1738, numRuns: 500 },
  );
});

// ---------------------------------------------------------------------------------------------
// The request octets (RFC 1738 3.4.2-3.4.9 via src/schemes/gopher.ts)

test('property: the request composed from the URL octets equals fields.request (seed 1738)', () => {
  const part = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((s) => !s.includes('\t'));
  const plus = fc.oneof(
    fc.constant(null),
    fc.constantFrom('+', '!', '$', '?', '+text/plain', '!+ABSTRACT +SMELL', '+\t1\r\n+-1\r\nv\r\n.\r\n'),
    part,
  );
  fc.assert(
    fc.property(fc.constantFrom('0', '1', '7', '9'), part, fc.option(part), plus, (t, s, search, g) => {
      const u = parse(build('gopher', { host: 'h.example', gophertype: t, selector: s, search, gopherPlus: g }));
      assert.deepEqual(Buffer.from(requestFromOctets(u)), Buffer.from(u.fields.request as string, 'utf8'));
      assert.deepEqual(Buffer.from(requestOctets(u)), Buffer.from(u.fields.request as string, 'utf8'));
    }),
    { seed: 1738, numRuns: 500 },
  );
});

// ---------------------------------------------------------------------------------------------
// Attributes and +ASK (Gopher+)

/** pygopherd's "!" reply for /files/form.txt after the "+-2" header (test-servers.md section 4). */
const FORM_ATTRIBUTES =
  '+INFO: 0form.txt\t/files/form.txt\t127.0.0.1\t7070\t+\r\n' +
  '+ADMIN:\r\n Admin: Test Admin <admin@example.test>\r\n Mod-Date: Sat Nov 21 14:46:13 2026 <20261121144613>\r\n' +
  '+VIEWS:\r\n text/plain: <0k>\r\n' +
  '+ASK:\r\n Ask: What is your name?\r\n Choose: Pick a colour\tred\tgreen\tblue\r\n';

test('parseAttributes reads +INFO, +ADMIN, +VIEWS and +ASK blocks', () => {
  const sets = parseAttributes(FORM_ATTRIBUTES);
  assert.equal(sets.length, 1);
  assert.equal(sets[0].info?.url, 'gopher://127.0.0.1:7070/0/files/form.txt');
  assert.equal(sets[0].info?.gopherPlus, '+');
  assert.deepEqual(sets[0].blocks, {
    INFO: '0form.txt\t/files/form.txt\t127.0.0.1\t7070\t+',
    ADMIN: 'Admin: Test Admin <admin@example.test>\nMod-Date: Sat Nov 21 14:46:13 2026 <20261121144613>',
    VIEWS: 'text/plain: <0k>',
    ASK: 'Ask: What is your name?\nChoose: Pick a colour\tred\tgreen\tblue',
  });
  // "$": one set per item, each started by +INFO.
  const two = parseAttributes(
    FORM_ATTRIBUTES + '+INFO: 1sub\t/files/sub\t127.0.0.1\t7070\t+\r\n+VIEWS:\r\n application/gopher+-menu:\r\n',
  );
  assert.deepEqual(
    two.map((s) => s.info?.selector),
    ['/files/form.txt', '/files/sub'],
  );
  assert.equal(two[1].blocks.VIEWS, 'application/gopher+-menu:');
});

test('parseAsk reads the questions of a +ASK block', () => {
  assert.deepEqual(
    parseAsk(
      'Ask: What is your name?\nChoose: Pick a colour\tred\tgreen\tblue\nAskP: Password:\nNote: read this\nAsk: Town\tParis',
    ),
    [
      { kind: 'Ask', prompt: 'What is your name?', values: [] },
      { kind: 'Choose', prompt: 'Pick a colour', values: ['red', 'green', 'blue'] },
      { kind: 'AskP', prompt: 'Password:', values: [] },
      { kind: 'Note', prompt: 'read this', values: [] },
      { kind: 'Ask', prompt: 'Town', values: ['Paris'] },
    ],
  );
});
