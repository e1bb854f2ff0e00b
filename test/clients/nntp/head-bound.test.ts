// A group listing from a server with no overview asks HEAD per article number (RFC 3977 6.2.2):
// bounded by the last HEAD_WINDOW numbers (or `limit`) and by the count of the 211 reply (RFC
// 3977 6.1.1: at least the number of articles). A fake announces a huge range and counts the
// HEADs it gets; past MAX_HEADS it stops answering, so a client with no bound ends in a timeout
// instead of running on.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open } from '../../../src/clients/index.js';
import { HEAD_WINDOW } from '../../../src/clients/nntp/client.js';
import type { OpenOptions, TranscriptLine } from '../../../src/clients/types.js';
import { nntpFake, type NntpFake } from './fakes.js';

const HIGH = 1_000_000_000_000n;
/** The fake answers this many HEADs, then nothing: a client with no bound times out. */
const MAX_HEADS = 5000;

/**
 * A reader server with no OVER: GROUP answers `211 <count> 1 <HIGH> g.x`; HEAD <n> answers 221
 * for the numbers in `articles`, else 423.
 */
function noOverview(count: bigint, articles: Set<bigint> = new Set()): Promise<NntpFake & { heads: () => bigint[] }> {
  const heads: bigint[] = [];
  return nntpFake('200 fake ready\r\n', (c, s) => {
    if (c === 'CAPABILITIES') s.write('101 caps\r\nVERSION 2\r\nREADER\r\n.\r\n');
    else if (c === 'GROUP g.x') s.write(`211 ${count} 1 ${HIGH} g.x\r\n`);
    else if (c.startsWith('HEAD ')) {
      const n = BigInt(c.slice(5));
      heads.push(n);
      if (heads.length > MAX_HEADS) return true;
      s.write(
        articles.has(n) ? `221 ${n} <m${n}@x> head\r\nSubject: s${n}\r\nMessage-ID: <m${n}@x>\r\n.\r\n` : '423 no\r\n',
      );
    } else return;
    return true;
  }).then((f) => Object.assign(f, { heads: () => heads }));
}

async function list(fake: NntpFake, extra: OpenOptions = {}) {
  const lines: TranscriptLine[] = [];
  const r = await open('news:g.x', {
    gateway: false,
    netrc: false,
    timeout: 3000,
    env: { NNTPSERVER: `127.0.0.1:${fake.port}` },
    transcript: (l) => lines.push(l),
    ...extra,
  });
  const text = Buffer.from(await new Response(r.body).arrayBuffer()).toString('utf8');
  return { text, lines };
}

const range = (from: bigint, n: number) => Array.from({ length: n }, (_, i) => from + BigInt(i));

test('RFC 3977 6.2.2: "211 3 1 1000000000000" and 423 to every HEAD: the last HEAD_WINDOW numbers, then an empty listing', async () => {
  const fake = await noOverview(3n);
  try {
    const { text, lines } = await list(fake);
    assert.equal(text, '');
    assert.equal(HEAD_WINDOW, 1000);
    assert.deepEqual(fake.heads(), range(HIGH - 999n, 1000), 'HEAD for the last 1000 numbers, in order');
    assert.ok(
      lines.some((l) => l.direction === 'info' && /HEAD for the last 1000 article numbers only/.test(l.text)),
      'the transcript says the listing was cut',
    );
    assert.equal(fake.commands[0].at(-1), 'QUIT');
    await fake.allClosed();
  } finally {
    await fake.close();
  }
});

test('RFC 3977 6.2.2: with limit, the last `limit` numbers; with a count of 2, HEAD stops after the second article', async () => {
  const limited = await noOverview(3n);
  try {
    await list(limited, { limit: 10 });
    assert.deepEqual(limited.heads(), range(HIGH - 9n, 10));
  } finally {
    await limited.close();
  }
  // Two articles at the bottom of the window: count 2 says there is no third (RFC 3977 6.1.1).
  const counted = await noOverview(2n, new Set([HIGH - 998n, HIGH - 997n]));
  try {
    const { text } = await list(counted);
    assert.deepEqual(
      text.split('\n').map((l) => l.split('\t')[0]),
      [String(HIGH - 998n), String(HIGH - 997n), ''],
    );
    assert.deepEqual(counted.heads(), range(HIGH - 999n, 3), 'no HEAD after the second article');
    await counted.allClosed();
  } finally {
    await counted.close();
  }
});
