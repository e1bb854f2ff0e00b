// Limits against a hostile peer, each tripped exactly at its bound with its exact note: the last
// size accepted, and one octet more refused. (The other limits of the clients are tripped by the
// tests of their own client: see the list in each module's test.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LocatorError } from '../../src/core/errors.js';
import { parseReplies } from '../../src/clients/framing/reply.js';
import { MAX_STATUS_LINE, NNTP_STATUS } from '../../src/clients/nntp/parser.js';
import {
  MAX_COMMAND_LINE,
  MAX_DOMAIN,
  MAX_LOCAL_PART,
  MAX_PATH,
  checkAddress,
  checkCommandLength,
} from '../../src/clients/smtp/message.js';

const bytes = (s: string) => new TextEncoder().encode(s);

/** The code and message of what `f` throws, or 'ok'. */
function outcome(f: () => unknown): string {
  try {
    f();
    return 'ok';
  } catch (e) {
    assert.ok(e instanceof LocatorError, String(e));
    return `${e.code}: ${e.message}`;
  }
}

test(`NNTP (RFC 3977 3.1): a status line of ${MAX_STATUS_LINE} octets is waited for, one more octet without its end refused`, () => {
  assert.equal(MAX_STATUS_LINE, 2048);
  const line = (n: number) => `200 ${'x'.repeat(n - 6)}\r\n`;
  const note = `protocol-error: the NNTP server sent a status line of more than ${MAX_STATUS_LINE} octets (RFC 3977 3.1: at most 512) (protocol-error)`;
  // a status line whose end has come is whole (the framing engine bounds only what is unfinished)
  assert.equal(parseReplies(bytes(line(MAX_STATUS_LINE + 1)), NNTP_STATUS).replies.length, 1);
  // unfinished: kept while it may still end within the bound, refused past it
  const open = (n: number) => `200 ${'x'.repeat(n - 4)}`;
  assert.equal(parseReplies(bytes(open(MAX_STATUS_LINE)), NNTP_STATUS).rest.length, MAX_STATUS_LINE);
  assert.equal(
    outcome(() => parseReplies(bytes(open(MAX_STATUS_LINE + 1)), NNTP_STATUS)),
    note,
  );
});

test('SMTP (RFC 5321 4.5.3.1): the sizes of a local-part, a domain, a path and a command line, at their bounds', () => {
  assert.deepEqual([MAX_LOCAL_PART, MAX_DOMAIN, MAX_PATH, MAX_COMMAND_LINE], [64, 255, 256, 512]);
  const label = (n: number) => 'd'.repeat(n);
  // a domain of n octets made of labels of at most 63
  const domain = (n: number) => {
    const parts: string[] = [];
    let left = n;
    while (left > 64) {
      parts.push(label(63));
      left -= 64;
    }
    parts.push(label(left));
    return parts.join('.');
  };
  const rows: Array<[string, string]> = [
    [`${'a'.repeat(MAX_LOCAL_PART)}@b.example`, 'ok'],
    [
      `${'a'.repeat(MAX_LOCAL_PART + 1)}@b.example`,
      'smtp-too-long: the local-part of the recipient is 65 octets, longer than the 64 that RFC 5321 4.5.3.1.1 allows; nothing was sent (smtp-too-long)',
    ],
    [`a@${domain(MAX_PATH - 4)}`, 'ok'],
    [
      `a@${domain(MAX_PATH - 3)}`,
      'smtp-too-long: the path of the recipient is 257 octets, longer than the 256 that RFC 5321 4.5.3.1.3 allows; nothing was sent (smtp-too-long)',
    ],
    [
      `a@${domain(MAX_DOMAIN + 1)}`,
      'smtp-too-long: the domain of the recipient is 256 octets, longer than the 255 that RFC 5321 4.5.3.1.2 allows; nothing was sent (smtp-too-long)',
    ],
  ];
  assert.deepEqual(
    rows.map(([address]) => [address, outcome(() => checkAddress('the recipient', address))]),
    rows,
  );
  assert.equal(
    outcome(() => checkCommandLength('RCPT TO', 'x'.repeat(MAX_COMMAND_LINE - 2))),
    'ok',
  );
  assert.equal(
    outcome(() => checkCommandLength('RCPT TO', 'x'.repeat(MAX_COMMAND_LINE - 1))),
    'smtp-too-long: RCPT TO (the command line, CR LF included) is 513 octets, longer than the 512 that RFC 5321 4.5.3.1.4 allows; nothing was sent (smtp-too-long)',
  );
});
