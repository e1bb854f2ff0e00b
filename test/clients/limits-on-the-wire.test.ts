// The limits that protect the clients (and locator's WAIS server) against a hostile peer, each held
// exactly at its bound through a fake peer on loopback (fault injection): the input of exactly the
// limit is taken, one octet (or one reply) more is refused with its typed error, the connection is
// closed, and nothing waits for the rest. The sizes are written out as numbers, not derived from
// the constants, so that a limit moved by one, or removed, fails its test. (The limits read by a
// pure parser are held in peer-limits.test.ts and limits.test.ts.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from '../../src/clients/index.js';
import { GopherError, type GopherOpenOptions } from '../../src/clients/gopher/client.js';
import { accessMethods } from '../../src/clients/prospero/client.js';
import type { OpenOptions } from '../../src/clients/types.js';
import { parse, readAll, rejects } from '../helpers.js';
import { nntpFake } from './nntp/fakes.js';
import { answering, fakeServer, withFake } from './gopher/fakes.js';
import { startProsperoServer } from '../servers/prospero-server.js';
import { startWaisServer } from '../../src/clients/wais/server.js';
import { initRequest, message, retrievalRequest, seedSearchRequest } from '../../src/clients/wais/request.js';
import {
  PDU_INIT_RESPONSE,
  PDU_SEARCH_RESPONSE,
  decodeSearchResponse,
  encodeInitRequest,
  encodeSearchRequest,
  encodeVarint,
  pduTypeOf,
} from '../../src/clients/wais/apdu.js';
import { HEADER_LENGTH } from '../../src/clients/wais/header.js';
import { concatBytes } from '../../src/clients/framing/bytes.js';
import { DOCS_DIR } from './wais/captures.js';

const MiB = 1024 * 1024;

/**
 * Header lines of `total` octets, CR LF counted, the way NNTP and Gopher+ count them: `fixed`
 * first, then "X-Pad: aaa..." lines of at most 200,000 octets (under every per-line bound).
 */
function linesOf(total: number, fixed: string[], pad = (n: number) => `X-Pad: ${'a'.repeat(n - 9)}`): string[] {
  const lines = [...fixed];
  let left = total - fixed.reduce((n, l) => n + l.length + 2, 0);
  while (left > 0) {
    const n = Math.min(left, 200_000);
    assert.ok(n >= 10, 'the last pad line must hold its name');
    lines.push(pad(n));
    left -= n;
  }
  assert.equal(
    lines.reduce((n, l) => n + l.length + 2, 0),
    total,
  );
  return lines;
}

// --- NNTP (RFC 3977 6.2.2): the headers of one article (HEAD), HEADER_LIMIT = 1 MiB --------------

/** A reader server with no OVER: group g.x holds article 1, whose HEAD is `head` (CR LF lines). */
function headServer(head: string[]) {
  return nntpFake('200 fake ready\r\n', (c, s) => {
    if (c === 'CAPABILITIES') s.write('101 caps\r\nVERSION 2\r\nREADER\r\n.\r\n');
    else if (c === 'GROUP g.x') s.write('211 1 1 1 g.x\r\n');
    else if (c === 'HEAD 1') s.write(`221 1 <m1@x> head\r\n${head.map((l) => `${l}\r\n`).join('')}.\r\n`);
    else return;
    return true;
  });
}

test('nntp HEADER_LIMIT (RFC 3977 6.2.2): the headers of an article of 1,048,576 octets are read; 1,048,577 is a protocol-error, the connection closed', async () => {
  const news = (port: number): OpenOptions => ({
    gateway: false,
    netrc: false,
    timeout: 5000,
    env: { NNTPSERVER: `127.0.0.1:${port}` },
  });
  const fixed = ['Subject: s1', 'Message-ID: <m1@x>'];
  const at = await headServer(linesOf(MiB, fixed));
  try {
    const r = await open('news:g.x', news(at.port));
    const text = (await readAll(r.body)).toString('utf8');
    assert.match(text, /^1\ts1\t/);
    assert.equal(at.commands[0].at(-1), 'QUIT');
    await at.allClosed();
  } finally {
    await at.close();
  }
  const past = await headServer(linesOf(MiB + 1, fixed));
  try {
    const r = await open('news:g.x', news(past.port));
    const e = await rejects(readAll(r.body));
    assert.equal(e.code, 'protocol-error');
    assert.equal(e.detail, 'the NNTP server sent a reply of more than 1048576 octets');
    await past.allClosed();
  } finally {
    await past.close();
  }
});

// --- Gopher+ (Gopher+ 2.3, 2.7) ---------------------------------------------------------------------

const GOPHER = { gateway: false as const, timeout: 3000 };

test('gopher ERROR_TEXT_LIMIT (Gopher+ 2.3): an error text of 65,536 octets is kept whole; of 65,537, cut to 65,536', async () => {
  // the first line "1 <a@b>" CR LF (9 octets), then the message
  const reply = (octets: number) => `--2\r\n1 <a@b>\r\n${'x'.repeat(octets - 9)}`;
  await withFake(await answering(reply(65_536)), async (f) => {
    const e = await rejects(open(`gopher://127.0.0.1:${f.port}/0/doc%09%09+`, GOPHER));
    assert.ok(e instanceof GopherError, String(e));
    assert.equal(e.code, 'gopher-error');
    assert.deepEqual([e.errorNumber, e.contact, e.text.length], [1, '<a@b>', 65_527]);
  });
  await withFake(await answering(reply(65_537)), async (f) => {
    const e = await rejects(open(`gopher://127.0.0.1:${f.port}/0/doc%09%09+`, GOPHER));
    assert.ok(e instanceof GopherError, String(e));
    assert.deepEqual([e.errorNumber, e.text.length], [1, 65_527]);
  });
  // The bound falls inside a character: the cut keeps whole characters, no U+FFFD of its own
  // making. The text's budget is 65,527 octets: "x" x 65,525 then "é" (C3 A9) fills it, and "€"
  // (E2 82 AC) after it is cut whole; "x" x 65,526 then "€" is cut before the "€".
  const cut = async (message: string, kept: string) =>
    withFake(await answering(Buffer.from(`--2\r\n1 <a@b>\r\n${message}`, 'utf8')), async (f) => {
      const e = await rejects(open(`gopher://127.0.0.1:${f.port}/0/doc%09%09+`, GOPHER));
      assert.ok(e instanceof GopherError, String(e));
      // Compared by length and last characters: a failed equality of 65 K strings floods the log.
      assert.deepEqual([e.text.length, e.text.slice(-3)], [kept.length, kept.slice(-3)]);
    });
  await cut(`${'x'.repeat(65_525)}é€`, `${'x'.repeat(65_525)}é`);
  await cut(`${'x'.repeat(65_526)}€`, 'x'.repeat(65_526));
  // An error text that never ends (the server keeps the connection open): read up to the bound,
  // then the error, and the connection closed; no wait for the end, no growing buffer.
  await withFake(await answering(reply(4 * MiB), { end: false }), async (f) => {
    const e = await rejects(open(`gopher://127.0.0.1:${f.port}/0/doc%09%09+`, GOPHER));
    assert.ok(e instanceof GopherError, String(e));
    assert.equal(e.text, 'x'.repeat(65_527));
  });
});

test('gopher ASK_REPLY_LIMIT (Gopher+ 2.7): a +ASK attribute reply of 1,048,576 octets is read; 1,048,577 is a protocol-error, nothing asked', async () => {
  const fixed = ['+INFO: 0Form\t/form\t127.0.0.1\t70\t?', '+ASK:', ' Ask: Name?', '+ABSTRACT:'];
  const form = (octets: number) =>
    fakeServer((socket, received) => {
      if (received.endsWith('\t!+ASK\r\n')) {
        const block = linesOf(octets, fixed, (n) => ` ${'a'.repeat(n - 3)}`);
        socket.end(`+-2\r\n${block.map((l) => `${l}\r\n`).join('')}`);
        return true;
      }
      if (!received.endsWith('\r\n.\r\n')) return false;
      socket.end('+-1\r\nThank you\r\n.\r\n');
      return true;
    });
  let asked = 0;
  const options: GopherOpenOptions = {
    ...GOPHER,
    ask: async (q) => {
      asked++;
      return q.map(() => 'Ada');
    },
  };
  await withFake(await form(MiB), async (f) => {
    const r = await open(`gopher://127.0.0.1:${f.port}/0/form%09%09?`, options);
    assert.equal((await readAll(r.body)).toString(), 'Thank you\r\n');
    assert.equal(asked, 1);
  });
  await withFake(await form(MiB + 1), async (f) => {
    const e = await rejects(open(`gopher://127.0.0.1:${f.port}/0/form%09%09?`, options));
    assert.equal(e.code, 'protocol-error');
    assert.match(
      e.detail,
      /^the \+ASK attribute of gopher:\/\/127\.0\.0\.1:\d+\/0\/form%09%09\? is larger than 1048576 octets$/,
    );
    assert.equal(asked, 1, 'the form is not asked for');
    assert.equal(f.connections, 1, 'no second exchange');
  });
});

// --- Prospero (Prospero v5 4.2, appendix B) ---------------------------------------------------------

const AFTP = "ATTRIBUTE OBJECT FIELD ACCESS-METHOD AFTP INTERNET-D 127.0.0.1(2121) ASCII '/pub/unix.txt' TEXT";
// A reply of 1 MiB sent in one burst overflows the loopback socket's buffer: the datagrams lost
// are sent again after an eighth of the timeout without progress (a short one keeps that short).
const PROSPERO: OpenOptions = { gateway: false, timeout: 3000, policy: { maxCrossSchemeRedirects: 1 } };

test('prospero MAX_REPLY (ARDP): a reply of 1,048,576 octets is read; 1,048,577 is too-large', async () => {
  // the reply is the lines, each ended by LF (the server's form): AFTP, then notes to the size
  const reply = (octets: number) => {
    const lines = [AFTP];
    let left = octets - (AFTP.length + 1);
    const head = 'ATTRIBUTE OBJECT APPLICATION NOTE SEQUENCE ';
    while (left > 0) {
      const n = Math.min(left, 100_000);
      lines.push(head + 'n'.repeat(n - head.length - 1));
      left -= n;
    }
    assert.equal(
      lines.reduce((n, l) => n + l.length + 1, 0),
      octets,
    );
    return lines;
  };
  const s = await startProsperoServer({
    objects: { '/at': reply(1_048_576), '/past': reply(1_048_577) },
    packetSize: 16_000,
  });
  try {
    const got = await accessMethods(parse(`prospero://127.0.0.1:${s.port}//at`), PROSPERO);
    assert.equal(got.methods[0].url?.href, 'ftp://127.0.0.1:2121/pub/unix.txt;type=a');
    const e = await rejects(accessMethods(parse(`prospero://127.0.0.1:${s.port}//past`), PROSPERO));
    assert.equal(e.code, 'too-large');
    assert.equal(e.detail, 'the Prospero reply is larger than 1048576 octets');
  } finally {
    await s.close();
  }
});

test('prospero MAX_FORWARDS (Prospero v5 4.2): four FORWARDED replies are followed; a fifth is a protocol-error, not asked', async () => {
  const objects: Record<string, string[]> = {};
  const s = await startProsperoServer({ objects });
  // /a0 -> /a1 -> ... -> /a4 (four forwards); /b0 -> ... -> /b5 (five)
  const fw = (to: string) => [`FORWARDED INTERNET-D 127.0.0.1(${s.port}) ASCII '${to}' 0`];
  for (let i = 0; i < 4; i++) objects[`/a${i}`] = fw(`/a${i + 1}`);
  objects['/a4'] = [AFTP];
  for (let i = 0; i < 5; i++) objects[`/b${i}`] = fw(`/b${i + 1}`);
  objects['/b5'] = [AFTP];
  try {
    const got = await accessMethods(parse(`prospero://127.0.0.1:${s.port}//a0`), PROSPERO);
    assert.equal(got.methods[0].url?.href, 'ftp://127.0.0.1:2121/pub/unix.txt;type=a');
    assert.equal(got.asked.href, `prospero://127.0.0.1:${s.port}//a4`);
    assert.equal(s.requests.length, 5);
    s.requests.length = 0;
    const e = await rejects(accessMethods(parse(`prospero://127.0.0.1:${s.port}//b0`), PROSPERO));
    assert.equal(e.code, 'protocol-error');
    assert.equal(e.detail, 'more than 4 FORWARDED replies (Prospero v5 4.2)');
    assert.deepEqual(
      s.requests.map((r) => /'(\/b\d)'/.exec(r)?.[1]),
      ['/b0', '/b1', '/b2', '/b3', '/b4'],
      '/b5 is never asked',
    );
  } finally {
    await s.close();
  }
});

// --- WAIS (RFC 1625; Z39.50-1988): locator's server and the client's search -----------------------

/** What a raw client gets from locator's WAIS server for `bytes`: the APDUs, until `want` or the close. */
function waisTalk(port: number, bytes: Uint8Array, want: number): Promise<{ apdus: Uint8Array[]; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    const apdus: Uint8Array[] = [];
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`no answer and no close within 10 s (${apdus.length} APDUs)`));
    }, 10_000);
    const done = (closed: boolean) => {
      clearTimeout(timer);
      sock.destroy();
      resolve({ apdus, closed });
    };
    sock.on('error', () => {});
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      while (buf.length >= HEADER_LENGTH) {
        const n = Number(buf.subarray(0, 10).toString('latin1'));
        if (buf.length < HEADER_LENGTH + n) break;
        apdus.push(new Uint8Array(buf.subarray(HEADER_LENGTH, HEADER_LENGTH + n)));
        buf = buf.subarray(HEADER_LENGTH + n);
      }
      if (apdus.length >= want) done(false);
    });
    sock.on('close', () => done(true));
    sock.write(bytes);
  });
}

/** A seed-word search (RFC 1625 4) whose APDU is exactly `octets` long: "ferret" and a long word. */
function searchOf(octets: number): Uint8Array {
  let n = octets;
  for (let i = 0; i < 5; i++) {
    const apdu = encodeSearchRequest(seedSearchRequest('demo', `ferret ${'z'.repeat(n)}`));
    if (apdu.length === octets) return apdu;
    n += octets - apdu.length;
  }
  throw new Error(`no search of ${octets} octets`);
}

test("wais MAX_REQUEST (locator's server): a request of 1,048,576 octets is answered; of 1,048,577 the connection is closed unanswered", async () => {
  const s = await startWaisServer({ dir: DOCS_DIR, database: 'demo' });
  const init = message(encodeInitRequest(initRequest()));
  const small = message(searchOf(100));
  try {
    const at = await waisTalk(s.port, concatBytes([init, message(searchOf(MiB))]), 2);
    assert.deepEqual(
      at.apdus.map((a) => pduTypeOf(a)),
      [PDU_INIT_RESPONSE, PDU_SEARCH_RESPONSE],
    );
    assert.match(decodeSearchResponse(at.apdus[1]).headers[0].headline ?? '', /ferret/i);
    // the same, with the next request in the same write (pipelined): both answered
    const piped = await waisTalk(s.port, concatBytes([init, message(searchOf(MiB)), small]), 3);
    assert.deepEqual(
      piped.apdus.map((a) => pduTypeOf(a)),
      [PDU_INIT_RESPONSE, PDU_SEARCH_RESPONSE, PDU_SEARCH_RESPONSE],
    );
    // one octet more: closed once the header announces it, before the APDU is read
    const past = await waisTalk(s.port, concatBytes([init, message(searchOf(MiB + 1)), small]), 3);
    assert.deepEqual([past.apdus.map((a) => pduTypeOf(a)), past.closed], [[PDU_INIT_RESPONSE], true]);
    // and the server goes on serving
    const r = await open(`wais://127.0.0.1:${s.port}/demo?ferret`, { gateway: false, timeout: 3000 });
    assert.match((await readAll(r.body)).toString(), /ferret/i);
  } finally {
    await s.close();
  }
});

test("wais MAX_PIECE (locator's server, RFC 1625 4): a retrieval of 100,000 bytes is answered whole; of 100,001, with 100,000", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-wais-piece-'));
  const s = await startWaisServer({ dir: writeDocs(dir, { 'big.txt': 'ferret '.repeat(30_000) }), database: 'demo' });
  const id = [3, ...encodeVarint(Buffer.byteLength('0 210000 big.txt')), ...Buffer.from('0 210000 big.txt')];
  const piece = async (from: number, to: number) => {
    const req = message(encodeSearchRequest(retrievalRequest('demo', Uint8Array.from(id), 'TEXT', from, to)));
    const got = await waisTalk(s.port, concatBytes([message(encodeInitRequest(initRequest())), req]), 2);
    return decodeSearchResponse(got.apdus[1]).texts[0].text;
  };
  try {
    assert.equal((await piece(0, 100_000)).length, 100_000);
    assert.equal((await piece(0, 100_001)).length, 100_000);
    const tail = await piece(7, 200_000);
    assert.equal(tail.length, 100_000);
    assert.equal(Buffer.from(tail).toString('latin1'), 'ferret '.repeat(30_000).slice(7, 100_007));
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Writes `files` (name -> text) into `dir`; returns `dir`. */
function writeDocs(dir: string, files: Record<string, string>): string {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

test('wais MAX_DOCUMENTS (RFC 1625 4, Max-Documents-Retrieved): of 41 documents that match, the search asks for and lists 40; of 40, all', async () => {
  const docs = (n: number) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`d${String(i).padStart(2, '0')}.txt`, `Ferret ${i}\n`]));
  for (const [n, listed] of [
    [40, 40],
    [41, 40],
  ]) {
    const dir = writeDocs(mkdtempSync(join(tmpdir(), 'locator-wais-docs-')), docs(n));
    const s = await startWaisServer({ dir, database: 'demo' });
    try {
      const r = await open(`wais://127.0.0.1:${s.port}/demo?ferret`, { gateway: false, timeout: 3000 });
      const lines = (await readAll(r.body))
        .toString()
        .split('\n')
        .filter((l) => l !== '');
      assert.equal(lines.length, listed, `${n} documents match`);
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
});
