// Faults the real servers will not produce, against in-process fakes (fakes.ts): a Gopher+ body
// cut short, stalls (the 300 ms timeout fires), garbage headers, a "+-1" reply without its "."
// line, cancels and aborts; and the +ASK exchange pygopherd does not process. Every test
// asserts the typed error and that the client left no socket open.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open } from '../../../src/clients/index.js';
import { explain } from '../../../src/operations/build.js';
import { LocatorError } from '../../../src/core/errors.js';
import { GopherError, type AskQuestion, type GopherOpenOptions } from '../../../src/clients/gopher/client.js';
import type { TranscriptLine } from '../../../src/clients/types.js';
import { answering, fakeServer, withFake, type FakeServer } from './fakes.js';
import { rejects } from '../../helpers.js';

const FAST = { gateway: false as const, timeout: 300 };

const readAll = async (body: ReadableStream<Uint8Array>) => Buffer.from(await new Response(body).arrayBuffer());

test('a Gopher+ body cut short (fewer octets than "+100" announced) is connection-closed', async () => {
  await withFake(await answering('+100\r\n' + 'x'.repeat(40)), async (f) => {
    const r = await open(`gopher://127.0.0.1:${f.port}/0/doc%09%09+`, FAST);
    assert.equal(r.meta.size, 100);
    const e = await rejects(readAll(r.body));
    assert.equal(e.code, 'connection-closed');
    assert.match(e.message, /announced 100 octets \("\+100"\) and closed the connection after 40/);
  });
});

test('octets past the announced length are not part of the body', async () => {
  await withFake(await answering('+5\r\nhelloEXTRA'), async (f) => {
    const r = await open(`gopher://127.0.0.1:${f.port}/0/doc%09%09+`, FAST);
    assert.equal((await readAll(r.body)).toString(), 'hello');
  });
});

test('a stall before any reply: the 300 ms timeout fires', async () => {
  await withFake(await fakeServer(() => true), async (f) => {
    const t0 = Date.now();
    const e = await rejects(open(`gopher://127.0.0.1:${f.port}/0/doc`, FAST));
    assert.equal(e.code, 'timeout');
    assert.ok(Date.now() - t0 < 3000);
    assert.equal(f.received[0], '/doc\r\n');
  });
});

test('a stall before the Gopher+ header, and in the middle of a Gopher+ body: timeout', async () => {
  await withFake(await fakeServer(() => true), async (f) => {
    assert.equal((await rejects(open(`gopher://127.0.0.1:${f.port}/0/doc%09%09+`, FAST))).code, 'timeout');
  });
  await withFake(await answering('+100\r\n0123456789', { end: false }), async (f) => {
    const r = await open(`gopher://127.0.0.1:${f.port}/0/doc%09%09+`, FAST);
    assert.equal((await rejects(readAll(r.body))).code, 'timeout');
  });
});

test('a stall in the middle of a plain Gopher reply: timeout', async () => {
  await withFake(await answering('Hello, then silence', { end: false }), async (f) => {
    const r = await open(`gopher://127.0.0.1:${f.port}/0/doc`, FAST);
    assert.equal((await rejects(readAll(r.body))).code, 'timeout');
  });
});

test('garbage where the Gopher+ header is due is a protocol-error', async () => {
  for (const garbage of [
    'HTTP/1.0 200 OK\r\n\r\n',
    '+abc\r\n',
    '+-3\r\nx',
    '+' + '1'.repeat(50) + '\r\n',
    '\x00\x01\x02',
  ]) {
    await withFake(await answering(garbage), async (f) => {
      const e = await rejects(open(`gopher://127.0.0.1:${f.port}/0/doc%09%09+`, FAST));
      assert.equal(e.code, 'protocol-error', JSON.stringify(garbage));
    });
  }
});

test('a reply closed before or inside the Gopher+ header is connection-closed', async () => {
  for (const cut of ['', '+12']) {
    await withFake(await answering(cut), async (f) => {
      const e = await rejects(open(`gopher://127.0.0.1:${f.port}/0/doc%09%09!`, FAST));
      assert.equal(e.code, 'connection-closed', JSON.stringify(cut));
    });
  }
});

test('"+-1": the data ends at the "." line, dot-stuffing undone; without the "." line: connection-closed', async () => {
  await withFake(await answering('+-1\r\nline\r\n..dot\r\n.\r\nIGNORED'), async (f) => {
    const r = await open(`gopher://127.0.0.1:${f.port}/0/doc%09%09+`, FAST);
    assert.equal(r.meta.size, null);
    assert.equal((await readAll(r.body)).toString(), 'line\r\n.dot\r\n');
  });
  await withFake(await answering('+-1\r\nline\r\nno end'), async (f) => {
    const r = await open(`gopher://127.0.0.1:${f.port}/0/doc%09%09+`, FAST);
    const e = await rejects(readAll(r.body));
    assert.equal(e.code, 'connection-closed');
    assert.match(e.message, /"\." line/);
  });
});

test('Gopher+ error replies of each length form become GopherErrors (Gopher+ 2.3)', async () => {
  const rows: Array<[string, number | null, string]> = [
    ['--1\r\n2 <root@fake.example>\r\nToo busy.\r\n.\r\n', 2, 'Too busy.'],
    ['--2\r\n3 0moved\t/new\tother.example\t70\r\n', 3, ''],
    [`-${'1 <a@b>\r\nGone.\r\n'.length}\r\n1 <a@b>\r\nGone.\r\n`, 1, 'Gone.'],
  ];
  for (const [reply, n, message] of rows) {
    await withFake(await answering(reply), async (f) => {
      const e = await rejects(open(`gopher://127.0.0.1:${f.port}/0/doc%09%09+`, FAST));
      assert.ok(e instanceof GopherError, reply);
      assert.equal(e.code, 'gopher-error');
      assert.equal(e.errorNumber, n);
      assert.equal(e.text, message);
    });
  }
});

test('a type-3 line first and other lines after it is data, not an error', async () => {
  const menu = '3Some item failed\t\terror.host\t1\r\n0Still here\t/x\t127.0.0.1\t70\r\n.\r\n';
  await withFake(await answering(menu), async (f) => {
    const r = await open(`gopher://127.0.0.1:${f.port}/1/dir`, FAST);
    assert.equal((await readAll(r.body)).toString(), menu);
  });
  await withFake(await answering('3 apples and 2 pears\r\n'), async (f) => {
    const r = await open(`gopher://127.0.0.1:${f.port}/0/fruit`, FAST);
    assert.equal((await readAll(r.body)).toString(), '3 apples and 2 pears\r\n');
  });
  await withFake(await answering('3Not here\t\terror.host\t1\r\n.\r\n'), async (f) => {
    const e = await rejects(open(`gopher://127.0.0.1:${f.port}/1/dir`, FAST));
    assert.ok(e instanceof GopherError);
    assert.equal(e.text, 'Not here');
  });
});

test('RFC 1436 3.8: a menu none of whose lines is a menu line is a protocol-error; a document of the same text is data', async () => {
  const page = 'Error: File or directory not found! (null)\r\n____\r\n';
  await withFake(await answering(page), async (f) => {
    const e = await rejects(open(`gopher://127.0.0.1:${f.port}/1/nomenu`, FAST));
    assert.ok(e instanceof LocatorError);
    assert.equal(e.code, 'protocol-error');
    assert.match(
      e.message,
      /is not a menu: no line of it is a menu line \(the first: a line with no TAB is plain text/,
    );
  });
  await withFake(await answering(page), async (f) => {
    const e = await rejects(open(`gopher://127.0.0.1:${f.port}/7/search%09x`, FAST));
    assert.equal((e as LocatorError).code, 'protocol-error', 'a search answers with a menu too');
  });
  await withFake(await answering(page), async (f) => {
    const r = await open(`gopher://127.0.0.1:${f.port}/0/page.txt`, FAST);
    assert.equal((await readAll(r.body)).toString(), page);
  });
  // The first line is read whole however the server splits it, and given back untouched.
  const menu = '0Hello\t/hello.txt\t127.0.0.1\t70\r\n.\r\n';
  const split = await fakeServer((socket, received) => {
    if (!received.includes('\r\n')) return false;
    socket.write('0Hel');
    setTimeout(() => socket.end(menu.slice(4)), 20);
    return true;
  });
  await withFake(split, async (f) => {
    const r = await open(`gopher://127.0.0.1:${f.port}/1/`, FAST);
    assert.equal((await readAll(r.body)).toString(), menu);
  });
});

test('cancelling the body closes the connection', async () => {
  await withFake(await answering('x'.repeat(1 << 20), { end: false }), async (f) => {
    const r = await open(`gopher://127.0.0.1:${f.port}/9/big`, FAST);
    const reader = r.body.getReader();
    assert.ok(!(await reader.read()).done);
    await reader.cancel();
  });
});

test('an AbortSignal ends the transfer with aborted', async () => {
  await withFake(await answering('partial', { end: false }), async (f) => {
    const ac = new AbortController();
    const r = await open(`gopher://127.0.0.1:${f.port}/0/doc`, { ...FAST, timeout: 5000, signal: ac.signal });
    const reader = r.body.getReader();
    await reader.read();
    setTimeout(() => ac.abort(), 20);
    const e = await rejects(reader.read());
    assert.equal(e.code, 'aborted');
  });
});

test('maxBytes: a larger body fails with too-large', async () => {
  await withFake(await answering('+5000\r\n' + 'y'.repeat(5000)), async (f) => {
    const r = await open(`gopher://127.0.0.1:${f.port}/9/doc%09%09+`, { ...FAST, maxBytes: 1000 });
    assert.equal((await rejects(readAll(r.body))).code, 'too-large');
  });
});

test('no byte is sent for a URL the policy refuses, nor for a search with no search string', async () => {
  await withFake(await answering('never'), async (f) => {
    assert.equal((await rejects(open(`gopher://127.0.0.1:${f.port}/0a b`, FAST))).code, 'policy-refused');
    assert.equal((await rejects(open(`gopher://127.0.0.1:${f.port}/7search`, FAST))).code, 'needs-input');
    assert.equal((await rejects(open(`gopher://127.0.0.1:${f.port}/0form%09%09?`, FAST))).code, 'needs-input');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(f.connections, 0);
  });
});

// ---------------------------------------------------------------------------------------------
// The +ASK exchange (RFC 1738 3.4.5, 3.4.9), which pygopherd does not process: a fake Gopher+
// server that does, so that both exchanges of explain() are checked byte for byte.

function formServer(): Promise<FakeServer> {
  return fakeServer((socket, received) => {
    if (received.endsWith('\t!+ASK\r\n')) {
      socket.end(
        '+-2\r\n+INFO: 0Form\t/form\t127.0.0.1\t70\t?\r\n+ASK:\r\n Note: Fill in, please\r\n Ask: Name?\tnobody\r\n' +
          ' Choose: Colour\tred\tblue\r\n AskP: Password\r\n AskL: Comments\r\n',
      );
      return true;
    }
    if (!received.endsWith('\r\n.\r\n')) return false;
    socket.end('+-1\r\nThank you\r\n.\r\n');
    return true;
  });
}

test('"?": the +ASK attribute is fetched, the form filled in by options.ask, the answers sent as a "+-1" block', async () => {
  await withFake(await formServer(), async (f) => {
    const url = `gopher://127.0.0.1:${f.port}/0/form%09%09?`;
    let questions: AskQuestion[] = [];
    const lines: TranscriptLine[] = [];
    const options: GopherOpenOptions = {
      ...FAST,
      transcript: (l) => lines.push(l),
      ask: async (q) => {
        questions = q;
        return ['Ada', 'blue', 's3cret', 'first line\n.starts with a dot'];
      },
    };
    const r = await open(url, options);
    assert.equal((await readAll(r.body)).toString(), 'Thank you\r\n');
    assert.deepEqual(questions, [
      { kind: 'Ask', prompt: 'Name?', values: ['nobody'] },
      { kind: 'Choose', prompt: 'Colour', values: ['red', 'blue'] },
      { kind: 'AskP', prompt: 'Password', values: [] },
      { kind: 'AskL', prompt: 'Comments', values: [] },
    ]);
    const steps = explain(url).steps;
    assert.equal(f.received[0], '/form\t!+ASK\r\n');
    assert.equal(steps[0], '/form<TAB>!+ASK<CR><LF>');
    assert.equal(
      f.received[1],
      '/form\t+\t1\r\n+-1\r\nAda\r\nblue\r\ns3cret\r\nfirst line\r\n..starts with a dot\r\n.\r\n',
    );
    assert.ok(steps[1].startsWith('/form<TAB>+<TAB>1<CR><LF>+-1<CR><LF>'));
    const sent = lines.filter((l) => l.direction === 'send').map((l) => l.text);
    assert.equal(sent.length, 2);
    assert.ok(!sent[1].includes('s3cret'), 'an AskP answer is hidden in the transcript');
    assert.ok(sent[1].includes('****'));
  });
});

test('"?": wrong number of answers, a multi-line answer to Ask, and no +ASK block are typed errors', async () => {
  await withFake(await formServer(), async (f) => {
    const url = `gopher://127.0.0.1:${f.port}/0/form%09%09?`;
    const few = await rejects(open(url, { ...FAST, ask: async () => ['only one'] } as GopherOpenOptions));
    assert.equal(few.code, 'invalid-field');
    const multi = await rejects(
      open(url, { ...FAST, ask: async () => ['a\nb', 'red', 'p', 'c'] } as GopherOpenOptions),
    );
    assert.equal(multi.code, 'invalid-field');
  });
  await withFake(
    await answering('+-2\r\n+INFO: 0Doc\t/doc\t127.0.0.1\t70\t+\r\n+VIEWS:\r\n text/plain: <1k>\r\n'),
    async (f) => {
      const e = await rejects(
        open(`gopher://127.0.0.1:${f.port}/0/doc%09%09?`, { ...FAST, ask: async () => [] } as GopherOpenOptions),
      );
      assert.equal(e.code, 'protocol-error');
      assert.match(e.message, /no \+ASK block/);
    },
  );
});

test('a filled-in form written in the URL (RFC 1738 3.4.9) is sent exactly as written, after the server announced the form', async () => {
  const f = await fakeServer((socket, received) => {
    if (received.endsWith('\t!+ASK\r\n')) {
      socket.end(
        '+-2\r\n+INFO: 0Form\ta_gopher_selector\t127.0.0.1\t70\t?\r\n+ASK:\r\n Ask: First?\r\n Ask: Second?\r\n',
      );
      return true;
    }
    if (!received.endsWith('\r\n.\r\n')) return false;
    socket.end('+2\r\nok');
    return true;
  });
  await withFake(f, async () => {
    const url = `gopher://127.0.0.1:${f.port}/0a_gopher_selector%09%09+%091%0D%0A+-1%0D%0Aask_item1_value%0D%0Aask_item2_value%0D%0A.%0D%0A`;
    // off port 70 a data block goes only to a port the policy allows (gopher-plus-data-block)
    const r = await open(url, { ...FAST, policy: { allowPorts: [f.port] } });
    assert.equal((await readAll(r.body)).toString(), 'ok');
    assert.equal(f.received[0], 'a_gopher_selector\t!+ASK\r\n');
    assert.equal(f.received[1], 'a_gopher_selector\t+\t1\r\n+-1\r\nask_item1_value\r\nask_item2_value\r\n.\r\n');
  });
});
