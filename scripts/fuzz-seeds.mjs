#!/usr/bin/env node
// Writes the seed corpus of the fuzz targets that comes from fixtures (issue 17): the spec
// examples (test/fixtures/spec-examples.json), the RFC 1808 and 3986 resolution examples, the
// conformance inputs (test/data/conformance, a sample of the short ones), the extraction
// fixtures, the WAIS captures (test/data/fixtures/wais) and the Hercules TN3270 capture
// (test/fixtures/tn3270), ARDP packets built by the encoder. The replies recorded from the real
// test servers (ftp, smtp, nntp, gopher, telnet, tn3270) are in fuzz/corpus too; see
// fuzz/corpus/README.md. Each file starts with the byte the target reads first where it has one.
//
//   node scripts/fuzz-seeds.mjs        # (re)writes fuzz/corpus/{parse,resolve,...}/fixture-*
import { mkdirSync, readFileSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const corpus = join(root, 'fuzz', 'corpus');
const json = (p) => JSON.parse(readFileSync(join(root, p), 'utf8'));
const enc = new TextEncoder();

function write(target, items) {
  const dir = join(corpus, target);
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.startsWith('fixture-')) rmSync(join(dir, f));
  const seen = new Set();
  let n = 0;
  for (const item of items) {
    const bytes = typeof item === 'string' ? enc.encode(item) : item;
    const key = Buffer.from(bytes).toString('latin1');
    if (seen.has(key) || bytes.length > 4096) continue;
    seen.add(key);
    writeFileSync(join(dir, `fixture-${String(++n).padStart(3, '0')}`), bytes);
  }
  console.log(`${target}: ${n} seeds`);
}

const prefixed = (byte, text) => Uint8Array.from([byte, ...enc.encode(text)]);
const spec = json('test/fixtures/spec-examples.json').examples;
const conf = (name) => json(`test/data/conformance/${name}.json`).cases;
const every = (cases, n) => cases.filter((_c, i) => i % n === 0);

const urls = [
  ...spec.map((e) => e.printed),
  ...spec.map((e) => e.url),
  ...every(conf('wpt-urltestdata'), 6).map((c) => c.input),
  ...every(conf('curl-lib1560'), 4).map((c) => c.input),
  ...every(conf('perl-uri'), 3).map((c) => c.input),
].filter((s) => typeof s === 'string' && s.length < 300);
write('parse', urls);

const r1808 = json('test/fixtures/rfc1808-examples.json');
const r3986 = json('test/fixtures/rfc3986-examples.json');
const pairs = (doc) => {
  const base = /<URL:([^>]*)>/.exec(String(doc.base))?.[1] ?? String(doc.base);
  return [...(doc.normal ?? []), ...(doc.abnormal ?? [])]
    .map((row) => (typeof row === 'string' ? row.trim().split(/\s+=\s+/)[0] : (row.partial ?? row.rel ?? row.ref)))
    .filter((p) => typeof p === 'string')
    .map((p) => `${base}\n${p}`);
};
const joins = conf('cpython-urlparse').filter((c) => c.op === 'resolve');
write('resolve', [
  ...pairs(r1808).map((t) => prefixed(0, t)),
  ...pairs(r3986).map((t) => prefixed(1, t)),
  ...joins.map((c, i) => prefixed(i % 3, `${c.base}\n${c.rel}`)),
]);

const equal = conf('fast-uri').filter((c) => c.op === 'equal');
write('normalize', [...equal.map((c) => `${c.a}\n${c.b}`), ...spec.map((e) => `${e.url}\n${e.printed}`)]);

const texts = readdirSync(join(root, 'test/fixtures/extract'))
  .filter((f) => f.endsWith('.txt'))
  .map((f) => readFileSync(join(root, 'test/fixtures/extract', f), 'utf8'));
const pieces = texts.flatMap((t) => t.match(/[^]{1,1500}(?:\n\n|$)/g) ?? []);
write('extract', [
  ...pieces.map((t, i) => prefixed(i % 4 === 3 ? 1 : 0, t)),
  ...conf('linkify-it')
    .filter((c) => typeof c.text === 'string')
    .map((c) => prefixed(0, c.text)),
]);

write('percent', [
  ...spec.map((e) => e.url).filter((u) => u.includes('%')),
  'a%2Fb',
  '%',
  '%0',
  '%zz%41%e9%C3%A9',
  Uint8Array.from([0xff, 0x00, 0xd8, 0x41, 0x00]),
]);

const wais = join(root, 'test/data/fixtures/wais');
write(
  'wais',
  readdirSync(wais)
    .filter((f) => f.endsWith('.bin'))
    .sort()
    .map((f) => Uint8Array.from([1, ...readFileSync(join(wais, f))])),
);

const hercules = readFileSync(join(root, 'test/fixtures/tn3270/hercules-logo.bin'));
const records = [];
for (let from = 0, i = 0; i + 1 < hercules.length; i++) {
  if (hercules[i] === 0xff && hercules[i + 1] === 0xef) {
    const rec = [];
    for (let j = from; j < i; j++) {
      if (hercules[j] === 0xff && hercules[j + 1] === 0xff) j++;
      rec.push(hercules[j]);
    }
    records.push(rec);
    from = i + 2;
  }
}
// The record starts after the negotiation: from the first write command (0xF5, Erase/Write).
write('tn3270', [
  ...records.map((r) => Uint8Array.from([1, ...r.slice(r.indexOf(0xf5))])),
  Uint8Array.from([0, ...hercules]),
  Uint8Array.from([1, 0xf3, 0x00, 0x05, 0x01, 0xff, 0x02]),
  Uint8Array.from([
    1, 0xf5, 0xc3, 0x11, 0x40, 0x40, 0x1d, 0x60, 0xc8, 0x85, 0x13, 0x3c, 0x5d, 0x7f, 0x00, 0x12, 0x40, 0x40,
  ]),
]);

const { packetsOf, ackPacket, encodePacket } = await import(join(root, 'dist/clients/prospero/ardp.js'));
const nl = Uint8Array.of(10, 10);
const join2 = (ps) => ps.flatMap((p, i) => (i === 0 ? [...p] : [...nl, ...p]));
write('ardp', [
  Uint8Array.from(join2(packetsOf(1, [enc.encode('VERSION 1\nAUTHENTICATE')], 0))),
  Uint8Array.from(join2(packetsOf(9, [enc.encode('LINK L DIRECTORY'), enc.encode(' x ATTRIBUTE'), enc.encode('')], 1))),
  Uint8Array.from(
    join2([ackPacket(5, 2), encodePacket({ cid: 5, seq: 2, total: 3, receivedThrough: 0, wait: 30, flags: 0x40 })]),
  ),
  encodePacket({ cid: 5, seq: 0, total: 0, receivedThrough: 1, option: 3, optionData: Uint8Array.of(0x05) }),
  encodePacket({
    cid: 5,
    seq: 1,
    total: 1,
    receivedThrough: 0,
    option: 4,
    optionData: Uint8Array.of(127, 0, 0, 1, 0x06, 0x92),
  }),
]);
