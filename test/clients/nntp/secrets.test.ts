// No form of the AUTHINFO password (RFC 4643 2.3) in what the NNTP client shows, when a server
// quotes it back: refusing it (481), in a later reply (480 after 281), or in a line that is no
// status line. A fake on 127.0.0.1 (fakes.ts authServer) quotes the password as sent and base64;
// the error's message and replyText, the transcript, and the built CLI's `fetch -v` and
// `fetch --json` output (the password from a temporary HOME's .netrc) must show neither.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from '../../../src/clients/index.js';
import { LocatorError } from '../../../src/core/errors.js';
import { runCli } from '../../helpers.js';
import { authServer, type PasswordEcho } from './fakes.js';

/** A password with a '"' (JSON-escaped in a message that quotes a reply). */
const PASSWORD = 'hunter2-"SECRET';
/** Every form of a password that must not be shown. */
const forms = (p: string) => [p, JSON.stringify(p).slice(1, -1), Buffer.from(p).toString('base64')];

// where the server quotes the password | the error code            -- RFC 4643 2.3.2, RFC 3977 3.2
const ECHOES: Array<[PasswordEcho, string, number | null]> = [
  ['in 481', 'nntp-reply', 481],
  ['in 480 after 281', 'nntp-reply', 480],
  ['as garbage', 'protocol-error', null],
];

for (const [echo, code, replyCode] of ECHOES) {
  test(`RFC 4643 2.3: a server that quotes the AUTHINFO password ${echo}: no form of it in the error or the transcript`, async () => {
    const fake = await authServer(echo);
    try {
      const transcript: string[] = [];
      let error: unknown = null;
      try {
        const r = await open(`nntp://127.0.0.1:${fake.port}/g.x/1`, {
          gateway: false,
          timeout: 5000,
          netrc: false,
          user: 'u',
          password: PASSWORD,
          transcript: (l) => transcript.push(`${l.direction} ${l.text}`),
        });
        await new Response(r.body).arrayBuffer();
      } catch (e) {
        error = e;
      }
      assert.ok(error instanceof LocatorError, String(error));
      assert.equal(error.code, code);
      // The server did get the password (and quoted it: see fakes.ts).
      assert.ok(fake.commands.flat().includes(`AUTHINFO PASS ${PASSWORD}`));
      const e = error as LocatorError & { replyCode?: number; replyText?: string };
      assert.equal(e.replyCode ?? null, replyCode);
      assert.ok(transcript.includes('send AUTHINFO PASS ****'), transcript.join('\n'));
      const received = transcript.filter((l) => l.startsWith('receive ') && l.includes('****'));
      assert.equal(received.length, 1, transcript.join('\n'));
      for (const [what, text] of [
        ['message', e.message],
        ['replyText', e.replyText ?? ''],
        ['transcript', transcript.join('\n')],
      ]) {
        for (const f of forms(PASSWORD))
          assert.ok(!text.includes(f), `${JSON.stringify(f)} shown in the ${what}:\n${text}`);
      }
      if (replyCode !== null) assert.match(e.replyText ?? '', /\*\*\*\* \(\*\*\*\*\)/);
    } finally {
      await fake.close();
    }
  });
}

const CLI_PASSWORD = 'hunter2-SECRET';
const home = mkdtempSync(join(tmpdir(), 'locator-netrc-'));
writeFileSync(join(home, '.netrc'), `machine 127.0.0.1 login own password ${CLI_PASSWORD}\n`);
after(() => rmSync(home, { recursive: true, force: true }));
const run = (args: string[]) => runCli(args, { HOME: home });

for (const [echo] of ECHOES) {
  for (const flag of ['-v', '--json']) {
    test(`locator fetch ${flag}, the .netrc password quoted by the server ${echo}: not in the output`, async () => {
      const fake = await authServer(echo);
      try {
        const r = await run(['fetch', flag, '--netrc-host', '127.0.0.1', `nntp://127.0.0.1:${fake.port}/g.x/1`]);
        assert.notEqual(r.code, 0, r.err);
        assert.ok(fake.commands.flat().includes(`AUTHINFO PASS ${CLI_PASSWORD}`));
        assert.match(r.err, /\*\*\*\*/);
        const all = r.out + r.err;
        for (const f of forms(CLI_PASSWORD)) assert.ok(!all.includes(f), `${JSON.stringify(f)} shown:\n${all}`);
      } finally {
        await fake.close();
      }
    });
  }
}
