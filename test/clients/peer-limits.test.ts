// The limits that protect the clients against a hostile peer, each tripped exactly through its
// pure parser: at the limit accepted, one octet past it refused, with the exact note. A limit
// raised, removed or moved by one fails its test.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineSplitter, MAX_DATA_LINE } from '../../src/clients/nntp/parser.js';
import { readAnswer, REFUSAL_LIMIT } from '../../src/clients/rlogin/protocol.js';
import { parsePlusHeader } from '../../src/clients/gopher/parser.js';
import { TelnetParser, MAX_SUBNEGOTIATION } from '../../src/clients/telnet-engine/protocol.js';
import { encodeHeader, MAX_APDU_LENGTH } from '../../src/clients/wais/header.js';
import { LocatorError } from '../../src/core/errors.js';
import { open } from '../../src/clients/index.js';
import { FakeFtp, standard } from './ftp/fakes.js';
import { rejects } from '../helpers.js';

const octets = (n: number, c = 0x61) => new Uint8Array(n).fill(c);

test('nntp MAX_DATA_LINE: a line of 262,144 octets is kept; 262,145 is a protocol-error', () => {
  assert.equal(MAX_DATA_LINE, 262_144);
  const at = new LineSplitter();
  assert.deepEqual(at.push(octets(MAX_DATA_LINE)), []);
  assert.equal(at.push(new Uint8Array([0x0d, 0x0a]))[0].length, MAX_DATA_LINE);
  const past = new LineSplitter();
  assert.throws(
    () => past.push(octets(MAX_DATA_LINE + 1)),
    (e: unknown) =>
      e instanceof LocatorError &&
      e.code === 'protocol-error' &&
      e.detail === 'the NNTP server sent a line of more than 262144 octets',
  );
});

test('rlogin REFUSAL_LIMIT: a refusal of 1,024 octets without a line end is awaited; at 1,025 it is read, cut to 1,024', () => {
  assert.equal(REFUSAL_LIMIT, 1024);
  const msg = (n: number) => {
    const b = octets(n, 0x78);
    b[0] = 1;
    return b;
  };
  assert.deepEqual(readAnswer(msg(REFUSAL_LIMIT), false), { kind: 'incomplete' });
  // the octet 1, then the text up to the limit: 1,023 characters of the server's words
  assert.deepEqual(readAnswer(msg(REFUSAL_LIMIT + 1), false), { kind: 'refused', message: 'x'.repeat(1023) });
});

test('gopher MAX_HEADER: a Gopher+ header line of 40 octets without its end is awaited; 41 is refused', () => {
  const line = (n: number) => new TextEncoder().encode('+' + '1'.repeat(n - 1));
  assert.deepEqual(parsePlusHeader(line(40)).error, null);
  assert.equal(parsePlusHeader(line(40)).header, null);
  assert.equal(
    parsePlusHeader(line(41)).error,
    `the Gopher+ header line is too long: ${JSON.stringify('+' + '1'.repeat(39))}...`,
  );
});

test('telnet MAX_SUBNEGOTIATION: a subnegotiation of 4,096 octets is kept; 4,097 is dropped as an overflow', () => {
  assert.equal(MAX_SUBNEGOTIATION, 4096);
  const sb = (n: number) => Uint8Array.from([255, 250, 24, ...octets(n), 255, 240]);
  const kept = new TelnetParser().push(sb(MAX_SUBNEGOTIATION));
  assert.equal(kept.length, 1);
  assert.equal(kept[0].type, 'subnegotiation');
  assert.equal((kept[0] as { data: Uint8Array }).data.length, MAX_SUBNEGOTIATION);
  assert.deepEqual(new TelnetParser().push(sb(MAX_SUBNEGOTIATION + 1)), [
    { type: 'overflow', option: 24, length: MAX_SUBNEGOTIATION + 1 },
  ]);
});

test('wais MAX_APDU_LENGTH: a header for 9,999,999,999 octets (ten digits) is written; one more is a RangeError', () => {
  assert.equal(MAX_APDU_LENGTH, 9_999_999_999);
  assert.equal(new TextDecoder().decode(encodeHeader(MAX_APDU_LENGTH).subarray(0, 10)), '9999999999');
  assert.throws(() => encodeHeader(MAX_APDU_LENGTH + 1), {
    name: 'RangeError',
    message: 'a WAIS APDU length must be 0..9999999999, not 10000000000',
  });
});

test('ftp MAX_PRELIMINARY (RFC 959 5.4): ten "120" replies before "220" are waited through; an eleventh is refused', async () => {
  const greeting = (n: number) => '120 ready in 1 minute\r\n'.repeat(n) + '220 fake ready\r\n';
  const at = await FakeFtp.start({ greeting: greeting(10), handle: standard({ 'a.txt': 'a\r\n' }) });
  try {
    const r = await open(at.url('a.txt') + ';type=i');
    assert.equal(new TextDecoder().decode(await new Response(r.body).arrayBuffer()), 'a\r\n');
  } finally {
    await at.stop();
  }
  const past = await FakeFtp.start({ greeting: greeting(11), handle: standard({ 'a.txt': 'a\r\n' }) });
  try {
    const e = await rejects(open(past.url('a.txt')));
    assert.equal(e.code, 'ftp-reply');
    assert.equal(e.message, 'the FTP server answered 120 "ready in 1 minute" on connecting (ftp-reply)');
    assert.equal(past.sessions[0]?.commands.length ?? 0, 0, 'nothing is sent before the 220');
  } finally {
    await past.stop();
  }
});

test('ftp MAX_PRELIMINARY (RFC 959 4.2) at the end of a transfer: "150" and nine more 1yz replies before "226" are waited through; a tenth more is refused', async () => {
  const body = 'hello\r\n';
  const after150 = (n: number) =>
    standard(
      { 'a.txt': body },
      {
        RETR: async (_v, _a, s) => {
          const data = await s.data!;
          s.reply('150 Opening BINARY mode data connection.');
          data.end(body);
          await new Promise((resolve) => data.once('close', resolve));
          for (let i = 0; i < n; i++) s.reply('150 still working');
          s.reply('226 Transfer complete.');
        },
      },
    );
  const at = await FakeFtp.start({ handle: after150(9) });
  try {
    const r = await open(at.url('a.txt') + ';type=i');
    assert.equal(new TextDecoder().decode(await new Response(r.body).arrayBuffer()), body);
    assert.equal(at.commands.at(-1), 'QUIT');
    assert.equal(await at.allClosed(), true);
  } finally {
    await at.stop();
  }
  const past = await FakeFtp.start({ handle: after150(10) });
  try {
    const r = await open(past.url('a.txt') + ';type=i');
    const e = await rejects(new Response(r.body).arrayBuffer());
    assert.equal(e.code, 'protocol-error');
    assert.equal(e.detail, 'the FTP server sent preliminary replies (1yz) without end');
    assert.equal(await past.allClosed(), true, 'both connections closed');
  } finally {
    await past.stop();
  }
});
