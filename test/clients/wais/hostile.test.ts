// A hostile WAIS server or URL against the call stack: data the protocol allows in sizes far
// under MAX_APDU that a spread of arguments (f(...items)) cannot pass. Each ends typed or works.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open } from '../../../src/clients/index.js';
import { encodeVarint } from '../../../src/clients/wais/apdu.js';
import { messages, replaying, whole } from './captures.js';

const FAST = { gateway: false as const, timeout: 2000 };
const INIT_REPLY = whole(messages('01-search-two-hits.s2c.bin')[0]);
const ZERO = messages('06-search-zero-records.s2c.bin')[1].apdu;

/** A whole message: the 25-byte header (length, "z2wais", blanks, "0") and the APDU. */
function framed(apdu: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(String(apdu.length).padStart(10, '0') + 'z2wais        0', 'latin1'), apdu]);
}

test('a SearchResponse whose tag-99 group holds 300,000 empty fields (600 KB) is read: no stack overflow', async () => {
  const n = 300_000;
  const empties = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) empties[i * 2] = 1; // tag 1, length 0
  const group = Buffer.concat([Buffer.from([99]), Buffer.from(encodeVarint(empties.length)), empties]);
  const f = await replaying([INIT_REPLY, framed(Buffer.concat([ZERO, group]))]);
  try {
    const r = await open(`wais://127.0.0.1:${f.port}/demo?burrow`, FAST);
    assert.equal(await new Response(r.body).text(), '');
  } finally {
    await f.close();
  }
});

test('a wpath field of 200,000 octets in the URL is sent whole as the DocID: no RangeError', async () => {
  const long = 'a'.repeat(200_000);
  const f = await replaying([INIT_REPLY, framed(ZERO)]);
  try {
    await open(`wais://127.0.0.1:${f.port}/demo/TEXT/0=${long};`, FAST).then(
      (r) => r.body.cancel(),
      () => {},
    );
    assert.equal(f.received.length, 2);
    assert.ok(f.received[1].includes(Buffer.from(long, 'latin1')), 'the retrieval carries the whole field');
  } finally {
    await f.close();
  }
});
