// Normal forms and equivalence (src/operations/normalize.ts): table rows citing the section that licenses
// each change, the scheme rules, the safer and display forms of the drafts, and properties with
// a fixed seed: normalize is idempotent and keeps the meaning, toSafe(toDisplay(u)) === u.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse, tryParse, shared, eachRow } from './helpers.js';
import { normalize, normalizeUrl, normalForm, equivalent, toSafe, toDisplay } from '../src/operations/normalize.js';
import { normalizeEscapes } from '../src/core/escapes.js';
import { listSchemes } from '../src/schemes/registry.js';
import { LocatorError } from '../src/core/errors.js';
import { explain } from '../src/operations/build.js';
import { normalize as refNormalize } from './reference/normalize.js';

// input | normal form | section
const ROWS: Array<[string, string, string]> = [
  [
    'HTTP://WWW.Example.COM/Path',
    'http://www.example.com/Path',
    'RFC 1738 2.1 (scheme), 3.1 (host); the path keeps its case',
  ],
  ['http://host.com:80/', 'http://host.com/', 'RFC 1738 3.3: the default port 80'],
  ['http://host.com:0080/', 'http://host.com/', 'RFC 1738 3.1: port = digits'],
  ['http://host.com:8080/', 'http://host.com:8080/', 'another port stays'],
  ['http://host.com:/', 'http://host.com/', 'RFC 1738 3.1: "If the port is omitted, the colon is as well"'],
  ['ftp://host.com:21/x', 'ftp://host.com/x', 'RFC 1738 3.2: 21'],
  ['gopher://host.com:70/1', 'gopher://host.com/1', 'RFC 1738 3.4.1: 70'],
  ['nntp://host.com:119/comp.x/1', 'nntp://host.com/comp.x/1', 'RFC 1738 3.7: 119'],
  ['telnet://host.com:23/', 'telnet://host.com/', 'RFC 1738 3.8: 23'],
  ['wais://host.com:210/db', 'wais://host.com/db', 'RFC 1738 3.9: 210'],
  ['prospero://host.com:1525//pros/name', 'prospero://host.com//pros/name', 'RFC 1738 3.11: 1525'],
  ['https://host.com:443/', 'https://host.com/', 'https: 443'],
  ['x-foo://host.com:80/', 'x-foo://host.com:80/', 'an unknown scheme has no default port'],
  ['http://h.com/a%2fb%3Bc', 'http://h.com/a%2Fb%3Bc', 'RFC 1738 2.2: hex digits in upper case; reserved escapes stay'],
  [
    'http://h.com/%41%62%2D%5F%2E%21%2A%27%28%29%24%2C',
    "http://h.com/Ab-_.!*'()$,",
    'RFC 1738 2.2: unreserved escapes decoded',
  ],
  [
    'http://h.com/%7e%20%3C%22%25%7B',
    'http://h.com/%7E%20%3C%22%25%7B',
    'RFC 1738 2.2: unsafe characters stay encoded',
  ],
  [
    'http://h.com/%00%0d%7F%80%e9',
    'http://h.com/%00%0D%7F%80%E9',
    'RFC 1738 2.2: controls and octets 80-FF stay encoded',
  ],
  [
    'http://h.com/~user/a b',
    'http://h.com/%7Euser/a%20b',
    'RFC 1738 2.2: "All unsafe characters must always be encoded"',
  ],
  [
    'http://h.com/caf\u00e9/\u{1F600}',
    'http://h.com/caf%C3%A9/%F0%9F%98%80',
    'RFC 1738 2.2: non-ASCII as UTF-8 octets',
  ],
  ['http://h.com/100%', 'http://h.com/100%25', 'RFC 1738 2.2: a "%" that starts no escape is a "%"'],
  ['http://h.com/a#b#c%7e', 'http://h.com/a#b%23c%7E', 'draft 1993-10: the first "#" starts the fragment id'],
  ['http://h.com/a#', 'http://h.com/a', 'draft 1993-10: a void fragment-id refers to the whole object'],
  ['<URL:http://h.com/>', 'http://h.com/', 'RFC 1738 appendix: the wrapper is not part of the URL'],
  ['ftp://Joe:Secret@H.com/%2Fetc', 'ftp://Joe:Secret@h.com/%2Fetc', 'RFC 1738 3.1: user and password keep their case'],
  [
    'ftp://a%3Ab:c%40d@h.com/',
    'ftp://a%3Ab:c%40d@h.com/',
    'RFC 1738 3.1: ":" "@" "/" in user and password stay encoded',
  ],
  ['ftp://@h.com/', 'ftp://@h.com/', 'RFC 1738 3.1: an empty user is not no user'],
  ['ftp://u:@h.com/', 'ftp://u:@h.com/', 'RFC 1738 3.1: an empty password is not no password'],
  // scheme rules
  ['http://h.com', 'http://h.com/', 'RFC 1738 3.3: "the "/" may also be omitted"'],
  ['http://h.com#top', 'http://h.com/#top', 'RFC 1738 3.3'],
  [
    'http://h.com/a%2b?x%2By+z%41',
    'http://h.com/a+?x%2By+zA',
    'draft 1993-07: "+" separates search keywords, so %2B stays in the search',
  ],
  ['ftp://h.com/a/b;TYPE=I', 'ftp://h.com/a/b;type=i', 'RFC 1738 5 (ftptype); ";type=" is a literal'],
  ['ftp://h.com/a/;Type=D', 'ftp://h.com/a/;type=d', 'RFC 1738 3.2.2'],
  ['ftp://h.com/f;type=AN', 'ftp://h.com/f;type=an', 'draft 1994-03 TYPE codes'],
  ['ftp://h.com/a%3btype=I', 'ftp://h.com/a%3Btype=I', 'an encoded ";" starts no typecode'],
  ['ftp://h.com', 'ftp://h.com', 'RFC 1738 3.2.2: the url-path may be omitted; not the same as an empty one'],
  ['gopher://h.com', 'gopher://h.com/1', 'RFC 1738 3.4.1: an empty gopher-path is gophertype 1, empty selector'],
  ['gopher://h.com/', 'gopher://h.com/1', 'RFC 1738 3.4.1'],
  ['gopher://h.com/%31', 'gopher://h.com/1', 'RFC 1738 2.2 then 3.4.1'],
  [
    'gopher://h.com/0a%2Fb%3Fc%3bd%09x',
    'gopher://h.com/0a/b?c;d%09x',
    'RFC 1738 3.4.1: "Within the <gopher-path>, no characters are reserved"; TAB stays',
  ],
  ['gopher://h.com/11', 'gopher://h.com/11', 'a selector "1" is not empty'],
  ['file://localhost/etc/motd', 'file:///etc/motd', 'RFC 1738 3.10: "localhost" or the empty string'],
  ['file://LOCALHOST/etc/motd', 'file:///etc/motd', 'RFC 1738 3.10 with 3.1 (host case)'],
  ['file://host.com/etc/motd', 'file://host.com/etc/motd', 'another host stays'],
  [
    'mailto:Joe.Bloggs@Example.COM',
    'mailto:Joe.Bloggs@example.com',
    'RFC 822 3.4.7: the local part keeps its case, the domain does not',
  ],
  [
    'MAILTO:joe%40example.com',
    'mailto:joe@example.com',
    'RFC 1738 3.5: "Within mailto URLs, there are no reserved characters"',
  ],
  ['mailto:joe@[10.0.0.1]', 'mailto:joe@%5B10.0.0.1%5D', 'RFC 1738 2.2: "[" and "]" are unsafe'],
  ['telnet://h.com', 'telnet://h.com/', 'RFC 1738 3.8: "The final "/" character may be omitted"'],
  ['rlogin://u@h.com', 'rlogin://u@h.com/', 'the telnet rule'],
  ['news:Comp.Infosystems.WWW', 'news:Comp.Infosystems.WWW', 'news groups keep their case'],
  ['news:%41bc@H.com', 'news:Abc@H.com', 'RFC 1738 2.2 only'],
  ['http://h.com/a/../b/./c', 'http://h.com/a/../b/./c', 'dot segments mean nothing in an absolute URL (RFC 1738)'],
  ['http://[FE80::1]:80/', 'http://[fe80::1]/', 'an IPv6 literal (not RFC 1738): case and port only'],
];

for (const [input, expected, section] of ROWS) {
  test(`normalize ${JSON.stringify(input)} (${section})`, () => {
    assert.equal(normalize(input), expected);
    assert.equal(normalize(expected), expected, 'idempotent');
    assert.equal(normalizeUrl(input).href, expected);
    assert.ok(equivalent(input, expected));
  });
}

const WITH_RULES = listSchemes().filter((s) => s.normal !== undefined);

test('the schemes with normal-form rules', () => {
  assert.deepEqual(WITH_RULES.map((s) => s.name).sort(), [
    'file',
    'ftp',
    'gopher',
    'http',
    'https',
    'mailto',
    'rlogin',
    'telnet',
    'tn3270',
  ]);
});

eachRow(
  'the per-scheme table names its section (RFC 1738 3.x) for the rule',
  WITH_RULES,
  (s) => {
    assert.match(s.normal!.section, /RFC 1738 3\.\d/, s.name);
  },
  { input: (s) => s.name },
);

const EQUIVALENT: Array<[string, string, boolean, string]> = [
  ['http://A.COM:80', 'http://a.com/', true, 'host case, default port, the "/"'],
  ['gopher://h.com', 'gopher://h.com/1', true, 'RFC 1738 3.4.1'],
  ['gopher://h.com/1a%3Fb', 'gopher://h.com/1a?b', true, 'no reserved characters in a gopher-path'],
  ['file://localhost/x', 'file:///x', true, 'RFC 1738 3.10'],
  ['ftp://h/x;type=A', 'ftp://h/x;TYPE=a', true, 'RFC 1738 5 (ftptype)'],
  ['http://h/%7euser', 'http://h/~user', true, 'an unsafe character raw or encoded is one octet'],
  ['http://h/a%2Fb', 'http://h/a/b', false, 'RFC 1738 3.3: "/" is reserved in the path'],
  ['ftp://h/%2Fetc/motd', 'ftp://h//etc/motd', false, 'RFC 1738 3.2.2: "CWD /etc" is not "CWD " then "CWD etc"'],
  ['http://h/?a%2Bb', 'http://h/?a+b', false, 'a "+" separates keywords in a search'],
  ['ftp://h/', 'ftp://h', false, 'RFC 1738 3.2.2: an empty url-path is not an omitted one'],
  ['ftp://h/x', 'ftp://anonymous@h/x', false, 'RFC 1738 3.2.1: no user is not user "anonymous" (the password differs)'],
  ['ftp://U@h/', 'ftp://u@h/', false, 'user names keep their case'],
  ['http://h/A', 'http://h/a', false, 'paths keep their case'],
  ['http://h/a#x', 'http://h/a#y', false, 'fragments differ'],
  ['http://h/a#', 'http://h/a', true, 'a void fragment-id'],
  ['mailto:a@B.C', 'mailto:A@b.c', false, 'the local part keeps its case'],
];
eachRow(
  "equivalent: the same object under the scheme's rules, and not when a rule says otherwise",
  EQUIVALENT,
  ([a, b, eq, why]) => {
    assert.equal(equivalent(a, b), eq, `${a} ~ ${b}: ${why}`);
    assert.equal(equivalent(b, a), eq, 'symmetric');
  },
  { input: ([a, b]) => [a, b], section: (r) => r[3] },
);

test('equivalent: ignoreFragment; a string that is no URL is an error', () => {
  assert.equal(equivalent('http://h/a#x', 'http://h/a#y', { ignoreFragment: true }), true);
  assert.throws(
    () => equivalent('nope', 'http://h/'),
    (e: unknown) => e instanceof LocatorError && e.code === 'missing-scheme',
  );
});

eachRow(
  'normal forms keep the access algorithm: explain() gives the same steps before and after (RFC 1738 3)',
  [
    'ftp://Joe@H.COM:21/%2fetc/%6dotd;TYPE=I',
    'gopher://H.com:70',
    'http://h.com:80/?',
    'file://LocalHost/etc/motd',
    'telnet://u@h.com:23',
    'wais://h.com/db?%77eather',
  ],
  (u) => {
    assert.deepEqual(explain(normalize(u)).steps, explain(u).steps, u);
  },
);

test('normalizeEscapes: one scan, the same string back when nothing changes', () => {
  const s = 'http://h.com/a/b;c?d=e&f@g:h';
  assert.equal(normalizeEscapes(s), s);
  assert.equal(normalizeEscapes('a%2fb%41%zz%', undefined), 'a%2FbA%25zz%25');
  assert.equal(normalizeEscapes('x%41y', undefined, 1, 4), 'A');
  assert.equal(normalizeEscapes('\ud800x'), '%EF%BF%BDx', 'a lone surrogate has no UTF-8 form: U+FFFD');
});

const SAFE: Array<[string, string]> = [
  ['http://h.com/a b<c>"d{e}f|g\\h^i~j[k]l`m', 'http://h.com/a%20b%3Cc%3E%22d%7Be%7Df%7Cg%5Ch%5Ei%7Ej%5Bk%5Dl%60m'],
  ['http://h.com/%7e%2F%41', 'http://h.com/%7e%2F%41'],
  ['http://h.com/100%/%zz/%4', 'http://h.com/100%25/%25zz/%254'],
  ['http://h.com/a#b#c', 'http://h.com/a#b%23c'],
  ['http://h.com/caf\u00e9\t\u007f', 'http://h.com/caf%C3%A9%09%7F'],
  ['ftp://u:p@h.com/a;type=i?x=y&z', 'ftp://u:p@h.com/a;type=i?x=y&z'],
  ['', ''],
];
eachRow(
  'toSafe (draft 1993-10): encodes the unsafe characters and leaves what is encoded encoded',
  SAFE,
  ([text, safe]) => {
    assert.equal(toSafe(text), safe, text);
    assert.equal(toSafe(safe), safe, 'a safe text stays as it is');
  },
);

const DISPLAY: Array<[string, string]> = [
  ['http://h.com/caf%C3%A9/%E6%97%A5%E6%9C%AC', 'http://h.com/café/日本'],
  ['http://h.com/%F0%9F%98%80', 'http://h.com/\u{1F600}'],
  ['http://h.com/%41%7E%20%25%2F%3F%23%2B', 'http://h.com/A%7E%20%25%2F%3F%23%2B'],
  ['http://h.com/%C3', 'http://h.com/%C3'],
  ['http://h.com/%C3%2F', 'http://h.com/%C3%2F'],
  ['http://h.com/%C3%28', 'http://h.com/%C3('],
  ['http://h.com/%C0%AF', 'http://h.com/%C0%AF'],
  ['http://h.com/%ED%A0%80', 'http://h.com/%ED%A0%80'],
  ['http://h.com/%E2%80%8B%E2%80%AE%C2%A0%C2%85', 'http://h.com/%E2%80%8B%E2%80%AE%C2%A0%C2%85'],
  ['http://h.com/%2%41', 'http://h.com/%2%41'],
  ['http://h.com/%%41x', 'http://h.com/%%41x'],
];
eachRow(
  'toDisplay (draft 1994-03): expands the escapes that are safe to show, and only those',
  DISPLAY,
  ([url, display]) => {
    assert.equal(toDisplay(url), display, url);
  },
);

test('toDisplay (draft 1994-03): a parsed record, wrapper and all', () => {
  assert.equal(toDisplay(parse('<URL:http://h.com/%C3%A9>')), 'http://h.com/é');
});

// Random URLs of the registered schemes, with the characters normalization touches: case,
// escapes (upper and lower hex, unreserved, reserved, unsafe, non-ASCII octets), raw unsafe and
// non-ASCII characters, default and other ports, empty paths and fragments.
const pick = (s: string) => fc.constantFrom(...s.split(''));
const piece = fc.oneof(
  { weight: 6, arbitrary: pick("abcXYZ019-_.+!*'(),$;:@&=/?") },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '%41',
      '%7e',
      '%7E',
      '%2f',
      '%2F',
      '%3b',
      '%20',
      '%e9',
      '%C3%A9',
      '%E6%97%A5',
      '%25',
      '%2B',
      '%09',
      '%23',
      '%3F',
      '%40',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(' ', '~', '<', '"', '{', '|', '\\', '^', '`', 'é', '日', '\u{1F600}', '%', '%z'),
  },
);
const text = (max: number) => fc.array(piece, { maxLength: max }).map((a) => a.join(''));
const label = fc.stringMatching(/^[a-zA-Z]([a-zA-Z0-9-]{0,4}[a-zA-Z0-9])?$/);
const host = fc.array(label, { minLength: 1, maxLength: 3 }).map((a) => a.join('.'));
const userinfo = fc.option(
  fc.tuple(
    fc.stringMatching(/^[a-zA-Z0-9%;&=]{0,5}$/).filter((s) => !/%(?![0-9A-Fa-f]{2})/.test(s)),
    fc.option(fc.stringMatching(/^[a-zA-Z0-9]{0,5}$/), { nil: undefined }),
  ),
  { nil: undefined },
);
const internet = fc
  .tuple(
    fc.constantFrom('http', 'HTTP', 'ftp', 'Gopher', 'file', 'telnet', 'wais', 'prospero', 'nntp', 'x-foo', 'https'),
    userinfo,
    host,
    fc.option(fc.constantFrom('21', '70', '80', '0080', '443', '8080', ''), { nil: undefined }),
    fc.option(text(12), { nil: undefined }),
    fc.option(text(4), { nil: undefined }),
  )
  .map(([s, ui, h, port, path, frag]) => {
    const login = ui ? ui[0] + (ui[1] !== undefined ? ':' + ui[1] : '') + '@' : '';
    return `${s}://${login}${h}${port !== undefined ? ':' + port : ''}${path !== undefined ? '/' + path : ''}${frag !== undefined ? '#' + frag : ''}`;
  });
const opaque = fc
  .tuple(fc.constantFrom('mailto', 'news', 'MAILTO', 'x-bar'), text(10), fc.option(text(4), { nil: undefined }))
  .map(([s, part, frag]) => `${s}:${part.startsWith('//') ? 'x' + part : part}${frag !== undefined ? '#' + frag : ''}`);
const anyUrl = fc.oneof(internet, opaque).filter((u) => !(tryParse(u) instanceof LocatorError));

test('property (seed 1738): normalize is idempotent, its result parses, and it is equivalent to the input', () => {
  fc.assert(
    fc.property(anyUrl, (u) => {
      const n = normalize(u);
      assert.equal(normalize(n), n);
      const p = parse(n);
      assert.equal(p.href, n);
      assert.ok(equivalent(u, n));
      assert.equal(p.scheme, parse(u).scheme);
      // Nothing is left that must be encoded: no unsafe, control or non-ASCII character, no bad escape.
      assert.deepEqual(
        p.violations.filter((d) => ['unsafe-char', 'control-char', 'non-ascii', 'invalid-escape'].includes(d.code)),
        [],
      );
    }),
    { seed: 1738, numRuns: 3000 },
  );
});

test('property (seed 1738): the decoded fields do not change under normalization', () => {
  fc.assert(
    fc.property(anyUrl, (u) => {
      const a = parse(u);
      const b = parse(normalize(u));
      assert.equal(b.user, a.user);
      assert.equal(b.password, a.password);
      assert.equal(b.port, a.port);
      if (a.scheme === 'ftp') {
        assert.deepEqual(b.fields.segments, a.fields.segments);
        assert.equal(b.fields.ftptype, a.fields.ftptype);
      }
      // (A raw non-ASCII gophertype is several octets: no one reading of such an invalid URL.)
      if (a.scheme === 'gopher' && !(a.path !== null && a.path.charCodeAt(0) >= 128)) {
        assert.equal(b.fields.gophertype, a.fields.gophertype);
        assert.equal(b.fields.request, a.fields.request);
      }
      if (a.scheme === 'http' || a.scheme === 'https') assert.deepEqual(b.fields.keywords, a.fields.keywords);
    }),
    { seed: 1738, numRuns: 3000 },
  );
});

test('property (seed 1738): toSafe(toDisplay(u)) === u for a URL u in normal form, and toSafe is idempotent', () => {
  fc.assert(
    fc.property(anyUrl, (u) => {
      const n = normalize(u);
      const d = toDisplay(n);
      assert.equal(toSafe(d), n);
      assert.equal(toSafe(toSafe(u)), toSafe(u));
      assert.equal(toDisplay(d), d);
    }),
    { seed: 1738, numRuns: 3000 },
  );
});

test('normalize on the corpus: idempotent on every line that parses', () => {
  const lines = shared('corpus/schemes.txt')
    .split('\n')
    .slice(0, 5000)
    .filter((l) => l !== '');
  let n = 0;
  for (const line of lines) {
    const u = tryParse(line);
    if (u instanceof LocatorError) continue;
    const once = normalize(u);
    assert.equal(normalize(once), once, line);
    n++;
  }
  assert.ok(n > 4000);
});

test('RFC 1738 3.4.1: a trailing empty search is not sent, so gopher://h/0x%09 equals gopher://h/0x', () => {
  assert.equal(normalize('gopher://h.com/0x%09'), 'gopher://h.com/0x');
  assert.equal(equivalent('gopher://h.com/0x%09', 'gopher://h.com/0x'), true);
  assert.equal(normalize('gopher://h.com/7x%09%09+'), 'gopher://h.com/7x%09%09+', 'not when a Gopher+ string follows');
  assert.equal(equivalent('gopher://h.com/7x%09a', 'gopher://h.com/7x'), false);
});

test('the shortcut (issue 16): href itself when no component changes, the same string as building it, on every corpus line and on generated URLs', () => {
  let kept = 0;
  let built = 0;
  for (const file of ['kasztp.txt', 'node_files.txt', 'isaacs_files.txt', 'schemes.txt']) {
    for (const line of shared('corpus/' + file).split('\n')) {
      if (line === '') continue;
      const u = tryParse(line);
      if (u instanceof LocatorError) continue;
      let expected: string;
      try {
        expected = normalForm(u, false);
      } catch (e) {
        assert.throws(() => normalForm(u, true), { message: (e as Error).message }, line);
        continue;
      }
      const got = normalForm(u, true);
      assert.equal(got, expected, line);
      if (got === u.href) kept++;
      else built++;
    }
  }
  // Hosts the scanner's note must send the long way (RFC 1738 3.1, 2.2).
  for (const [input, normal] of [
    ['http://h_\u00c9/', 'http://h_%C3%89/'],
    ['http://u:P@Ho/', 'http://u:P@ho/'],
    ['ftp://a@B@c/', 'ftp://a@B@c/'],
    ['http://[FE80::1]/', 'http://[fe80::1]/'],
    ['http://a..b/', 'http://a..b/'],
    ['http://EXAMPLE.com:0080/', 'http://example.com/'],
  ]) {
    assert.equal(normalize(input), normal, input);
    assert.equal(normalForm(parse(input), false), normal, input);
  }
  // Both ways are taken: most corpus URLs are already in normal form, some are not.
  assert.ok(kept > 100_000 && built > 1_000, `kept ${kept}, built ${built}`);
  fc.assert(
    fc.property(anyUrl, (s) => {
      const u = tryParse(s);
      if (u instanceof LocatorError) return;
      assert.equal(normalForm(u, true), normalForm(u, false));
    }),
    { seed: 1738, numRuns: 3000 },
  );
});

// A scheme rule that says it keeps a clean path (`keepsCleanPath`) is not asked about one by the
// shortcut: the claim must hold for every path that is there, whatever it holds.
test('normalize: a rule with keepsCleanPath returns every clean path that is there as it is', () => {
  const paths = ['', '1', 'a', 'a/b/', 'x;type=I', 'x;TYPE=a', 'A%41%2f', '%09', '0x%09', 'a?b+c', '~u', ';', '//'];
  let flagged = 0;
  for (const spec of listSchemes()) {
    const rule = spec.normal;
    if (rule?.keepsCleanPath !== true) continue;
    flagged++;
    assert.ok(rule.path !== undefined, spec.name);
    for (const raw of paths) assert.equal(rule.path!(raw, true), raw, `${spec.name} ${JSON.stringify(raw)}`);
  }
  assert.ok(flagged >= 4, `${flagged} rules`); // http, https, file, telnet
});

// hostKeptAt() answers what host() would, on the host's offsets (normalize()'s shortcut asks it).
test('normalize: a rule with hostKeptAt tells exactly the hosts that host() keeps', () => {
  const hosts = ['', 'localhost', 'localhos', 'localhostx', 'xlocalhost', 'ocalhost', 'a', 'host.dom', '127.0.0.1'];
  let flagged = 0;
  for (const spec of listSchemes()) {
    const rule = spec.normal;
    if (rule?.hostKeptAt === undefined) continue;
    flagged++;
    assert.ok(rule.host !== undefined, spec.name);
    for (const host of hosts) {
      const href = `${spec.name}://${host}/x`;
      const start = spec.name.length + 3;
      assert.equal(
        rule.hostKeptAt(href, start, start + host.length),
        rule.host!(host) === host,
        `${spec.name} ${host}`,
      );
    }
  }
  assert.ok(flagged >= 1, `${flagged} rules`); // file
  assert.equal(normalize('file://localhost/x'), 'file:///x');
  assert.equal(normalize('file://localhostx/x'), 'file://localhostx/x');
});

// The shortcuts of normalForm() (href itself for an opaque URL already normal, clean or not; the
// usual form's look before the generic search when a path holds a character to encode) give
// what the reference normal form gives, at and one step from each.
test('normalize: the opaque and to-encode shortcuts agree with the reference (RFC 1738 2.2, 3.5)', () => {
  const rows = [
    'mailto:a@b.c',
    'mailto:a@B.c',
    'mailto:A@b.c',
    'mailto:user%25gateway@b.c',
    'mailto:user%25gateway@B.C',
    'mailto:user%2agateway@b.c',
    'mailto:user%41@b.c',
    'mailto:a@b.c#f',
    'mailto:a@b.c#',
    'mailto:a@b.c#%7e',
    'mailto:a@b.c#~',
    'MAILTO:a@b.c',
    'mailto:a@[1.2.3.4]',
    'mailto:a@b.c~',
    'news:a.b',
    'news:a.b#',
    'news:a.b#x',
    'news:a%2eb',
    'news:a%2Fb',
    'news:A.B@x.Y',
    'http://a.b/~c',
    'http://a.b/~c#',
    'http://a.b/c#',
    'http://a.b/c#~',
    'http://a.b/c##',
    'http://a.b/c?d/e~',
    'http://a.b/c?d~',
    'http://a.b/c d',
    'http://a.b/' + 'x/?/'.repeat(40) + '~',
    'http://a.b/c?' + '/'.repeat(120) + '~',
    'http://A.b/~c',
    'http://a.b:80/~c',
    'http://u@a.b/~c',
    'ftp://a.b/~c;type=a',
    'ftp://a.b/c;type=a~',
    'file:///~c',
    'gopher://a.b/1~c',
    'telnet://a.b/~',
  ];
  for (const row of rows) {
    const want = (() => {
      try {
        return refNormalize(row);
      } catch (e) {
        return (e as LocatorError).code;
      }
    })();
    const got = (() => {
      try {
        return normalize(row);
      } catch (e) {
        return (e as LocatorError).code;
      }
    })();
    assert.equal(got, want, row);
  }
});
