// lines() of the gateway's renderers (src/gateway/render/common.ts): the lines of a body however it
// is cut into chunks, CR LF and LF ends, a last line without one, MAX_LINE exactly; and the work of
// a line trickled one character a chunk (as a hostile server may send it) linear in its length
// (counted, not timed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lines, MAX_LINE } from '../../src/gateway/render/common.js';

function body(chunks: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (i < chunks.length) c.enqueue(enc.encode(chunks[i++]));
      else c.close();
    },
  });
}

async function all(chunks: string[]): Promise<string[]> {
  const out: string[] = [];
  for await (const l of lines(body(chunks))) out.push(l);
  return out;
}

test('lines: LF and CR LF ends across chunks, a CR inside a line kept, a last line without an end', async () => {
  const text = 'one\r\ntwo\nthree\rstill three\r\n\nlast';
  const whole = ['one', 'two', 'three\rstill three', '', 'last'];
  assert.deepEqual(await all([text]), whole);
  assert.deepEqual(await all([...text]), whole, 'one character a chunk');
  assert.deepEqual(await all(['one\r', '\ntw', 'o\n', 'three\rstill three\r', '\n\nla', 'st']), whole);
  assert.deepEqual(await all(['a\n']), ['a']);
  assert.deepEqual(await all([]), []);
});

test('lines: a line of MAX_LINE characters is read; one more is a protocol-error', async () => {
  const max = 'x'.repeat(MAX_LINE);
  assert.deepEqual(await all([max.slice(0, 1000), max.slice(1000), '\nend']), [max, 'end']);
  await assert.rejects(all([max, 'y', '\n']), (e: Error & { code?: string }) => {
    assert.equal(e.code, 'protocol-error');
    assert.match(e.message, new RegExp(`runs past ${MAX_LINE} characters`));
    return true;
  });
});

/** The characters indexOf reads while `fn` runs: from its start to what it found, or to the end. */
async function searched(fn: () => Promise<unknown>): Promise<number> {
  const proto = String.prototype as unknown as { indexOf: (this: string, s: string, from?: number) => number };
  const original = proto.indexOf;
  let total = 0;
  proto.indexOf = function (this: string, s: string, from?: number) {
    const r = original.call(this, s, from);
    const start = Math.max(0, from ?? 0);
    total += r < 0 ? this.length - start : r - start + s.length;
    return r;
  };
  try {
    await fn();
  } finally {
    proto.indexOf = original;
  }
  return total;
}

test('lines: a line trickled one character a chunk is searched once (doubling it doubles the work)', async () => {
  const trickle = (n: number) => [...'a'.repeat(n), '\n'];
  const a = await searched(() => all(trickle(8000)));
  const b = await searched(() => all(trickle(16000)));
  assert.ok(b / a < 2.5, `doubling the line multiplied the search by ${(b / a).toFixed(2)}`);
});
