// `locator serve --warc` on the command line: what it refuses (status 2) before it listens.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './replay-fixture.js';

test('serve --warc: the options that would reach a server, --cdxj alone, a file that is no WARC and a missing file are usage errors (2)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-replay-cli-'));
  try {
    const junk = join(dir, 'junk.warc');
    writeFileSync(junk, 'not a WARC file\r\n\r\n');
    const rows: Array<[string[], RegExp]> = [
      [['--warc', junk, '--smtp', '127.0.0.1:25'], /--smtp has no use with --warc/],
      [['--warc', junk, '--nntp-server', '127.0.0.1'], /--nntp-server has no use with --warc/],
      [['--warc', junk, '--cache-size', '1000'], /--cache-size has no use with --warc/],
      [['--cdxj', join(dir, 'x.cdxj')], /--cdxj goes with --warc/],
      [['--warc', join(dir, 'missing.warc.gz')], /--warc: .*missing\.warc\.gz/],
      [['--warc', junk], /--warc: no WARC\/ version line/],
    ];
    for (const [args, message] of rows) {
      const r = await cli(['serve', '--port', '0', ...args]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.match(r.err, message, args.join(' '));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
