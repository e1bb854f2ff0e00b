// The Prospero client end to end (RFC 1738 3.11): against our Prospero server on loopback
// (test/servers/prospero-server.ts, UDP, port 0), whose access methods point at the real
// vsftpd (127.0.0.1:2121) and pygopherd (127.0.0.1:7070) of test/servers/*.sh, so that open()
// follows the first access method through its redirect loop and the bytes are the servers' own
// files. Then the faults a real network makes: packets lost, sent twice, out of order, a server
// that never answers, a malformed datagram; every one a typed error or a complete reply, within
// the time limit.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { open } from '../../../src/clients/index.js';
import type { OpenOptions, TranscriptLine } from '../../../src/clients/types.js';
import { accessMethods } from '../../../src/clients/prospero/client.js';
import { retransmitTimes } from '../../../src/clients/prospero/ardp.js';
import { parse, readAll, rejects, serversDir } from '../../helpers.js';
import { LocatorError } from '../../../src/core/errors.js';
import { countsAsCrossScheme } from '../../../src/operations/policy.js';
import { startProsperoServer, type ProsperoServer, type ServerOptions } from '../../servers/prospero-server.js';

const AFTP = "ATTRIBUTE OBJECT FIELD ACCESS-METHOD AFTP INTERNET-D 127.0.0.1(2121) ASCII '/pub/unix.txt' TEXT";
const GOPHER = "ATTRIBUTE OBJECT FIELD ACCESS-METHOD GOPHER INTERNET-D 127.0.0.1(7070) ASCII '/hello.txt' 0";
const NFS = "ATTRIBUTE OBJECT FIELD ACCESS-METHOD NFS INTERNET-D fs.example ASCII 'pub/x' '/auto/gum'";
const OBJECTS: Record<string, string[]> = {
  '/pros/unix': [AFTP, GOPHER],
  '/pros/hello': ['ATTRIBUTE OBJECT FIELD ACCESS-METHOD SEQUENCE GOPHER INTERNET-D 127.0.0.1(7070) ASCII /hello.txt 0'],
  '/pros/nfs-first': [NFS, GOPHER],
  '/pros/nfs-only': [NFS],
  '/pros/empty': ['NONE-FOUND'],
  // a long reply: many packets of 40 octets
  '/pros/long': [...Array.from({ length: 30 }, (_, i) => `ATTRIBUTE OBJECT APPLICATION NOTE SEQUENCE line${i}`), AFTP],
};
/** Following a Prospero link is a hop to another scheme: the policy must allow one. */
const OPTS: OpenOptions = { gateway: false, timeout: 3000, policy: { maxCrossSchemeRedirects: 1 } };
const FTP_ROOT = () => join(serversDir(), 'ftp', 'root');
const GOPHER_ROOT = () => join(serversDir(), 'gopher', 'root');

async function withServer(o: Partial<ServerOptions>, body: (s: ProsperoServer) => Promise<void>): Promise<void> {
  const s = await startProsperoServer({ objects: OBJECTS, ...o });
  try {
    await body(s);
  } finally {
    await s.close();
  }
}

const url = (s: ProsperoServer, hsoname: string) => `prospero://127.0.0.1:${s.port}/${hsoname}`;

test('RFC 1738 3.11: open() asks the server, follows the first access method (AFTP) to the FTP server', async () => {
  await withServer({}, async (s) => {
    const lines: TranscriptLine[] = [];
    const r = await open(url(s, '/pros/unix'), { ...OPTS, transcript: (l) => lines.push(l) });
    assert.equal(r.meta.scheme, 'ftp');
    assert.equal(r.meta.url, 'ftp://127.0.0.1:2121/pub/unix.txt;type=a');
    assert.deepEqual(r.meta.redirects, [`prospero://127.0.0.1:${s.port}//pros/unix`]);
    assert.equal((await readAll(r.body)).toString(), readFileSync(join(FTP_ROOT(), 'pub', 'unix.txt'), 'latin1'));
    // the request as the server got it (Prospero v5 3.1, 3.7; "/" is quoted as the historic library does)
    assert.deepEqual(s.requests, ["VERSION 5\nGET-OBJECT-INFO ACCESS-METHOD ASCII '/pros/unix' 0\n"]);
    assert.ok(
      lines.some((l) => l.direction === 'send' && l.text === "GET-OBJECT-INFO ACCESS-METHOD ASCII '/pros/unix' 0"),
    );
    assert.ok(lines.some((l) => l.direction === 'receive' && l.text === AFTP));
    assert.ok(lines.some((l) => l.text.startsWith('the Prospero access method: redirect 1 to ftp://127.0.0.1:2121/')));
  });
});

test('RFC 1738 3.11: a GOPHER access method (with the value type SEQUENCE) leads to pygopherd', async () => {
  await withServer({}, async (s) => {
    const r = await open(url(s, '/pros/hello'), OPTS);
    assert.equal(r.meta.url, 'gopher://127.0.0.1:7070/0/hello.txt');
    assert.equal((await readAll(r.body)).toString(), readFileSync(join(GOPHER_ROOT(), 'hello.txt'), 'latin1'));
  });
});

test('RFC 1738 3.11: an access method that is no URL (NFS) is passed over for the next one', async () => {
  await withServer({}, async (s) => {
    const r = await open(url(s, '/pros/nfs-first'), OPTS);
    assert.equal(r.meta.url, 'gopher://127.0.0.1:7070/0/hello.txt');
    await readAll(r.body);
  });
});

test('followRedirects: false gives the access URLs as text/uri-list (RFC 2483), comments for the others', async () => {
  await withServer({}, async (s) => {
    const r = await open(url(s, '/pros/nfs-first'), { ...OPTS, followRedirects: false });
    assert.equal(r.meta.contentType, 'text/uri-list');
    const text = (await readAll(r.body)).toString();
    assert.equal(r.meta.size, Buffer.byteLength(text));
    assert.equal(
      text,
      `# the access methods of prospero://127.0.0.1:${s.port}//pros/nfs-first (RFC 1738 3.11)\r\n` +
        "# NFS INTERNET-D fs.example ASCII 'pub/x' '/auto/gum': the NFS access method needs a mount of the server file system\r\n" +
        'gopher://127.0.0.1:7070/0/hello.txt\r\n',
    );
  });
});

test('RFC 1738 3.11: the default policy follows the access method (the scheme means another URL), but no further change of scheme', async () => {
  await withServer({}, async (s) => {
    const lines: TranscriptLine[] = [];
    const r = await open(url(s, '/pros/unix'), { gateway: false, timeout: 3000, transcript: (l) => lines.push(l) });
    assert.ok(!('redirect' in r));
    assert.equal(r.meta.scheme, 'ftp');
    await r.body.cancel();
    assert.ok(lines.some((l) => /the Prospero access method: redirect 1 to ftp:/.test(l.text)));
    const u = parse(url(s, '/pros/unix'));
    const ftp = parse('ftp://127.0.0.1:2121/x');
    assert.equal(countsAsCrossScheme(u, ftp), false);
    assert.equal(countsAsCrossScheme(ftp, parse('gopher://127.0.0.1:7070/0x')), true);
  });
});

test('no access method that is a URL, NONE-FOUND, FAILURE NOT-FOUND: typed errors', async () => {
  await withServer({}, async (s) => {
    const a = await rejects(open(url(s, '/pros/nfs-only'), OPTS));
    assert.equal(a.code, 'prospero-no-access-method');
    assert.match(a.message, /NFS INTERNET-D fs\.example/);
    const b = await rejects(open(url(s, '/pros/empty'), OPTS));
    assert.equal(b.code, 'prospero-no-access-method');
    assert.match(b.message, /names no access method/);
    const c = await rejects(open(url(s, '/no/such'), OPTS));
    assert.equal(c.code, 'not-found');
    assert.match(c.message, /FAILURE NOT-FOUND OBJECT/);
  });
});

test('Prospero v5 4.2: FORWARDED sends the client to the object at its new server', async () => {
  await withServer({}, async (target) => {
    const fw = `FORWARDED INTERNET-D 127.0.0.1(${target.port}) ASCII '/pros/unix' 0`;
    await withServer({ objects: { '/old/name': [fw] } }, async (s) => {
      const lines: TranscriptLine[] = [];
      const got = await accessMethods(parse(url(s, '/old/name')), { ...OPTS, transcript: (l) => lines.push(l) });
      assert.equal(got.methods[0].url?.href, 'ftp://127.0.0.1:2121/pub/unix.txt;type=a');
      assert.deepEqual(target.requests, ["VERSION 5\nGET-OBJECT-INFO ACCESS-METHOD ASCII '/pros/unix' 0\n"]);
      assert.ok(lines.some((l) => /^FORWARDED: asking prospero:\/\/127\.0\.0\.1:\d+\/\/pros\/unix/.test(l.text)));
    });
  });
});

test("RFC 1738 3.11: OBJECT-VERSION and the draft's %00 version are sent as the object version", async () => {
  await withServer({ objects: {} }, async (s) => {
    await rejects(open(`prospero://127.0.0.1:${s.port}/a%20b;OBJECT-VERSION=3`, OPTS));
    await rejects(open(`prospero://127.0.0.1:${s.port}/x%007`, OPTS));
    assert.deepEqual(s.requests, [
      "VERSION 5\nGET-OBJECT-INFO ACCESS-METHOD ASCII 'a b' 3\n",
      'VERSION 5\nGET-OBJECT-INFO ACCESS-METHOD ASCII x 7\n',
    ]);
  });
});

// --- ARDP faults (Prospero v5 appendix B) ---

test('ARDP: a long reply in many packets, some sent twice, in reverse order: reassembled', async () => {
  await withServer({ packetSize: 40, duplicate: true, reverse: true }, async (s) => {
    const got = await accessMethods(parse(url(s, '/pros/long')), OPTS);
    assert.equal(got.methods.length, 1);
    assert.equal(got.methods[0].url?.href, 'ftp://127.0.0.1:2121/pub/unix.txt;type=a');
  });
});

test('ARDP: the first reply packet lost: the client sends again and gets the reply', async () => {
  await withServer({ drop: (_seq, attempt) => attempt === 1 }, async (s) => {
    const lines: TranscriptLine[] = [];
    const t0 = Date.now();
    const got = await accessMethods(parse(url(s, '/pros/unix')), {
      ...OPTS,
      timeout: 2000,
      transcript: (l) => lines.push(l),
    });
    assert.equal(got.methods.length, 2);
    assert.ok(Date.now() - t0 < 2000);
    assert.ok(lines.some((l) => /^ARDP: no progress in 250 ms, sending again/.test(l.text)));
    assert.equal(s.requests.length, 1); // the second request was recognised as the same
    assert.ok(s.datagrams.length >= 2);
  });
});

test('ARDP: a packet in the middle of a long reply lost: the acknowledgement asks for the rest', async () => {
  await withServer({ packetSize: 40, drop: (seq, attempt) => seq === 3 && attempt === 1 }, async (s) => {
    const got = await accessMethods(parse(url(s, '/pros/long')), { ...OPTS, timeout: 2000 });
    assert.equal(got.methods.length, 1);
    // the client's second datagram says it holds packets 1 and 2 (received-through, ARDP octets 7-8)
    assert.ok(s.datagrams.slice(1).some((d) => d.readUInt16BE(7) === 2));
  });
});

test('ARDP: flag bit 7 (please acknowledge) gets an acknowledgement, packet number 0', async () => {
  await withServer({ packetSize: 40, askAck: true }, async (s) => {
    const got = await accessMethods(parse(url(s, '/pros/long')), OPTS);
    assert.equal(got.methods.length, 1);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(s.acks.length, 1);
    const total = Math.ceil(Buffer.byteLength(OBJECTS['/pros/long'].join('\n') + '\n') / 40);
    assert.equal(s.acks[0][1], total);
  });
});

test('ARDP: a server that never answers: a typed timeout within the limit, after retransmissions', async () => {
  // A limit of 1600 ms puts the retries 200 ms or more apart (200, 600, 1400 ms), so that a
  // timer delayed by a loaded machine still lands in its own slot; with 400 ms (50, 150, 350) CI
  // once saw a retry fall after the limit.
  await withServer({ silent: true }, async (s) => {
    const t0 = Date.now();
    const e = await rejects(open(url(s, '/pros/unix'), { ...OPTS, timeout: 1600 }));
    const took = Date.now() - t0;
    assert.equal(e.code, 'timeout');
    assert.match(e.message, /did not answer in time \(1600 ms of silence, 3 retransmissions/);
    assert.ok(took >= 1590 && took < 3000, `took ${took} ms`);
    // the request, then one datagram at each time of the schedule
    assert.deepEqual(retransmitTimes(1600), [200, 600, 1400]);
    assert.deepEqual(retransmitTimes(400), [50, 150, 350]);
    assert.equal(s.datagrams.length, 1 + retransmitTimes(1600).length);
  });
});

test('ARDP: a malformed datagram, a refusal: typed errors', async () => {
  const rows: Array<[string, (cid: number) => Uint8Array[], string]> = [
    ['version 1 (octet 0)', () => [Uint8Array.of(0x49, 0, 0)], 'ardp-malformed'],
    ['header longer than the datagram', () => [Uint8Array.of(20, 0, 1)], 'ardp-malformed'],
    ['header ends inside the connection id', (cid) => [Uint8Array.of(2, cid >> 8)], 'ardp-malformed'],
    [
      'option 1: connection refused',
      (cid) => [Uint8Array.of(13, cid >> 8, cid & 255, 0, 1, 0, 1, 0, 1, 0, 0, 0, 1)],
      'ardp-refused',
    ],
  ];
  for (const [what, raw, code] of rows) {
    await withServer({ raw }, async (s) => {
      const e = await rejects(open(url(s, '/pros/unix'), OPTS));
      assert.equal(e.code, code, what);
    });
  }
});

test('ARDP: a datagram of another connection id is ignored; an abort ends the exchange', async () => {
  await withServer({ raw: (cid) => [Uint8Array.of(3, (cid + 1) >> 8, (cid + 1) & 255, 0x41)] }, async (s) => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const e = await rejects(open(url(s, '/pros/unix'), { ...OPTS, signal: ac.signal }));
    assert.equal(e.code, 'aborted');
  });
});

test('the policy is consulted before any byte: a refused address sends nothing', async () => {
  await withServer({}, async (s) => {
    const e = await rejects(open(url(s, '/pros/unix'), { ...OPTS, policy: { refusePrivateAddresses: true } }));
    assert.equal(e.code, 'policy-refused');
    assert.equal(s.datagrams.length, 0);
  });
});

test('ARDP option 4: a redirect sends the request to the new address, which answers', async () => {
  await withServer({}, async (second) => {
    const redirect = (cid: number) => [
      Uint8Array.of(
        19,
        cid >> 8,
        cid & 255,
        0,
        0,
        0,
        0,
        0,
        1,
        0,
        0,
        0,
        4,
        127,
        0,
        0,
        1,
        second.port >> 8,
        second.port & 255,
      ),
    ];
    await withServer({ raw: redirect }, async (first) => {
      const lines: TranscriptLine[] = [];
      const got = await accessMethods(parse(url(first, '/pros/unix')), { ...OPTS, transcript: (l) => lines.push(l) });
      assert.equal(got.methods.length, 2);
      assert.equal(first.requests.length, 1);
      assert.equal(second.requests.length, 1);
      assert.ok(lines.some((l) => l.text === `ARDP: redirected to 127.0.0.1:${second.port}`));
    });
  });
});

test('ARDP octets 3-6: a request longer than 1250 octets goes in two packets, put together by the server', async () => {
  await withServer({ objects: {} }, async (s) => {
    const long = 'x'.repeat(2000);
    const e = await rejects(open(url(s, long), OPTS));
    assert.equal(e.code, 'not-found');
    assert.equal(s.datagrams.length, 2);
    assert.deepEqual(
      s.datagrams.map((d) => [d[0], d.readUInt16BE(3), d.readUInt16BE(5), d.length - 9]),
      [
        [9, 1, 2, 1250],
        [9, 2, 2, `VERSION 5\nGET-OBJECT-INFO ACCESS-METHOD ASCII ${long} 0\n`.length - 1250],
      ],
    );
    assert.equal(s.requests[0], `VERSION 5\nGET-OBJECT-INFO ACCESS-METHOD ASCII ${long} 0\n`);
  });
});

test('ARDP: 100 random datagrams carrying the connection id: a reply, a typed error or a timeout, never a crash', async () => {
  let seed = 1994;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const seen = new Set<string>();
  for (let i = 0; i < 100; i++) {
    const raw = (cid: number) => {
      const b = Uint8Array.from({ length: 1 + rand(40) }, () => rand(256));
      if (b.length >= 3) {
        b[1] = cid >> 8;
        b[2] = cid & 255;
      }
      if (rand(2) === 0 && b.length >= 13) b[0] = [3, 5, 7, 9, 11, 12, 13][rand(7)]; // a header that fits, half the time
      return [b];
    };
    await withServer({ raw }, async (s) => {
      try {
        await accessMethods(parse(url(s, '/pros/unix')), { ...OPTS, timeout: 60 });
        seen.add('ok');
      } catch (e) {
        assert.ok(e instanceof LocatorError, String(e));
        seen.add(e.code);
      }
    });
  }
  assert.ok(seen.has('ardp-malformed') && seen.size >= 3, [...seen].join(' '));
});

test('ARDP octets 9-10: a server-requested wait holds the retries back, not the time limit', async () => {
  const wait = (cid: number) => [Uint8Array.of(11, cid >> 8, cid & 255, 0, 0, 0, 0, 0, 1, 0, 1)];
  await withServer({ raw: wait }, async (s) => {
    const lines: TranscriptLine[] = [];
    const e = await rejects(open(url(s, '/pros/unix'), { ...OPTS, timeout: 600, transcript: (l) => lines.push(l) }));
    assert.equal(e.code, 'timeout');
    assert.match(e.message, /0 retransmissions/);
    assert.equal(s.datagrams.length, 1);
    assert.ok(lines.some((l) => l.text === 'ARDP: the server asks for 1 s before any retry'));
  });
});
