// telnet (RFC 1738 3.8, section 5 telneturl), rlogin and tn3270 (drafts 1993-10 and 1994-03,
// "Telnet, rlogin, tn3270"; draft 1993-07 has telnet with user@ only).
// Rows: input, then "scheme | user | password | host | explicit port | path | fragment" (absent
// parts "-"), then the violations as code@offset ("" for none), then the section.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse, summary, codes, piecesText, eachRow } from '../helpers.js';
import { build, explain } from '../../src/operations/build.js';
import { LocatorError } from '../../src/core/errors.js';
import { getScheme } from '../../src/schemes/registry.js';

const ROWS: Array<[string, string, string, string]> = [
  // 3.8: telnet://<user>:<password>@<host>:<port>/, concrete instances of the template
  [
    'telnet://user:password@host.dom:2323/',
    'telnet | user | password | host.dom | 2323 |  | -',
    '',
    'RFC 1738 3.8 (template)',
  ],
  ['telnet://host.dom/', 'telnet | - | - | host.dom | - |  | -', '', 'RFC 1738 3.8'],
  [
    'telnet://host.dom',
    'telnet | - | - | host.dom | - | - | -',
    '',
    'RFC 1738 3.8 ("The final "/" character may be omitted")',
  ],
  [
    'telnet://user@host.dom/',
    'telnet | user | - | host.dom | - |  | -',
    '',
    'RFC 1738 3.8 (":<password> can be omitted")',
  ],
  [
    'telnet://user@host.dom',
    'telnet | user | - | host.dom | - | - | -',
    '',
    'draft 1993-07 (telnet://[user@]hostport)',
  ],
  ['telnet://@host.dom/', 'telnet |  | - | host.dom | - |  | -', '', 'RFC 1738 3.1 (empty user)'],
  ['telnet://a%3Ab:c%40d@host.dom/', 'telnet | a:b | c@d | host.dom | - |  | -', '', 'RFC 1738 3.1'],
  ['telnet://host.dom:23/', 'telnet | - | - | host.dom | 23 |  | -', '', 'RFC 1738 3.8 (port defaults to 23)'],
  ['telnet://host.dom/#f', 'telnet | - | - | host.dom | - |  | f', '', 'draft 1993-10 fragmentaddress'],
  // section 5: telneturl = "telnet://" login [ "/" ]: nothing after the "/"
  ['telnet://host.dom/x', 'telnet | - | - | host.dom | - | x | -', 'telnet-path@18', 'RFC 1738 5'],
  ['telnet://host.dom//', 'telnet | - | - | host.dom | - | / | -', 'telnet-path@18', 'RFC 1738 5'],
  ['telnet://host.dom/?x', 'telnet | - | - | host.dom | - | ?x | -', 'telnet-path@18', 'RFC 1738 5'],
  [
    '<URL:telnet://host.dom/x>',
    'telnet | - | - | host.dom | - | x | -',
    'telnet-path@23',
    'RFC 1738 appendix (offsets count the input)',
  ],
  ['telnet:host.dom', 'telnet | - | - | - | - | - | -', 'missing-slashes@7', 'RFC 1738 3.1'],
  // the drafts: rlogin and tn3270 share the telnet syntax
  ['rlogin://guest@host.dom/', 'rlogin | guest | - | host.dom | - |  | -', 'draft-only@0', 'draft 1994-03 (rlogin)'],
  ['rlogin://host.dom:1513', 'rlogin | - | - | host.dom | 1513 | - | -', 'draft-only@0', 'draft 1994-03 (rlogin)'],
  [
    'rlogin://host.dom/x',
    'rlogin | - | - | host.dom | - | x | -',
    'draft-only@0 telnet-path@18',
    'draft 1994-03 (rlogin)',
  ],
  ['tn3270://user:pw@host.dom/', 'tn3270 | user | pw | host.dom | - |  | -', 'draft-only@0', 'draft 1994-03 (tn3270)'],
  ['URL:tn3270://host.dom', 'tn3270 | - | - | host.dom | - | - | -', 'draft-only@4', 'draft 1994-03 (tn3270)'],
];

eachRow(
  'telnet, rlogin, tn3270: table',
  ROWS,
  ([input, want, violations, section]) => {
    const u = parse(input);
    assert.equal(summary(u), want, `${input} (${section})`);
    assert.equal(codes(u), violations, `${input} violations (${section})`);
    assert.deepEqual(u.fields, {}, `${input} fields`);
  },
  { section: (row) => row[3] },
);

test('default ports: telnet 23, rlogin 513, tn3270 23 (RFC 1738 3.8; RFC 1282)', () => {
  assert.equal(parse('telnet://h.com').port, 23);
  assert.equal(parse('rlogin://h.com').port, 513);
  assert.equal(parse('tn3270://h.com').port, 23);
  assert.equal(getScheme('telnet')!.status, 'rfc1738');
  assert.equal(getScheme('rlogin')!.status, 'draft');
  assert.equal(getScheme('tn3270')!.status, 'draft');
});

test('a path after the "/" is an error; the draft-only finding is a warning', () => {
  const u = parse('rlogin://host.dom/x');
  assert.equal(u.valid, false);
  assert.deepEqual(
    u.violations.map((d) => [d.code, d.severity, d.section]),
    [
      ['draft-only', 'warning', 'RFC 1738 (drafts)'],
      ['telnet-path', 'error', 'RFC 1738 3.8'],
    ],
  );
  assert.equal(parse('rlogin://host.dom/').valid, true);
});

test('explain telnet: connect, and the user name is advisory (RFC 1738 3.8)', () => {
  const e = explain('telnet://guest:s3cr3t@host.dom/');
  assert.equal(e.protocol, 'telnet');
  assert.equal(e.host, 'host.dom');
  assert.equal(e.port, 23);
  assert.deepEqual(e.steps, ['connect host.dom:23']);
  assert.ok(e.notes.includes('the user name guest is advisory: log in as guest when prompted'), e.notes.join('\n'));
  assert.ok(e.notes.some((n) => n.startsWith('a password is given in the URL')));
  assert.ok(!JSON.stringify(e).includes('s3cr3t'), 'the password is never shown');
});

test('explain telnet without a user, and with an empty one', () => {
  const e = explain('telnet://host.dom:2323');
  assert.deepEqual(e.steps, ['connect host.dom:2323']);
  assert.ok(e.notes.includes('no user name is suggested: log in as the service asks'));
  assert.ok(!e.notes.some((n) => n.includes('password')));
  assert.ok(
    explain('telnet://@host.dom/').notes.includes('the user name is given but empty: no user name is suggested'),
  );
});

test('explain rlogin: the handshake sends the user name (RFC 1282)', () => {
  const e = explain('rlogin://guest:pw123@host.dom/');
  assert.equal(e.protocol, 'rlogin');
  assert.equal(e.port, 513);
  assert.deepEqual(e.steps, [
    'connect host.dom:513 from a reserved local port (512-1023)',
    'send <NUL><your local user name><NUL>guest<NUL><terminal type>/<speed><NUL>',
  ]);
  assert.ok(e.notes.some((n) => n.startsWith('the user name guest is sent as the server user name')));
  assert.ok(e.notes.some((n) => n.includes('rlogin does not send it')));
  assert.ok(!JSON.stringify(e).includes('pw123'));
  const anon = explain('rlogin://host.dom');
  assert.equal(
    anon.steps[1],
    'send <NUL><your local user name><NUL><your local user name><NUL><terminal type>/<speed><NUL>',
  );
});

test('explain rlogin: an encoded NUL in the user name is shown and warned about (RFC 1738 6)', () => {
  const e = explain('rlogin://a%00b@host.dom/');
  assert.equal(e.steps[1], 'send <NUL><your local user name><NUL>a<NUL>b<NUL><terminal type>/<speed><NUL>');
  assert.ok(e.notes.some((n) => n.includes('encoded NUL, CR or LF')));
});

test('explain tn3270: connect, then the 3270 negotiation', () => {
  const e = explain('tn3270://user@host.dom');
  assert.equal(e.protocol, 'tn3270');
  assert.deepEqual(e.steps, [
    'connect host.dom:23',
    'negotiate TERMINAL-TYPE (an IBM 3278 model), BINARY and END-OF-RECORD (RFC 1576), then exchange 3270 data streams',
  ]);
  assert.ok(e.notes.includes('the user name user is advisory: log in as user when prompted'));
  assert.ok(e.notes.includes('tn3270 URLs are defined only by the 1993-10 and 1994-03 drafts'));
});

test('explain an invalid telnet URL says what is wrong', () => {
  const e = explain('telnet://host.dom/menu');
  assert.deepEqual(e.steps, ['connect host.dom:23']);
  assert.ok(e.notes.includes('the text after the "/" ("menu") is not part of a telnet URL and is not used'));
  assert.ok(e.notes.some((n) => n.startsWith('not a valid telnet URL:') && n.includes('telnet-path at offset 18')));
});

test('build: "//" login "/", the default port omitted (RFC 1738 3.8)', () => {
  assert.equal(build('telnet', { host: 'host.dom' }), 'telnet://host.dom/');
  assert.equal(build('telnet', { host: 'host.dom', port: 23 }), 'telnet://host.dom/');
  assert.equal(build('telnet', { host: 'host.dom', port: 2323 }), 'telnet://host.dom:2323/');
  assert.equal(
    build('telnet', { user: 'a:b@c/d', password: 'p w', host: 'h.com' }),
    'telnet://a%3Ab%40c%2Fd:p%20w@h.com/',
  );
  assert.equal(build('rlogin', { user: 'guest', host: 'h.com', port: 513 }), 'rlogin://guest@h.com/');
  assert.equal(build('tn3270', { host: 'h.com', port: 992 }), 'tn3270://h.com:992/');
  assert.throws(() => build('telnet', { password: 'x', host: 'h.com' }), LocatorError);
  assert.throws(() => build('telnet', { host: 'h.com/x' }), LocatorError);
});

// Random text with the characters that must be encoded somewhere (fixed seed, as every property test).
const textArb = piecesText([
  ':',
  '@',
  '/',
  ';',
  '?',
  '=',
  '&',
  '%',
  '%00',
  '#',
  '+',
  ' ',
  '\t',
  '\r\n',
  '\0',
  'é',
  '😀',
]);
const label = fc.stringMatching(/^[a-z]([a-z0-9-]{0,6}[a-z0-9])?$/);
const hostArb = fc.array(label, { minLength: 1, maxLength: 3 }).map((a) => a.join('.'));

test('property: parse(build(f)) gives back user, password, host, port and {} fields', () => {
  for (const scheme of ['telnet', 'rlogin', 'tn3270']) {
    const arb = fc.record({
      login: fc.option(fc.record({ user: textArb, password: fc.option(textArb) })),
      host: hostArb,
      port: fc.option(fc.integer({ min: 0, max: 65535 })),
    });
    fc.assert(
      fc.property(arb, ({ login, host, port }) => {
        const f = { user: login?.user ?? null, password: login?.password ?? null, host, port };
        const href = build(scheme, f);
        const u = parse(href);
        assert.equal(u.href, href);
        assert.equal(parse(u.href).href, href);
        assert.equal(u.valid, true, `${href}: ${JSON.stringify(u.violations)}`);
        assert.equal(u.user, f.user);
        assert.equal(u.password, f.password);
        assert.equal(u.host, host);
        assert.equal(u.port, port ?? getScheme(scheme)!.defaultPort);
        assert.deepEqual(u.fields, {});
      }),
      { seed: 1738, numRuns: 500 },
    );
  }
});
