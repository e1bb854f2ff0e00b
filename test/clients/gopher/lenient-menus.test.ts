// Menus read as Lynx reads them (RFC 1436 3.8, with the leniency of src/clients/gopher/parser.ts
// menuStart() and parseMenuLine()): the shapes real servers and hand-made gophermaps send, each
// a row; and two hand-made gophermaps served as they are by pygopherd, opened as menus.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LocatorError } from '../../../src/core/errors.js';
import { menuStart, parseMenu, MENU_LINE_LIMIT, MENU_LINE_MAX } from '../../../src/clients/gopher/parser.js';
import { open, openMenu, probe, type MenuItem } from '../../../src/clients/index.js';
import { answering } from './fakes.js';

const OPTS = { gateway: false as const, timeout: 10_000 };
const b = (s: string) => Buffer.from(s, 'latin1');

// shape | the answer | what menuStart says (ended) | its first item, as "type display" | source
const SHAPES: [string, string, 'item' | 'empty' | 'malformed', string | null, string][] = [
  ['pygopherd', '0hello.txt\t/hello.txt\t127.0.0.1\t7070\r\n.\r\n', 'item', '0 hello.txt', 'RFC 1436 3.8'],
  [
    'gophernicus (info line, fake fields)',
    'iWelcome\t\tnull.host\t1\r\n1Dir\t/dir\th\t70\r\n.\r\n',
    'item',
    'i Welcome',
    'RFC 1436 3.8',
  ],
  [
    'Floodgap-style error.host',
    "3'/nope' does not exist\t\terror.host\t1\r\n.\r\n",
    'item',
    "3 '/nope' does not exist",
    'RFC 1436 3.8',
  ],
  ['fake (NULL) 0', 'iText\tfake\t(NULL)\t0\r\n.\r\n', 'item', 'i Text', 'RFC 1436 3.8'],
  ['info line with empty fields', 'iWelcome\t\t\t\r\n1Dir\t/d\th\t70\r\n.\r\n', 'item', 'i Welcome', 'RFC 1436 3.8'],
  ['info line with one TAB', 'iWelcome\t\r\n.\r\n', 'item', 'i Welcome', 'RFC 1436 3.8'],
  ['first line with no TAB', 'Welcome to my hole\r\n1Dir\t/d\th\t70\r\n.\r\n', 'item', '1 Dir', 'RFC 1436 3.8'],
  ['last line without "." or line end', '1Dir\t/d\th\t70', 'item', '1 Dir', 'RFC 1436 3.8'],
  ['bare LF line ends', 'iHi\t\t\t\n0A\t/a\th\t70\n.\n', 'item', 'i Hi', 'RFC 1436 3.8'],
  [
    'text error page (gophernicus)',
    'Error: File or directory not found! (null)\r\n____\r\n',
    'malformed',
    null,
    'RFC 1436 3.8',
  ],
  ['text ended by a "." line', 'Not found\r\n.\r\n', 'malformed', null, 'RFC 1436 3.8'],
  ['a line of text starting with i, no TAB', 'internal error\r\n', 'malformed', null, 'RFC 1436 3.8'],
  ['only the "." line', '.\r\n', 'empty', null, 'RFC 1436 3.8'],
  ['nothing', '', 'empty', null, 'RFC 1436 3.8'],
];

test('menu shapes: menuStart reads each as Lynx does (RFC 1436 3.8)', () => {
  for (const [shape, answer, kind, first] of SHAPES) {
    const s = menuStart(b(answer), true);
    assert.equal(s.kind, kind, shape);
    if (s.kind === 'item') assert.equal(`${s.item.type} ${s.item.display}`, first, shape);
  }
});

test('menu shapes: a line with no TAB is kept as text with its problem; info and error lines with missing fields have none', () => {
  const { items } = parseMenu(
    b('Welcome to my hole\r\niWelcome\t\t\t\r\n3Gone\t\r\niText\tfake\t(NULL)\t0\r\n1Dir\t/d\th\t70\r\n'),
    true,
  );
  assert.deepEqual(
    items.map((i: MenuItem) => [i.type, i.display, i.url, i.problem === null]),
    [
      ['W', 'elcome to my hole', null, false],
      ['i', 'Welcome', null, true],
      ['3', 'Gone', null, true],
      ['i', 'Text', null, true],
      ['1', 'Dir', 'gopher://h/1/d', true],
    ],
  );
  assert.match(items[0].problem!, /a line with no TAB is plain text/);
});

test('menuStart waits for more while it cannot tell, and decides at MENU_LINE_LIMIT octets', () => {
  assert.equal(menuStart(b('Welcome to my hole\r\n'), false).kind, 'more');
  assert.equal(menuStart(b('1Dir\t/d\th\t7'), false).kind, 'more');
  assert.equal(menuStart(b(''), false).kind, 'more');
  // Text past the limit with no menu line in it: not a menu, whatever follows.
  const text = 'x'.repeat(70) + '\r\n';
  const long = b(text.repeat(Math.ceil(MENU_LINE_LIMIT / text.length) + 1) + '1Dir\t/d\th\t70\r\n');
  assert.equal(menuStart(long, false).kind, 'malformed');
  // A first line that never ends: judged once MENU_LINE_MAX octets of it are in, not waited for.
  assert.equal(menuStart(Buffer.alloc(MENU_LINE_MAX - 1, 0x41), false).kind, 'more');
  assert.equal(menuStart(Buffer.alloc(MENU_LINE_MAX, 0x41), false).kind, 'malformed');
  // A first line longer than MENU_LINE_LIMIT that ends is read whole (an info line of 8,000 dots).
  assert.equal(menuStart(b('i' + '.'.repeat(8000) + '\t\terror.host\t1\r\n'), false).kind, 'item');
  // A menu line just inside the limit is found.
  const inside = b(text.repeat(Math.floor((MENU_LINE_LIMIT - 20) / text.length)) + '1Dir\t/d\th\t70\r\n');
  assert.ok(inside.length <= MENU_LINE_LIMIT);
  assert.equal(menuStart(inside, false).kind, 'item');
});

test('open() and probe() read a menu whose first line has no TAB (a fault-injected server splits it in chunks)', async () => {
  const f = await answering('Welcome to my hole\r\n1Dir\t/d\t127.0.0.1\t70\r\n.\r\n');
  try {
    const m = await openMenu(`gopher://127.0.0.1:${f.port}/1/`, OPTS);
    const items: MenuItem[] = [];
    for await (const i of m.items) items.push(i);
    assert.deepEqual(
      items.map((i) => i.type),
      ['W', '1'],
    );
    const r = await probe(`gopher://127.0.0.1:${f.port}/1/`, OPTS);
    assert.equal(r.status, 'ok', r.reason);
    assert.equal(r.reason, 'a menu, first item: 1Dir');
  } finally {
    await f.close();
  }
});

test('a text error page asked for as a menu is still a protocol-error, from open() and probe()', async () => {
  const f = await answering('Error: File or directory not found! (null)\r\n____\r\n');
  try {
    await assert.rejects(open(`gopher://127.0.0.1:${f.port}/1/nomenu`, OPTS), (e: unknown) => {
      assert.ok(e instanceof LocatorError);
      assert.equal(e.code, 'protocol-error');
      assert.equal(
        e.detail,
        `the answer for gopher://127.0.0.1:${f.port}/1/nomenu is not a menu: no line of it is a menu line (the first: a line with no TAB is plain text, not a menu line (RFC 1436 3.8: display, selector, host and port are TAB-separated))`,
      );
      return true;
    });
    const r = await probe(`gopher://127.0.0.1:${f.port}/1/nomenu`, OPTS);
    assert.equal(r.status, 'broken');
    assert.equal(r.code, 'protocol-error');
  } finally {
    await f.close();
  }
});

test('pygopherd: hand-made gophermaps served as they are open as menus (info line with empty fields; first line with no TAB)', async () => {
  for (const [selector, types] of [
    ['/handmade.txt', ['i', '0']],
    ['/notab.txt', ['W', '0']],
  ] as const) {
    const m = await openMenu(`gopher://127.0.0.1:7070/1${selector}`, OPTS);
    const items: MenuItem[] = [];
    for await (const i of m.items) items.push(i);
    assert.deepEqual(
      items.map((i) => i.type),
      types,
      selector,
    );
    assert.equal(items[1].url, 'gopher://127.0.0.1:7070/0/hello.txt');
    const r = await probe(`gopher://127.0.0.1:7070/1${selector}`, OPTS);
    assert.equal(r.status, 'ok', r.reason);
  }
});
