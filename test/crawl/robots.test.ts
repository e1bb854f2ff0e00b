// robots.txt (RFC 9309): the groups a crawler obeys, the longest match, the special characters,
// the limits on what is read. Rows cite the section; the examples of section 5 are the RFC's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ALLOW_ALL,
  DISALLOW_ALL,
  ROBOTS_MAX_OCTETS,
  ROBOTS_MAX_RULES,
  matchLength,
  parseRobots,
  robotsForm,
  robotsVerdict,
} from '../../src/crawl/robots.js';

// RFC 9309 5.1, the example file.
const EXAMPLE_5_1 = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot
`;

const allowed = (text: string, token: string, path: string) => robotsVerdict(parseRobots(text, token), path).allowed;

test('RFC 9309 5.1: each crawler obeys its own group, others the * group', () => {
  const rows: [string, string, boolean][] = [
    // foobot: everything disallowed but the two files allowed by name
    ['foobot', '/example/page.html', true],
    ['foobot', '/example/allowed.gif', true],
    ['foobot', '/example/other.html', false],
    ['foobot', '/', false],
    // barbot and bazbot share one group (two user-agent lines, 2.2.1)
    ['barbot', '/example/page.html', false],
    ['bazbot', '/example/page.html', false],
    ['barbot', '/example/other.html', true],
    // quxbot: a group with no rule allows everything
    ['quxbot', '/example/page.html', true],
    ['quxbot', '/a.gif', true],
    // any other crawler: the * group
    ['otherbot', '/a.gif', false],
    ['otherbot', '/a.gif?x', true], // `$`: the path must end there
    ['otherbot', '/example/', false],
    ['otherbot', '/publications/', true],
    ['otherbot', '/other', true],
    // the token is matched without regard to case (2.2.1)
    ['FOOBOT', '/example/other.html', false],
  ];
  for (const [token, path, want] of rows) assert.equal(allowed(EXAMPLE_5_1, token, path), want, `${token} ${path}`);
});

test('RFC 9309 5.2: the longest match decides', () => {
  const text = 'User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n';
  assert.equal(allowed(text, 'foobot', '/example/page/'), true);
  assert.equal(allowed(text, 'foobot', '/example/page/disallowed.gif'), false);
  assert.equal(allowed(text, 'foobot', '/example/page/other.gif'), true);
});

test('RFC 9309 2.2.2: an allow wins a tie; no matching rule allows; /robots.txt is always allowed', () => {
  const text = 'user-agent: *\ndisallow: /a\nallow: /a\ndisallow: /\n';
  assert.equal(allowed(text, 'locator', '/a'), true);
  assert.equal(allowed(text, 'locator', '/b'), false);
  assert.equal(allowed(text, 'locator', '/robots.txt'), true);
  assert.equal(allowed('user-agent: *\ndisallow: /x\n', 'locator', '/y'), true);
});

test('RFC 9309 2.2.1: groups of the same crawler are merged; a user-agent value names its token up to a non-token character', () => {
  const text =
    'User-agent: Locator/0.1\nDisallow: /one\n\nUser-agent: other\nDisallow: /\n\nuser-agent: locator\ndisallow: /two\n';
  const p = parseRobots(text, 'locator');
  assert.equal(p.named, true);
  assert.deepEqual(
    p.rules.map((r) => r.pattern),
    ['/one', '/two'],
  );
  assert.equal(robotsVerdict(p, '/three').allowed, true);
  // No group for the crawler and no * group: no rule at all.
  assert.deepEqual(parseRobots('user-agent: other\ndisallow: /\n', 'locator').rules, []);
});

test('RFC 9309 2.2: comments, case of keys, white space, empty disallow, lines that are not records, rules before any group', () => {
  const text = [
    'Disallow: /before-any-group',
    '# a comment',
    'USER-AGENT : *   # trailing comment',
    'this line is not a record',
    'DisAllow:    /private   # why',
    'disallow:',
    'Sitemap: https://example.org/sitemap.xml',
    '',
  ].join('\r\n');
  const p = parseRobots(text, 'locator');
  assert.deepEqual(p.rules, [{ allow: false, pattern: '/private' }]);
  assert.deepEqual(p.sitemaps, ['https://example.org/sitemap.xml']);
  assert.equal(allowed(text, 'locator', '/before-any-group'), true);
});

test('lone CR and LF each end a line (RFC 9309 2.2: EOL)', () => {
  const p = parseRobots('user-agent: *\rdisallow: /a\ndisallow: /b\r\ndisallow: /c', 'x');
  assert.deepEqual(
    p.rules.map((r) => r.pattern),
    ['/a', '/b', '/c'],
  );
});

test('RFC 9309 2.2.3: special characters, and escapes compared as RFC 3986 octets', () => {
  const rows: [pattern: string, path: string, matches: boolean][] = [
    ['/path/file-with-a-%2A.html', '/path/file-with-a-*.html', true],
    ['/path/file-with-a-*.html', '/path/file-with-a-and-more.html', true],
    ['/path/foo-%24', '/path/foo-$', true],
    ['/path/foo-$', '/path/foo-', true],
    ['/path/foo-$', '/path/foo-bar', false],
    ['/*.php', '/index.php', true],
    ['/*.php', '/filename.php?parameters', true],
    ['/*.php$', '/filename.php?parameters', false],
    ['/fish*.php', '/fish.php', true],
    ['/fish*.php', '/Fish.PHP', false],
    ['/a%3c', '/a%3C', true], // hex digits of a reserved escape compared upper case
    ['/%7Euser', '/~user', true], // an unreserved escape decoded
    ['/foo/bar/ツ', '/foo/bar/%E3%83%84', true], // non-ASCII encoded as UTF-8
  ];
  for (const [pattern, path, want] of rows) {
    const text = `user-agent: *\ndisallow: ${pattern}\n`;
    assert.equal(allowed(text, 'locator', path), !want, `${pattern} vs ${path}`);
  }
  assert.equal(robotsForm('/a%2fb'), '/a%2Fb');
  assert.equal(robotsForm('/%41'), '/A');
});

test('matchLength: linear, greedy pieces; the length is the pattern length', () => {
  assert.equal(matchLength('/a*b*c', '/axxbyyc'), 6);
  assert.equal(matchLength('/a*b*c$', '/axxbyycd'), -1);
  assert.equal(matchLength('/a*b*c$', '/axxbyyc'), 7);
  assert.equal(matchLength('*', ''), 1);
  assert.equal(matchLength('/a*a$', '/a'), -1); // the two a's cannot overlap
  // A hostile pattern of many stars against a long path: answered, not backtracked (one pass per piece).
  const pattern = '/' + 'a*'.repeat(5000) + 'b';
  assert.equal(matchLength(pattern, '/' + 'a'.repeat(100000)), -1);
});

test('Crawl-delay is read from the groups that apply, in milliseconds; a malformed one is ignored', () => {
  assert.equal(parseRobots('user-agent: *\ncrawl-delay: 2.5\n', 'locator').crawlDelay, 2500);
  assert.equal(
    parseRobots('user-agent: other\ncrawl-delay: 9\nuser-agent: *\ncrawl-delay: 1\n', 'locator').crawlDelay,
    1000,
  );
  assert.equal(parseRobots('user-agent: *\ncrawl-delay: soon\n', 'locator').crawlDelay, null);
  assert.equal(parseRobots('user-agent: *\ncrawl-delay: -3\n', 'locator').crawlDelay, null);
});

test('RFC 9309 2.5: a file past ROBOTS_MAX_OCTETS is read up to there, and says so', () => {
  const head = 'user-agent: *\ndisallow: /kept\n';
  const filler = '#'.repeat(ROBOTS_MAX_OCTETS);
  const p = parseRobots(head + filler + '\ndisallow: /lost\n', 'locator');
  assert.deepEqual(
    p.rules.map((r) => r.pattern),
    ['/kept'],
  );
  assert.deepEqual(p.notes, [
    `robots.txt is longer than ${ROBOTS_MAX_OCTETS} octets: the rest was not read (RFC 9309 2.5)`,
  ]);
  // Exactly at the bound: read whole, no note.
  const exact = head + '#'.repeat(ROBOTS_MAX_OCTETS - head.length);
  assert.deepEqual(parseRobots(exact, 'locator').notes, []);
});

test('rules past ROBOTS_MAX_RULES are not kept, and the note says so', () => {
  const lines = ['user-agent: *'];
  for (let i = 0; i <= ROBOTS_MAX_RULES; i++) lines.push(`disallow: /r${i}`);
  const p = parseRobots(lines.join('\n'), 'locator');
  assert.equal(p.rules.length, ROBOTS_MAX_RULES);
  assert.deepEqual(p.notes, [`robots.txt has more than ${ROBOTS_MAX_RULES} rules: the rest were not read`]);
  lines.pop();
  assert.deepEqual(parseRobots(lines.join('\n'), 'locator').notes, []);
});

test('ALLOW_ALL and DISALLOW_ALL (RFC 9309 2.3.1.3 unavailable, 2.3.1.4 unreachable)', () => {
  assert.equal(robotsVerdict(ALLOW_ALL, '/anything').allowed, true);
  assert.equal(robotsVerdict(DISALLOW_ALL, '/anything').allowed, false);
  assert.equal(robotsVerdict(DISALLOW_ALL, '/robots.txt').allowed, true);
});

test('a product token is [a-zA-Z_-]+ (RFC 9309 2.2.1)', () => {
  assert.throws(() => parseRobots('', 'locator/1.0'), RangeError);
  assert.throws(() => parseRobots('', ''), RangeError);
});

test('a long file of short lines costs one pass (no search to the end of the text per line)', () => {
  // 200,000 lines with no colon: a per-line indexOf to the end of the text would be quadratic
  // (about 4*10^10 steps); the reader looks within each line only.
  const text = 'user-agent: *\n' + 'x\n'.repeat(200000) + 'disallow: /z\n';
  assert.deepEqual(
    parseRobots(text, 'locator').rules.map((r) => r.pattern),
    ['/z'],
  );
});
