// The TYPE A converter (RFC 959 3.1.1.1): NVT CR LF becomes the local LF, a lone CR stays, and
// the result does not depend on where the data is cut into chunks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NvtToLocal, nvtToLocal } from '../../../src/clients/ftp/ascii.js';
import { SEED } from '../../properties/runs.js';

const bytes = (s: string) => Buffer.from(s, 'latin1');
/** The reference: CR LF -> LF, everything else as it is. */
const reference = (s: string) => s.replace(/\r\n/g, '\n');

function convert(chunks: Uint8Array[]): string {
  const c = new NvtToLocal();
  const parts = chunks.map((k) => Buffer.from(c.push(k)));
  parts.push(Buffer.from(c.end()));
  return Buffer.concat(parts).toString('latin1');
}

const SAMPLE = 'a\r\nb\rc\r\r\nd\n\re\r\n\r\n\r';

test('RFC 959 3.1.1.1: CR LF becomes LF; a lone CR, a lone LF and a CR at the very end stay', () => {
  assert.equal(Buffer.from(nvtToLocal(bytes(SAMPLE))).toString('latin1'), 'a\nb\rc\r\nd\n\re\n\n\r');
  assert.equal(Buffer.from(nvtToLocal(bytes('\r'))).toString('latin1'), '\r');
  assert.equal(Buffer.from(nvtToLocal(bytes('\r\r'))).toString('latin1'), '\r\r');
  assert.equal(Buffer.from(nvtToLocal(bytes(''))).toString('latin1'), '');
  assert.equal(Buffer.from(nvtToLocal(bytes('no line end'))).toString('latin1'), 'no line end');
});

test('every chunking of the sample (each of its 2^(n-1) cuts) gives the same local text', () => {
  const data = bytes(SAMPLE);
  const n = data.length;
  const want = reference(SAMPLE);
  for (let mask = 0; mask < 2 ** (n - 1); mask++) {
    const chunks: Uint8Array[] = [];
    let start = 0;
    for (let i = 1; i < n; i++) {
      if (mask & (2 ** (i - 1))) {
        chunks.push(data.subarray(start, i));
        start = i;
      }
    }
    chunks.push(data.subarray(start));
    assert.equal(convert(chunks), want, `cut at mask ${mask}`);
  }
});

test('a CR at the end of one chunk and LF at the start of the next; empty chunks in between', () => {
  assert.equal(convert([bytes('x\r'), bytes('\ny')]), 'x\ny');
  assert.equal(convert([bytes('x\r'), bytes(''), bytes('\ny')]), 'x\ny');
  assert.equal(convert([bytes('x\r'), bytes('y')]), 'x\ry');
  assert.equal(convert([bytes('\r'), bytes('\r'), bytes('\n')]), '\r\n');
  assert.equal(convert([bytes('x\r')]), 'x\r');
});

test('property: any octets, any chunking, equal to the reference', () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(13, 10, 65, 0, 255), { maxLength: 60 }),
      fc.array(fc.nat(60), { maxLength: 8 }),
      (octets, cuts) => {
        const data = Uint8Array.from(octets);
        const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
        const chunks: Uint8Array[] = [];
        let start = 0;
        for (const p of points) {
          chunks.push(data.subarray(start, p));
          start = p;
        }
        chunks.push(data.subarray(start));
        assert.equal(convert(chunks), reference(Buffer.from(data).toString('latin1')));
      },
    ),
    { seed: SEED },
  );
});

test('a chunk without CR (and none held) is handed over as it is, not copied', () => {
  const c = new NvtToLocal();
  const chunk = bytes('plain text\n');
  assert.equal(c.push(chunk), chunk);
});
