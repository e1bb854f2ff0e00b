// The rules of the policy and lint before the scheme entry became the one home of a scheme (commit
// 48d34ab and the moves after it: readsThisMachine and family in the policy, the lint host check
// asking readsThisMachine, the encoded delimiters read from each entry's wire hook, the redirect
// rule asking the entry): every refusal the old code made is still made. The table
// (test/data/fixtures/policy/old-rules.json) holds what the code of 48d34ab^ answered over a
// corpus of URLs and redirects (each scheme with loopback, private and named hosts, reserved
// ports, and the escapes of CR, LF, NUL, TAB, space, FF, "/", ";" and "%" in every part a client
// sends); this test runs the same inputs through today's code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, parse } from './helpers.js';
import { lint } from '../src/operations/lint.js';
import { PolicyError, assertAllowed, assertRedirectAllowed, type Policy } from '../src/operations/policy.js';

interface OldRules {
  policy: Array<[check: string, input: string, code: string]>;
  lint: Array<[input: string, findings: string[]]>;
}
const OLD = JSON.parse(readFileSync(join(ROOT, 'test/data/fixtures/policy/old-rules.json'), 'utf8')) as OldRules;

const POLICIES: Record<string, Policy> = {
  dflt: {},
  priv: { refusePrivateAddresses: true },
  lax: { allowViolations: true },
  r0: {},
  r9: { maxCrossSchemeRedirects: 9 },
  r9p: { maxCrossSchemeRedirects: 9, refusePrivateAddresses: true },
};

/** Today's answer to one row: the refusal's code@offset, or '' when allowed. */
function now(check: string, input: string): string {
  const p = POLICIES[check];
  try {
    if (check.startsWith('r')) {
      const [from, to] = input.split(' -> ');
      assertRedirectAllowed(parse(from), parse(to), 0, 0, p);
    } else {
      assertAllowed(parse(input), p);
    }
    return '';
  } catch (e) {
    assert.ok(e instanceof PolicyError, `${check} ${input}: ${String(e)}`);
    return `${e.diagnostic.code}@${e.diagnostic.offset}`;
  }
}

/**
 * Where today's code answers with another refusal than the old one, the stronger rule that now
 * comes first: the redirect to a URL that is never a redirect's target (file whatever its host,
 * afs, mid, cid) before the cross-scheme budget and the private address of the target; a private
 * address on a file URL of another host (fetched by FTP, so its host is checked as any other)
 * before the findings the old code reported first; a reserved port of the target of a Prospero
 * access method (below).
 */
const STRONGER: Record<string, readonly string[]> = {
  'cross-scheme-redirect': ['redirect-to-file', 'reserved-port'],
  'private-address': ['redirect-to-file'],
  'file-port': ['private-address'],
  'ipv6-literal': ['private-address'],
};

/**
 * The one rule loosened on purpose: a Prospero URL's access method (RFC 1738 3.11: "Prospero URLs
 * are interpreted by contacting a Prospero directory server ... to determine appropriate access
 * methods") is the scheme's meaning, not a server changing the protocol, so it does not spend the
 * cross-scheme budget (SchemeSpec.indirect, commit 5bb035e; docs/security.md). Every other check
 * still applies to it.
 */
function prosperoAccessMethod(check: string, input: string, old: string): boolean {
  return check === 'r0' && input.startsWith('prospero:') && old === 'cross-scheme-redirect@0';
}

test('every refusal of the policy before the scheme entries is still a refusal, with the same code or a stronger rule first', () => {
  assert.ok(OLD.policy.length > 1000, 'the table was read');
  const differ: string[] = [];
  for (const [check, input, old] of OLD.policy) {
    const got = now(check, input);
    if (got === old) continue;
    if (prosperoAccessMethod(check, input, old) && got === '') continue;
    const oldCode = old.split('@')[0];
    const gotCode = got.split('@')[0];
    if (got !== '' && (STRONGER[oldCode] ?? []).includes(gotCode)) continue;
    differ.push(`${check} ${input}: was ${old}, now ${got === '' ? 'allowed' : got}`);
  }
  assert.deepEqual(differ, []);
});

test('a Prospero access method may change the scheme, but never to a file URL, whatever its host', () => {
  const followed = OLD.policy
    .filter(([check, input, old]) => prosperoAccessMethod(check, input, old) && now(check, input) === '')
    .map(([, input]) => input.split(' -> ')[1]);
  assert.deepEqual(followed, [
    'http://b.com/',
    'https://b.com/',
    'http://127.0.0.1/',
    'gopher://b.com/1',
    'ftp://b.com/',
    'mailto:a@b.c',
    'news:a.b',
    'nntp://b.com/a.b',
    'telnet://b.com/',
    'wais://b.com/db',
    'http://b.com/%0D%0A',
  ]);
  for (const host of ['', 'localhost', '127.0.0.1', 'b.com', '10.0.0.1'])
    assert.equal(now('r0', `prospero://a.com/x -> file://${host}/etc/passwd`), 'redirect-to-file@0', host);
});

test("every encoded delimiter, encoded control, private address and reserved port lint found before the entries' wire hooks is still found, at the same offset", () => {
  assert.ok(OLD.lint.length > 200, 'the table was read');
  const lost: string[] = [];
  for (const [input, findings] of OLD.lint) {
    const got = new Set(lint(parse(input)).map((d) => `${d.code}@${d.offset}`));
    for (const f of findings) if (!got.has(f)) lost.push(`${input}: ${f}`);
  }
  assert.deepEqual(lost, []);
});
