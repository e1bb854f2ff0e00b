// `locator check` with the per-scheme probes (issue 18, src/clients/probe/): what only they can
// tell, against the real servers: telnet (telnetd 2323: the connection and the first bytes),
// mailto (the MX and address records, from a dnsmasq started here), a Gopher menu that is no menu
// (gophernicus answers a missing selector with a line of plain text), and the reply codes in the
// reasons (FTP 550, HTTP 404, NNTP 430, 423, 411). The stand-in probe of the check branch (open()
// and cancel) cannot pass this file: the lead runs it once the real probes are merged.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, serversDir } from '../helpers.js';
import { dnsmasq } from '../clients/probe/common.js';

serversDir();
const DIR = mkdtempSync(join(tmpdir(), 'locator-check-probes-'));

const run = (args: string[]) => runCli(args, { HOME: '/nonexistent' });

// A dnsmasq with the records of the mailto links below.
const server = await dnsmasq([
  '--mx-host=example.test,mail.example.test,10',
  '--host-record=mail.example.test,127.0.0.1',
  '--host-record=nomx.test,127.0.0.1',
]);
after(() => server.stop());

// [URL, status, what the reason must hold]
const LINKS: [string, string, RegExp][] = [
  ['telnet://127.0.0.1:2323/', 'ok', /./],
  ['telnet://127.0.0.1:2324/', 'unreachable', /./],
  ['mailto:tester@example.test', 'ok', /./],
  ['mailto:someone@nomx.test', 'ok', /./],
  ['mailto:someone@nxdomain.test', 'broken', /./],
  ['gopher://127.0.0.1:7071/1/files', 'ok', /./],
  ['gopher://127.0.0.1:7071/1/nodir', 'broken', /./],
  ['gopher://127.0.0.1:7070/1/nodir', 'broken', /./],
  ['ftp://127.0.0.1:2121/hello.txt', 'ok', /./],
  ['ftp://127.0.0.1:2121/pub/missing.txt', 'broken', /\b550\b/],
  ['http://127.0.0.1:8080/missing.html', 'broken', /\b404\b/],
  ['news:first.1@example.test', 'ok', /./],
  ['news:missing.7@example.test', 'broken', /\b430\b/],
  ['nntp://127.0.0.1:1119/local.test/999', 'broken', /\b423\b/],
  ['nntp://127.0.0.1:1119/no.such.group', 'broken', /\b411\b/],
];
const FILE = join(DIR, 'every-scheme.txt');
writeFileSync(FILE, ['Every scheme, for the probes', ...LINKS.map(([u], i) => `${i + 1}. <URL:${u}>`), ''].join('\n'));

test('check with the real probes: every scheme ok or broken as its server says, reply codes in the reasons', async () => {
  const r = await run([
    'check',
    '--json',
    '--retries',
    '0',
    '--nntp-server',
    '127.0.0.1:1119',
    '--dns-server',
    `127.0.0.1:${server.port}`,
    FILE,
  ]);
  const recs = r.out
    .trimEnd()
    .split('\n')
    .map(
      (l) =>
        JSON.parse(l) as {
          url: string;
          status: string;
          reason: string;
          reply: string | null;
          line: number;
          column: number;
        },
    );
  assert.deepEqual(
    recs.map((x) => `${x.line}:${x.column} ${x.status} ${x.url}`),
    LINKS.map(([u, status], i) => `${i + 2}:${String(i + 1).length + 3} ${status} ${u}`),
  );
  for (const [i, [, , reason]] of LINKS.entries()) assert.match(recs[i].reason, reason, recs[i].url);
  assert.deepEqual(
    recs.filter((x) => x.reply !== null && x.status === 'broken').map((x) => `${x.url} ${x.reply}`),
    [
      // The DNS answer for a domain that does not exist, and the Gopher error item's type (RFC 1436
      // 3.8: a type-3 item carries no number), as docs/probes.md gives them.
      'mailto:someone@nxdomain.test NXDOMAIN',
      'gopher://127.0.0.1:7070/1/nodir 3',
      'ftp://127.0.0.1:2121/pub/missing.txt 550',
      'http://127.0.0.1:8080/missing.html 404',
      'news:missing.7@example.test 430',
      'nntp://127.0.0.1:1119/local.test/999 423',
      'nntp://127.0.0.1:1119/no.such.group 411',
    ],
  );
  assert.equal(r.code, 1);
});

test('check --smtp-probe: RCPT TO at the mail server (OpenSMTPD, 127.0.0.1:2525), never without the option', async () => {
  const args = ['--json', '--retries', '0', '--dns-server', `127.0.0.1:${server.port}`];
  const url = 'mailto:tester@example.test';
  const plain = await run(['check', ...args, url]);
  const quiet = JSON.parse(plain.out) as { status: string; reason: string };
  assert.equal(quiet.status, 'ok', plain.err);
  assert.doesNotMatch(quiet.reason, /RCPT|250/, 'no SMTP without --smtp-probe');
  const asked = await run(['check', ...args, '--smtp-probe', '--smtp-server', '127.0.0.1:2525', url]);
  const rec = JSON.parse(asked.out) as { status: string; reason: string; reply: string | null };
  assert.equal(rec.status, 'ok', asked.err);
  assert.equal(rec.reply, '250');
  assert.equal(asked.code, 0);
});
