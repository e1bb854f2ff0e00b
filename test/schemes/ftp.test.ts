// ftp: RFC 1738 3.2 (3.2.1-3.2.5), section 5 (ftpurl, fpath, fsegment, ftptype), and the full TYPE
// codes of draft-url-1994-03. Rows: input, then "segments | ftptype" (segments as JSON), then the
// violations as code@offset ("" for none), then the section. cwd and name are checked against
// segments for every row (cwd = all but the last, name = the last).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse, codes, fixture, eachRow } from '../helpers.js';
import { build, explain } from '../../src/operations/build.js';
import { LocatorError } from '../../src/core/errors.js';
import { guessType } from '../../src/schemes/ftp.js';

const ROWS: Array<[string, string, string, string]> = [
  // 3.2.2: url-path = <cwd1>/<cwd2>/.../<cwdN>/<name>;type=<typecode>; the whole url-path may be omitted
  ['ftp://h.com', '[] | null', '', 'RFC 1738 3.2.2'],
  ['ftp://h.com/', '[""] | null', '', 'RFC 1738 3.2.2'],
  ['ftp://h.com/a', '["a"] | null', '', 'RFC 1738 3.2.2'],
  ['ftp://h.com/a/b/c', '["a","b","c"] | null', '', 'RFC 1738 3.2.2'],
  ['ftp://h.com/a/', '["a",""] | null', '', 'RFC 1738 3.2.2 (the name may be empty)'],
  ['ftp://h.com//', '["",""] | null', '', 'RFC 1738 3.2.2 (cwd and name may be empty)'],
  ['ftp://h.com/a//b', '["a","","b"] | null', '', 'RFC 1738 3.2.2'],
  // 3.2.2: "/" and ";" are reserved in a component; encoded they are part of it
  ['ftp://h.com/%2Fetc/motd', '["/etc","motd"] | null', '', 'RFC 1738 3.2.2'],
  ['ftp://h.com/a%2Fb%3Bc', '["a/b;c"] | null', '', 'RFC 1738 3.2.2'],
  ['ftp://h.com/a;b/c', '["a;b","c"] | null', 'ftp-reserved-char@13', 'RFC 1738 3.2.2'],
  ['ftp://h.com/a/b;c', '["a","b;c"] | null', 'ftp-reserved-char@15', 'RFC 1738 3.2.2'],
  [
    'ftp://h.com/a;x;type=i',
    '["a;x"] | "i"',
    'ftp-reserved-char@13',
    'RFC 1738 3.2.2 (only the final ";type=" is allowed)',
  ],
  ['ftp://h.com/a;type=i;x', '["a;type=i;x"] | null', 'ftp-reserved-char@13 ftp-reserved-char@20', 'RFC 1738 3.2.2'],
  [
    'ftp://h.com/a;type=i/b',
    '["a;type=i","b"] | null',
    'ftp-reserved-char@13',
    'RFC 1738 3.2.2 (a typecode ends the url-path)',
  ],
  ['ftp://h.com/a%3Btype=i', '["a;type=i"] | null', '', 'RFC 1738 3.2.2 (an encoded ";" starts no typecode)'],
  // fsegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]
  ['ftp://h.com/a?b:c@d&e=f', '["a?b:c@d&e=f"] | null', '', 'RFC 1738 5 (fsegment)'],
  ['ftp://h.com/J%C3%BCrgen/%25', '["Jürgen","%"] | null', '', 'RFC 1738 2.2'],
  // ftptype = "A" | "I" | "D" | "a" | "i" | "d"; ";type=" is a literal, case-insensitive (RFC 822 conventions)
  ['ftp://h.com/f;type=a', '["f"] | "a"', '', 'RFC 1738 5 (ftptype)'],
  ['ftp://h.com/f;type=i', '["f"] | "i"', '', 'RFC 1738 5 (ftptype)'],
  ['ftp://h.com/d;type=d', '["d"] | "d"', '', 'RFC 1738 5 (ftptype)'],
  ['ftp://h.com/f;type=A', '["f"] | "a"', '', 'RFC 1738 5 (ftptype)'],
  ['ftp://h.com/f;type=I', '["f"] | "i"', '', 'RFC 1738 5 (ftptype)'],
  ['ftp://h.com/f;type=D', '["f"] | "d"', '', 'RFC 1738 5 (ftptype)'],
  ['ftp://h.com/f;TYPE=I', '["f"] | "i"', '', 'RFC 1738 5 (";type=" is case-insensitive)'],
  ['ftp://h.com/f;Type=a', '["f"] | "a"', '', 'RFC 1738 5'],
  ['ftp://h.com/;type=d', '[""] | "d"', '', 'RFC 1738 3.2.2 (empty name)'],
  ['ftp://h.com/a/;type=d', '["a",""] | "d"', '', 'RFC 1738 3.2.2'],
  // draft 1994-03: ftptype = A formcode | E formcode | I | L digits; formcode = N | T | C
  ['ftp://h.com/f;type=an', '["f"] | "an"', 'draft-only@19', 'draft 1994-03 (ftptype)'],
  ['ftp://h.com/f;type=AT', '["f"] | "at"', 'draft-only@19', 'draft 1994-03 (ftptype)'],
  ['ftp://h.com/f;type=ac', '["f"] | "ac"', 'draft-only@19', 'draft 1994-03 (ftptype)'],
  ['ftp://h.com/f;type=EN', '["f"] | "en"', 'draft-only@19', 'draft 1994-03 (ftptype)'],
  ['ftp://h.com/f;type=et', '["f"] | "et"', 'draft-only@19', 'draft 1994-03 (ftptype)'],
  ['ftp://h.com/f;type=ec', '["f"] | "ec"', 'draft-only@19', 'draft 1994-03 (ftptype)'],
  ['ftp://h.com/f;type=L8', '["f"] | "l8"', 'draft-only@19', 'draft 1994-03 (ftptype)'],
  ['ftp://h.com/f;type=l36', '["f"] | "l36"', 'draft-only@19', 'draft 1994-03 (ftptype)'],
  // neither RFC 1738 nor the draft
  ['ftp://h.com/f;type=', '["f"] | ""', 'ftp-invalid-type@19', 'RFC 1738 5 (ftptype)'],
  ['ftp://h.com/f;type=x', '["f"] | "x"', 'ftp-invalid-type@19', 'RFC 1738 5 (ftptype)'],
  ['ftp://h.com/f;type=e', '["f"] | "e"', 'ftp-invalid-type@19', 'draft 1994-03 (E needs a form code)'],
  ['ftp://h.com/f;type=l', '["f"] | "l"', 'ftp-invalid-type@19', 'draft 1994-03 (L needs a byte size)'],
  ['ftp://h.com/f;type=l8x', '["f"] | "l8x"', 'ftp-invalid-type@19', 'draft 1994-03'],
  ['ftp://h.com/f;type=in', '["f"] | "in"', 'ftp-invalid-type@19', 'draft 1994-03 (I takes no form code)'],
  ['ftp://h.com/f;type=dn', '["f"] | "dn"', 'ftp-invalid-type@19', 'RFC 1738 5'],
  ['ftp://h.com/f;type=ann', '["f"] | "ann"', 'ftp-invalid-type@19', 'draft 1994-03'],
  ['ftp://h.com/f;type=%41', '["f"] | "%41"', 'ftp-invalid-type@19', 'RFC 1738 5 (the typecode is literal)'],
  ['ftp://h.com/f;type=a?', '["f"] | "a?"', 'ftp-invalid-type@19', 'RFC 1738 5'],
  ['ftp://h.com/f;typ=a', '["f;typ=a"] | null', 'ftp-reserved-char@13', 'RFC 1738 5'],
  ['ftp://h.com/f;type', '["f;type"] | null', 'ftp-reserved-char@13', 'RFC 1738 5'],
  // offsets count the input as given
  ['<URL:ftp://h.com/a;b>', '["a;b"] | null', 'ftp-reserved-char@18', 'RFC 1738 appendix'],
  ['<URL:ftp://h.com/f;type=l8>', '["f"] | "l8"', 'draft-only@24', 'RFC 1738 appendix'],
  // the fragment is not part of the url-path
  ['ftp://h.com/f;type=i#x', '["f"] | "i"', '', 'draft 1993-10 (fragmentid)'],
  // the scanner's findings are not reported twice
  ['ftp://h.com/a b', '["a b"] | null', 'unsafe-char@13', 'RFC 1738 2.2'],
];

for (const [input, want, wantCodes, section] of ROWS) {
  test(`${section}: ${JSON.stringify(input)}`, () => {
    const u = parse(input);
    const f = u.fields as { segments: string[]; cwd: string[]; name: string | null; ftptype: string | null };
    assert.equal(`${JSON.stringify(f.segments)} | ${JSON.stringify(f.ftptype)}`, want);
    assert.deepEqual(f.cwd, f.segments.slice(0, -1));
    assert.equal(f.name, f.segments.length === 0 ? null : f.segments[f.segments.length - 1]);
    assert.deepEqual(Object.keys(f), ['segments', 'cwd', 'name', 'ftptype']);
    assert.equal(codes(u), wantCodes);
  });
}

test('RFC 1738 5 (ftptype): every violation names its section', () => {
  const reserved = parse('ftp://h.com/a;b').violations[0];
  assert.equal(reserved.severity, 'error');
  assert.equal(reserved.section, 'RFC 1738 3.2.2');
  assert.match(reserved.message, /%3B/);
  const bad = parse('ftp://h.com/f;type=x').violations[0];
  assert.equal(bad.severity, 'error');
  assert.equal(bad.section, 'RFC 1738 5 (ftptype)');
  assert.match(bad.message, /"x" is not an FTP typecode/);
  const draft = parse('ftp://h.com/f;type=an').violations[0];
  assert.equal(draft.severity, 'warning');
  assert.match(draft.message, /1994-03 draft/);
  assert.equal(parse('ftp://h.com/f;type=an').valid, true);
});

// ---------------------------------------------------------------------------------------------
// The examples printed in the texts, word for word.

/** The CWD, TYPE, NLST and RETR steps of an explanation (the url-path part). */
function pathSteps(url: string): string[] {
  return explain(url).steps.filter((s) => /^(CWD|RETR|NLST|TYPE)\b/.test(s));
}

test('RFC 1738 3.2.2: <URL:ftp://myname@host.dom/%2Fetc/motd> logs in as "myname", "CWD /etc" and then "RETR motd"', () => {
  const u = parse('<URL:ftp://myname@host.dom/%2Fetc/motd>');
  assert.equal(u.host, 'host.dom');
  assert.equal(u.user, 'myname');
  assert.deepEqual(u.fields.cwd, ['/etc']);
  assert.equal(u.fields.name, 'motd');
  const e = explain(u);
  assert.deepEqual(e.steps.slice(0, 2), ['USER myname', 'PASS <password the user is asked for>']);
  assert.ok(
    e.notes.some((n) => /prompts the user/.test(n)),
    'prompting for a password if it is asked for',
  );
  assert.deepEqual(
    e.steps.filter((s) => /^(CWD|RETR)/.test(s)),
    ['CWD /etc', 'RETR motd'],
  );
});

test('RFC 1738 3.2.2: <URL:ftp://myname@host.dom/etc/motd> would "CWD etc" and then "RETR motd"', () => {
  assert.deepEqual(
    explain('ftp://myname@host.dom/etc/motd').steps.filter((s) => /^(CWD|RETR)/.test(s)),
    ['CWD etc', 'RETR motd'],
  );
  assert.ok(
    explain('ftp://myname@host.dom/etc/motd').notes.some((n) => /relative to the directory/.test(n)),
    'the initial "CWD" might be executed relative to the default directory for "myname"',
  );
});

test('RFC 1738 3.2.2: <URL:ftp://myname@host.dom//etc/motd> would "CWD " with a null argument, then "CWD etc", and then "RETR motd"', () => {
  assert.deepEqual(parse('ftp://myname@host.dom//etc/motd').fields.segments, ['', 'etc', 'motd']);
  assert.deepEqual(
    explain('ftp://myname@host.dom//etc/motd').steps.filter((s) => /^(CWD|RETR)/.test(s)),
    ['CWD ', 'CWD etc', 'RETR motd'],
  );
});

test('RFC 1738 3.1: <URL:ftp://@host.com/> has an empty user name and no password', () => {
  const u = parse('ftp://@host.com/');
  assert.equal(u.user, '');
  assert.equal(u.password, null);
  assert.deepEqual(explain(u).steps.slice(0, 2), ['USER ', 'PASS <password the user is asked for>']);
});

test('RFC 1738 3.1: <URL:ftp://host.com/> has no user name: anonymous FTP (3.2.1)', () => {
  const e = explain('ftp://host.com/');
  assert.deepEqual(e.steps, ['USER anonymous', 'PASS <your e-mail address>', 'EPSV', 'NLST', 'QUIT']);
  assert.ok(e.notes.some((n) => /anonymous/.test(n) && /e-mail address/.test(n)));
});

test('RFC 1738 3.1: <URL:ftp://foo:@host.com/> has a user name of "foo" and an empty password', () => {
  const u = parse('ftp://foo:@host.com/');
  assert.equal(u.user, 'foo');
  assert.equal(u.password, '');
  assert.deepEqual(explain(u).steps.slice(0, 2), ['USER foo', 'PASS <password from the URL>']);
});

test('RFC 1738 appendix: <URL:ftp://info.cern.ch/pub/www/doc;type=d> lists the directory doc', () => {
  const u = parse('<URL:ftp://info.cern.ch/pub/www/doc;type=d>');
  assert.deepEqual(u.fields, { segments: ['pub', 'www', 'doc'], cwd: ['pub', 'www'], name: 'doc', ftptype: 'd' });
  assert.deepEqual(pathSteps('ftp://info.cern.ch/pub/www/doc;type=d'), ['CWD pub', 'CWD www', 'NLST doc']);
});

test('RFC 1738 references: <URL:ftp://ds.internic.net/rfc/rfc1436.txt;type=a> is TYPE A, RETR', () => {
  assert.deepEqual(parse('ftp://ds.internic.net/rfc/rfc1436.txt;type=a').fields.ftptype, 'a');
  assert.deepEqual(pathSteps('ftp://ds.internic.net/rfc/rfc1436.txt;type=a'), [
    'CWD rfc',
    'TYPE A',
    'RETR rfc1436.txt',
  ]);
});

test('RFC 1738 appendix: <URL:ftp://ds.internic.net/rfc> retrieves "rfc" (no final "/")', () => {
  assert.deepEqual(pathSteps('ftp://ds.internic.net/rfc'), ['TYPE I', 'RETR rfc']);
});

const FTP_EXAMPLES = (
  JSON.parse(fixture('spec-examples.json')) as {
    examples: Array<{ url: string; partial: boolean; source: string; line: number }>;
  }
).examples.filter((e) => !e.partial && /^ftp:/i.test(e.url));

test('the four texts print at least 40 ftp URLs (spec-examples.json)', () => {
  assert.ok(FTP_EXAMPLES.length >= 40, `${FTP_EXAMPLES.length} examples`);
});

eachRow(
  'every ftp URL printed in the four texts parses with no violation and builds back to itself',
  FTP_EXAMPLES,
  (e) => {
    const u = parse(e.url);
    assert.equal(codes(u), '', `${e.source}:${e.line} ${e.url}`);
    const again = build('ftp', { ...u.fields, user: u.user, password: u.password, host: u.host, port: u.port });
    assert.equal(again, e.url, `${e.source}:${e.line}`);
    const steps = explain(u).steps;
    assert.equal(steps[0], u.user === null ? 'USER anonymous' : `USER ${u.user}`);
    assert.equal(steps[steps.length - 1], 'QUIT');
  },
  { input: (e) => e.url, section: (e) => `${e.source}:${e.line}` },
);

// ---------------------------------------------------------------------------------------------
// explain: RFC 1738 3.2.1-3.2.5.

test('explain: the whole sequence for a file in a directory (3.2.1, 3.2.2, 3.2.3)', () => {
  const e = explain('ftp://ftp.example.org/pub/doc/guide.txt');
  assert.equal(e.protocol, 'ftp');
  assert.equal(e.host, 'ftp.example.org');
  assert.equal(e.port, 21);
  assert.deepEqual(e.steps, [
    'USER anonymous',
    'PASS <your e-mail address>',
    'CWD pub',
    'CWD doc',
    'TYPE A',
    'EPSV',
    'RETR guide.txt',
    'QUIT',
  ]);
  assert.ok(e.notes.some((n) => /guesses the transfer type/.test(n) && /3\.2\.3/.test(n)));
  assert.ok(
    e.notes.some((n) => /PASV/.test(n)),
    'PASV is the fallback for EPSV',
  );
  assert.ok(
    e.notes.some((n) => /3\.2\.5/.test(n) && /reconnect/.test(n)),
    'what the 3.2.5 optimization allows',
  );
});

test('explain: the port of the URL is the port to connect to', () => {
  assert.equal(explain('ftp://h.com:2121/x').port, 2121);
});

test('explain: the password from the URL is never printed', () => {
  const e = explain('ftp://joe:s3cr%65t@h.com/x;type=i');
  assert.deepEqual(e.steps, ['USER joe', 'PASS <password from the URL>', 'TYPE I', 'EPSV', 'RETR x', 'QUIT']);
  const all = JSON.stringify(e);
  assert.ok(!all.includes('s3cr'), 'no trace of the password');
  assert.ok(e.notes.some((n) => /password is taken from the URL/.test(n)));
});

test('explain: a user with no password is prompted when the server asks (3.2.1)', () => {
  const e = explain('ftp://joe@h.com/x');
  assert.deepEqual(e.steps.slice(0, 2), ['USER joe', 'PASS <password the user is asked for>']);
  assert.ok(e.notes.some((n) => /prompts the user/.test(n)));
});

test('explain: typecodes become TYPE commands; ;type=d is NLST with the name (3.2.2)', () => {
  assert.deepEqual(pathSteps('ftp://h.com/a/f;type=a'), ['CWD a', 'TYPE A', 'RETR f']);
  assert.deepEqual(pathSteps('ftp://h.com/a/f;type=I'), ['CWD a', 'TYPE I', 'RETR f']);
  assert.deepEqual(pathSteps('ftp://h.com/a/f;type=d'), ['CWD a', 'NLST f']);
  assert.deepEqual(pathSteps('ftp://h.com/a/;type=d'), ['CWD a', 'NLST']);
  assert.deepEqual(explain('ftp://h.com/a/f;type=d').steps.slice(-3), ['EPSV', 'NLST f', 'QUIT']);
});

test('explain: the draft TYPE codes are sent in RFC 959 form with the space put back (draft 1994-03)', () => {
  assert.deepEqual(pathSteps('ftp://h.com/f;type=an'), ['TYPE A N', 'RETR f']);
  assert.deepEqual(pathSteps('ftp://h.com/f;type=EC'), ['TYPE E C', 'RETR f']);
  assert.deepEqual(pathSteps('ftp://h.com/f;type=l8'), ['TYPE L 8', 'RETR f']);
});

test('explain: a URL ending in "/" is a directory listing (draft 1994-03; RFC 1738 3.2.2 empty name)', () => {
  assert.deepEqual(explain('ftp://h.com/pub/').steps, [
    'USER anonymous',
    'PASS <your e-mail address>',
    'CWD pub',
    'EPSV',
    'NLST',
    'QUIT',
  ]);
  assert.deepEqual(explain('ftp://h.com').steps, [
    'USER anonymous',
    'PASS <your e-mail address>',
    'EPSV',
    'NLST',
    'QUIT',
  ]);
  assert.ok(explain('ftp://h.com/pub/').notes.some((n) => /ends in "\/"/.test(n)));
});

const GUESSED_TYPES: Array<[string, 'A' | 'I']> = [
  ['rfc959.txt', 'A'],
  ['README.TXT', 'A'],
  ['index.html', 'A'],
  ['index.htm', 'A'],
  ['main.c', 'A'],
  ['util.h', 'A'],
  ['notes.md', 'A'],
  ['key.asc', 'A'],
  ['x.text', 'A'],
  ['http-spec.txt.Z', 'I'],
  ['oir.ps', 'I'],
  ['motd', 'I'],
  ['a.tar.gz', 'I'],
  ['.txt', 'I'],
  ['txt.', 'I'],
  ['image.gif', 'I'],
];
eachRow(
  'RFC 1738 3.2.3: with no typecode guessType gives A for known text suffixes, I otherwise',
  GUESSED_TYPES,
  ([name, type]) => {
    assert.equal(guessType(name), type, name);
  },
);

test('explain: with no typecode the client guesses: A for known text suffixes, I otherwise (3.2.3)', () => {
  assert.deepEqual(pathSteps('ftp://h.com/rfc959.txt'), ['TYPE A', 'RETR rfc959.txt']);
  assert.deepEqual(pathSteps('ftp://h.com/x.tar.gz'), ['TYPE I', 'RETR x.tar.gz']);
  assert.ok(explain('ftp://h.com/x.tar.gz').notes.some((n) => /guesses/.test(n) && /here I/.test(n)));
  assert.ok(!explain('ftp://h.com/x;type=i').notes.some((n) => /guesses/.test(n)), 'no guess with a typecode');
});

test('explain: CWD arguments are decoded; an encoded CR LF is shown and warned about (RFC 1738 6)', () => {
  const e = explain('ftp://h.com/a%0D%0ADELE%20x/f');
  assert.equal(e.steps[2], 'CWD a<CR><LF>DELE x');
  assert.ok(e.notes.some((n) => /CR or LF/.test(n)));
});

test('explain: an invalid URL is still explained, and the notes say what is wrong', () => {
  const e = explain('ftp://h.com/a;b/f;type=q');
  assert.deepEqual(pathSteps('ftp://h.com/a;b/f;type=q'), ['CWD a;b', 'TYPE I', 'RETR f']);
  assert.ok(e.notes.some((n) => /^not a valid ftp URL: /.test(n) && /ftp-reserved-char/.test(n)));
  assert.ok(e.notes.some((n) => /^not a valid ftp URL: /.test(n) && /ftp-invalid-type/.test(n)));
  const noHost = explain('ftp:foo');
  assert.equal(noHost.host, null);
  assert.ok(noHost.notes.some((n) => /no "\/\/" host/.test(n)));
});

// ---------------------------------------------------------------------------------------------
// build: RFC 1738 2.2 and 5 (fsegment).

test('build: "/", ";", "%", space and non-ASCII inside a segment are encoded; empty segments kept', () => {
  assert.equal(build('ftp', { host: 'h.com', segments: ['/etc', 'motd'] }), 'ftp://h.com/%2Fetc/motd');
  assert.equal(
    build('ftp', { host: 'h.com', segments: ['a;b', '50%', 'x y', 'Jürgen'] }),
    'ftp://h.com/a%3Bb/50%25/x%20y/J%C3%BCrgen',
  );
  assert.equal(build('ftp', { host: 'h.com', segments: ['', 'etc', 'motd'] }), 'ftp://h.com//etc/motd');
  assert.equal(build('ftp', { host: 'h.com', segments: ['a?b:c@d&e=f'] }), 'ftp://h.com/a?b:c@d&e=f');
  assert.equal(build('ftp', { host: 'h.com', segments: ['x;type=i'] }), 'ftp://h.com/x%3Btype=i');
});

test('build: typecode, login, port; segments [] means no url-path', () => {
  assert.equal(build('ftp', { host: 'h.com', segments: ['pub', 'f'], ftptype: 'I' }), 'ftp://h.com/pub/f;type=i');
  assert.equal(build('ftp', { host: 'h.com', segments: ['f'], ftptype: 'l8' }), 'ftp://h.com/f;type=l8');
  assert.equal(build('ftp', { host: 'h.com', ftptype: 'd' }), 'ftp://h.com/;type=d');
  assert.equal(build('ftp', { host: 'h.com', segments: [] }), 'ftp://h.com');
  assert.equal(build('ftp', { host: 'h.com' }), 'ftp://h.com');
  assert.equal(
    build('ftp', { host: 'h.com', port: 21, user: 'a@b', password: 'p:w', segments: [''] }),
    'ftp://a%40b:p%3Aw@h.com/',
  );
  assert.equal(build('ftp', { host: 'h.com', port: 2121, segments: ['x'] }), 'ftp://h.com:2121/x');
});

test('build: cwd and name stand for segments', () => {
  assert.equal(build('ftp', { host: 'h.com', cwd: ['', 'etc'], name: 'motd' }), 'ftp://h.com//etc/motd');
  assert.equal(build('ftp', { host: 'h.com', cwd: ['pub'] }), 'ftp://h.com/pub/');
  assert.equal(build('ftp', { host: 'h.com', name: '' }), 'ftp://h.com/');
  assert.equal(build('ftp', { host: 'h.com', segments: ['a', 'b'], cwd: ['a'], name: 'b' }), 'ftp://h.com/a/b');
});

test('build: refuses what cannot be written', () => {
  const refuses = (f: Record<string, unknown>, re: RegExp) =>
    assert.throws(
      () => build('ftp', { host: 'h.com', ...f }),
      (e: unknown) => e instanceof LocatorError && e.code === 'invalid-field' && re.test(e.message),
    );
  refuses({ segments: ['f'], ftptype: 'x' }, /not an FTP typecode/);
  refuses({ segments: ['f'], ftptype: 'e' }, /not an FTP typecode/);
  refuses({ segments: [], ftptype: 'i' }, /typecode needs a url-path/);
  refuses({ segments: ['a', 'b'], name: 'c' }, /disagree/);
  refuses({ segments: ['a', 'b'], cwd: ['x'] }, /disagree/);
  refuses({ segments: [], name: '' }, /disagree/);
  refuses({ segments: 'a/b' }, /array of strings/);
  refuses({ segments: ['\ud800'] }, /lone surrogate/);
  refuses({ password: 'p' }, /needs a user name/);
});

// ---------------------------------------------------------------------------------------------
// Property: parse(build(f)).fields deepEquals f, and the href is stable.

const piece = fc.oneof(
  fc.constantFrom(
    '/',
    ';',
    '%',
    '%2F',
    '%25',
    '\t',
    '\r\n',
    '\n',
    '\0',
    ' ',
    '?',
    ':',
    '@',
    '&',
    '=',
    '#',
    '+',
    '.',
    '..',
    ';type=i',
    'é',
    '😀',
    '\u00ff',
  ),
  fc.string({ unit: 'binary', maxLength: 3 }),
);
const segment = fc.array(piece, { maxLength: 5 }).map((a) => a.join(''));
const typecode = fc.option(fc.constantFrom('a', 'i', 'd', 'an', 'at', 'ac', 'en', 'et', 'ec', 'l8', 'l36'), {
  nil: null,
});
const ftpFields = fc
  .record({ segments: fc.array(segment, { maxLength: 6 }), ftptype: typecode })
  .map(({ segments, ftptype }) => {
    const s = ftptype !== null && segments.length === 0 ? [''] : segments;
    return { segments: s, cwd: s.slice(0, -1), name: s.length === 0 ? null : s[s.length - 1], ftptype };
  });
const login = fc.option(
  fc.record({
    user: fc.string({ unit: 'binary', maxLength: 6 }),
    password: fc.option(fc.string({ unit: 'binary', maxLength: 6 }), { nil: null }),
  }),
  { nil: null },
);

test('property: parse(build(f)).fields deepEquals f for ftp, and href is stable', () => {
  fc.assert(
    fc.property(ftpFields, login, (f, who) => {
      const generic = { host: 'ftp.example.org', user: who?.user ?? null, password: who?.password ?? null };
      const href = build('ftp', { ...f, ...generic });
      const u = parse(href);
      assert.deepEqual(u.fields, f);
      assert.equal(u.href, href);
      assert.equal(u.valid, true, JSON.stringify(u.violations));
      assert.equal(u.user, generic.user);
      assert.equal(u.password, generic.password);
      assert.equal(build('ftp', { ...u.fields, user: u.user, password: u.password, host: u.host, port: u.port }), href);
      const cwdSteps = explain(u).steps.filter((s) => s.startsWith('CWD '));
      assert.equal(cwdSteps.length, f.cwd.length);
    }),
    { seed: 1738, numRuns: 500 },
  );
});
