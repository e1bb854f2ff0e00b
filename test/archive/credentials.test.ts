// The links of an object read with credentials in its URL (RFC 1738 3.1 <user>:<password>@) are
// followed with them: the crawl reads them against the URL asked for, not against the client's
// meta.url, which shows the password as ****. Against vsftpd's anonymous login (any password is
// taken), whose listing's children are kept in the state's urls.log as the crawl will open them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { archiveCrawl } from '../../src/archive/index.js';
import type { CrawlResult } from '../../src/crawl/engine.js';

test('RFC 1738 3.1: the children of an FTP listing read with a password carry it, not ****', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-warc-cred-'));
  try {
    const rows: CrawlResult[] = [];
    for await (const r of archiveCrawl(['ftp://anonymous:s3cret@127.0.0.1:2121/pub/nested/'], {
      output: join(dir, 'out') + '/',
      state: join(dir, 'state'),
      maxDepth: 1,
      open: { gateway: false, timeout: 15_000 },
    }))
      rows.push(r);
    assert.ok(rows.length > 1, JSON.stringify(rows));
    const urls = readFileSync(join(dir, 'state', 'urls.log'), 'utf8');
    const children = urls.split('\n').filter((l) => l.includes('/pub/nested/') && !l.includes('/pub/nested/\t'));
    assert.ok(children.length > 0, urls);
    assert.doesNotMatch(urls, /\*\*\*\*/);
    assert.match(urls, /ftp:\/\/anonymous:s3cret@127\.0\.0\.1:2121\/pub\/nested\/deeper/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
