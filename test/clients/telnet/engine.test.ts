// The one Telnet engine (src/clients/telnet-engine/engine.ts) that the telnet and tn3270 sessions share:
// each session's allowed options (RFC 855: the rest refused), the NVT rule or raw data (RFC 854,
// RFC 1576), a subnegotiation past its bound dropped or failed (RFC 855), and RFC 1143's answer
// budget for tn3270 too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LocatorError } from '../../../src/core/errors.js';
import { TelnetEngine, type TelnetEngineOptions } from '../../../src/clients/telnet-engine/engine.js';
import { MAX_ANSWERS } from '../../../src/clients/telnet-engine/options.js';
import { DO, IAC, OPT, SB, SE, WILL } from '../../../src/clients/telnet-engine/protocol.js';
import { Tn3270Telnet } from '../../../src/clients/tn3270/negotiate.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Runs `input` through an engine; what it sent, the data, and the transcript lines. */
function run(options: TelnetEngineOptions, input: number[]): { sent: string; data: string; notes: string[] } {
  const sent: Uint8Array[] = [];
  const data: Uint8Array[] = [];
  const notes: string[] = [];
  const e = new TelnetEngine(options, {
    send: (b, shown) => {
      sent.push(b);
      notes.push(`send ${shown}`);
    },
    note: (d, t) => notes.push(`${d} ${t}`),
    data: (b) => data.push(b),
    subnegotiation: (o, d) => notes.push(`sb ${o} ${hex(d)}`),
  });
  e.receive(Uint8Array.from(input));
  return { sent: sent.map(hex).join(''), data: data.map(hex).join(''), notes };
}

const TELNET: TelnetEngineOptions = { us: [OPT.SGA, OPT.BINARY], him: [OPT.ECHO, OPT.SGA, OPT.BINARY] };
const TN3270: TelnetEngineOptions = { us: [OPT.BINARY, OPT.TTYPE, OPT.EOR], him: [OPT.BINARY, OPT.EOR], binary: true };

const ROWS: Array<[string, TelnetEngineOptions, number[], string]> = [
  ['telnet: WILL ECHO agreed (DO ECHO)', TELNET, [IAC, WILL, OPT.ECHO], 'fffd01'],
  ['tn3270: WILL ECHO refused (DONT ECHO)', TN3270, [IAC, WILL, OPT.ECHO], 'fffe01'],
  ['telnet: DO END-OF-RECORD refused (WONT)', TELNET, [IAC, DO, OPT.EOR], 'fffc19'],
  ['tn3270: DO END-OF-RECORD agreed (WILL)', TN3270, [IAC, DO, OPT.EOR], 'fffb19'],
  ['both: DO TN3270E refused', TN3270, [IAC, DO, OPT.TN3270E], 'fffc28'],
];
for (const [name, options, input, want] of ROWS) {
  test(`RFC 855, RFC 1143: ${name}`, () => {
    assert.equal(run(options, input).sent, want);
  });
}

test('RFC 854: outside BINARY CR NUL is CR; in the raw mode of tn3270 (RFC 1576) it is kept', () => {
  assert.equal(run(TELNET, [0x61, 13, 0, 0x62]).data, '610d62');
  assert.equal(run(TN3270, [0x61, 13, 0, 0x62]).data, '610d0062');
});

test('RFC 855: a subnegotiation past the bound is dropped (telnet) or fails at once (tn3270)', () => {
  const long = [IAC, SB, OPT.TTYPE, ...new Array(20).fill(0x41), IAC, SE, 0x7a];
  const dropped = run({ ...TELNET, maxSubnegotiation: 10 }, long);
  assert.deepEqual(dropped.notes, ['info a subnegotiation of TERMINAL-TYPE of 20 octets was dropped (more than 10)']);
  assert.equal(dropped.data, '7a');
  assert.throws(
    () =>
      run(
        { ...TN3270, maxSubnegotiation: 10, subnegotiationTooLong: () => new LocatorError('protocol-error', -1, 'x') },
        long,
      ),
    (e: unknown) => e instanceof LocatorError && e.code === 'protocol-error',
  );
});

test('RFC 1143 budget: a tn3270 server that floods a refused option gets a bounded number of answers', () => {
  const t = new Tn3270Telnet();
  const flood: number[] = [];
  for (let i = 0; i < 1000; i++) flood.push(IAC, DO, 1); // DO ECHO, refused each time
  const r = t.feed(Uint8Array.from(flood));
  assert.equal(r.replies.length, MAX_ANSWERS);
  assert.ok(r.notes.length < 2 * MAX_ANSWERS + 5, `${r.notes.length} transcript lines`);
});
