// `locator fetch` of a prospero URL (RFC 1738 3.11): it asks our Prospero server
// (test/servers/prospero-server.ts, UDP on loopback) and writes the access URLs, one a line
// (text/uri-list, RFC 2483); with -v, the Prospero request and reply lines on standard error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers.js';
import { startProsperoServer } from '../servers/prospero-server.js';

const run = (args: string[]) => runCli(args);

const AFTP = "ATTRIBUTE OBJECT FIELD ACCESS-METHOD AFTP INTERNET-D 127.0.0.1(2121) ASCII '/pub/unix.txt' TEXT";
const GOPHER = "ATTRIBUTE OBJECT FIELD ACCESS-METHOD GOPHER INTERNET-D 127.0.0.1(7070) ASCII '/hello.txt' 0";

test('RFC 1738 3.11: locator fetch prints the access URLs of a prospero URL, exit 0', async () => {
  const s = await startProsperoServer({ objects: { '/pros/unix': [AFTP, GOPHER] } });
  try {
    const u = `prospero://127.0.0.1:${s.port}//pros/unix`;
    const r = await run(['fetch', u]);
    assert.equal(r.code, 0, r.err);
    assert.equal(
      r.out,
      `# the access methods of ${u} (RFC 1738 3.11)\r\n` +
        'ftp://127.0.0.1:2121/pub/unix.txt;type=a\r\n' +
        'gopher://127.0.0.1:7070/0/hello.txt\r\n',
    );
    const v = await run(['fetch', '-v', '--no-follow', u]);
    assert.equal(v.code, 0, v.err);
    assert.match(v.err, /^> GET-OBJECT-INFO ACCESS-METHOD ASCII '\/pros\/unix' 0$/m);
    assert.match(v.err, /^< ATTRIBUTE OBJECT FIELD ACCESS-METHOD AFTP /m);
    assert.match(v.err, /^\* ARDP: reply complete, 1 packet/m);
  } finally {
    await s.close();
  }
});

test('locator fetch of a prospero object the server does not have: exit 3 and the FAILURE line', async () => {
  const s = await startProsperoServer({ objects: {} });
  try {
    const r = await run(['fetch', `prospero://127.0.0.1:${s.port}/nothing`]);
    assert.equal(r.code, 3);
    assert.match(r.err, /answered "FAILURE NOT-FOUND OBJECT nothing" \(Prospero v5 4\.4\) \(not-found\)/);
    assert.equal(r.out, '');
  } finally {
    await s.close();
  }
});
