// The telnet, rlogin and tn3270 probe (issue 18; RFC 1738 3.8) against the real telnetd
// (127.0.0.1:2323), rlogind (127.0.0.1:5513) and Hercules (127.0.0.1:3270) of test/servers/:
// the connection and the first bytes, nothing sent (no login); a closed port is unreachable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { probe, explainProbe } from '../../../src/clients/index.js';
import { eachRow, serversDir } from '../../helpers.js';
import { OPTS, closedPort, sent } from './common.js';

serversDir();

// url | what the first bytes are | section
const ROWS: Array<[string, RegExp, string]> = [
  // telnetd opens with its option negotiation (RFC 854: IAC DO ...)
  ['telnet://127.0.0.1:2323', /the server sent [0-9]+ octets/, 'RFC 1738 3.8'],
  // Hercules asks for the terminal type first (RFC 1576: IAC DO TERMINAL-TYPE)
  ['tn3270://127.0.0.1:3270', /the server sent [0-9]+ octets/, 'RFC 1738 3.8'],
  // rlogind waits for the client's handshake (RFC 1282), which the probe does not send
  ['rlogin://127.0.0.1:5513', /connected to port 5513/, 'RFC 1738 3.8'],
];

eachRow(
  'session probe',
  ROWS,
  async ([url, reason]) => {
    const r = await probe(url, OPTS);
    assert.equal(r.status, 'ok', r.reason);
    assert.match(r.reason, reason);
    assert.deepEqual(sent(r.transcript), [], 'nothing sent: no login');
    assert.ok(r.transcript.some((l) => l.direction === 'info' && /^connect /.test(l.text)));
  },
  { section: (row) => row[2] },
);

test('RFC 1738 3.8: a telnet, rlogin or tn3270 URL whose port has no server is unreachable', async () => {
  const port = await closedPort();
  for (const scheme of ['telnet', 'rlogin', 'tn3270']) {
    const r = await probe(`${scheme}://127.0.0.1:${port}`, OPTS);
    assert.equal(r.status, 'unreachable', scheme);
    assert.equal(r.code, 'connect-failed', scheme);
  }
});

test('issue 18: explainProbe(telnet) is the connection and the first bytes, no login', () => {
  assert.deepEqual(explainProbe('telnet://user@h.example', { firstBytesWait: 500 }), [
    'connect h.example:23',
    'read the first bytes (waiting at most 500 ms), send nothing: no login',
    'close',
  ]);
  assert.equal(explainProbe('rlogin://h.example')[0], 'connect h.example:513');
});
