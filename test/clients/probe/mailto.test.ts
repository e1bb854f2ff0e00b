// The mailto probe (issue 18; RFC 1738 3.5, RFC 5321 5.1) against dnsmasq, started here on a
// loopback port with the records of each case, and, with smtpProbe, the real OpenSMTPD of
// test/servers/smtp.sh (127.0.0.1:2525, which takes mail for example.test and relays nothing).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { probe, explainProbe } from '../../../src/clients/index.js';
import { eachRow, serversDir } from '../../helpers.js';
import { OPTS, closedPort, dnsmasq, sent } from './common.js';

serversDir();
let dns: Awaited<ReturnType<typeof dnsmasq>>;
let server = '';

before(async () => {
  dns = await dnsmasq([
    '--mx-host=example.test,mail.example.test,10',
    '--host-record=mail.example.test,127.0.0.1',
    '--host-record=nomx.test,127.0.0.1',
    '--host-record=v6only.test,::1',
    '--mx-host=nullmx.test,.,0',
    '--txt-record=nodata.test,"no address here"',
  ]);
  server = dns.server;
});
after(() => dns.stop());

const D = () => ({ ...OPTS, dnsServers: [server] });

// address | status | reply | section
const ROWS: Array<[string, string, string, string]> = [
  ['someone@example.test', 'ok', '', 'RFC 5321 5.1'],
  ['someone@nomx.test', 'ok', '', 'RFC 5321 5.1'], // no MX: the A record
  ['someone@v6only.test', 'ok', '', 'RFC 5321 5.1'], // no MX, no A: the AAAA record
  ['someone@nullmx.test', 'broken', 'MX', 'RFC 7505 3'],
  ['someone@nodata.test', 'broken', 'NODATA', 'RFC 5321 5.1'],
  ['someone@nowhere.test', 'broken', 'NXDOMAIN', 'RFC 5321 5.1'],
];

eachRow(
  'mailto probe',
  ROWS,
  async ([address, status, reply]) => {
    const r = await probe(`mailto:${address}`, D());
    assert.equal(r.status, status, r.reason);
    assert.equal(r.reply ?? '', reply);
    assert.deepEqual(sent(r.transcript), [], 'no SMTP without smtpProbe');
  },
  { section: (row) => row[3] },
);

test('RFC 5321 5.1: the MX is asked first, A and AAAA only when there is none', async () => {
  const mx = await probe('mailto:a@example.test', D());
  assert.deepEqual(
    mx.transcript.map((l) => l.text),
    ['DNS MX example.test'],
  );
  assert.match(mx.reason, /^MX 10 mail\.example\.test/);
  const a = await probe('mailto:a@v6only.test', D());
  assert.deepEqual(
    a.transcript.filter((l) => /^DNS [A-Z]+ v6only\.test$/.test(l.text)).map((l) => l.text),
    ['DNS MX v6only.test', 'DNS A v6only.test', 'DNS AAAA v6only.test'],
  );
});

test('RFC 5321 4.1.1.3: smtpProbe asks RCPT TO, and sends no message', async () => {
  const r = await probe('mailto:tester@example.test', { ...D(), smtpProbe: true, smtpServer: '127.0.0.1:2525' });
  assert.equal(r.status, 'ok', r.reason);
  assert.equal(r.reply, '250');
  const lines = sent(r.transcript);
  assert.deepEqual(lines.slice(1), ['MAIL FROM:<>', 'RCPT TO:<tester@example.test>', 'QUIT']);
  assert.match(lines[0], /^EHLO /);
  // OpenSMTPD relays nothing: a domain it does not serve is refused with a 5yz
  const refused = await probe('mailto:someone@nomx.test', { ...D(), smtpProbe: true, smtpServer: '127.0.0.1:2525' });
  assert.equal(refused.status, 'broken', refused.reason);
  assert.match(refused.reply ?? '', /^5[0-9][0-9]$/);
  assert.ok(!sent(refused.transcript).includes('DATA'));
});

test('issue 18: a DNS server that is not there makes a mailto URL unreachable', async () => {
  const r = await probe('mailto:a@example.test', {
    ...OPTS,
    timeout: 1000,
    dnsServers: [`127.0.0.1:${await closedPort()}`],
  });
  assert.equal(r.status, 'unreachable', r.reason);
});

test('issue 18: explainProbe(mailto) is the DNS questions, and RCPT TO only with smtpProbe', () => {
  assert.deepEqual(explainProbe('mailto:a@b.example', { dnsServers: ['127.0.0.1:53'] }), [
    'DNS MX b.example (asking 127.0.0.1:53)',
    '[if no MX] DNS A b.example, DNS AAAA b.example (RFC 5321 5.1: the domain is its own mail exchanger)',
  ]);
  assert.deepEqual(explainProbe('mailto:a@b.example', { smtpProbe: true }).slice(2), [
    'connect the first mail exchanger, port 25',
    'EHLO <this host>',
    'MAIL FROM:<>',
    'RCPT TO:<a@b.example>',
    'QUIT',
  ]);
});

test('API misuse: a dnsServers entry that is no address is a TypeError naming the option, before any query', async () => {
  await assert.rejects(probe('mailto:a@b.example', { ...OPTS, dnsServers: ['not an address'] }), (e: unknown) => {
    assert.ok(e instanceof TypeError);
    assert.match(e.message, /^the dnsServers option: /);
    return true;
  });
});
