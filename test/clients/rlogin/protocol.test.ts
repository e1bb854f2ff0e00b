// The pure parts of rlogin (RFC 1282): the handshake, the window-size message, the server's
// answer, and the "~." escape of rlogin(1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  escapeScanner,
  handshake,
  readAnswer,
  windowGate,
  windowSize,
  RLOGIN_REFUSED,
} from '../../../src/clients/rlogin/protocol.js';
import { LocatorError } from '../../../src/core/errors.js';

const latin1 = (b: Uint8Array) => Buffer.from(b).toString('latin1');
const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));

test('RFC 1282 Connection Establishment: NUL client-user NUL server-user NUL term/speed NUL', () => {
  assert.equal(latin1(handshake('root', 'tester', 'xterm', 38400)), '\0root\0tester\0xterm/38400\0');
  assert.equal(latin1(handshake('a', '', 'vt100', 9600)), '\0a\0\0vt100/9600\0');
  // UTF-8 names travel as their octets.
  assert.deepEqual([...handshake('é', 'u', 't', 1)], [0, 0xc3, 0xa9, 0, 0x75, 0, 0x74, 0x2f, 0x31, 0]);
});

for (const [name, args] of [
  ['client user', ['a\0b', 'u', 't']],
  ['server user', ['a', 'u\0', 't']],
  ['terminal type', ['a', 'u', 'x\0y']],
] as const) {
  test(`RFC 1282, RFC 1738 6: a NUL in the ${name} is refused, not sent`, () => {
    assert.throws(
      () => handshake(args[0], args[1], args[2]),
      (e: unknown) => e instanceof LocatorError && e.code === 'invalid-field',
    );
  });
}

const sizeRows: [number, number, number, number, string][] = [
  [80, 24, 0, 0, 'ffff7373 0018 0050 0000 0000'],
  [132, 43, 1056, 688, 'ffff7373 002b 0084 0420 02b0'],
  [70000, -3, 0, 0, 'ffff7373 0000 ffff 0000 0000'],
  [NaN, 24.9, 0, 0, 'ffff7373 0018 0000 0000 0000'],
];
for (const [cols, rows, x, y, hex] of sizeRows) {
  test(`RFC 1282 Window Size: ${cols}x${rows} (${x}x${y} pixels)`, () => {
    assert.equal(Buffer.from(windowSize(cols, rows, x, y)).toString('hex'), hex.replace(/ /g, ''));
  });
}

const answerRows: [string, boolean, string][] = [
  ['\0', false, 'accepted:'],
  ['\0Last login\r\n', false, 'accepted:Last login\r\n'],
  ['', false, 'incomplete'],
  ['', true, 'refused:'],
  ['\x01Permission', false, 'incomplete'],
  ['\x01Permission denied.\n', false, 'refused:Permission denied.'],
  ['\x01Permission', true, 'refused:Permission'],
  ['rlogind: no\r\n', false, 'refused:rlogind: no'],
  ['\x01' + 'x'.repeat(2000), false, 'refused:' + 'x'.repeat(1023)],
];
for (const [input, ended, want] of answerRows) {
  test(`RFC 1282: the server's answer ${JSON.stringify(input.slice(0, 30))}${ended ? ' then end' : ''} is ${want.slice(0, 20)}`, () => {
    const a = readAnswer(bytes(input), ended);
    const got =
      a.kind === 'accepted' ? `accepted:${latin1(a.rest)}` : a.kind === 'refused' ? `refused:${a.message}` : a.kind;
    assert.equal(got, want);
  });
}

// windowGate: [who, text] steps; the steps at which the window size is due.
const gateRows: [string, ['server' | 'typed', string][], number[]][] = [
  [
    'trusted: the first output',
    [
      ['server', 'Last login'],
      ['server', '$ '],
    ],
    [0],
  ],
  [
    'password prompt, then the session',
    [
      ['server', 'Password: '],
      ['typed', 'sec'],
      ['server', '*'],
      ['typed', 'ret\r'],
      ['server', '\n\rLinux'],
    ],
    [4],
  ],
  ['nothing yet', [['server', '']], []],
  [
    'a second wrong password',
    [
      ['server', 'Password:'],
      ['typed', 'x\r'],
      ['server', '\r\nLogin incorrect\r\nPassword: '],
      ['typed', 'y\n'],
      ['server', '$ '],
    ],
    [4],
  ],
];
for (const [name, steps, due] of gateRows) {
  test(`RFC 1282 Window Size, sent unasked (DEVIATION): ${name}`, () => {
    const gate = windowGate();
    const got: number[] = [];
    steps.forEach(([who, text], i) => {
      if (who === 'server' ? gate.server(bytes(text)) : (gate.typed(bytes(text)), false)) got.push(i);
    });
    assert.deepEqual(got, due);
    assert.equal(gate.open, due.length > 0);
  });
}

test('RFC 1282: the refusal code is declared with its section', () => {
  assert.equal(RLOGIN_REFUSED, 'rlogin-refused');
});

// rlogin(1): "~." at the start of a line disconnects; "~~" sends one "~".
const escapeRows: [string[], string, 'disconnect' | null][] = [
  [['~.'], '', 'disconnect'],
  [['ls\r~.'], 'ls\r', 'disconnect'],
  [['ls\n~.rest'], 'ls\n', 'disconnect'],
  [['a~.'], 'a~.', null],
  [['~~.'], '~.', null],
  [['~x'], '~x', null],
  [['~', '.'], '', 'disconnect'],
  [['echo\r', '~', 'q'], 'echo\r~q', null],
  [['\x03~.'], '\x03', 'disconnect'],
  [['x', '~.'], 'x~.', null],
];
for (const [chunks, sent, action] of escapeRows) {
  test(`rlogin(1) escape: ${JSON.stringify(chunks)} sends ${JSON.stringify(sent)}${action ? ' and disconnects' : ''}`, () => {
    const scan = escapeScanner();
    let out = '';
    let last: 'disconnect' | null = null;
    for (const c of chunks) {
      const r = scan(bytes(c));
      out += latin1(r.send);
      last = r.action;
      if (last) break;
    }
    assert.equal(out, sent);
    assert.equal(last, action);
  });
}
