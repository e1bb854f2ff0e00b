// The Telnet byte level (src/clients/telnet-engine/protocol.ts): the parser of the server's stream
// (RFC 854), the escaper of what is sent (IAC doubling, the NVT's CR rules), and the
// subnegotiation encoders (RFC 1091, 1073, 1572). Rows are [input, expected, section].

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  TelnetEncoder,
  TelnetParser,
  environIs,
  parseEnvironSend,
  terminalTypeIs,
  windowSize,
  subnegotiation,
  type TelnetEvent,
} from '../../../src/clients/telnet-engine/protocol.js';
import { eachRow } from '../../helpers.js';

/** Events in a compact form: "data:<text>", "DO 24", "SB 24 <1>", "cmd 243", "overflow 24 5000". */
function show(events: TelnetEvent[]): string[] {
  const verbs: Record<number, string> = { 253: 'DO', 254: 'DONT', 251: 'WILL', 252: 'WONT' };
  const out: string[] = [];
  for (const e of events) {
    if (e.type === 'data') {
      const text = Buffer.from(e.data).toString('latin1');
      if (out.length > 0 && out[out.length - 1].startsWith('data:')) out[out.length - 1] += text;
      else out.push(`data:${text}`);
    } else if (e.type === 'negotiate') out.push(`${verbs[e.verb]} ${e.option}`);
    else if (e.type === 'subnegotiation') out.push(`SB ${e.option} [${[...e.data].join(',')}]`);
    else if (e.type === 'command') out.push(`cmd ${e.command}`);
    else out.push(`overflow ${e.option} ${e.length}`);
  }
  return out;
}

const b = (...parts: Array<number | string>) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'number' ? [p] : [...Buffer.from(p, 'latin1')])));

/** Parses `input` whole, then again one octet at a time: both must give the same events. */
function parseBoth(input: Uint8Array, binary = false): string[] {
  const whole = new TelnetParser(16);
  whole.binary = binary;
  const one = new TelnetParser(16);
  one.binary = binary;
  const bytewise: TelnetEvent[] = [];
  for (const x of input) bytewise.push(...one.push(Uint8Array.of(x)));
  const a = show(whole.push(input));
  assert.deepEqual(show(bytewise), a, 'the same events when the input is cut anywhere');
  return a;
}

const PARSER_ROWS: Array<[string, Uint8Array, string[], string]> = [
  ['plain text', b('login: '), ['data:login: '], 'RFC 854 NVT'],
  ['IAC IAC is one 255', b('a', 255, 255, 'b'), ['data:a\xffb'], 'RFC 854 "IAC IAC"'],
  ['a negotiation between data', b('a', 255, 253, 24, 'b'), ['data:a', 'DO 24', 'data:b'], 'RFC 854'],
  [
    'the four verbs',
    b(255, 251, 1, 255, 252, 3, 255, 253, 31, 255, 254, 39),
    ['WILL 1', 'WONT 3', 'DO 31', 'DONT 39'],
    'RFC 854',
  ],
  ['a subnegotiation', b(255, 250, 24, 1, 255, 240, 'x'), ['SB 24 [1]', 'data:x'], 'RFC 855, RFC 1091'],
  ['IAC IAC inside SB is one 255', b(255, 250, 31, 0, 255, 255, 0, 24, 255, 240), ['SB 31 [0,255,0,24]'], 'RFC 1073'],
  ['a command', b('a', 255, 241, 'b', 255, 249), ['data:a', 'cmd 241', 'data:b', 'cmd 249'], 'RFC 854 NOP, GA'],
  ['CR NUL is CR', b('a', 13, 0, 'b'), ['data:a\rb'], 'RFC 854 "CR NUL"'],
  ['CR LF stays CR LF', b('a', 13, 10, 'b'), ['data:a\r\nb'], 'RFC 854 "CR LF"'],
  ['CR then a command then NUL', b(13, 255, 241, 0, 'x'), ['data:\r', 'cmd 241', 'data:x'], 'RFC 854'],
  [
    'a too long SB is dropped',
    b(255, 250, 24, ...new Array(20).fill(65), 255, 240, 'z'),
    ['overflow 24 20', 'data:z'],
    'bounded',
  ],
];

eachRow('TelnetParser', PARSER_ROWS, ([, input, want]) => assert.deepEqual(parseBoth(input), want), {
  input: (r) => r[0],
  section: (r) => r[3],
});

test('TelnetParser: in BINARY mode (RFC 856) CR NUL is kept', () => {
  assert.deepEqual(parseBoth(b('a', 13, 0, 'b'), true), ['data:a\r\x00b']);
});

test('TelnetParser: a subnegotiation that never ends holds at most maxSubnegotiation octets', () => {
  const p = new TelnetParser(1024);
  assert.deepEqual(show(p.push(b(255, 250, 24))), []);
  for (let i = 0; i < 1000; i++) {
    assert.deepEqual(p.push(new Uint8Array(4096).fill(65)), []);
    assert.ok(p.held <= 1024, `held ${p.held}`);
  }
  assert.equal(p.held, 0, 'dropped once past the limit');
  assert.deepEqual(show(p.push(b(255, 240, 'ok'))), ['overflow 24 4096000', 'data:ok']);
});

test('TelnetParser: any input, cut anywhere, gives the same events (fast-check, seed 854)', () => {
  const byte = fc.constantFrom(0, 10, 13, 24, 240, 241, 250, 251, 252, 253, 254, 255, 65, 66);
  fc.assert(
    fc.property(fc.array(byte, { maxLength: 60 }), fc.boolean(), (arr, binary) => {
      parseBoth(Uint8Array.from(arr), binary);
    }),
    { seed: 854, numRuns: 2000 },
  );
});

const ENCODER_ROWS: Array<[string, string[], string, string]> = [
  ['IAC doubled', ['a\xffb'], 'a\xff\xffb', 'RFC 854 "IAC IAC"'],
  ['a typed Return (CR) is CR NUL', ['ls\r'], 'ls\r\x00', 'RFC 854 "CR NUL"'],
  ['LF from a script is CR LF', ['ls\n'], 'ls\r\n', 'RFC 854 "CR LF"'],
  ['CR LF stays CR LF', ['ls\r\n'], 'ls\r\n', 'RFC 854'],
  ['CR LF split across writes: one line end', ['ls\r', '\npwd\n'], 'ls\r\x00pwd\r\n', 'RFC 854'],
  ['a NUL is sent as is', ['\x00'], '\x00', 'RFC 854'],
];

eachRow(
  'TelnetEncoder',
  ENCODER_ROWS,
  ([, writes, want]) => {
    const e = new TelnetEncoder();
    const out = writes.map((w) => Buffer.from(e.encode(Buffer.from(w, 'latin1'))).toString('latin1')).join('');
    assert.equal(out, want);
  },
  { input: (r) => r[0], section: (r) => r[3] },
);

test('TelnetEncoder: in BINARY mode (RFC 856) only IAC is doubled', () => {
  const e = new TelnetEncoder();
  e.binary = true;
  assert.deepEqual([...e.encode(b('a', 13, 10, 13, 255, 0))], [97, 13, 10, 13, 255, 255, 0]);
});

test('encode then parse gives the data back, IAC and all (fast-check, seed 854)', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 80 }), (data) => {
      const e = new TelnetEncoder();
      e.binary = true;
      const p = new TelnetParser();
      p.binary = true;
      const events = p.push(e.encode(data));
      const got = Buffer.concat(events.map((ev) => (ev.type === 'data' ? Buffer.from(ev.data) : Buffer.alloc(0))));
      assert.deepEqual([...got], [...data]);
      assert.ok(events.every((ev) => ev.type === 'data'));
    }),
    { seed: 854, numRuns: 1000 },
  );
});

const SB_ROWS: Array<[string, Uint8Array, number[], string]> = [
  ['TERMINAL-TYPE IS', terminalTypeIs('xterm'), [255, 250, 24, 0, ...Buffer.from('xterm'), 255, 240], 'RFC 1091'],
  ['NAWS 80x24', windowSize(80, 24), [255, 250, 31, 0, 80, 0, 24, 255, 240], 'RFC 1073'],
  ['NAWS with a 255 doubled', windowSize(255, 511), [255, 250, 31, 0, 255, 255, 1, 255, 255, 255, 240], 'RFC 1073'],
  ['NAWS clamped', windowSize(70000, -3), [255, 250, 31, 255, 255, 255, 255, 0, 0, 255, 240], 'RFC 1073'],
  ['SB with IAC in the data', subnegotiation(99, [1, 255, 2]), [255, 250, 99, 1, 255, 255, 2, 255, 240], 'RFC 855'],
];

eachRow('subnegotiation encoders', SB_ROWS, ([, got, want]) => assert.deepEqual([...got], want), {
  input: (r) => r[0],
  section: (r) => r[3],
});

const ENV_ROWS: Array<[string, number[], Record<string, string>, number[], string]> = [
  // SEND with nothing: everything locator has
  ['SEND all', [], { USER: 'tester' }, [0, 0, ...Buffer.from('USER'), 1, ...Buffer.from('tester')], 'RFC 1572'],
  ['SEND all, no user', [], {}, [0], 'RFC 1572'],
  ['SEND VAR USER', [0, ...Buffer.from('USER')], { USER: 'u' }, [0, 0, ...Buffer.from('USER'), 1, 117], 'RFC 1572'],
  [
    'SEND VAR DISPLAY: undefined',
    [0, ...Buffer.from('DISPLAY')],
    { USER: 'u' },
    [0, 0, ...Buffer.from('DISPLAY')],
    'RFC 1572',
  ],
  ['SEND USERVAR X: undefined', [3, 88], { USER: 'u' }, [0, 3, 88], 'RFC 1572'],
  [
    'a VAR code in a value is escaped',
    [],
    { USER: 'a\x01b' },
    [0, 0, ...Buffer.from('USER'), 1, 97, 2, 1, 98],
    'RFC 1572 ESC',
  ],
];

eachRow(
  'NEW-ENVIRON IS',
  ENV_ROWS,
  ([, send, vars, body]) => {
    const got = environIs(parseEnvironSend(Uint8Array.from(send)), vars);
    assert.deepEqual([...got], [...subnegotiation(39, body)]);
  },
  { input: (r) => r[0], section: (r) => r[4] },
);

test('parseEnvironSend: names with ESC, a bare VAR means everything', () => {
  assert.deepEqual(parseEnvironSend(Uint8Array.from([0, 65, 2, 0, 66, 3, 67])), {
    all: false,
    vars: [
      { type: 'VAR', name: 'A\x00B' },
      { type: 'USERVAR', name: 'C' },
    ],
  });
  assert.equal(parseEnvironSend(Uint8Array.from([0])).all, true);
});

test('TelnetParser: with emit, a change made while handling an event applies to the rest of the chunk (WILL BINARY)', () => {
  const p = new TelnetParser();
  const data: string[] = [];
  p.push(b(255, 251, 0, 'a', 13, 0, 'b'), (e) => {
    if (e.type === 'negotiate') p.binary = true;
    if (e.type === 'data') data.push(Buffer.from(e.data).toString('latin1'));
  });
  assert.deepEqual(data, ['a\r\x00b']);
});
