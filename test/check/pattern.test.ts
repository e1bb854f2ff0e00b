// The linear-time matching of --exclude, --include and .locatorignore patterns (src/check/pattern.ts):
// the same answers as RegExp with the u flag (a table, then a property over random patterns and
// texts, seed 1738), the hostile patterns that make RegExp backtrack for hours matched at once on
// long texts, and the constructs refused with their offsets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { linearPattern, PatternError, MAX_PROGRAM } from '../../src/check/pattern.js';
import { skipper } from '../../src/check/rules.js';

// [pattern, text, matches]: each row is also checked against RegExp(pattern, 'u').
const ROWS: [string, string, boolean][] = [
  ['^ftp:', 'ftp://h/x', true],
  ['^ftp:', 'xftp://h/x', false],
  ['\\.bak$', 'http://h/a.bak', true],
  ['\\.bak$', 'http://h/a.bak/', false],
  ['^https?://localhost', 'http://localhost:8080/', true],
  ['^https?://localhost', 'https://localhost/', true],
  ['^(ftp|gopher):', 'gopher://h/', true],
  ['^(?:ftp|gopher):', 'news:x', false],
  ['(?<scheme>[a-z]+):', '1:', false],
  ['a{2,3}b', 'aab', true],
  ['a{2,3}b', 'ab', false],
  ['a{2}', 'xaax', true],
  ['a{2,}$', 'baaaa', true],
  ['x*', '', true],
  ['^$', '', true],
  ['^$', 'a', false],
  ['\\bfoo\\b', 'a foo b', true],
  ['\\bfoo\\b', 'afoob', false],
  ['\\Boo', 'foo', true],
  ['\\Bfo', 'foo', false],
  ['[^/]+\\.pdf$', 'http://h/d/x.pdf', true],
  ['[\\]x]', ']', true],
  ['[^]', '\n', true],
  ['.', '\n', false],
  ['.', '\u2028', false],
  ['^.$', '\u{1F600}', true],
  ['^\\u{1F600}$', '\u{1F600}', true],
  ['^\\uD83D\\uDE00$', '\u{1F600}', true],
  ['^\u{1F600}+$', '\u{1F600}\u{1F600}', true],
  ['\\p{Lu}', 'abC', true],
  ['\\P{L}', 'abc', false],
  ['\\d\\D\\w\\W\\s\\S', '1a_.\tx', true],
  ['\\x41\\u0042\\cJ', 'AB\n', true],
  ['a|b|c', 'zzc', true],
  ['(a|ab)(c|bcd)(d*)', 'abcd', true],
  ['(a*)*b', 'aaab', true],
  ['(a*)*b', 'aaa', false],
  ['(?:a|)+$', 'b', true],
  ['a+?b', 'aab', true],
  ['a{1,2}?$', 'aaa', true],
  ['\\/\\.\\*', '/.*', true],
  ['(\\w+)+\\.bak$', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.bak', true],
];

test('linearPattern: the answer of RegExp(pattern, "u") for each row', () => {
  for (const [p, text, want] of ROWS) {
    assert.equal(new RegExp(p, 'u').test(text), want, `RegExp /${p}/u on ${JSON.stringify(text)}`);
    assert.equal(linearPattern(p, 'the exclude pattern').test(text), want, `/${p}/ on ${JSON.stringify(text)}`);
  }
});

// Small patterns over a small alphabet, so that RegExp's answer comes fast.
const atom = fc.constantFrom('a', 'b', '.', '[ab]', '[^a]', '\\w', '\\W', '\\s', 'a', 'b', '\\b', '\\B', '^', '$');
const pattern: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    fc.tuple(tie('node'), tie('node')).map(([x, y]) => x + y),
    fc.tuple(tie('node'), tie('node')).map(([x, y]) => `(?:${x}|${y})`),
    fc
      .tuple(tie('node'), fc.constantFrom('*', '+', '?', '{2}', '{0,2}', '{1,}', '*?'))
      .map(([x, q]) => (/^[\\^$]|^\\[bB]$/.test(x) && x.length <= 2 ? x : `(?:${x})${q}`)),
  ),
})).node;

test('property (seed 1738): linearPattern answers as RegExp with the u flag', () => {
  fc.assert(
    fc.property(pattern, fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', 'é'), maxLength: 10 }), (p, text) => {
      let native: RegExp;
      try {
        native = new RegExp(p, 'u');
      } catch {
        return; // e.g. a quantified assertion, which the u flag refuses
      }
      assert.equal(linearPattern(p, 'p').test(text), native.test(text), `/${p}/u on ${JSON.stringify(text)}`);
    }),
    { seed: 1738, numRuns: 3000 },
  );
});

// RegExp backtracks on these for hours at these lengths ((\w+)+ is exponential; .*.*.*x took
// 241 s on 1,000 characters, and grows as the fourth power): a test that ends at all shows the
// matching is not by backtracking.
test(
  'hostile patterns: (\\w+)+\\.bak$ and .*.*.*x on 100,000 characters are matched (no backtracking)',
  { timeout: 120000 },
  () => {
    const long = `http://h/${'a'.repeat(100000)}!`;
    assert.equal(linearPattern('(\\w+)+\\.bak$', 'the exclude pattern').test(long), false);
    assert.equal(linearPattern('(\\w+)+\\.bak$', 'the exclude pattern').test(`${long}.bak`), false);
    assert.equal(
      linearPattern('(\\w+)+\\.bak$', 'the exclude pattern').test(`http://h/${'a'.repeat(100000)}.bak`),
      true,
    );
    assert.equal(linearPattern('.*.*.*x', 'the exclude pattern').test(long), false);
    assert.equal(linearPattern('(a|a)*b', 'the exclude pattern').test('a'.repeat(100000)), false);
    const skip = skipper({ exclude: ['(\\w+)+\\.bak$'], include: ['(.*a){20}!$'] })!;
    assert.equal(skip(`http://h/${'a'.repeat(50000)}.bak`), true);
    assert.equal(skip(long), false);
  },
);

test('linearPattern: backreferences and lookarounds refused with their offset; a malformed pattern as RegExp says', () => {
  const refused: [string, string, number][] = [
    ['(a)\\1', 'a backreference', 3],
    ['(?<n>a)\\k<n>', 'a backreference', 7],
    ['x(?=y)', 'a lookahead', 1],
    ['x(?!y)', 'a lookahead', 1],
    ['(?<=y)x', 'a lookbehind', 0],
    ['ab(?<!y)x', 'a lookbehind', 2],
  ];
  for (const [p, construct, offset] of refused) {
    assert.throws(
      () => linearPattern(p, 'the exclude pattern'),
      (e: unknown) =>
        e instanceof PatternError &&
        e instanceof SyntaxError &&
        e.offset === offset &&
        e.message ===
          `the exclude pattern ${JSON.stringify(p)} uses ${construct} at offset ${offset}, which cannot be matched in linear time (docs/check.md)`,
      p,
    );
  }
  assert.throws(
    () => linearPattern('(', 'the include pattern'),
    (e: unknown) =>
      e instanceof PatternError &&
      e.offset === null &&
      e.message ===
        'the include pattern "(" is no regular expression: Invalid regular expression: /(/u: Unterminated group',
  );
  const deep = `${'('.repeat(101)}a${')'.repeat(101)}`;
  assert.throws(
    () => linearPattern(deep, 'p'),
    (e: unknown) => e instanceof PatternError && e.offset === 100 && /groups nested more than 100 deep/.test(e.message),
  );
});

test(`linearPattern: a pattern of more than ${MAX_PROGRAM} steps once counted out is refused`, () => {
  const big = `the exclude pattern "a{${MAX_PROGRAM}}b" is too large: more than ${MAX_PROGRAM} steps once its repetitions are counted out`;
  assert.throws(() => linearPattern(`a{${MAX_PROGRAM}}b`, 'the exclude pattern'), { message: big });
  assert.equal(linearPattern(`a{${MAX_PROGRAM - 2}}b`, 'p').test(`${'a'.repeat(MAX_PROGRAM - 2)}b`), true);
  // A count far past the cap on an operand that emits nothing is refused before it is counted out.
  assert.throws(() => linearPattern('(?:){9007199254740991}', 'p'), PatternError);
  assert.throws(() => linearPattern('(?:a{64}){64}', 'p'), PatternError);
});
