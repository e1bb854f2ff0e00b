// The news and nntp probe (issue 18; RFC 1738 3.6, 3.7, RFC 3977) against the real INN of
// test/servers/nntp.sh (127.0.0.1:1119, group local.test with <first.1@example.test> as
// article 1): STAT and GROUP, never ARTICLE; 430, 411 and 423 are broken (and final).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { probe, explainProbe } from '../../../src/clients/index.js';
import { eachRow, serversDir } from '../../helpers.js';
import { OPTS, closedPort, sent } from './common.js';
import { authServer } from '../nntp/fakes.js';

serversDir();
const N = { ...OPTS, newsServer: '127.0.0.1:1119', netrc: false as const };
const NNTP = 'nntp://127.0.0.1:1119';

// url | status | reply | the command that decides | section
const ROWS: Array<[string, string, string, string, string]> = [
  ['news:first.1@example.test', 'ok', '223', 'STAT <first.1@example.test>', 'RFC 1738 3.6'],
  ['news:nope.1@example.test', 'broken', '430', 'STAT <nope.1@example.test>', 'RFC 3977 6.2.4'],
  ['news:local.test', 'ok', '211', 'GROUP local.test', 'RFC 1738 3.6'],
  ['news:local.nope', 'broken', '411', 'GROUP local.nope', 'RFC 3977 6.1.1'],
  ['news:*', 'ok', '215', 'LIST ACTIVE', 'RFC 1738 3.6'],
  [`${NNTP}/local.test`, 'ok', '211', 'GROUP local.test', 'RFC 1738 3.7'],
  [`${NNTP}/local.test/1`, 'ok', '223', 'STAT 1', 'RFC 1738 3.7'],
  [`${NNTP}/local.test/999`, 'broken', '423', 'STAT 999', 'RFC 3977 6.2.4'],
  [`${NNTP}/local.nope/1`, 'broken', '411', 'GROUP local.nope', 'RFC 3977 6.1.1'],
];

eachRow(
  'news/nntp probe',
  ROWS,
  async ([url, status, reply, command]) => {
    const r = await probe(url, N);
    assert.equal(r.status, status, r.reason);
    assert.equal(r.reply, reply);
    assert.equal(r.temporary, false);
    if (status === 'broken') assert.equal(r.code, 'not-found');
    const lines = sent(r.transcript);
    assert.ok(lines.includes(command), lines.join(' | '));
    assert.ok(!lines.some((l) => /^(ARTICLE|OVER|XOVER|HEAD)/.test(l)), 'no article or overview transferred');
  },
  { section: (row) => row[4] },
);

test('issue 18: a news server that is not there makes a news URL unreachable', async () => {
  const r = await probe('news:local.test', { ...N, newsServer: `127.0.0.1:${await closedPort()}` });
  assert.equal(r.status, 'unreachable');
  assert.equal(r.code, 'connect-failed');
});

test('RFC 1738 3.6: with no news server configured, a news URL is unreachable (nntp-no-server)', async () => {
  const r = await probe('news:local.test', { ...OPTS, env: {} });
  assert.equal(r.status, 'unreachable');
  assert.equal(r.code, 'nntp-no-server');
});

test('issue 18: explainProbe(news, nntp) is STAT or GROUP', () => {
  assert.deepEqual(explainProbe('news:a@b').slice(2), ['STAT <a@b> [223: there; 430: no such article]', 'QUIT']);
  assert.deepEqual(explainProbe('nntp://h/g.x/7').slice(2), [
    'GROUP g.x [211: there; 411: no such group]',
    'STAT 7 [223: there; 423: no such article]',
    'QUIT',
  ]);
});

test('RFC 4643 2.3: a password the server quotes back in its STAT reply is in no part of the probe result (ok and broken)', async () => {
  const SECRET = 'hunter2-SECRET';
  for (const [echo, status] of [
    ['in 223 to STAT', 'ok'],
    ['in 423 to STAT', 'broken'],
  ] as const) {
    const fake = await authServer(echo);
    try {
      const r = await probe(`nntp://127.0.0.1:${fake.port}/g.x/1`, {
        ...OPTS,
        netrc: false,
        user: 'u',
        password: SECRET,
      });
      assert.equal(r.status, status, r.reason);
      assert.ok(
        fake.commands.flat().includes(`AUTHINFO PASS ${SECRET}`),
        'the password was sent, and so could be quoted back',
      );
      const shown = JSON.stringify(r);
      for (const form of [SECRET, Buffer.from(SECRET).toString('base64')]) {
        assert.ok(!shown.includes(form), `${echo}: ${JSON.stringify(form)} shown in ${shown}`);
      }
      assert.match(shown, /\*\*\*\*/);
    } finally {
      await fake.close();
    }
  }
});
