// RFC 1738 3.4.9 and 6 (issue 10, "A Gopher+ form smuggles lines to any port"): the data block of
// a filled-in Gopher+ form is several request lines that the URL writes. It goes only to the
// default port 70 or a port the policy allows that is no other protocol's, never after a
// redirect, and only to a server that announced the form (the client asks for +ASK first).
// Listeners on loopback count what arrives.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { join } from 'node:path';
import { open } from '../../../src/clients/index.js';
import { explain } from '../../../src/operations/build.js';
import { LocatorError } from '../../../src/core/errors.js';
import { PolicyError } from '../../../src/operations/policy.js';
import type { TranscriptLine } from '../../../src/clients/types.js';
import { fakeServer } from './fakes.js';
import { rejects, runCli } from '../../helpers.js';

/** The URL of issue 10: Redis commands as the "values" of a form, to port 6380. */
const SMUGGLE =
  'gopher://127.0.0.1:6380/1x%09%09+%091%0D%0A+-1%0D%0ASET%20pwned%201%0D%0ACONFIG%20SET%20dir%20/tmp%0D%0AFLUSHALL%0D%0A.%0D%0A';
const FAST = { gateway: false as const, timeout: 2000 };

interface Listener {
  port: number;
  connections: number;
  bytes: number;
  received: string;
  close(): Promise<void>;
}

/** A listener that speaks like Redis: one "-ERR" line per line received, never a Gopher+ header. */
function listen(port: number): Promise<Listener> {
  return new Promise((resolve, reject) => {
    const sockets = new Set<net.Socket>();
    const l = { port, connections: 0, bytes: 0, received: '', close: async () => {} } as Listener;
    const server = net.createServer((s) => {
      l.connections++;
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
      s.on('data', (d) => {
        l.bytes += d.length;
        l.received += d.toString('latin1');
        for (let i = 0; i < d.toString('latin1').split('\n').length - 1; i++) s.write('-ERR unknown command\r\n');
      });
    });
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => {
      l.port = (server.address() as net.AddressInfo).port;
      l.close = () =>
        new Promise((r) => {
          for (const s of sockets) s.destroy();
          server.close(() => r());
        });
      resolve(l);
    });
  });
}

const settle = () => new Promise((r) => setTimeout(r, 50));

test('issue 10: the Gopher+ form to port 6380 is refused by open() before any connection: 0 connections, 0 bytes', async () => {
  const l = await listen(6380);
  try {
    const e = await rejects(open(SMUGGLE, FAST));
    assert.ok(e instanceof PolicyError, String(e));
    assert.equal(e.code, 'policy-refused');
    assert.equal(e.diagnostic.code, 'gopher-plus-data-block');
    assert.equal(e.diagnostic.offset, SMUGGLE.indexOf('%0D'));
    assert.equal(e.diagnostic.section, 'RFC 1738 3.4.9, 6');
    // violations allowed or not: the data block is a refusal that guards the protocol
    const again = await rejects(open(SMUGGLE, { ...FAST, policy: { allowViolations: true } }));
    assert.equal((again as PolicyError).diagnostic.code, 'gopher-plus-data-block');
    await settle();
    assert.deepEqual([l.connections, l.bytes], [0, 0], 'nothing arrived at the listener');
  } finally {
    await l.close();
  }
});

test('issue 10: `locator fetch` of the same URL exits 1 with the refusal, and nothing arrives', async () => {
  const l = await listen(6380);
  try {
    const r = await runCli(['fetch', SMUGGLE]);
    assert.equal(r.code, 1, r.err);
    assert.equal(r.out, '');
    assert.match(r.err, /gopher-plus-data-block/);
    await settle();
    assert.deepEqual([l.connections, l.bytes], [0, 0], 'nothing arrived at the listener');
  } finally {
    await l.close();
  }
});

test('the port allowed explicitly: the client asks for the +ASK form first, and a server that announces none never gets the lines', async () => {
  const l = await listen(6380);
  try {
    const e = await rejects(open(SMUGGLE, { ...FAST, policy: { allowPorts: [6380] } }));
    assert.equal(e.code, 'protocol-error');
    await settle();
    assert.equal(l.connections, 1);
    assert.equal(l.received, 'x\t!+ASK\r\n', 'only the one-line question was sent');
    assert.doesNotMatch(l.received, /SET|FLUSHALL|CONFIG/);
  } finally {
    await l.close();
  }
});

test('never after a redirect: a Gopher "URL:" link to a form is refused, even to a port the policy allows', async () => {
  const l = await listen(0);
  try {
    // The link's target, written in the selector with its "%" encoded as %25.
    const target = `gopher://127.0.0.1:${l.port}/1x%09%09+%091%0D%0A+-1%0D%0Av%0D%0A.%0D%0A`;
    const link = `gopher://127.0.0.1:${l.port}/hURL:${target.replace(/%/g, '%25')}`;
    const lines: TranscriptLine[] = [];
    const e = await rejects(
      open(link, { ...FAST, policy: { allowPorts: [l.port] }, transcript: (t) => lines.push(t) }),
    );
    assert.ok(e instanceof PolicyError, String(e));
    assert.equal(e.diagnostic.code, 'gopher-plus-data-block');
    assert.match(e.message, /redirects/);
    assert.ok(lines.some((t) => /redirect 1 to/.test(t.text)));
    // the same target opened directly, with the port allowed, does reach the server (the rule is the redirect)
    await rejects(open(target, { ...FAST, policy: { allowPorts: [l.port] } }));
    await settle();
    assert.equal(l.connections, 1);
    assert.equal(l.received, 'x\t!+ASK\r\n');
  } finally {
    await l.close();
  }
});

/** A Gopher+ server whose item has an +ASK form of `asks` questions; the answer to the data block is "ok". */
function formServer(asks: string[]) {
  return fakeServer((socket, received) => {
    if (received.endsWith('\t!+ASK\r\n')) {
      socket.end(
        `+-2\r\n+INFO: 1Form\tx\t127.0.0.1\t70\t?\r\n+ASK:\r\n Note: Fill in\r\n${asks.map((a) => ` ${a}\r\n`).join('')}`,
      );
      return true;
    }
    if (!received.endsWith('\r\n.\r\n')) return false;
    socket.end('+-1\r\nok\r\n.\r\n');
    return true;
  });
}

test('allowed: a Gopher+ server that announces the form on a port the policy allows gets the data block; the transcript is explain()', async () => {
  const f = await formServer(['Ask: Key?', 'Ask: Value?']);
  try {
    const url = `gopher://127.0.0.1:${f.port}/1x%09%09+%091%0D%0A+-1%0D%0Ak%0D%0Av%0D%0A.%0D%0A`;
    const lines: TranscriptLine[] = [];
    const r = await open(url, { ...FAST, policy: { allowPorts: [f.port] }, transcript: (t) => lines.push(t) });
    assert.equal(Buffer.from(await new Response(r.body).arrayBuffer()).toString(), 'ok\r\n');
    assert.deepEqual(f.received, ['x\t!+ASK\r\n', 'x\t+\t1\r\n+-1\r\nk\r\nv\r\n.\r\n']);
    assert.deepEqual(
      lines.filter((t) => t.direction === 'send').map((t) => t.text),
      explain(url).steps,
    );
  } finally {
    await f.close();
  }
});

test('a form whose values do not match the questions the server announced is a typed error, and the block is not sent', async () => {
  const f = await formServer(['Ask: One?', 'Ask: Two?', 'Ask: Three?']);
  try {
    const url = `gopher://127.0.0.1:${f.port}/1x%09%09+%091%0D%0A+-1%0D%0Ak%0D%0Av%0D%0A.%0D%0A`;
    const e = await rejects(open(url, { ...FAST, policy: { allowPorts: [f.port] } }));
    assert.ok(e instanceof LocatorError);
    assert.equal(e.code, 'invalid-field');
    assert.match(e.message, /3 questions, but the URL's data block holds 2 values/);
    assert.deepEqual(f.received, ['x\t!+ASK\r\n']);
  } finally {
    await f.close();
  }
});
