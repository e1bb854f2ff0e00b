// The gopher probe (issue 18; RFC 1738 3.4, RFC 1436) against the real pygopherd (127.0.0.1:7070)
// and gophernicus (127.0.0.1:7071) of test/servers/gopher*.sh: the request, the first line; an
// error item (type 3) or a first line that is no menu line is broken; a "URL:" link is a
// redirect through the one loop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { probe, explainProbe } from '../../../src/clients/index.js';
import { eachRow, serversDir } from '../../helpers.js';
import { OPTS, closedPort, sent } from './common.js';

serversDir();
const PY = 'gopher://127.0.0.1:7070';
const NICUS = 'gopher://127.0.0.1:7071';

// url | status | code | the request sent | section
const ROWS: Array<[string, string, string, string, string]> = [
  [`${PY}/`, 'ok', '', '<CR><LF>', 'RFC 1738 3.4'],
  [`${PY}/1/files`, 'ok', '', '/files<CR><LF>', 'RFC 1436 3.8'],
  [`${PY}/0/hello.txt`, 'ok', '', '/hello.txt<CR><LF>', 'RFC 1436 3.8'],
  [`${PY}/0/files/with%20space.txt`, 'ok', '', '/files/with space.txt<CR><LF>', 'RFC 1738 3.4'],
  [`${PY}/1/nope`, 'broken', 'gopher-error', '/nope<CR><LF>', 'RFC 1436 3.8'],
  [`${PY}/0/nope.txt`, 'broken', 'gopher-error', '/nope.txt<CR><LF>', 'RFC 1436 3.8'],
  [`${NICUS}/`, 'ok', '', '<CR><LF>', 'RFC 1738 3.4'],
  // a search with no search string in the URL is asked with an empty one
  [`${PY}/7/search.sh`, 'ok', '', '/search.sh<TAB><CR><LF>', 'RFC 1436 3.7'],
  [`${PY}/7/search.sh%09gopher`, 'ok', '', '/search.sh<TAB>gopher<CR><LF>', 'RFC 1738 3.4.2'],
  // gophernicus answers a missing menu with a line of text: not a menu line
  [`${NICUS}/1/nope`, 'broken', 'protocol-error', '/nope<CR><LF>', 'RFC 1436 3.8'],
];

eachRow(
  'gopher probe',
  ROWS,
  async ([url, status, code, request]) => {
    const r = await probe(url, OPTS);
    assert.equal(r.status, status, r.reason);
    assert.equal(r.code ?? '', code);
    assert.deepEqual(sent(r.transcript), [request]);
  },
  { section: (row) => row[4] },
);

test('RFC 1436 3.8: the reason of a missing item is the error item the server sent, its reply the type 3', async () => {
  const r = await probe(`${PY}/1/nope`, OPTS);
  assert.equal(r.reason, "'/nope' does not exist (no handler found)");
  assert.equal(r.reply, '3');
});

test('issue 18: a gopher "URL:" link is a redirect; across schemes only as the policy allows', async () => {
  const link = `${PY}/hURL:http://127.0.0.1:8080/hello.txt`;
  const refused = await probe(link, OPTS);
  assert.equal(refused.status, 'refused', 'the default policy allows no redirect to another scheme');
  assert.deepEqual(sent(refused.transcript), [], 'nothing sent to either server');
  const r = await probe(link, { ...OPTS, policy: { maxCrossSchemeRedirects: 1 } });
  assert.equal(r.status, 'redirected', r.reason);
  assert.deepEqual(r.redirects, ['http://127.0.0.1:8080/hello.txt']);
  assert.deepEqual(sent(r.transcript)[0], 'HEAD /hello.txt HTTP/1.1');
});

test('RFC 1436 3.8: a Telnet item (type 8) is probed as the session: connected, nothing sent', async () => {
  const r = await probe('gopher://127.0.0.1:2323/8', OPTS);
  assert.equal(r.status, 'ok', r.reason);
  assert.match(r.reason, /connected to port 2323/);
  assert.deepEqual(sent(r.transcript), []);
});

test('issue 18: a gopher URL whose port has no server is unreachable', async () => {
  const r = await probe(`gopher://127.0.0.1:${await closedPort()}/`, OPTS);
  assert.equal(r.status, 'unreachable');
});

test('issue 18: explainProbe(gopher) is the request and the first line', () => {
  assert.deepEqual(explainProbe(`${PY}/1/files`), [
    'connect 127.0.0.1:7070',
    '/files<CR><LF>',
    'read the first line: a menu line (not an error item, type 3), "." or nothing; then close',
  ]);
});
