// The pure FTP reply parsers (RFC 959 4.2, RFC 2428 3): table rows, then every split point.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LocatorError } from '../../../src/core/errors.js';
import {
  announcedSize,
  MAX_REPLY_OCTETS,
  parseEpsv,
  parsePasv,
  parseReplies,
  type FtpReply,
} from '../../../src/clients/ftp/parser.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const codes = (rs: FtpReply[]) => rs.map((r) => r.code);

/** Feeds `input` in the pieces given, carrying the rest, as the client does. */
function feed(pieces: Uint8Array[]): FtpReply[] {
  const out: FtpReply[] = [];
  let rest = new Uint8Array(0);
  for (const p of pieces) {
    const joined = new Uint8Array(rest.length + p.length);
    joined.set(rest);
    joined.set(p, rest.length);
    const r = parseReplies(joined);
    out.push(...r.replies);
    rest = new Uint8Array(r.rest);
  }
  assert.equal(rest.length, 0, 'nothing left over');
  return out;
}

// input | codes | texts | rest (octets left)        -- RFC 959 4.2
const ROWS: Array<[string, number[], string[], number]> = [
  ['220 Service ready\r\n', [220], ['Service ready'], 0], // 4.2 single line
  ['220 Service ready', [], [], 17], // no CRLF yet
  ['331 Password\r\n230 Logged in\r\n', [331, 230], ['Password', 'Logged in'], 0], // two at once
  [
    '123-First line\r\nSecond line\r\n  234 A line beginning with numbers\r\n123 The last line\r\n',
    [123],
    ['First line\nSecond line\n  234 A line beginning with numbers\nThe last line'],
    0,
  ], // 4.2 example, verbatim
  ['211-Features:\r\n EPSV\r\n211-PASV\r\n211 End\r\n', [211], ['Features:\n EPSV\nPASV\nEnd'], 0], // "xyz-" inside
  ['211-Features:\r\n EPSV\r\n', [], [], 22], // multi-line not closed
  ['211-a\r\n212 not the closing code\r\n211 end\r\n', [211], ['a\n212 not the closing code\nend'], 0],
  ['220\r\n', [220], [''], 0], // bare code
  ['226 Done\n', [226], ['Done'], 0], // bare LF (DEVIATION)
  ['150-\r\n150 \r\n', [150], ['\n'], 0],
];

for (const [input, want, texts, rest] of ROWS) {
  test(`parseReplies ${JSON.stringify(input)} (RFC 959 4.2)`, () => {
    const r = parseReplies(bytes(input));
    assert.deepEqual(codes(r.replies), want);
    assert.deepEqual(
      r.replies.map((x) => x.text),
      texts,
    );
    assert.equal(r.rest.length, rest);
  });
}

test('parseReplies keeps the lines as received for the transcript', () => {
  const r = parseReplies(bytes('230-Welcome\r\n230 Logged in.\r\n'));
  assert.deepEqual(r.replies[0].lines, ['230-Welcome', '230 Logged in.']);
});

test('parseReplies decodes UTF-8 lines (RFC 2640) and marks what is not UTF-8', () => {
  const r = parseReplies(new Uint8Array([...bytes('257 "/caf'), 0xc3, 0xa9, ...bytes('" x'), 0xff, 13, 10]));
  assert.equal(r.replies[0].text, '"/café" x\ufffd');
});

// Garbage: a reply must start with three digits, the first 1-5, then " ", "-" or the line end.
for (const input of [
  'hello there\r\n',
  '22 short\r\n',
  '620 first digit 6\r\n',
  '220x\r\n',
  '\r\n',
  'SSH-2.0-OpenSSH_9.2\r\n',
  '220 ok\r\nnot a reply\r\n',
]) {
  test(`parseReplies refuses ${JSON.stringify(input)} with protocol-error (RFC 959 4.2)`, () => {
    assert.throws(
      () => parseReplies(bytes(input)),
      (e: unknown) => e instanceof LocatorError && e.code === 'protocol-error',
    );
  });
}

test('parseReplies refuses a reply longer than MAX_REPLY_OCTETS (no unbounded buffer)', () => {
  assert.throws(
    () => parseReplies(bytes('220 ' + 'x'.repeat(MAX_REPLY_OCTETS + 1))),
    (e: unknown) => e instanceof LocatorError && e.code === 'protocol-error',
  );
  const long = '211-a\r\n' + ' filler line\r\n'.repeat(MAX_REPLY_OCTETS / 10);
  assert.throws(
    () => parseReplies(bytes(long)),
    (e: unknown) => e instanceof LocatorError && e.code === 'protocol-error',
  );
});

const SESSION =
  '220-Welcome\r\n220 ready\r\n331 Please specify the password.\r\n230 Login successful.\r\n' +
  '250 Directory successfully changed.\r\n229 Entering Extended Passive Mode (|||30018|)\r\n' +
  '150 Opening BINARY mode data connection for big.bin (52428800 bytes).\r\n226 Transfer complete.\r\n' +
  '211-Features:\r\n EPSV\r\n MDTM\r\n211 End\r\n221 Goodbye.\r\n';

test('a session split at every byte position gives the same replies (rest carried over)', () => {
  const all = bytes(SESSION);
  const whole = parseReplies(all).replies;
  assert.deepEqual(codes(whole), [220, 331, 230, 250, 229, 150, 226, 211, 221]);
  for (let i = 0; i <= all.length; i++) {
    assert.deepEqual(feed([all.subarray(0, i), all.subarray(i)]), whole, `split at ${i}`);
  }
  assert.deepEqual(feed([...all].map((b) => new Uint8Array([b]))), whole, 'one octet at a time');
});

test('property: any chunking of a session gives the same replies (seed 1738)', () => {
  const all = bytes(SESSION);
  const whole = parseReplies(all).replies;
  fc.assert(
    fc.property(fc.uniqueArray(fc.integer({ min: 1, max: all.length - 1 }), { maxLength: 12 }), (cuts) => {
      const points = [0, ...cuts.sort((a, b) => a - b), all.length];
      const pieces = points.slice(1).map((p, i) => all.subarray(points[i], p));
      assert.deepEqual(feed(pieces), whole);
    }),
    { seed: 1738, numRuns: 500 },
  );
});

// EPSV (RFC 2428 3): "(|||port|)", any delimiter 33-126.
const EPSV: Array<[string, number | null]> = [
  ['Entering Extended Passive Mode (|||6446|)', 6446], // RFC 2428 3 example
  ['Entering Extended Passive Mode (!!!30018!)', 30018],
  ['Extended Passive (|||65535|)', 65535],
  ['Entering Extended Passive Mode (|||0|)', null],
  ['Entering Extended Passive Mode (|||70000|)', null],
  ['Entering Extended Passive Mode (||127.0.0.1|6446|)', null],
  ['Entering Extended Passive Mode (|||6446)', null],
  ['Entering Extended Passive Mode |||6446|', null],
  ['Entering Extended Passive Mode (   6446 )', null],
];
for (const [text, port] of EPSV) {
  test(`parseEpsv ${JSON.stringify(text)} -> ${port} (RFC 2428 3)`, () => assert.equal(parseEpsv(text), port));
}

// PASV (RFC 959 4.1.2, reply 227): six numbers, port = p1 * 256 + p2.
const PASV: Array<[string, { address: string; port: number } | null]> = [
  ['Entering Passive Mode (127,0,0,1,117,142).', { address: '127.0.0.1', port: 30094 }],
  ['Entering Passive Mode 10,0,0,5,4,1', { address: '10.0.0.5', port: 1025 }],
  ['=192,168,1,2,200,10', { address: '192.168.1.2', port: 51210 }],
  ['Entering Passive Mode (127,0,0,1,0,0).', null],
  ['Entering Passive Mode (127,0,0,1,256,1).', null],
  ['Entering Passive Mode (127,0,0,1,117).', null],
  ['Entering Passive Mode.', null],
];
for (const [text, want] of PASV) {
  test(`parsePasv ${JSON.stringify(text)} (RFC 959 4.1.2)`, () => assert.deepEqual(parsePasv(text), want));
}

// The size hint of a 150 reply (vsftpd, wu-ftpd): not in RFC 959, so absent means null.
const SIZES: Array<[string, number | null]> = [
  ['Opening BINARY mode data connection for pub/big.bin (52428800 bytes).', 52428800],
  ['Opening BINARY mode data connection for a (b) (0 bytes).', 0],
  ['Here comes the directory listing.', null],
  ['Opening data connection (bytes).', null],
  ['Opening data connection 12 bytes)', null],
];
for (const [text, size] of SIZES) {
  test(`announcedSize ${JSON.stringify(text)} -> ${size}`, () => assert.equal(announcedSize(text), size));
}
