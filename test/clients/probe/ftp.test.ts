// The ftp probe (issue 18; RFC 1738 3.2) against the real vsftpd of test/servers/ftp.sh
// (127.0.0.1:2121, anonymous): the commands sent are those of explainProbe() - the login, one CWD
// per segment, SIZE for a file - and no data connection is opened; 550 is broken.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { probe, explainProbe } from '../../../src/clients/index.js';
import { eachRow, serversDir } from '../../helpers.js';
import { OPTS, closedPort, sent } from './common.js';

const FTP = 'ftp://127.0.0.1:2121';
serversDir();

// path | status | reply | the commands after USER and PASS | section
const ROWS: Array<[string, string, string, string[], string]> = [
  ['hello.txt', 'ok', '213', ['SIZE hello.txt', 'QUIT'], 'RFC 1738 3.2.2'],
  [
    'pub/nested/deeper/inner.txt',
    'ok',
    '213',
    ['CWD pub', 'CWD nested', 'CWD deeper', 'SIZE inner.txt', 'QUIT'],
    'RFC 1738 3.2.2',
  ],
  ['pub/with%20space.txt', 'ok', '213', ['CWD pub', 'SIZE with space.txt', 'QUIT'], 'RFC 1738 3.2.2'],
  ['pub/', 'ok', '250', ['CWD pub', 'QUIT'], 'RFC 1738 3.2.2'],
  ['', 'ok', '', ['QUIT'], 'RFC 1738 3.2.2'],
  ['pub/nested;type=d', 'ok', '250', ['CWD pub', 'CWD nested', 'QUIT'], 'RFC 1738 3.2.3'],
  // a directory named without its "/": SIZE says 550, the CWD into it says it is there
  ['pub', 'ok', '250', ['SIZE pub', 'CWD pub', 'QUIT'], 'RFC 1738 3.2.2'],
  ['nope.txt', 'broken', '550', ['SIZE nope.txt', 'CWD nope.txt', 'QUIT'], 'RFC 959 4.2'],
  ['nope/x.txt', 'broken', '550', ['CWD nope', 'QUIT'], 'RFC 959 4.2'],
  ['pub/nope;type=d', 'broken', '550', ['CWD pub', 'CWD nope', 'SIZE nope', 'QUIT'], 'RFC 1738 3.2.3'],
];

eachRow(
  'ftp probe',
  ROWS,
  async ([path, status, reply, commands]) => {
    const url = `${FTP}/${path}`;
    const r = await probe(url, OPTS);
    assert.equal(r.status, status, r.reason);
    assert.equal(r.reply ?? '', reply);
    assert.equal(r.temporary, false);
    assert.deepEqual(r.redirects, []);
    const lines = sent(r.transcript);
    assert.deepEqual(lines.slice(0, 2), ['USER anonymous', 'PASS ****']);
    assert.deepEqual(lines.slice(2), commands);
    assert.ok(!lines.some((l) => /^(EPSV|PASV|RETR|NLST)/.test(l)), 'no data connection');
  },
  { section: (row) => row[4] },
);

test('issue 18: explainProbe(ftp) names the commands the probe sends, in order', () => {
  assert.deepEqual(explainProbe(`${FTP}/pub/nested/deeper/inner.txt`), [
    'USER anonymous',
    'PASS <your e-mail address>',
    'CWD pub',
    'CWD nested',
    'CWD deeper',
    'SIZE inner.txt [213: there; 550: CWD inner.txt, a directory if 250]',
    '[if SIZE is not known (500, 502)] MDTM inner.txt',
    'QUIT',
  ]);
  assert.deepEqual(explainProbe(`${FTP}/pub/`), ['USER anonymous', 'PASS <your e-mail address>', 'CWD pub', 'QUIT']);
});

test('RFC 959 4.2: the 550 reply is the reason of a broken ftp URL', async () => {
  const r = await probe(`${FTP}/nope.txt`, OPTS);
  assert.equal(r.code, 'ftp-reply');
  assert.match(r.reason, /^550 /);
});

test('issue 18: an ftp URL whose port has no server is unreachable', async () => {
  const r = await probe(`ftp://127.0.0.1:${await closedPort()}/x.txt`, OPTS);
  assert.equal(r.status, 'unreachable');
  assert.equal(r.code, 'connect-failed');
  assert.equal(r.temporary, false);
});

test('a name the probe finds to be a directory says so (directory: true), for check --recursive to list it', async () => {
  const rows: [string, boolean | undefined][] = [
    ['pub', true],
    ['pub/nested;type=d', true],
    ['hello.txt', undefined],
    ['pub/with%20space.txt', undefined],
  ];
  for (const [path, directory] of rows) {
    const r = await probe(`${FTP}/${path}`, OPTS);
    assert.equal(r.status, 'ok', path);
    assert.equal(r.directory, directory, path);
  }
});
