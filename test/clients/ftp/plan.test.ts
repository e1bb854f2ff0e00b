// The session plan of an ftp URL (RFC 1738 3.2.1-3.2.3) against explain(): the client performs
// what `locator explain` prints, step for step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse } from '../../helpers.js';
import { build, explain } from '../../../src/operations/build.js';
import { planFtp, planSteps, typeArgument } from '../../../src/clients/ftp/plan.js';

const text = (a: { octets: Uint8Array } | null) => (a === null ? null : Buffer.from(a.octets).toString('latin1'));

// url | steps (exactly as explain() writes them)        -- RFC 1738 3.2.2 unless noted
const ROWS: Array<[string, string[]]> = [
  [
    'ftp://myname@host.dom/%2Fetc/motd',
    ['USER myname', 'PASS <password the user is asked for>', 'CWD /etc', 'TYPE I', 'EPSV', 'RETR motd', 'QUIT'],
  ],
  [
    'ftp://myname@host.dom/etc/motd',
    ['USER myname', 'PASS <password the user is asked for>', 'CWD etc', 'TYPE I', 'EPSV', 'RETR motd', 'QUIT'],
  ],
  [
    'ftp://myname@host.dom//etc/motd',
    ['USER myname', 'PASS <password the user is asked for>', 'CWD ', 'CWD etc', 'TYPE I', 'EPSV', 'RETR motd', 'QUIT'],
  ],
  [
    'ftp://host/pub/a%20b.txt',
    ['USER anonymous', 'PASS <your e-mail address>', 'CWD pub', 'TYPE A', 'EPSV', 'RETR a b.txt', 'QUIT'],
  ], // 3.2.3 guess
  ['ftp://u:p@host/x;type=i', ['USER u', 'PASS <password from the URL>', 'TYPE I', 'EPSV', 'RETR x', 'QUIT']],
  ['ftp://host/pub/;type=d', ['USER anonymous', 'PASS <your e-mail address>', 'CWD pub', 'EPSV', 'NLST', 'QUIT']],
  ['ftp://host/pub;type=d', ['USER anonymous', 'PASS <your e-mail address>', 'EPSV', 'NLST pub', 'QUIT']],
  ['ftp://host/pub/', ['USER anonymous', 'PASS <your e-mail address>', 'CWD pub', 'EPSV', 'NLST', 'QUIT']], // draft 1994-03
  [
    'ftp://host/pub/;type=a',
    ['USER anonymous', 'PASS <your e-mail address>', 'CWD pub', 'TYPE A', 'EPSV', 'NLST', 'QUIT'],
  ],
  ['ftp://host', ['USER anonymous', 'PASS <your e-mail address>', 'EPSV', 'NLST', 'QUIT']],
  ['ftp://host/', ['USER anonymous', 'PASS <your e-mail address>', 'EPSV', 'NLST', 'QUIT']],
  [
    'ftp://host/a%2Fb/c;type=an',
    ['USER anonymous', 'PASS <your e-mail address>', 'CWD a/b', 'TYPE A N', 'EPSV', 'RETR c', 'QUIT'],
  ], // draft 1994-03
  ['ftp://host/c;type=l8', ['USER anonymous', 'PASS <your e-mail address>', 'TYPE L 8', 'EPSV', 'RETR c', 'QUIT']],
  ['ftp://@host/c.txt', ['USER ', 'PASS <password the user is asked for>', 'TYPE A', 'EPSV', 'RETR c.txt', 'QUIT']], // 3.1 empty user
];

for (const [url, steps] of ROWS) {
  test(`plan of ${url} = explain().steps`, () => {
    const u = parse(url);
    assert.deepEqual(planSteps(planFtp(u)), steps);
    assert.deepEqual(explain(u).steps, steps);
  });
}

test('the plan sends the decoded octets of each component (RFC 1738 3.2.2)', () => {
  const p = planFtp(parse('ftp://J%FCrgen:p%40ss@host/%2Fetc/caf%C3%A9/x%3By'));
  assert.equal(text(p.user), 'J\xfcrgen'); // the octet 0xFC, not U+FFFD: what the URL encodes is sent
  assert.equal(text(p.password), 'p@ss');
  assert.deepEqual(p.cwd.map(text), ['/etc', 'caf\xc3\xa9']);
  assert.equal(text(p.argument), 'x;y');
  assert.equal(p.verb, 'RETR');
});

test('a CR or LF in any decoded component is found (RFC 1738 6)', () => {
  assert.equal(planFtp(parse('ftp://host/a%0D%0ADELE%20x/b')).lineBreakIn, 'CWD segment 1');
  assert.equal(planFtp(parse('ftp://u%0A:p@host/b')).lineBreakIn, 'the user name');
  assert.equal(planFtp(parse('ftp://u:p%0d@host/b')).lineBreakIn, 'the password');
  assert.equal(planFtp(parse('ftp://host/b%0A')).lineBreakIn, 'the name');
  assert.equal(planFtp(parse('ftp://host/a%09b/c')).lineBreakIn, null);
});

// typecode | TYPE argument              -- RFC 1738 5 ftptype; draft 1994-03 full TYPE codes
const TYPES: Array<[string, string | null]> = [
  ['a', 'A'],
  ['I', 'I'],
  ['d', 'D'],
  ['an', 'A N'],
  ['ET', 'E T'],
  ['ac', 'A C'],
  ['l8', 'L 8'],
  ['L36', 'L 36'],
  ['', null],
  ['x', null],
  ['ax', null],
  ['l', null],
  ['l8x', null],
  ['in', null],
];
for (const [code, arg] of TYPES) {
  test(`typeArgument(${JSON.stringify(code)}) = ${arg}`, () => assert.equal(typeArgument(code), arg));
}

test('property: the plan of any built ftp URL is explain().steps (seed 1738)', () => {
  const segment = fc.string({
    unit: fc.constantFrom('a', 'b', '.', ' ', '/', ';', '%', '\t', 'é', '=', 'txt', '') as fc.Arbitrary<string>,
    maxLength: 6,
  });
  const fields = fc.record({
    user: fc.option(fc.constantFrom('anonymous', 'u s', 'me@x', ''), { nil: null }),
    password: fc.option(fc.constantFrom('', 'p:w', 'secret'), { nil: null }),
    segments: fc.option(fc.array(segment, { maxLength: 4 }), { nil: null }),
    ftptype: fc.option(fc.constantFrom('a', 'i', 'd', 'an', 'l8'), { nil: null }),
  });
  fc.assert(
    fc.property(fields, (f) => {
      if (f.user === null) f.password = null;
      if (f.ftptype !== null && (f.segments === null || f.segments.length === 0)) f.segments = [''];
      const u = parse(build('ftp', { ...f, host: 'host.dom' }));
      assert.deepEqual(planSteps(planFtp(u)), explain(u).steps, u.href);
    }),
    { seed: 1738, numRuns: 500 },
  );
});
