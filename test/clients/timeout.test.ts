// One meaning of `timeout` for every client (issue 10): a positive number of milliseconds,
// Infinity for no limit, the default 30 s; 0, negative, NaN are RangeErrors naming the option,
// a non-number a TypeError; values past 2^31-1 ms (Node's longest timer) work. Also the HTTP
// body cut short (connection-closed) and a gopher search prompt that throws (needs-input).
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from '../../src/clients/index.js';
import { checkTimeout, startTimer, MAX_TIMER, DEFAULT_TIMEOUT } from '../../src/clients/connection.js';
import { LocatorError } from '../../src/core/errors.js';
import type { OpenOptions } from '../../src/clients/types.js';
import { readAll } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'locator-timeout-'));
writeFileSync(join(dir, 't.txt'), 'local\n');

/** One object per client, from the real servers (and a local file). */
const URLS = {
  ftp: 'ftp://127.0.0.1:2121/pub/unix.txt',
  gopher: 'gopher://127.0.0.1:7070/0/hello.txt',
  http: 'http://127.0.0.1:8080/hello.txt',
  file: `file://${dir}/t.txt`,
};
const BASE: OpenOptions = { gateway: false, email: 'locator-test@example.test' };

test('checkTimeout: undefined is the default; positive numbers and Infinity pass; the rest is refused', () => {
  assert.equal(checkTimeout(undefined), DEFAULT_TIMEOUT);
  for (const ok of [1, 0.5, 30_000, MAX_TIMER, 2 ** 31, 3e9, Infinity]) assert.equal(checkTimeout(ok), ok);
  for (const bad of [0, -0, -1, NaN, -Infinity])
    assert.throws(
      () => checkTimeout(bad),
      (e: unknown) => e instanceof RangeError && /timeout/.test(e.message),
    );
  for (const bad of ['100', null, true, 10n])
    assert.throws(
      () => checkTimeout(bad),
      (e: unknown) => e instanceof TypeError && /timeout/.test(e.message),
    );
});

test('startTimer: a delay past 2^31-1 ms is chained (fires once, at the end); Infinity never fires', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    let fired = 0;
    startTimer(3e9, () => fired++);
    mock.timers.tick(MAX_TIMER);
    assert.equal(fired, 0);
    mock.timers.tick(3e9 - MAX_TIMER - 1);
    assert.equal(fired, 0);
    mock.timers.tick(1);
    assert.equal(fired, 1);
    const never = startTimer(Infinity, () => fired++);
    mock.timers.tick(MAX_TIMER * 3);
    assert.equal(fired, 1);
    never.clear();
    const cleared = startTimer(3e9, () => fired++);
    mock.timers.tick(MAX_TIMER + 1);
    cleared.clear();
    mock.timers.tick(3e9);
    assert.equal(fired, 1);
  } finally {
    mock.timers.reset();
  }
});

for (const [client, url] of Object.entries(URLS)) {
  test(`${client}: timeout 0, -1, NaN are RangeErrors naming the option; "100" a TypeError`, async () => {
    for (const bad of [0, -1, NaN, -Infinity]) {
      await assert.rejects(
        open(url, { ...BASE, timeout: bad }),
        (e: unknown) => e instanceof RangeError && /timeout/.test(e.message),
        `${client} ${bad}`,
      );
    }
    await assert.rejects(
      open(url, { ...BASE, timeout: '100' as never }),
      (e: unknown) => e instanceof TypeError && /timeout/.test(e.message),
    );
  });

  test(`${client}: timeout 2^31, 3e9 and Infinity do not fire at once: the object arrives`, async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      for (const t of [2 ** 31, 3e9, Infinity, MAX_TIMER]) {
        const r = await open(url, { ...BASE, timeout: t });
        assert.ok((await readAll(r.body)).length > 0, `${client} ${t}`);
      }
    } finally {
      process.off('warning', onWarning);
    }
    assert.deepEqual(warnings, [], 'no TimeoutOverflowWarning');
  });
}

/** A listener that accepts and stays silent: the clients must give up after `timeout`. */
async function silent(): Promise<{ port: number; close(): void }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

test('a silent server: ftp, gopher and http all fail with timeout after a small timeout', async () => {
  const s = await silent();
  try {
    const policy = { allowPorts: [s.port] };
    for (const url of [
      `ftp://127.0.0.1:${s.port}/x.txt`,
      `gopher://127.0.0.1:${s.port}/0/x`,
      `http://127.0.0.1:${s.port}/x`,
    ]) {
      await assert.rejects(
        open(url, { ...BASE, policy, timeout: 150 }),
        (e: unknown) => e instanceof LocatorError && e.code === 'timeout',
        url,
      );
    }
  } finally {
    s.close();
  }
});

test('HTTP: a body shorter than its Content-Length is connection-closed (not connect-failed), naming both counts', async () => {
  const server = net.createServer((c) => {
    c.on('error', () => {});
    c.once('data', () =>
      c.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\nContent-Type: text/plain\r\n\r\nonly 12 here'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  try {
    const r = await open(`http://127.0.0.1:${port}/short`, { ...BASE, policy: { allowPorts: [port] }, timeout: 5000 });
    assert.equal(r.meta.size, 100);
    await assert.rejects(
      readAll(r.body),
      (e: unknown) =>
        e instanceof LocatorError &&
        e.code === 'connection-closed' &&
        /100 octets/.test(e.message) &&
        /after 12\b/.test(e.message),
    );
  } finally {
    server.close();
  }
});

test('HTTP: a chunked body without its last chunk is connection-closed too', async () => {
  const server = net.createServer((c) => {
    c.on('error', () => {});
    c.once('data', () => c.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  try {
    const r = await open(`http://127.0.0.1:${port}/chunked`, {
      ...BASE,
      policy: { allowPorts: [port] },
      timeout: 5000,
    });
    await assert.rejects(readAll(r.body), (e: unknown) => e instanceof LocatorError && e.code === 'connection-closed');
  } finally {
    server.close();
  }
});

test('gopher: a search prompt that throws is needs-input with the cause; one that gives no string too', async () => {
  const boom = new Error('the terminal went away');
  await assert.rejects(
    open('gopher://127.0.0.1:7070/7/search.sh', {
      ...BASE,
      search: async () => {
        throw boom;
      },
    }),
    (e: unknown) =>
      e instanceof LocatorError && e.code === 'needs-input' && /terminal went away/.test(e.message) && e.cause === boom,
  );
  await assert.rejects(
    open('gopher://127.0.0.1:7070/7/search.sh', {
      ...BASE,
      search: (() => {
        throw 'plain';
      }) as never,
    }),
    (e: unknown) => e instanceof LocatorError && e.code === 'needs-input',
  );
  await assert.rejects(
    open('gopher://127.0.0.1:7070/7/search.sh', { ...BASE, search: async () => undefined as never }),
    (e: unknown) => e instanceof LocatorError && e.code === 'needs-input',
  );
});
