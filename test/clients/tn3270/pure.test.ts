// The pure parts of tn3270: code page 037 (ebcdic.ts), the Telnet of RFC 1576 (negotiate.ts), the
// 3270 data stream and display buffer (datastream.ts, screen.ts; IBM GA23-0059) and the keys
// (keys.ts). The decoder is checked against the bytes Hercules 3.13 really sends
// (test/fixtures/tn3270/*.bin, captured from test/servers/hercules.sh).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { decodeEbcdic, displayChar, encodeChar } from '../../../src/clients/tn3270/ebcdic.js';
import { Tn3270Telnet, IAC, SB, SE, EOR, DO, WILL, OPT } from '../../../src/clients/tn3270/negotiate.js';
import { applyRecord, MAX_WSF_NESTING } from '../../../src/clients/tn3270/datastream.js';
import { AID, decodeAddress, encodeAddress, FA, Screen } from '../../../src/clients/tn3270/screen.js';
import { keyReader } from '../../../src/clients/tn3270/keys.js';
import { LocatorError } from '../../../src/core/errors.js';
import { ROOT } from '../../helpers.js';
import { MODELS, queryReplyFields, usableArea } from './query-reply.js';
import { nestedWsf } from './hostile.js';
import { SEED } from '../../properties/runs.js';

const fixture = (name: string) => new Uint8Array(readFileSync(join(ROOT, 'test', 'fixtures', 'tn3270', name)));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const ebcdic = (s: string) => Uint8Array.from([...s].map((c) => encodeChar(c)!));
const isProtocolError = (e: unknown) => e instanceof LocatorError && e.code === 'protocol-error';

// --- code page 037 ------------------------------------------------------------------------

const cpRows: [number, string][] = [
  [0x40, ' '],
  [0xc1, 'A'],
  [0xe9, 'Z'],
  [0x81, 'a'],
  [0xf0, '0'],
  [0xf9, '9'],
  [0x4b, '.'],
  [0x5b, '$'],
  [0x7d, "'"],
  [0xe0, '\\'],
  [0x4a, '¢'],
  [0xba, '['],
  [0x00, ' '],
  [0x1c, '*'],
  [0x1e, ';'],
  [0xff, ' '],
];
for (const [octet, ch] of cpRows) {
  test(`GA23-0059 code page 037: 0x${octet.toString(16)} shows ${JSON.stringify(ch)}`, () => {
    assert.equal(displayChar(octet), ch);
  });
}

test('GA23-0059 code page 037: every octet 0x41-0xFE has its own character, and encodes back', () => {
  for (let o = 0x41; o <= 0xfe; o++) assert.equal(encodeChar(displayChar(o)), o, `0x${o.toString(16)}`);
  assert.equal(encodeChar(' '), 0x40);
  assert.equal(encodeChar('€'), null);
  assert.equal(decodeEbcdic(ebcdic('Hello, World')), 'Hello, World');
});

// --- Telnet of RFC 1576 ----------------------------------------------------------------------

const herculesLogo = fixture('hercules-logo.bin');

test('RFC 1576 4: the negotiation Hercules sends is answered with WILL TERMINAL-TYPE, IS IBM-3278-2, WILL/DO EOR and BINARY', () => {
  const t = new Tn3270Telnet();
  const r = t.feed(herculesLogo);
  assert.deepEqual(
    r.notes.filter((n) => n.direction === 'send').map((n) => n.text),
    [
      'WILL TERMINAL-TYPE',
      'SB TERMINAL-TYPE IS IBM-3278-2',
      'WILL END-OF-RECORD',
      'DO END-OF-RECORD',
      'WILL BINARY',
      'DO BINARY',
    ],
  );
  assert.equal(hex(r.replies[1]), 'fffa1800' + Buffer.from('IBM-3278-2').toString('hex') + 'fff0');
  assert.ok(t.ready);
  assert.equal(r.records.length, 1);
  assert.equal(r.records[0][0], 0xf5); // Erase/Write
});

test('RFC 1576: the result does not depend on how the bytes are split', () => {
  const whole = new Tn3270Telnet().feed(herculesLogo);
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: herculesLogo.length - 1 }), { maxLength: 8 }), (cuts) => {
      const t = new Tn3270Telnet();
      const points = [0, ...[...new Set(cuts)].sort((a, b) => a - b), herculesLogo.length];
      const replies: string[] = [];
      const records: string[] = [];
      for (let i = 0; i + 1 < points.length; i++) {
        const r = t.feed(herculesLogo.subarray(points[i], points[i + 1]));
        replies.push(...r.replies.map(hex));
        records.push(...r.records.map(hex));
      }
      assert.deepEqual(replies, whole.replies.map(hex));
      assert.deepEqual(records, whole.records.map(hex));
    }),
    { seed: SEED, numRuns: 50 },
  );
});

const optionRows: [string, number[], string][] = [
  ['DO TN3270E is refused when not enabled (RFC 2355)', [IAC, DO, OPT.TN3270E], 'fffc28'],
  ['DO ECHO is refused', [IAC, DO, 1], 'fffc01'],
  ['WILL ECHO is refused', [IAC, WILL, 1], 'fffe01'],
  ['WILL TERMINAL-TYPE from the server is refused', [IAC, WILL, OPT.TTYPE], 'fffe18'],
  ['DO BINARY twice is answered once (RFC 1143)', [IAC, DO, 0, IAC, DO, 0], 'fffb00'],
  ['SEND before DO TERMINAL-TYPE is not answered', [IAC, SB, OPT.TTYPE, 1, IAC, SE], ''],
];
for (const [name, input, want] of optionRows) {
  test(`RFC 855, RFC 1576: ${name}`, () => {
    const r = new Tn3270Telnet().feed(Uint8Array.from(input));
    assert.equal(r.replies.map(hex).join(''), want);
  });
}

test('RFC 885: IAC IAC in a record is one 0xFF; records end at IAC EOR; a record sent doubles 0xFF', () => {
  const r = new Tn3270Telnet().feed(Uint8Array.from([1, IAC, IAC, 2, IAC, EOR, 3, IAC, EOR]));
  assert.deepEqual(r.records.map(hex), ['01ff02', '03']);
  assert.equal(hex(Tn3270Telnet.record(Uint8Array.from([0x7d, 0xff, 0x40]))), '7dffff40ffef');
});

test('RFC 855: a subnegotiation that never ends is a protocol-error at the bound, not a growing buffer', () => {
  const t = new Tn3270Telnet();
  t.feed(Uint8Array.from([IAC, SB, OPT.TTYPE]));
  assert.throws(() => {
    for (let i = 0; i < 100; i++) t.feed(new Uint8Array(100).fill(0x41));
  }, isProtocolError);
});

test('RFC 885: data that never ends its record (not a TN3270 server) is a protocol-error at the bound', () => {
  const t = new Tn3270Telnet('IBM-3278-2', { subnegotiation: 512, record: 1000 });
  assert.throws(() => t.feed(new Uint8Array(1001).fill(0x41)), isProtocolError);
});

// --- buffer addresses -----------------------------------------------------------------------

const addressRows: [number, string][] = [
  [0, '4040'],
  [80, 'c150'],
  [1919, '5d7f'],
  [20, '40d4'],
  [79, 'c14f'],
  [5000, '1388'],
];
for (const [address, octets] of addressRows) {
  test(`GA23-0059 Buffer Addressing: ${address} is ${octets}`, () => {
    const e = encodeAddress(address);
    assert.equal(hex(Uint8Array.from(e)), octets);
    assert.equal(decodeAddress(e[0], e[1]), address);
  });
}

// --- the data stream ----------------------------------------------------------------------

test('GA23-0059, Hercules: the logo screen decodes into 24 rows of 80 with its fields', () => {
  const screen = new Screen();
  const record = new Tn3270Telnet().feed(herculesLogo).records[0];
  const done = applyRecord(screen, record);
  assert.equal(done.command, 'EW');
  const text = screen.screenText().split('\n');
  assert.equal(text.length, 24);
  assert.ok(text.every((l) => l.length === 80));
  assert.match(text[0], /^ Hercules Version  : \S/);
  assert.match(text[4], /^ Processors        : MP=\d/);
  assert.match(text[6], /^ Device number     : 0010/);
  assert.ok(text.some((l) => /The S\/370, ESA\/390 and z\/Architecture/.test(l)));
  assert.ok(text.some((l) => /HHHHHHHHHHHHHHHH  E    R  R C    U  U L    E    S/.test(l)));
  assert.ok(screen.fields().length > 10);
  assert.ok(screen.fields().every((f) => (f.attribute & FA.PROTECTED) !== 0)); // a read-only screen
  assert.equal(screen.locked, false);
});

test('GA23-0059, Hercules: the screen of a console with no free 3270 device', () => {
  const screen = new Screen();
  const record = new Tn3270Telnet().feed(fixture('hercules-no-device.bin')).records[0];
  applyRecord(screen, record);
  assert.match(screen.screenText(), /Connection rejected, no available 3270 device/);
});

/** EW, WCC restore, a protected label, an unprotected field of 10 at row 2, IC, a nondisplay field. */
function formScreen(): Screen {
  const s = new Screen();
  const rec = [
    0xf5,
    0xc2,
    0x11,
    ...encodeAddress(0),
    0x1d,
    0x60,
    ...ebcdic('Name:'),
    0x1d,
    0x40,
    0x13,
    ...ebcdic('ab'),
    0x11,
    ...encodeAddress(17),
    0x1d,
    0x60,
    0x11,
    ...encodeAddress(80),
    0x1d,
    0x4c,
    ...ebcdic('hidden'),
    0x11,
    ...encodeAddress(90),
    0x1d,
    0x60,
  ];
  applyRecord(s, Uint8Array.from(rec));
  return s;
}

test('GA23-0059 SF, SBA, IC: fields, the cursor, nondisplay fields drawn as spaces', () => {
  const s = formScreen();
  assert.equal(s.screenText().split('\n')[0], ' Name: ab' + ' '.repeat(71));
  assert.equal(s.screenText().split('\n')[1], ' '.repeat(80)); // "hidden" is nondisplay
  assert.equal(s.cursor, 7);
  assert.deepEqual(
    s.fields().map((f) => [f.at, f.length]),
    [
      [0, 5],
      [6, 10],
      [17, 62],
      [80, 9],
      [90, 1829],
    ],
  );
});

test('GA23-0059 keyboard and Read Modified: typing sets the MDT; Enter sends AID, cursor, SBA and the field', () => {
  const s = formScreen();
  s.cursor = 9;
  for (const c of 'xyzq') assert.ok(s.type(c));
  assert.equal(s.cursor, 13);
  assert.equal(
    hex(s.readModified(AID.ENTER)),
    '7d' +
      hex(Uint8Array.from(encodeAddress(s.cursor))) +
      '11' +
      hex(Uint8Array.from(encodeAddress(7))) +
      hex(ebcdic('abxyzq')),
  );
  assert.equal(hex(s.readModified(AID.CLEAR)), '6d');
  assert.equal(
    hex(s.readModified(AID.PF[2])),
    'f3' +
      hex(Uint8Array.from(encodeAddress(s.cursor))) +
      '11' +
      hex(Uint8Array.from(encodeAddress(7))) +
      hex(ebcdic('abxyzq')),
  );
});

test('GA23-0059: a protected position takes no input; Tab goes to the next unprotected field', () => {
  const s = formScreen();
  s.cursor = 16;
  assert.ok(s.type('z'));
  assert.equal(s.cursor, 18); // past the field's end: the first position of the next field (protected, not auto-skip)
  s.reset();
  s.cursor = 2;
  assert.equal(s.type('x'), false);
  assert.equal(s.operatorError, 'protected');
  assert.equal(s.screenText().slice(0, 6), ' Name:');
  s.reset();
  assert.equal(s.nextInput(2), 7);
  assert.equal(s.nextInput(7), 81);
  assert.equal(s.nextInput(81), 7); // around the end of the buffer
  assert.equal(s.previousInput(7), 81);
  s.locked = true;
  s.cursor = 7;
  assert.equal(s.type('x'), false);
});

/**
 * The screen of the keyboard tests (./keyboard.test.ts serves it to s3270 and locator): a
 * protected label at 320, an unprotected field of 21 at 332-352 with the cursor, at 353 the
 * attribute `next` with "LAB", an unprotected field at 401-419, a protected one from 420.
 */
function fieldScreen(next: number): Screen {
  const s = new Screen();
  applyRecord(
    s,
    Uint8Array.from([
      ...[0xf5, 0xc2, 0x11, ...encodeAddress(320), 0x1d, 0x60, ...ebcdic('NAME')],
      ...[0x11, ...encodeAddress(331), 0x1d, 0x40, 0x13],
      ...[0x11, ...encodeAddress(353), 0x1d, next, ...ebcdic('LAB')],
      ...[0x11, ...encodeAddress(400), 0x1d, 0x40, 0x11, ...encodeAddress(420), 0x1d, 0x60],
    ]),
  );
  return s;
}

// s3270 4.1ga10 (Debian) on the same screen, served by an in-process host, its keys one Key()
// action each (String() would paste, with x3270's paste margins), recorded with:
//   (printf 'Connect(127.0.0.1:PORT)\nWait(5,InputField)\n'; for c in a b ... u; do echo "Key($c)"; done;
//    printf 'Query(Cursor)\nKey(v)\nQuery(Cursor)\nEnter()\nReset()\nEnter()\nQuit()\n') | s3270 -model 3279-2-E
// next 0x60 (protected): cursor "4 34" (354), Key(v) "Keyboard locked" / "Operator error", cursor
// "4 34", the Enter before Reset not sent, after it 7d c5e2 11 c54c "abcdefghijklmnopqrstu".
// next 0x70 (protected numeric, auto-skip): cursor "5 1" (401), Key(v) typed there, cursor "5 2",
// Enter 7d c6d2 11 c54c "abcdefghijklmnopqrstu" 11 c6d1 "v". ./keyboard.test.ts runs s3270 itself.
const S3270_FULL_FIELD: [number, string, number, number, string][] = [
  [0x60, 'protected', 354, 354, '7dc5e211c54c' + hex(ebcdic('abcdefghijklmnopqrstu'))],
  [0x70, 'auto-skip', 401, 402, '7dc6d211c54c' + hex(ebcdic('abcdefghijklmnopqrstu')) + '11c6d1' + hex(ebcdic('v'))],
];
for (const [next, kind, full, after, enter] of S3270_FULL_FIELD) {
  test(`3278 auto-skip, as s3270 does: a full field of 21, the next field ${kind}: the cursor, one more character, Enter`, () => {
    const s = fieldScreen(next);
    assert.equal(s.cursor, 332);
    for (const c of 'abcdefghijklmnopqrstu') assert.ok(s.type(c), c);
    assert.equal(s.cursor, full, 'the cursor after the field filled');
    assert.equal(s.type('v'), next === 0x70, 'the 22nd character');
    assert.equal(s.cursor, after);
    assert.equal(s.operatorError, next === 0x70 ? null : 'protected');
    if (next !== 0x70) {
      assert.match(s.ansi(), /\x1b\[7mX Protected /, 'the status line shows the operator error');
      assert.equal(s.type('w'), false, 'inhibited until Reset');
      assert.equal(s.screenText().split('\n')[4].slice(12, 37), 'abcdefghijklmnopqrstu LAB');
      s.reset();
      assert.equal(s.operatorError, null);
      assert.doesNotMatch(s.ansi(), /X Protected/);
    }
    assert.equal(hex(s.readModified(AID.ENTER)), enter);
  });
}

test('3278 auto-skip: a chain of auto-skip fields and empty fields is passed in one move; a host restore clears an operator error', () => {
  const s = new Screen();
  // Field of 2 at 1-2; auto-skip at 3 and 5 (one position each), an unprotected field of length 0 at 7, the next input at 9.
  applyRecord(
    s,
    Uint8Array.from([0xf5, 0xc2, 0x1d, 0x40, 0x13, 0, 0, 0x1d, 0x70, 0x40, 0x1d, 0xf0, 0x40, 0x1d, 0x40, 0x1d, 0x40]),
  );
  assert.equal(s.cursor, 1);
  s.type('a');
  s.type('b');
  assert.equal(s.cursor, 9);
  s.cursor = 4;
  assert.equal(s.type('x'), false);
  assert.equal(s.operatorError, 'protected');
  applyRecord(s, Uint8Array.of(0xf1, 0x02)); // W, WCC: keyboard restore
  assert.equal(s.operatorError, null);
});

test('GA23-0059 W with WCC reset MDT; RA, EUA, PT, SFE, MF, SA, GE', () => {
  const s = formScreen();
  s.cursor = 7;
  s.type('q');
  const rec = [
    0xf1,
    0xc3,
    0x11,
    ...encodeAddress(160),
    0x3c,
    ...encodeAddress(165),
    0xc1, // RA "AAAAA"
    0x29,
    2,
    0xc0,
    0x40,
    0x41,
    0xf2, // SFE: unprotected, with a highlight pair
    0x28,
    0x42,
    0xf2,
    0x08,
    0xc2, // SA (ignored), GE "B"
    0x11,
    ...encodeAddress(6),
    0x2c,
    1,
    0xc0,
    0x60, // MF: the input field becomes protected
  ];
  const done = applyRecord(s, Uint8Array.from(rec));
  assert.equal(done.command, 'W');
  const row2 = s.screenText().split('\n')[2];
  assert.equal(row2.slice(0, 8), 'AAAAA B ');
  assert.equal(s.attrs[165], 0x40);
  assert.equal(s.attrs[6], 0x60);
  assert.equal(hex(s.readModified(AID.ENTER)).length, 6); // no MDT left: AID and cursor only
  applyRecord(s, Uint8Array.from([0xf1, 0x00, 0x11, ...encodeAddress(160), 0x12, ...encodeAddress(170)]));
  assert.equal(s.screenText().split('\n')[2].slice(0, 8), 'AAAAA   '); // EUA erased the unprotected "B"
  applyRecord(s, Uint8Array.from([0xf1, 0x00, 0x11, ...encodeAddress(100), 0x05, 0xc3]));
  assert.equal(s.screenText().split('\n')[2].slice(0, 8), 'AAAAA C '); // PT to the SFE field
});

test('GA23-0059 EAU erases the unprotected fields and restores the keyboard; RB and RM answer', () => {
  const s = formScreen();
  s.locked = true;
  assert.equal(applyRecord(s, Uint8Array.of(0x6f)).command, 'EAU');
  assert.equal(s.screenText().slice(0, 10), ' Name:    ');
  assert.equal(s.cursor, 7);
  assert.equal(s.locked, false);
  assert.equal(applyRecord(s, Uint8Array.of(0xf2)).reply!.length, 3 + 1920 + 5);
  assert.equal(hex(applyRecord(s, Uint8Array.of(0xf6)).reply!), '60' + hex(Uint8Array.from(encodeAddress(7))));
});

test('GA23-0059 WSF: Read Partition Query is answered with a Query Reply (AID 0x88)', () => {
  const s = new Screen();
  const r = applyRecord(s, Uint8Array.from([0xf3, 0x00, 0x05, 0x01, 0xff, 0x02]));
  assert.equal(r.reply![0], 0x88);
  assert.equal(hex(r.reply!.subarray(1, 10)), '000981808081868' + '7a6');
});

test('GA23-0059 WSF Outbound 3270DS: nested MAX_WSF_NESTING (16) levels deep applies; one more is a protocol-error naming the limit', () => {
  assert.equal(MAX_WSF_NESTING, 16);
  const s = new Screen();
  const done = applyRecord(s, nestedWsf(MAX_WSF_NESTING));
  assert.equal(done.command, 'WSF');
  assert.equal(s.screenText()[0], 'X', 'the innermost Write was applied');
  for (const zero of [false, true]) {
    assert.throws(
      () => applyRecord(new Screen(), nestedWsf(MAX_WSF_NESTING + 1, zero)),
      (e: unknown) =>
        isProtocolError(e) &&
        (e as Error).message ===
          'the 3270 data stream nests Write Structured Field 17 levels deep, past the limit of 16, at octet 80 (GA23-0059) (protocol-error)',
    );
  }
  // What a hostile host sent: 50,000 levels in one record (250 KB, under the 256 KiB record bound).
  assert.throws(
    () => applyRecord(new Screen(), nestedWsf(50_000, true)),
    (e: unknown) => isProtocolError(e) && /17 levels deep, past the limit of 16/.test((e as Error).message),
  );
});

// The Query Reply of each 3278 model (GA23-0059 "Query Reply (Summary)" and "Query Reply (Usable
// Area)"), read by the reference's offsets: W is the columns and H the rows, in cells; the buffer
// holds every cell; the point sizes are fractions with a non-zero denominator.
for (const [model, rows, cols] of MODELS) {
  test(`GA23-0059 Query Reply (Usable Area), ${model}: ${cols} cells wide, ${rows} high, a buffer of ${rows * cols}`, () => {
    const s = new Screen(24, 80, rows, cols);
    const r = applyRecord(s, Uint8Array.from([0xf3, 0x00, 0x05, 0x01, 0xff, 0x02]));
    const fields = queryReplyFields(r.reply!);
    assert.deepEqual(
      fields.map((f) => [f.qcode, f.length]),
      [
        [0x80, 9],
        [0x81, 23],
        [0x86, 22],
        [0x87, 15],
        [0xa6, 17],
      ],
      'Summary, Usable Area with its 19 fixed parameter octets, Color (8 pairs), Highlighting (5 pairs), Implicit Partition',
    );
    // Summary: the QCODEs of the replies that follow, itself included.
    assert.deepEqual([...fields[0].params], [0x80, 0x81, 0x86, 0x87, 0xa6]);
    // Implicit Partition (GA23-0059): the default 80 x 24, then the alternate size of the model.
    const ip = fields[4].params;
    assert.deepEqual([...ip.subarray(0, 5)], [0x00, 0x00, 0x0b, 0x01, 0x00]);
    const u16 = (k: number) => (ip[k] << 8) | ip[k + 1];
    assert.deepEqual([u16(5), u16(7), u16(9), u16(11)], [80, 24, cols, rows]);
    // Color: 8 pairs, the default green, then blue to white each as itself.
    assert.deepEqual([...fields[2].params.subarray(0, 4)], [0x00, 0x08, 0x00, 0xf4]);
    const u = usableArea(fields[1]);
    assert.equal(u.width, cols, 'W: the width in cells');
    assert.equal(u.height, rows, 'H: the height in cells');
    assert.equal(u.bufsz, rows * cols, 'BUFSZ: one octet per cell');
    assert.equal(u.addressing, 1, '12/14-bit addressing');
    assert.equal(u.flags1High, 0);
    assert.equal(u.flags2, 0, 'fixed cells, matrix characters');
    assert.ok(u.units === 0 || u.units === 1, `UNITS is inches (0) or millimetres (1), not ${u.units}`);
    assert.ok(u.xr[1] > 0 && u.yr[1] > 0 && u.xr[0] > 0 && u.yr[0] > 0, `Xr ${u.xr}, Yr ${u.yr}`);
    assert.ok(u.aw > 0 && u.ah > 0, `AW ${u.aw}, AH ${u.ah}`);
  });
}

const garbageRows: [string, number[]][] = [
  ['an empty record', []],
  ['an unknown command', [0x99, 0x00]],
  ['a write without its WCC', [0xf5]],
  ['an unknown order', [0xf5, 0x00, 0x01]],
  ['SBA cut short', [0xf5, 0x00, 0x11, 0x40]],
  ['SBA outside the buffer', [0xf5, 0x00, 0x11, 0x3f, 0xff]],
  ['RA without its character', [0xf5, 0x00, 0x3c, 0x40, 0x40]],
  ['SFE with too few pairs', [0xf5, 0x00, 0x29, 0x03, 0xc0, 0x60]],
  ['a structured field longer than the record', [0xf3, 0x00, 0x20, 0x01]],
];
for (const [name, rec] of garbageRows) {
  test(`GA23-0059: ${name} is a protocol-error`, () => {
    assert.throws(() => applyRecord(new Screen(), Uint8Array.from(rec)), isProtocolError);
  });
}

test('GA23-0059 Fields: inputMap() agrees with isInput() at every position, whatever record built the screen (seed 1738)', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
      const s = formScreen();
      try {
        applyRecord(s, Uint8Array.from([0xf1, 0x00, ...bytes]));
      } catch (e) {
        assert.ok(isProtocolError(e), String(e));
      }
      const map = s.inputMap();
      for (let p = 0; p < s.size; p++) assert.equal(map[p] === 1, s.isInput(p), `position ${p}`);
    }),
    { seed: 1738, numRuns: 300 },
  );
  const blank = new Screen();
  assert.ok(blank.inputMap().every((b) => b === 1)); // unformatted: every position takes input
});

test('fuzz (issue 17): EUA and EAU find the input positions in one pass, not one search per position', () => {
  // The fuzzer's input: a write of EUA orders (0x12, each to address 0x4040 = 0), which searched
  // back for the field attribute at every position of the buffer: 24 x 80 searches of up to
  // 24 x 80 steps per order, so a record of 256 KB of them held the client for an hour.
  const s = formScreen();
  let searches = 0;
  s.attributeOf = (address: number) => {
    searches++;
    return Screen.prototype.attributeOf.call(s, address);
  };
  const eua = Array.from({ length: 200 }, () => [0x12, 0x40, 0x40]).flat();
  applyRecord(s, Uint8Array.from([0xf1, 0x00, ...eua]));
  applyRecord(s, Uint8Array.of(0x6f)); // EAU
  assert.ok(searches <= 4, `${searches} searches for a field attribute`);
  const row0 = s.screenText().split('\n')[0];
  assert.equal(row0.slice(0, 6), ' Name:'); // the protected field is kept
  assert.ok(!row0.includes('ab'), row0); // the input field is erased
});

test('GA23-0059: any record either applies or is a protocol-error, never another exception', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), fc.boolean(), (bytes, write) => {
      const rec = write ? Uint8Array.from([0xf5, 0x00, ...bytes]) : bytes;
      const s = new Screen();
      try {
        applyRecord(s, rec);
      } catch (e) {
        assert.ok(isProtocolError(e), String(e));
      }
      assert.equal(s.screenText().length, 24 * 81 - 1);
    }),
    { seed: SEED, numRuns: 500 },
  );
});

// --- keys ---------------------------------------------------------------------------------

const keyRows: [string[], string][] = [
  [['ab\r'], 'char:a char:b Enter'],
  [['\r\n'], 'Enter'],
  [['\t\x1b[Z'], 'tab backtab'],
  [['\x1bOP\x1bOS'], 'PF1 PF4'],
  [['\x1b[15~\x1b[24~'], 'PF5 PF12'],
  [['\x1b[', '21~'], 'PF10'],
  [['\x1b', 'OQ'], 'PF2'],
  [['\x1b[A\x1b[D\x1bOC'], 'up left right'],
  [['\x7f\b'], 'backspace backspace'],
  [['\x0c'], 'Clear'],
  [['é\x01'], 'char:é'],
  [['\x1b[99~x'], 'char:x'],
  [['\x1b1\x1b2\x1b3'], 'PA1 PA2 PA3'],
  [['\x1b', '2'], 'PA2'],
  [['\x1b[25~\x1b[26~\x1b[28~'], 'PA1 PA2 PA3'],
  [['\x1b[1;2P\x1b[24;2~'], 'PF13 PF24'],
  [['\x0b\x12'], 'eraseEof reset'],
  [['\x1b[2~\x1b[3~\x1b[H\x1b[1~'], 'insert delete home home'],
];
for (const [chunks, want] of keyRows) {
  test(`keys: ${JSON.stringify(chunks)} are ${want}`, () => {
    const read = keyReader();
    const got = chunks.flatMap((c) => read(new TextEncoder().encode(c)));
    assert.equal(
      got.map((k) => (k.kind === 'char' ? `char:${k.ch}` : k.kind === 'aid' ? k.name : k.kind)).join(' '),
      want,
    );
  });
}

// --- editing, the alternate size, extended attributes -------------------------------------

/** A formatted screen: a protected label at 0, an input field (attribute at 6) of 10 at 7-16, protected from 17. */
function form(alternate?: [number, number]): Screen {
  const s = new Screen(24, 80, ...(alternate ?? [24, 80]));
  applyRecord(
    s,
    Uint8Array.from([0xf5, 0xc2, 0x1d, 0x60, ...ebcdic('CMD: '), 0x1d, 0x40, 0x13, ...Array(10).fill(0), 0x1d, 0x60]),
  );
  return s;
}
const field = (s: Screen) => s.screenText().slice(7, 17);

test('GA23-0059 Erase EOF: NULs from the cursor to the end of the field, the MDT set; refused outside a field', () => {
  const s = form();
  for (const c of 'ABCDEFGH') s.type(c);
  s.resetModified();
  s.cursor = 10;
  assert.equal(s.eraseEof(), true);
  assert.equal(field(s), 'ABC       ');
  assert.equal(s.attrs[6] & FA.MDT, FA.MDT);
  assert.equal(s.screenText().slice(17, 21), '    ', 'the next field is untouched');
  s.cursor = 1;
  assert.equal(s.eraseEof(), false, 'a protected field');
  assert.equal(s.screenText().slice(1, 6), 'CMD: ');
});

test('GA23-0059 Insert: typed characters push the field right; a full field refuses; Delete pulls it left', () => {
  const s = form();
  for (const c of 'ACD') s.type(c);
  s.cursor = 8;
  s.insert = true;
  assert.equal(s.type('B'), true);
  assert.equal(field(s), 'ABCD      ');
  for (const c of 'EFGHIJ') s.type(c);
  assert.equal(field(s), 'ABEFGHIJCD');
  s.cursor = 8;
  assert.equal(s.type('X'), false, 'no NUL left at the end of the field');
  assert.equal(s.operatorError, 'overflow');
  assert.equal(field(s), 'ABEFGHIJCD');
  assert.equal(s.deleteChar(), false, 'input inhibited until Reset');
  s.reset();
  assert.equal(s.deleteChar(), true);
  assert.equal(field(s), 'AEFGHIJCD ');
});

test('GA23-0059 EWA: the alternate size (43x80, 27x132, 32x80); EW and Clear go back to 24x80', () => {
  for (const [rows, cols] of [
    [43, 80],
    [27, 132],
    [32, 80],
  ]) {
    const s = new Screen(24, 80, rows, cols);
    applyRecord(s, Uint8Array.from([0x7e, 0xc2, 0x11, ...encodeAddress(rows * cols - 1), 0xc1]));
    assert.deepEqual([s.rows, s.cols, s.alternate], [rows, cols, true]);
    const lines = s.screenText().split('\n');
    assert.equal(lines.length, rows);
    assert.equal(lines[rows - 1].length, cols);
    assert.equal(lines[rows - 1].at(-1), 'A', 'the last position of the alternate buffer');
    assert.throws(() => applyRecord(s, Uint8Array.from([0xf5, 0xc2, 0x11, ...encodeAddress(rows * cols - 1)])));
    assert.deepEqual([s.rows, s.cols], [24, 80], 'EW: the default size');
    applyRecord(s, Uint8Array.from([0x7e, 0xc2]));
    s.clear();
    assert.deepEqual([s.rows, s.cols], [24, 80], 'Clear: the default size');
  }
});

test('GA23-0059 SFE and SA: field and character colours and highlighting drawn as ANSI; base colours; none when monochrome', () => {
  const s = new Screen();
  // SFE protected, red, reverse; "AB"; SA colour yellow; "C"; SA reset; SF unprotected (base green); "D".
  applyRecord(
    s,
    Uint8Array.from([
      0xf5,
      0xc2,
      0x29,
      0x03,
      0xc0,
      0x60,
      0x42,
      0xf2,
      0x41,
      0xf2,
      ...ebcdic('AB'),
      0x28,
      0x42,
      0xf6,
      ...ebcdic('C'),
      0x28,
      0x00,
      0x00,
      0x1d,
      0x40,
      ...ebcdic('D'),
    ]),
  );
  assert.deepEqual([s.color[0], s.highlight[0], s.color[3], s.color[5]], [0xf2, 0xf2, 0xf6, 0]);
  const a = s.ansi();
  assert.match(a, /\x1b\[0;7;31mAB\x1b\[0;7;33mC/, 'red reverse field; the character in yellow, still reverse');
  assert.match(a, /\x1b\[0;4;32mD/, 'an unprotected field in the base green, underlined');
  s.colors = false;
  assert.doesNotMatch(s.ansi(), /3[0-7]m/);
  assert.match(s.ansi(), /\x1b\[0;7mAB/);
});

test('RFC 2355 7.1: a rejected device type is answered WONT TN3270E (back to TN3270); refused unless enabled', () => {
  const t = new Tn3270Telnet('IBM-3278-4-E', undefined, true);
  const hexOf = (r: { replies: Uint8Array[] }) => r.replies.map((b) => Buffer.from(b).toString('hex')).join(' ');
  assert.equal(hexOf(t.feed(Uint8Array.of(IAC, DO, OPT.TN3270E))), 'fffb28');
  // SEND DEVICE-TYPE: REQUEST IBM-3278-4-E.
  assert.equal(
    hexOf(t.feed(Uint8Array.of(IAC, SB, OPT.TN3270E, 8, 2, IAC, SE))),
    'fffa28' + '0207' + Buffer.from('IBM-3278-4-E').toString('hex') + 'fff0',
  );
  const r = t.feed(Uint8Array.of(IAC, SB, OPT.TN3270E, 2, 6, 5, 4, IAC, SE)); // REJECT REASON INV-DEVICE-TYPE
  assert.equal(hexOf(r), 'fffc28');
  assert.ok(r.notes.some((n) => /REJECT INV-DEVICE-TYPE/.test(n.text)));
  assert.equal(t.e, false);
  assert.equal(hexOf(new Tn3270Telnet().feed(Uint8Array.of(IAC, DO, OPT.TN3270E))), 'fffc28');
});

test('the model is the largest whose alternate screen fits the terminal with a status line', async () => {
  const { modelFor, terminalType } = await import('../../../src/clients/tn3270/session.js');
  assert.equal(modelFor(undefined, undefined), 2);
  assert.equal(modelFor(24, 80), 2);
  assert.equal(modelFor(25, 80), 2);
  assert.equal(modelFor(33, 80), 3);
  assert.equal(modelFor(43, 100), 3, '43 rows leave no room for the status line of model 4');
  assert.equal(modelFor(43, 200), 5, 'but 27 x 132 fits');
  assert.equal(modelFor(44, 80), 4);
  assert.equal(modelFor(50, 132), 5);
  assert.equal(terminalType(4, true), 'IBM-3278-4-E');
  assert.equal(terminalType(2, false), 'IBM-3278-2');
});
