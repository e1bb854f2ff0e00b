// check() streams its results (docs/check.md, "Memory"): what it keeps while it runs does not grow
// with the number of URLs, but for one compact entry per distinct normal form (to probe each once).
// Measured inside one run of 100,000 distinct URLs (a document, a fake probe answering at once with
// a reason and a transcript like a refused connection's): the heap after a full collection when the
// 10,000th result is read, and again at the 100,000th.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { check } from '../../src/check/index.js';
import type { ProbeResult } from '../../src/clients/probe/types.js';
import type { Url } from '../../src/core/url.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The heap in use after a full collection (twice: weak references and finalizers settle). */
function heap(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

test('memory: between 10^4 and 10^5 URLs the heap grows by less than 30 MB (about 100 octets per URL)', async (t) => {
  const N = 100_000;
  const probe = async (u: Url): Promise<ProbeResult> => ({
    status: 'unreachable',
    reason: `cannot retrieve ${u.href} over HTTP from 127.0.0.1:2: ECONNREFUSED`,
    code: 'connect-failed',
    temporary: false,
    redirects: [],
    transcript: Array.from({ length: 8 }, (_, i) => ({
      direction: 'info' as const,
      text: `step ${i} of the probe of ${u.href}`,
    })),
    ms: 1,
  });
  function* text(): Generator<string> {
    for (let i = 0; i < N; i += 1000) {
      let s = '';
      for (let j = i; j < i + 1000; j++) s += `see http://127.0.0.1:2/${j} here\n`;
      yield s;
    }
  }
  let n = 0;
  let at1e4 = 0;
  let at1e5 = 0;
  for await (const r of check([{ file: 'links.txt', text: text() }], {
    retries: 0,
    perHost: 8,
    probe,
    transcript: true,
  })) {
    n++;
    assert.equal(r.status, 'unreachable');
    if (n === 10_000) at1e4 = heap();
    if (n === N) at1e5 = heap();
  }
  assert.equal(n, N);
  const growth = at1e5 - at1e4;
  t.diagnostic(`heap growth from 10^4 to 10^5 URLs: ${(growth / 2 ** 20).toFixed(1)} MiB`);
  assert.ok(growth < 30 << 20, `the heap grew by ${(growth / 2 ** 20).toFixed(1)} MiB from 10^4 to 10^5 URLs`);
});
