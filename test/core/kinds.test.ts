// Every code declares its kind (syntax, usage, policy, network, protocol), and the CLI's exit
// status is derived from it; a code that no spec section states has section null.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LocatorError, describeCodes, kindOf } from '../../src/core/errors.js';
import { exitFor, EXIT } from '../../src/cli/command.js';
// Loading these declares their codes.
import '../../src/clients/types.js';
import '../../src/clients/ftp/errors.js';
import '../../src/clients/gopher/types.js';
import '../../src/clients/http/client.js';
import '../../src/operations/policy.js';

const KINDS = new Set(['syntax', 'usage', 'policy', 'network', 'protocol']);

test('every declared code has a kind, and a section that is a string or null', () => {
  const all = describeCodes();
  assert.ok(all.length > 50, `${all.length} codes`);
  for (const c of all) {
    assert.ok(KINDS.has(c.kind), `${c.code}: kind ${c.kind}`);
    assert.ok(
      c.section === null || (typeof c.section === 'string' && c.section.length > 0),
      `${c.code}: section ${c.section}`,
    );
  }
});

const rows: Array<[code: string, kind: string, exit: number]> = [
  ['invalid-host', 'syntax', EXIT.invalid],
  ['missing-scheme', 'syntax', EXIT.invalid],
  ['policy-refused', 'policy', EXIT.invalid],
  ['too-many-redirects', 'policy', EXIT.invalid],
  ['redirect-loop', 'policy', EXIT.invalid],
  ['needs-input', 'usage', EXIT.usage],
  ['connect-failed', 'network', EXIT.network],
  ['timeout', 'network', EXIT.network],
  ['connection-closed', 'network', EXIT.network],
  ['no-address', 'network', EXIT.network],
  ['protocol-error', 'protocol', EXIT.network],
  ['too-large', 'protocol', EXIT.network],
  ['ftp-reply', 'protocol', EXIT.network],
  ['http-status', 'protocol', EXIT.network],
  ['gopher-error', 'protocol', EXIT.network],
  ['aborted', 'network', EXIT.interrupted],
];
for (const [code, kind, exit] of rows) {
  test(`${code}: kind ${kind}, exit status ${exit}`, () => {
    assert.equal(kindOf(code), kind);
    const e = new LocatorError(code, -1);
    assert.equal(e.kind, kind);
    assert.equal(exitFor(e), exit);
  });
}

test('network failures cite no spec section (section null); syntax errors cite theirs', () => {
  for (const code of ['connect-failed', 'timeout', 'aborted', 'connection-closed', 'protocol-error', 'too-large']) {
    assert.equal(new LocatorError(code, -1).section, null, code);
  }
  assert.equal(new LocatorError('invalid-host', 3).section, 'RFC 1738 3.1');
});

test('offset -1 means "no place in the input": the message then names no offset', () => {
  const e = new LocatorError('timeout', -1);
  assert.equal(e.offset, -1);
  assert.doesNotMatch(e.message, /offset/);
  assert.match(new LocatorError('invalid-host', 7).message, /at offset 7/);
});
