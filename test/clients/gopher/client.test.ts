// The gopher client against the real servers npm test starts (test/servers/*.sh): pygopherd
// (Gopher and Gopher+) on 127.0.0.1:7070 and gophernicus (plain Gopher) on 127.0.0.1:7071.
// Expected bytes are read from the servers' own fixture files under $LOCATOR_TEST_SERVERS.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { open } from '../../../src/clients/index.js';
import { explain } from '../../../src/operations/build.js';
import { LocatorError } from '../../../src/core/errors.js';
import { GopherError, type AskQuestion } from '../../../src/clients/gopher/client.js';
import { parseAsk, parseAttributes } from '../../../src/clients/gopher/parser.js';
import type { TranscriptLine } from '../../../src/clients/types.js';
import { rejects } from '../../helpers.js';
import { DEFAULT_POLICY, type PolicyError } from '../../../src/operations/policy.js';

const TS = process.env.LOCATOR_TEST_SERVERS;
if (!TS) throw new Error('LOCATOR_TEST_SERVERS is not set: run the tests with node scripts/test.mjs');
const PY = 'gopher://127.0.0.1:7070';
const GN = 'gopher://127.0.0.1:7071';
const pyFile = (p: string) => readFileSync(join(TS, 'gopher', 'root', p));
const gnFile = (p: string) => readFileSync(join(TS, 'gophernicus', 'root', p));
const NO_GATEWAY = { gateway: false as const, timeout: 10_000 };

async function fetchBytes(url: string, options: Parameters<typeof open>[1] = {}) {
  const lines: TranscriptLine[] = [];
  const r = await open(url, { ...NO_GATEWAY, transcript: (l) => lines.push(l), ...options });
  const body = Buffer.from(await new Response(r.body).arrayBuffer());
  return {
    meta: r.meta,
    body,
    text: body.toString('utf8'),
    lines,
    sent: lines.filter((l) => l.direction === 'send').map((l) => l.text),
  };
}

// ---------------------------------------------------------------------------------------------
// Plain Gopher (RFC 1436), pygopherd

test('pygopherd: a text item (type 0) is the fixture file, byte for byte, and the transcript is explain()', async () => {
  const url = `${PY}/0/hello.txt`;
  const r = await fetchBytes(url);
  assert.deepEqual(r.body, pyFile('hello.txt'));
  assert.deepEqual(r.sent, explain(url).steps);
  assert.deepEqual(r.sent, ['/hello.txt<CR><LF>']);
  assert.equal(r.meta.gopherType, '0');
  assert.equal(r.meta.contentType, 'text/plain');
  assert.equal(r.meta.size, null); // plain Gopher says no size
  assert.equal(r.meta.transcript.length, r.lines.length);
});

test('pygopherd: a binary item (type 9) is the fixture file, byte for byte', async () => {
  const r = await fetchBytes(`${PY}/9/files/data.bin`);
  assert.equal(r.body.length, 4096);
  assert.deepEqual(r.body, pyFile('files/data.bin'));
  assert.equal(r.meta.contentType, 'application/octet-stream');
});

test('pygopherd: a name with a space (RFC 1738 3.4.1: %20 in the selector)', async () => {
  const r = await fetchBytes(`${PY}/0/files/with%20space.txt`);
  assert.deepEqual(r.body, pyFile('files/with space.txt'));
  assert.deepEqual(r.sent, ['/files/with space.txt<CR><LF>']);
});

test('pygopherd: the root menu (empty gopher-path: type 1, empty selector) is sent raw by open()', async () => {
  const r = await fetchBytes(`${PY}/`);
  assert.deepEqual(r.sent, ['<CR><LF>']);
  assert.equal(r.meta.gopherType, '1');
  assert.match(
    r.text,
    /^iWelcome to the test gopher server\t\/fake\t\(NULL\)\t0\r\n0Hello text\t\/hello.txt\t127.0.0.1\t7070\t\+\r\n/,
  );
  assert.doesNotMatch(r.text, /\r\n\.\r\n$/); // pygopherd sends no "." line
});

test('pygopherd: a type 7 search with the search in the URL, with options.search, and with a prompt', async () => {
  const inUrl = await fetchBytes(`${PY}/7/search.sh%09red%20fox`);
  assert.deepEqual(inUrl.sent, ['/search.sh<TAB>red fox<CR><LF>']);
  assert.deepEqual(inUrl.sent, explain(`${PY}/7/search.sh%09red%20fox`).steps);
  assert.match(inUrl.text, /^iResults for: red fox\t/);

  const given = await fetchBytes(`${PY}/7/search.sh`, { search: 'foo bar' });
  assert.deepEqual(given.sent, ['/search.sh<TAB>foo bar<CR><LF>']);
  assert.match(
    given.text,
    /^iResults for: foo bar\tfake\t\(NULL\)\t0\r\n0Hello text\t\/hello.txt\t127.0.0.1\t7070\r\n\.\r\n$/,
  );

  let asked = 0;
  const prompted = await fetchBytes(`${PY}/7/search.sh`, {
    search: async () => {
      asked++;
      return 'prompted words';
    },
  });
  assert.equal(asked, 1);
  assert.match(prompted.text, /^iResults for: prompted words\t/);
});

test('a type 7 search without a search string fails with needs-input; a TAB in it is refused', async () => {
  const e = await rejects(open(`${PY}/7/search.sh`, NO_GATEWAY));
  assert.equal(e.code, 'needs-input');
  const tab = await rejects(open(`${PY}/7/search.sh`, { ...NO_GATEWAY, search: 'a\tb' }));
  assert.equal(tab.code, 'invalid-field');
  const crlf = await rejects(open(`${PY}/7/search.sh`, { ...NO_GATEWAY, search: 'a\r\n/etc/passwd' }));
  assert.equal(crlf.code, 'invalid-field');
});

test('pygopherd: a missing selector (a lone type-3 line) is a GopherError with the server text', async () => {
  const lines: TranscriptLine[] = [];
  const e = await rejects(open(`${PY}/0/nope`, { ...NO_GATEWAY, transcript: (l) => lines.push(l) }));
  assert.ok(e instanceof GopherError);
  assert.equal(e.code, 'gopher-error');
  assert.equal(e.errorNumber, null);
  assert.equal(e.text, "'/nope' does not exist (no handler found)");
  assert.ok(lines.some((l) => l.direction === 'receive' && l.text.startsWith("3'/nope' does not exist")));
});

// ---------------------------------------------------------------------------------------------
// Gopher+ (pygopherd)

test('Gopher+ "+": the "+32" header is read and stripped, meta.size comes from it', async () => {
  const url = `${PY}/0/hello.txt%09%09+`;
  const r = await fetchBytes(url);
  assert.deepEqual(r.body, pyFile('hello.txt'));
  assert.equal(r.meta.size, pyFile('hello.txt').length);
  assert.deepEqual(r.sent, ['/hello.txt<TAB>+<CR><LF>']);
  assert.deepEqual(r.sent, explain(url).steps);
  assert.ok(r.lines.some((l) => l.direction === 'receive' && l.text === `+${pyFile('hello.txt').length}`));
});

test('Gopher+ "+" on a binary item: "+4096" and exactly 4096 octets', async () => {
  const r = await fetchBytes(`${PY}/9/files/data.bin%09%09+`);
  assert.equal(r.meta.size, 4096);
  assert.deepEqual(r.body, pyFile('files/data.bin'));
});

test('Gopher+ view "+text/plain" (RFC 1738 3.4.8): the view is sent and is the content type', async () => {
  const url = `${PY}/0/hello.txt%09%09+text/plain`;
  const r = await fetchBytes(url);
  assert.deepEqual(r.sent, ['/hello.txt<TAB>+text/plain<CR><LF>']);
  assert.deepEqual(r.sent, explain(url).steps);
  assert.equal(r.meta.contentType, 'text/plain');
  assert.deepEqual(r.body, pyFile('hello.txt'));
});

test('Gopher+ "!" returns the +INFO, +ADMIN, +VIEWS and +ABSTRACT blocks of the item', async () => {
  const url = `${PY}/0/hello.txt%09%09!`;
  const r = await fetchBytes(url);
  assert.deepEqual(r.sent, ['/hello.txt<TAB>!<CR><LF>']);
  assert.deepEqual(r.sent, explain(url).steps);
  assert.ok(!r.text.startsWith('+-2'), 'the header is stripped');
  const sets = parseAttributes(r.text);
  assert.equal(sets.length, 1);
  assert.deepEqual(Object.keys(sets[0].blocks), ['INFO', 'ADMIN', 'VIEWS', 'ABSTRACT']);
  assert.equal(sets[0].info?.url, 'gopher://127.0.0.1:7070/0/hello.txt');
  assert.match(sets[0].blocks.ADMIN, /^Admin: Test Admin <admin@example.test>\nMod-Date: /);
  assert.equal(sets[0].blocks.VIEWS, 'text/plain: <0k>');
  assert.equal(sets[0].blocks.ABSTRACT, pyFile('hello.txt.abstract').toString().trimEnd());
});

test('Gopher+ "$" on a directory returns the attributes of every item, including the +ASK form', async () => {
  const r = await fetchBytes(`${PY}/1/files%09%09$`);
  assert.deepEqual(r.sent, ['/files<TAB>$<CR><LF>']);
  const sets = parseAttributes(r.text);
  assert.deepEqual(sets.map((s) => s.info?.selector).sort(), [
    '/files/data.bin',
    '/files/form.txt',
    '/files/readme.txt',
    '/files/sub',
    '/files/with space.txt',
  ]);
  const form = sets.find((s) => s.info?.selector === '/files/form.txt')!;
  assert.deepEqual(parseAsk(form.blocks.ASK), [
    { kind: 'Ask', prompt: 'What is your name?', values: [] },
    { kind: 'Choose', prompt: 'Pick a colour', values: ['red', 'green', 'blue'] },
  ]);
  assert.equal(
    sets.find((s) => s.info?.selector === '/files/with space.txt')?.info?.url,
    'gopher://127.0.0.1:7070/0/files/with%20space.txt',
  );
});

test('Gopher+ search: selector TAB search TAB "+" is answered with a "+-2" header and the menu', async () => {
  const url = `${PY}/7/search.sh%09hello%09+`;
  const r = await fetchBytes(url);
  assert.deepEqual(r.sent, ['/search.sh<TAB>hello<TAB>+<CR><LF>']);
  assert.deepEqual(r.sent, explain(url).steps);
  assert.match(r.text, /^iResults for: hello\t/);
});

test('Gopher+ error: the "--2" reply to a missing selector is a GopherError with number 1 and the contact', async () => {
  for (const g of ['+', '!', '$']) {
    const e = await rejects(open(`${PY}/0/nope%09%09${g}`, NO_GATEWAY));
    assert.ok(e instanceof GopherError, g);
    assert.equal(e.code, 'gopher-error');
    assert.equal(e.errorNumber, 1);
    assert.equal(e.contact, 'Test Admin <admin@example.test>');
    assert.equal(e.text, "'/nope' does not exist (no handler found)");
    assert.match(e.message, /error 1 \(item is not available\)/);
  }
});

test('Gopher+ "?" needs the ask option, and fails with needs-input before connecting without it', async () => {
  const e = await rejects(open(`${PY}/0/files/form.txt%09%09?`, NO_GATEWAY));
  assert.equal(e.code, 'needs-input');
});

test('pygopherd quirk: "?" sends selector TAB "!+ASK" (explain step 1), which pygopherd answers as plain Gopher', async () => {
  // test-servers.md section 4: pygopherd only understands the bare "!" form; "!+ASK" falls back to
  // a plain request, so the reply has no Gopher+ header: a typed protocol error, not a hang.
  const url = `${PY}/0/files/form.txt%09%09?`;
  const lines: TranscriptLine[] = [];
  let asked = false;
  const e = await rejects(
    open(url, {
      ...NO_GATEWAY,
      transcript: (l) => lines.push(l),
      ask: async (q: AskQuestion[]) => {
        asked = true;
        return q.map(() => 'x');
      },
    } as Parameters<typeof open>[1]),
  );
  assert.equal(e.code, 'protocol-error');
  assert.match(e.message, /does not start with a Gopher\+ header/);
  assert.equal(asked, false);
  assert.deepEqual(
    lines.filter((l) => l.direction === 'send').map((l) => l.text),
    [explain(url).steps[0]],
  );
});

// ---------------------------------------------------------------------------------------------
// gophernicus (plain Gopher, a second dialect)

test('gophernicus: a text item comes with CR LF line ends (the server converts them)', async () => {
  const r = await fetchBytes(`${GN}/0/hello.txt`);
  assert.deepEqual(r.body, Buffer.from(gnFile('hello.txt').toString('latin1').replace(/\n/g, '\r\n'), 'latin1'));
  assert.deepEqual(r.sent, explain(`${GN}/0/hello.txt`).steps);
});

test('gophernicus: a name with a space, by %20 and by the "#040" selector of its own menu', async () => {
  const expected = Buffer.from(gnFile('files/with space.txt').toString('latin1').replace(/\n/g, '\r\n'), 'latin1');
  assert.deepEqual((await fetchBytes(`${GN}/0/files/with%20space.txt`)).body, expected);
  const viaMenu = await fetchBytes(`${GN}/0/files/with%23040space.txt`);
  assert.deepEqual(viaMenu.sent, ['/files/with#040space.txt<CR><LF>']);
  assert.deepEqual(viaMenu.body, expected);
});

test('gophernicus: a search through its CGI with options.search', async () => {
  const r = await fetchBytes(`${GN}/7/cgi-bin/search`, { search: 'foo bar' });
  assert.deepEqual(r.sent, ['/cgi-bin/search<TAB>foo bar<CR><LF>']);
  assert.match(r.text, /^iquery=foo bar\t/);
  assert.match(r.text, /\r\n\.\r\n$/);
});

// ---------------------------------------------------------------------------------------------
// Items that are not retrieved from the Gopher server

test('an "h" item with a "URL:" selector is a redirect to that URL (nginx), the selector never sent', async () => {
  const link = `${PY}/hURL:http://127.0.0.1:8080/hello.txt`;
  // A followed link is a redirect: across schemes only when the policy allows one.
  const r = await fetchBytes(link, { policy: { ...DEFAULT_POLICY, maxCrossSchemeRedirects: 1 } });
  assert.equal(r.meta.scheme, 'http');
  assert.deepEqual(r.body, readFileSync(join(TS, 'http', 'root', 'hello.txt')));
  assert.ok(
    r.lines.some(
      (l) =>
        l.direction === 'info' && l.text === 'the Gopher "URL:" link: redirect 1 to http://127.0.0.1:8080/hello.txt',
    ),
    JSON.stringify(r.lines),
  );
  assert.deepEqual(r.meta.redirects, [link]);
  assert.ok(!r.sent.some((l) => l.includes('URL:')), 'the selector is not sent to the Gopher server');
  const refused = await rejects(open(link, NO_GATEWAY));
  assert.equal((refused as PolicyError).diagnostic.code, 'cross-scheme-redirect');
  const notFollowed = await rejects(open(link, { ...NO_GATEWAY, followRedirects: false }));
  assert.equal(notFollowed.code, 'redirect-not-followed');
});

test('a type 8 (Telnet) item is a session, not a document: interactive-only, naming connect (RFC 1436 3.8)', async () => {
  const e = await rejects(open(`${PY}/8guest`, NO_GATEWAY));
  assert.equal(e.code, 'interactive-only');
  assert.match(e.message, /telnet:\/\/127.0.0.1:7070\/ with connect\(\)/);
});

test('connecting to a closed port fails with connect-failed', async () => {
  // a port that was free a moment ago (port 1 would be refused by the policy: reserved-port)
  const net = await import('node:net');
  const port = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as import('node:net').AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  const e = await rejects(open(`gopher://127.0.0.1:${port}/0/x`, NO_GATEWAY));
  assert.equal(e.code, 'connect-failed');
});
