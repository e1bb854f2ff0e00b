// lint(): RFC 1738 section 6 and the drafts' security notes, scheme by scheme. Rows: input, then
// every diagnostic as code@offset in order ("" for none; parser and scheme violations included),
// then the section or reason. Then the messages, the spec text the codes cite, and properties
// (fast-check, seed 1738) that tie lint to what explain() says the client sends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encode, XCHAR_SET } from '../src/core/percent.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, shared, ROOT, eachRow } from './helpers.js';
import { lint, lintRecord } from '../src/operations/lint.js';
import { build, explain } from '../src/operations/build.js';
import { describeCodes, type Diagnostic } from '../src/core/errors.js';
import { listSchemes } from '../src/schemes/registry.js';

const show = (list: readonly Diagnostic[]) => list.map((d) => `${d.code}@${d.offset}`).join(' ');

type Row = [string, string, string];

const ROWS: Record<string, Row[]> = {
  ftp: [
    ['ftp://ftp.example.com/pub/file.txt', '', 'RFC 1738 3.2'],
    // a segment goes into CWD or RETR: CR LF end the command, the rest is another one
    ['ftp://h.com/a%0D%0ADELE%20x/f', 'encoded-delimiter@13 encoded-delimiter@16', 'RFC 1738 6, 3.2.2 (CWD <segment>)'],
    ['ftp://u%0D%0APASS@h.com/', 'encoded-delimiter@7 encoded-delimiter@10', 'RFC 1738 6, 3.2.1 (USER <user>)'],
    ['ftp://u:p%0Aw@h.com/', 'password-in-url@8 encoded-delimiter@9', 'RFC 1738 6, 3.2.1 (PASS <password>)'],
    ['ftp://h.com/f%00.txt', 'encoded-delimiter@13', 'RFC 1738 6 (NUL in RETR)'],
    ['ftp://h.com/%FF%F4', 'encoded-delimiter@12', 'RFC 959 4.1, RFC 854 (IAC on the Telnet control connection)'],
    ['ftp://h.com/a%09b%20c', '', 'RFC 959 (TAB and space are argument text, not delimiters)'],
    ['ftp://h.com/a%250D', '', 'RFC 1738 2.2 (an encoded "%": the server gets the text "%0D")'],
    ['ftp://h.com/%C0%8D', '', 'RFC 1738 2.2 (octets C0 8D, not CR)'],
    ['ftp://h.com/f;type=%0D', 'ftp-invalid-type@19', 'RFC 1738 5 (an invalid typecode is not sent)'],
    ['ftp://myname:@host.dom/', '', 'RFC 1738 3.1 (an empty password holds no secret)'],
    ['ftp://trusted.com:x@evil.com/', 'deceptive-login@6 password-in-url@18', 'RFC 1738 3.1, 6'],
    // ports: the default, another of ftp's own, a non-default one, and another protocol's
    ['ftp://h.com:21/', '', 'RFC 1738 3.2'],
    ['ftp://h.com:20/', 'nondefault-port@12', "RFC 1738 6 (ftp-data is FTP's, but not the default)"],
    ['ftp://h.com:2121/', 'nondefault-port@12', 'RFC 1738 6'],
    ['ftp://h.com:25/', 'reserved-port@12', 'RFC 1738 6 (smtp)'],
    ['ftp://h.com:80/', 'reserved-port@12', "RFC 1738 6 (http's default)"],
    ['ftp://h.com:99999/', 'port-out-of-range@12', "RFC 1738 3.1 (the parser's; no port finding)"],
  ],
  http: [
    ['http://www.w3.org/', '', 'RFC 1738 3.3'],
    // the client sends path and search encoded: no delimiter for it, a warning for servers
    ['http://h.com/a%0D%0ASet-Cookie:x', 'encoded-control@14 encoded-control@17', 'RFC 1738 6; draft 1994-03 HTTP'],
    ['http://h.com/?q=a%0D%0Ab', 'encoded-control@17 encoded-control@20', "RFC 1738 6 (a form's multi-line text)"],
    ['http://h.com/a%00', 'encoded-control@14', 'RFC 1738 6'],
    ['http://h.com/a%09b%20c', '', 'RFC 1738 3.3'],
    ['http://h.com/a b', 'unsafe-char@14', "RFC 1738 2.2 (the parser's finding, same code)"],
    ['http://h.com:8080/', 'nondefault-port@13', 'RFC 1738 6'],
    ['http://h.com:999/', 'nondefault-port@13', 'RFC 1738 6 (within the reserved space)'],
    ['http://h.com:443/', 'reserved-port@13', "RFC 1738 6 (https's default)"],
    ['http://h.com:6379/', 'reserved-port@13', 'RFC 1738 6 (redis)'],
    ['http://trusted.com@evil.com/', 'unexpected-login@7 deceptive-login@7', 'RFC 1738 3.3, 3.1'],
    ['http://10.0.0.1/', 'private-address@7', 'RFC 1918 3'],
    ['http://[::1]/', 'ipv6-literal@7 private-address@7', 'RFC 4291 2.5.3'],
    ['http://localhost:8080/', 'private-address@7 nondefault-port@17', 'RFC 6761 6.3'],
  ],
  https: [
    ['https://h.com/', '', 'http syntax, port 443'],
    ['https://h.com:443/', '', 'its own default'],
    ['https://h.com:80/', 'reserved-port@14', "RFC 1738 6 (http's default)"],
    ['https://h.com/%0D%0A', 'encoded-control@14 encoded-control@17', 'sent encoded, as for http'],
  ],
  gopher: [
    ['gopher://gopher.example.com/0about', '', 'RFC 1738 3.4.1'],
    // RFC 1738 6: "the use of gopher URLs to cause a rude message to be sent via a SMTP server"
    ['gopher://h.com:25/_HELO%20x%0D%0A', 'reserved-port@15 encoded-delimiter@27 encoded-delimiter@30', 'RFC 1738 6'],
    [
      'gopher://127.0.0.1:6379/_SET%20k%20v%0D%0A',
      'private-address@9 reserved-port@19 encoded-delimiter@36 encoded-delimiter@39',
      'RFC 1738 6 (the Redis SSRF)',
    ],
    ['gopher://h.com/7find%09red%20fox', '', 'RFC 1738 3.4.2 (the %09 before the search is structure)'],
    [
      'gopher://h.com/7find%09a%0D%0Ab',
      'encoded-delimiter@24 encoded-delimiter@27',
      'RFC 1738 3.4.2, 6 (CR LF in the search)',
    ],
    ['gopher://h.com/0doc%09%09+x%09y%09z', '', 'RFC 1738 3.4.3 (TAB separates Gopher+ fields)'],
    ['gopher://h.com/0%2509', '', 'RFC 1738 2.2 (an encoded "%")'],
    ['gopher://h.com/%0Dx', 'invalid-gophertype@15', 'RFC 1738 3.4.1 (the gtype is not sent)'],
    // 3.4.9: CR LF belong to the electronic form, and only there
    ['gopher://h.com/1form%09%09+%091%0D%0A+-1%0D%0Aone%0D%0Atwo%0D%0A.%0D%0A', '', 'RFC 1738 3.4.9'],
    [
      'gopher://h.com/1form%09%09+application/postscript%20Es_ES%091%0D%0A+-1%0D%0Av%0D%0A.%0D%0A',
      '',
      'draft 1994-03 Gopher (a view with a form)',
    ],
    [
      'gopher://h.com/1form%09%09+%091%0D%0A+-1%0D%0Aone%0D%0A.%0D%0AQUIT%0D%0A',
      'encoded-delimiter@66',
      'RFC 1738 3.4.9, 6 (a line after the final ".")',
    ],
    [
      'gopher://h.com/1form%09%09+%091%0D%0A+-1%0D%0A.%0D%0AEVIL%0D%0A.%0D%0A',
      'encoded-delimiter@57',
      'RFC 1738 3.4.9, 6 (a value "." ends the block)',
    ],
    ['gopher://h.com/1form%09%09!+ABSTRACT%0D%0AX', 'encoded-delimiter@36', 'RFC 1738 3.4.7, 6'],
    ['gopher://h.com/1form%09%09+%091%0A', 'encoded-delimiter@31', 'RFC 1738 3.4.9 (LF without CR)'],
    [
      'gopher://h.com/1form%09%09+%092%0D%0A',
      'encoded-delimiter@31',
      'RFC 1738 3.4.9 (only the data flag "1" opens a block)',
    ],
    [
      'gopher://h.com/1form%09%09+%091%0D%0A+-2%0D%0Av%0D%0A.%0D%0A',
      'encoded-delimiter@40',
      'RFC 1738 3.4.9 (the form\'s block is "+-1")',
    ],
    ['gopher://h.com/1form%09%09+%00', 'encoded-delimiter@27', 'RFC 1738 6 (NUL)'],
    ['gopher://h.com:70/', '', 'RFC 1738 3.4.1'],
    ['gopher://h.com:7070/', 'nondefault-port@15', 'RFC 1738 6'],
  ],
  mailto: [
    ['mailto:mduerst@ifi.unizh.ch', '', 'RFC 1738 3.5'],
    [
      'mailto:a%0D%0ADATA@b.c',
      'invalid-addr-spec@8 encoded-delimiter@8 encoded-delimiter@11',
      'RFC 1738 6; RFC 821 (RCPT TO)',
    ],
    [
      'mailto:%22a%0D%0A%20b%22@h.com',
      'encoded-delimiter@11 encoded-delimiter@14',
      'RFC 822 allows folding in a quoted string; SMTP does not',
    ],
    ['mailto:a%00@b.c', 'invalid-addr-spec@8 encoded-delimiter@8', 'RFC 1738 6'],
    ['mailto:a%09b@c.d', 'invalid-addr-spec@8', 'RFC 822 (a TAB ends no SMTP line)'],
  ],
  news: [
    ['news:comp.infosystems.www', '', 'RFC 1738 3.6'],
    ['news:*', '', 'RFC 1738 3.6'],
    ['news:p0f49.2@news.example.com', '', 'RFC 1738 3.6'],
    ['news:a%20b', 'invalid-newsgroup@6 encoded-delimiter@6', 'RFC 977 2.3 (a space separates arguments)'],
    ['news:a%0D%0AQUIT', 'invalid-newsgroup@6 encoded-delimiter@6 encoded-delimiter@9', 'RFC 1738 6 (GROUP)'],
    ['news:abc%09x@h.com', 'invalid-article@8 encoded-delimiter@8', 'RFC 977 2.3 (TAB)'],
    ['news:abc%0D%0AQUIT@h.com', 'invalid-article@8 encoded-delimiter@8 encoded-delimiter@11', 'RFC 1738 6 (ARTICLE)'],
  ],
  nntp: [
    ['nntp://news.example.com/comp.lang.c/42', '', 'RFC 1738 3.7'],
    [
      'nntp://h.com/a%0D%0AQUIT/1',
      'invalid-newsgroup@14 encoded-delimiter@14 encoded-delimiter@17',
      'RFC 1738 6 (GROUP)',
    ],
    ['nntp://h.com/a%09b', 'invalid-newsgroup@14 encoded-delimiter@14', 'RFC 977 2.3'],
    ['nntp://h.com/a/1%0D', 'invalid-article-number@16', 'RFC 1738 5 (not digits: not sent)'],
    ['nntp:a%0Ab/1', 'missing-slashes@5 invalid-newsgroup@6 encoded-delimiter@6', 'drafts 1993-10, 1994-03'],
    ['nntp://h.com:119/a', '', 'RFC 1738 3.7'],
    ['nntp://h.com:563/a', 'reserved-port@13', 'RFC 1738 6 (nntps)'],
  ],
  telnet: [
    ['telnet://melvyl.ucop.edu/', '', 'RFC 1738 3.8'],
    [
      'telnet://u%0D%0A@h.com/',
      'encoded-delimiter@10 encoded-delimiter@13',
      'RFC 1738 6 ("CR and LF characters for telnet protocols")',
    ],
    ['telnet://u:p%FF@h.com/', 'password-in-url@11 encoded-delimiter@12', 'RFC 854 (IAC)'],
    ['telnet://h.com:23/', '', 'RFC 1738 3.8'],
    ['telnet://h.com:25/', 'reserved-port@15', 'RFC 1738 6'],
  ],
  tn3270: [
    ['tn3270://h.com/', 'draft-only@0', 'drafts 1993-10, 1994-03'],
    ['tn3270://u%0A@h.com/', 'draft-only@0 encoded-delimiter@10', 'RFC 1738 6'],
    ['tn3270://h.com:23/', 'draft-only@0', "telnet's port, tn3270's too"],
  ],
  rlogin: [
    ['rlogin://h.com:513/', 'draft-only@0', 'RFC 1282 (login)'],
    ['rlogin://u%00@h.com/', 'draft-only@0 encoded-delimiter@10', 'RFC 1282 (NUL ends each handshake field)'],
    ['rlogin://u:p%0D@h.com/', 'draft-only@0 password-in-url@11 encoded-delimiter@12', 'RFC 1738 6'],
    ['rlogin://h.com:23/', 'draft-only@0 reserved-port@15', 'RFC 1738 6 (telnet)'],
  ],
  wais: [
    ['wais://quake.think.com/demo?gophers', '', 'RFC 1738 3.9'],
    ['wais://h.com/db%00?x', 'encoded-control@15', 'RFC 1625 (length-prefixed; C strings in servers)'],
    ['wais://h.com/db?a%0D%0Ab%00', 'encoded-control@24', 'RFC 1625 (CR LF delimit nothing)'],
    ['wais://h.com/db/TE%00XT/%00%01%0D', 'encoded-control@18', 'RFC 1738 3.9 (the wpath is opaque DocID octets)'],
    ['wais://h.com:210/db', '', 'RFC 1738 3.9'],
    ['wais://h.com:2100/db', 'nondefault-port@13', 'RFC 1738 6'],
  ],
  file: [
    ['file://vms.host.edu/disk$user/my/notes/note12345', '', 'RFC 1738 3.10'],
    ['file://localhost/etc/motd', '', 'RFC 1738 3.10 (localhost is this machine, no finding)'],
    ['file:///etc/passwd%00.txt', 'encoded-delimiter@18', 'RFC 1738 6 (NUL ends the file name)'],
    ['file:///a%0D%0Ab', '', 'RFC 1738 3.10 (CR and LF may be part of a local name)'],
    [
      'file://remote.host/a%0D%0ADELE',
      'encoded-delimiter@20 encoded-delimiter@23',
      'draft 1993-07 fileaddress (fetched by FTP)',
    ],
    ['file://h.com:25/x', 'file-port@12', "RFC 1738 5 (the scheme's own finding)"],
  ],
  prospero: [
    ['prospero://host.dom//pros/name', '', 'RFC 1738 3.11'],
    ['prospero://h.com/n%0D%0Ax', 'encoded-delimiter@18 encoded-delimiter@21', 'RFC 1738 6'],
    ['prospero://h.com/n%001', 'draft-only@18', 'draft 1993-10 (%00 is the separator)'],
    ['prospero://h.com/n;f=a%00', 'encoded-delimiter@22', 'RFC 1738 3.11, 6'],
    ['prospero://h.com/n;f=a%0A', 'encoded-delimiter@22', 'RFC 1738 3.11, 6'],
    ['prospero://h.com:1525/n', '', 'RFC 1738 3.11'],
  ],
  afs: [
    ['afs://cell.dom/usr/a', 'draft-only@0', 'draft 1993-07'],
    ['afs://cell.dom/a%00b', 'draft-only@0 encoded-delimiter@16', 'RFC 1738 6 (NUL ends the file name)'],
    ['afs://cell.dom/a%0Db', 'draft-only@0', 'draft 1993-07'],
  ],
  mid: [
    ['mid:foo4%25foo1@bar.net', 'draft-only@0', 'draft 1994-03'],
    ['mid:a%0D%0A@b.c', 'draft-only@0 invalid-message-id@5', 'nothing is sent: a lookup in the mail store'],
  ],
  cid: [['cid:foo4*foo1@bar.net', 'draft-only@0', 'draft 1994-03']],
  other: [
    ['foo:bar', 'unknown-scheme@0', 'RFC 1738 4'],
    ['urn:isbn:0451450523', 'reserved-scheme@0', 'RFC 1738 4'],
    ['x-foo://h/a%0D', 'experimental-scheme@0 encoded-control@11', 'RFC 1738 4, 6'],
    ['foo://h:25/', 'unknown-scheme@0 reserved-port@8', 'RFC 1738 6'],
    ['foo://h:8080/', 'unknown-scheme@0', 'no default port known: no nondefault-port'],
    ['ssh://h:22/', 'unknown-scheme@0', "port 22 is ssh's"],
    ['redis://h:6379/', 'unknown-scheme@0', "port 6379 is redis's"],
    ['nope', 'missing-scheme@0', 'RFC 1738 2.1 (the fatal error is the one finding)'],
    ['<ftp://u:p@h.com/', 'unclosed-wrapper@0', 'RFC 1738 appendix'],
  ],
};

for (const [scheme, rows] of Object.entries(ROWS)) {
  eachRow(
    `lint table: ${scheme}`,
    rows,
    ([input, expected, section]) => {
      const got = lint(input);
      assert.equal(show(got), expected, `${input} (${section})`);
      for (const d of got) {
        assert.ok(d.offset >= 0 && d.offset <= input.length, `${input}: offset ${d.offset}`);
        assert.ok(d.section !== '' && d.message !== '', `${input}: ${d.code} has a section and a message`);
      }
      const url = input === 'nope' || input.startsWith('<ftp') ? null : parse(input);
      if (url !== null) assert.equal(show(lint(url)), expected, `${input}: lint(Url) = lint(string)`);
    },
    { section: (r) => r[2] },
  );
}

test('every registered scheme has a lint table and a delimiter rule', () => {
  for (const spec of listSchemes()) {
    assert.ok(ROWS[spec.name] !== undefined, `rows for ${spec.name}`);
    assert.equal(typeof spec.wire, 'function', `delimiter rule (wire) for ${spec.name}`);
  }
});

test('offsets count the input as given: a wrapper, URL: prefix and trimmed space shift them', () => {
  assert.equal(show(lint('ftp://h.com:25/a%0D')), 'reserved-port@12 encoded-delimiter@16');
  assert.equal(show(lint('<URL:ftp://h.com:25/a%0D>')), 'reserved-port@17 encoded-delimiter@21');
  assert.equal(
    show(lint('  ftp://h.com:25/a%0D', { trim: true })),
    'trimmed-whitespace@0 reserved-port@14 encoded-delimiter@18',
  );
});

test('the diagnostics are in offset order, each with the contract fields', () => {
  const d = lint('gopher://127.0.0.1:25/_a%0D%0Ab c');
  assert.deepEqual(
    d.map((x) => x.offset),
    [...d.map((x) => x.offset)].sort((a, b) => a - b),
  );
  for (const x of d) assert.deepEqual(Object.keys(x).sort(), ['code', 'message', 'offset', 'section', 'severity']);
  assert.deepEqual(
    d.map((x) => [x.code, x.severity]),
    [
      ['private-address', 'warning'],
      ['reserved-port', 'error'],
      ['encoded-delimiter', 'error'],
      ['encoded-delimiter', 'error'],
      ['unsafe-char', 'error'],
    ],
  );
});

test('lintRecord: ok is false exactly when a diagnostic is an error', () => {
  assert.deepEqual(lintRecord('http://h.com:8080/'), {
    input: 'http://h.com:8080/',
    ok: true,
    diagnostics: [
      {
        code: 'nondefault-port',
        severity: 'warning',
        offset: 13,
        section: 'RFC 1738 6',
        message: 'port 8080 is not the default port of http (80): make sure the server there speaks http (RFC 1738 6)',
      },
    ],
  });
  assert.equal(lintRecord('gopher://h.com:25/').ok, false);
  assert.equal(lintRecord('nope').ok, false);
  assert.equal(lintRecord('news:*').ok, true);
});

test('messages: what the escape decodes to, where the client sends it, and whose port it is', () => {
  const [cr] = lint('ftp://h.com/a%0D');
  assert.equal(
    cr.message,
    '"%0D" in a path segment decodes to CR, which ends the line, and the rest would be read as another command: the client sends a path segment decoded in the FTP command "CWD <segment>" or "RETR <name>" CR LF (RFC 1738 6)',
  );
  assert.equal(cr.section, 'RFC 1738 6');
  const [port] = lint('gopher://h.com:25/');
  assert.equal(
    port.message,
    "port 25 is registered to smtp: a client of gopher URLs that connects there talks to a server of another protocol, which may read the URL's text as its own commands (RFC 1738 6)",
  );
  assert.match(lint('http://h.com:999/')[0].message, /within the reserved space \(0-1023\)/);
  assert.doesNotMatch(lint('http://h.com:8080/')[0].message, /reserved space/);
  assert.equal(lint('news:a%20b')[1].message.includes('a space, which separates the arguments'), true);
  const [priv] = lint('http://169.254.169.254/latest/meta-data/');
  assert.equal(priv.section, 'RFC 3927 2');
  assert.match(priv.message, /link-local address \(169\.254\.0\.0\/16\)/);
});

test('no message quotes a password', () => {
  for (const input of [
    'ftp://u:hunter2@h.com:25/a%0D',
    'telnet://u:hunter2%0D@h.com/',
    'http://u:hunter2@h.com/',
    'ftp://trusted.com:hunter2@evil.com/',
    'rlogin://u:hunter2%00@h.com/',
  ]) {
    for (const d of lint(input)) assert.ok(!d.message.includes('hunter2'), `${input}: ${d.code}`);
  }
});

test('the codes cite RFC 1738 6, whose text says what each guards against', () => {
  const rfc = shared('spec/rfc1738-1994-12.txt').replace(/\s+/g, ' ');
  for (const phrase of [
    'embedded encoded delimiters for a given protocol (for example, CR and LF characters for telnet protocols) that these are not unencoded before transmission',
    'specifying a port number other than that reserved for the network protocol in question',
    'any URL which specifies a port number other than the default for the protocol, especially when it is a number within the reserved space',
    'the use of gopher URLs to cause a rude message to be sent via a SMTP server',
    'The use of URLs containing passwords that should be secret is clearly unwise',
  ])
    assert.ok(rfc.includes(phrase), phrase);
  const draft = shared('spec/draft-url-1994-03.txt').replace(/\s+/g, ' ');
  assert.ok(draft.includes('The use of URLs containing passwords is clearly unwise.'));
  assert.ok(
    draft.includes(
      'It is potentially harmful for client software use any URL which specifies a port number other than the default for the protocol',
    ),
  );
  // the 1993-10 text is set with no-break spaces; \s matches them
  assert.ok(
    shared('spec/draft-url-1993-10.txt')
      .replace(/\s+/g, ' ')
      .includes('The use of URLs containing passwords is clearly unwise.'),
  );
  const codes = new Map(describeCodes().map((c) => [c.code, c]));
  for (const code of ['encoded-delimiter', 'encoded-control', 'nondefault-port', 'reserved-port', 'password-in-url']) {
    assert.equal(codes.get(code)?.section, 'RFC 1738 6', code);
  }
  assert.equal(codes.get('encoded-delimiter')?.severity, 'error');
  assert.equal(codes.get('reserved-port')?.severity, 'error');
  assert.equal(codes.get('nondefault-port')?.severity, 'warning');
  assert.equal(codes.get('password-in-url')?.severity, 'warning');
  // the contract's codes that the parser and the schemes report keep their names
  for (const code of ['unsafe-char', 'draft-only', 'experimental-scheme']) assert.ok(codes.has(code), code);
});

// Properties: lint flags a CR or LF exactly where explain() shows the client sending one.

const SEEDED = { seed: 1738, numRuns: 300 };
const text = fc.string({
  unit: fc.constantFrom('a', 'b', '/', ' ', '%', '\r', '\n', '\0', '\t', 'é', ':', '@'),
  maxLength: 12,
});
const breaks = (s: string) => /[\r\n]/.test(s);
const delimiterOctets = (list: readonly Diagnostic[]) => list.filter((d) => d.code === 'encoded-delimiter').length;

test('property: an ftp segment or user is flagged iff it holds CR, LF or NUL, and explain shows CR/LF iff lint flags one', () => {
  fc.assert(
    fc.property(text, fc.array(text, { maxLength: 3 }), (user, segments) => {
      const href = build('ftp', { host: 'h.com', user, segments: segments.length === 0 ? null : segments });
      const url = parse(href);
      const d = lint(url);
      const sent = [user, ...segments];
      const expected = sent.reduce(
        (n, s) => n + [...s].filter((c) => c === '\r' || c === '\n' || c === '\0').length,
        0,
      );
      assert.equal(delimiterOctets(d), expected, href);
      const steps = explain(url).steps.join('\n');
      assert.equal(/<CR>|<LF>/.test(steps), sent.some(breaks), href);
    }),
    SEEDED,
  );
});

test('property: a gopher selector and search are flagged iff they hold CR, LF or NUL', () => {
  fc.assert(
    fc.property(
      text.map((s) => s.replace(/\t/g, '')),
      fc.option(text.map((s) => s.replace(/\t/g, ''))),
      (selector, search) => {
        // Written by hand: build() refuses CR and LF in a selector (RFC 1738 3.4.1), lint must still see them.
        const href = `gopher://h.com/0${encode(selector, XCHAR_SET)}${search === null ? '' : '%09' + encode(search, XCHAR_SET)}`;
        const d = lint(href);
        const count = (s: string | null) =>
          s === null ? 0 : [...s].filter((c) => c === '\r' || c === '\n' || c === '\0').length;
        assert.equal(delimiterOctets(d), count(selector) + count(search), href);
        assert.equal(
          d.every((x) => x.code === 'encoded-delimiter'),
          true,
          href,
        );
      },
    ),
    SEEDED,
  );
});

test('property: a mailto address is flagged for each CR, LF and NUL; an nntp group for TAB and space too', () => {
  fc.assert(
    fc.property(text, (local) => {
      const href = build('mailto', { address: `${local}@h.com` });
      const n = [...local].filter((c) => c === '\r' || c === '\n' || c === '\0').length;
      assert.equal(delimiterOctets(lint(href)), n, href);
      const explained = explain(href).steps.find((x) => x.startsWith('RCPT TO:')) ?? '';
      assert.equal(/<CR>|<LF>/.test(explained), breaks(local), href);
    }),
    SEEDED,
  );
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom('a', '\t', ' ', '\r', '\n', '\0', '.'), minLength: 1, maxLength: 8 }),
      (tail) => {
        const href = `nntp://h.com/a${encodeURIComponent(tail)}`;
        const n = [...tail].filter((c) => c !== 'a' && c !== '.').length;
        assert.equal(delimiterOctets(lint(href)), n, href);
      },
    ),
    SEEDED,
  );
});

test('property: lint never throws, and its offsets lie in the input, in order', () => {
  const url = fc
    .tuple(
      fc.constantFrom(
        'ftp',
        'http',
        'gopher',
        'mailto',
        'news',
        'nntp',
        'telnet',
        'rlogin',
        'wais',
        'file',
        'prospero',
        'afs',
        'mid',
        'x-y',
        'foo',
      ),
      fc.constantFrom(':', '://', '://u:p@', '://h.com:25/', '://127.0.0.1/', '<URL:'),
      fc.string({
        unit: fc.constantFrom('a', '%', '0', 'D', 'A', '9', '/', '?', ';', '@', ':', '#', ' ', '\r', '=', '+', '.'),
        maxLength: 24,
      }),
    )
    .map(([s, mid, rest]) => s + mid + rest);
  fc.assert(
    fc.property(url, (input) => {
      const d = lint(input);
      let last = -1;
      for (const x of d) {
        assert.ok(x.offset >= 0 && x.offset <= input.length, `${input}: ${x.code}@${x.offset}`);
        assert.ok(x.offset >= last, `${input}: order`);
        last = x.offset;
      }
    }),
    { seed: 1738, numRuns: 2000 },
  );
});

test('docs/security.md: every code lint and the policy use is listed, each example gives its code', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'security.md'), 'utf8');
  const documented = new Set<string>();
  for (const section of doc.split('\n## ')) {
    const policy = section.startsWith('The policy');
    for (const line of section.split('\n')) {
      if (!line.startsWith('| `')) continue;
      const cells = line.split(' | ');
      const code = cells[0].slice(3, -1);
      documented.add(code);
      if (policy) continue;
      const m = /`([^`]*)`/.exec(cells[3]);
      const example = (m === null ? '' : m[1]).replace(/<TAB>/g, '\t');
      const got = lint(example, { trim: cells[3].includes('with `--trim`') });
      assert.ok(
        got.some((d) => d.code === code),
        `${code}: ${JSON.stringify(example)} gives ${show(got)}`,
      );
      assert.ok(
        cells[2] === got.find((d) => d.code === code)!.section || code === 'private-address',
        `${code}: section ${cells[2]}`,
      );
    }
  }
  for (const code of [
    'encoded-delimiter',
    'encoded-control',
    'reserved-port',
    'nondefault-port',
    'password-in-url',
    'deceptive-login',
    'private-address',
    'unsafe-char',
    'draft-only',
    'experimental-scheme',
    'policy-refused',
    'too-many-redirects',
    'cross-scheme-redirect',
    'redirect-to-file',
    'no-address',
  ])
    assert.ok(documented.has(code), code);
  for (const rows of Object.values(ROWS)) {
    for (const [input] of rows)
      for (const d of lint(input)) assert.ok(documented.has(d.code), `${d.code} (from ${input}) is documented`);
  }
});
