// The bounds of check() against hostile servers (fakes on loopback): a Gopher menu that never
// ends, a menu of nothing but info lines, an FTP listing of 10,000 names, a server that trickles
// its answer one byte at a time under the silence timeout. check() must end within seconds, read
// a menu or listing only as far as --max-urls needs (closing the connection then), open no more
// sessions than the URLs it checks, and cut a probe at its total deadline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { check, type CheckOptions, type CheckResult, type CheckInput } from '../../src/check/index.js';
import { FakeFtp, standard } from '../clients/ftp/fakes.js';

async function all(inputs: CheckInput[], options: CheckOptions): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  for await (const r of check(inputs, options)) out.push(r);
  return out;
}

interface GopherFake {
  port: number;
  /** Octets written on the menu connections, in all. */
  menuOctets: () => number;
  /** Menu connections the client closed (not the fake). */
  closedByClient: () => number;
  /** Requests received (selectors). */
  requests: string[];
  stop: () => Promise<void>;
}

/**
 * A Gopher server whose menu ("" or "/") is written by `menuLine(n)` forever (as fast as the
 * client reads), until the client closes or `cap` ms pass; any other selector gets a short text.
 */
async function endlessGopher(menuLine: (n: number, port: number) => string, cap: number): Promise<GopherFake> {
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let octets = 0;
  let closed = 0;
  const requests: string[] = [];
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', (d) => {
      const selector = d.toString('latin1').replace(/\r?\n$/, '');
      requests.push(selector);
      if (selector !== '' && selector !== '/') {
        socket.end('hello\r\n');
        return;
      }
      let stopped = false;
      const t = setTimeout(() => {
        stopped = true;
        socket.destroy();
      }, cap);
      timers.add(t);
      socket.once('close', () => {
        if (!stopped) closed++;
        stopped = true;
        clearTimeout(t);
      });
      let n = 0;
      const pump = () => {
        while (!stopped && !socket.destroyed) {
          let chunk = '';
          for (let i = 0; i < 64; i++) chunk += menuLine(n++, port);
          octets += chunk.length;
          if (!socket.write(chunk)) {
            socket.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    menuOctets: () => octets,
    closedByClient: () => closed,
    requests,
    stop: async () => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

test('--recursive on a Gopher menu that never ends: stops at --max-urls, closes the connection, ends in seconds', async () => {
  const fake = await endlessGopher((n, port) => `0item ${n}\t/item/${n}\t127.0.0.1\t${port}\r\n`, 8000);
  try {
    const rss = process.memoryUsage().rss;
    const started = Date.now();
    const out = await all([`gopher://127.0.0.1:${fake.port}/1/`], {
      recursive: true,
      maxUrls: 20,
      retries: 0,
      timeout: 3000,
    });
    const ms = Date.now() - started;
    assert.ok(ms < 6000, `took ${ms} ms`);
    assert.ok(out.length <= 20, `${out.length} results`);
    assert.equal(out.length, 20);
    assert.equal(out[0].status, 'ok');
    assert.deepEqual(out[0].notes, ['the limit of 20 URLs (maxUrls) was reached: the rest of the links were not read']);
    for (const r of out.slice(1)) assert.equal(r.status, 'ok', `${r.url} ${r.reason}`);
    // The menu was read only as far as needed: what the fake could write before the client
    // closed is what the socket buffers hold (Linux grows a loopback receive buffer up to
    // net.ipv4.tcp_rmem's maximum, 32 MiB here; 8.4 MB was seen under load), not the 8 s of menu
    // an unbounded reader takes (hundreds of MB).
    assert.ok(fake.menuOctets() < 64 << 20, `${fake.menuOctets()} octets written`);
    assert.ok(process.memoryUsage().rss - rss < 100 << 20, 'memory grew by more than 100 MB');
    const until = Date.now() + 2000;
    while (fake.closedByClient() < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    assert.ok(fake.closedByClient() >= 1, 'the client did not close the menu connection');
  } finally {
    await fake.stop();
  }
});

test('--recursive on an endless menu of info lines (no link to count): cut at 1 MiB, with a note', async () => {
  const fake = await endlessGopher((n) => `iinfo line ${n}\t\terror.host\t1\r\n`, 8000);
  try {
    const started = Date.now();
    const out = await all([`gopher://127.0.0.1:${fake.port}/1/`], { recursive: true, retries: 0, timeout: 3000 });
    assert.ok(Date.now() - started < 6000, `took ${Date.now() - started} ms`);
    assert.equal(out.length, 1);
    assert.match(out[0].notes.join(), /longer than 1048576 octets|more than 10000 items/);
  } finally {
    await fake.stop();
  }
});

// Each bound alone, with its exact note: few long info lines reach 1 MiB long before 10,000
// items; many short ones reach 10,000 items long before 1 MiB.
test('--recursive on an endless menu of few long lines: cut at exactly 1 MiB (MAX_LISTING), with its note', async () => {
  const fake = await endlessGopher((n) => `i${String(n).padStart(8000, '.')}\t\terror.host\t1\r\n`, 8000);
  try {
    const out = await all([`gopher://127.0.0.1:${fake.port}/1/`], { recursive: true, retries: 0, timeout: 3000 });
    assert.equal(out.length, 1);
    assert.deepEqual(out[0].notes, ['the menu is longer than 1048576 octets: the rest was not read']);
  } finally {
    await fake.stop();
  }
});

test('--recursive on an endless menu of short lines: cut at exactly 10,000 items (MAX_LINKS), with its note', async () => {
  const fake = await endlessGopher(() => `i\t\th\t1\r\n`, 8000);
  try {
    const out = await all([`gopher://127.0.0.1:${fake.port}/1/`], { recursive: true, retries: 0, timeout: 3000 });
    assert.equal(out.length, 1);
    assert.deepEqual(out[0].notes, ['the menu lists more than 10000 items: the rest was not read']);
  } finally {
    await fake.stop();
  }
});

test('--recursive on an FTP listing of 10,000 names with --max-urls 50: about 50 sessions, not 10,051', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 10000; i++) files[`big/file${i}.txt`] = 'x';
  const fake = await FakeFtp.start({ handle: standard(files, { SIZE: (_v, _a, s) => s.reply('213 1') }) });
  const started = Date.now();
  const checking = all([fake.url('big/')], { recursive: true, maxUrls: 50, retries: 0, timeout: 3000 });
  try {
    // Bounded by the test: today's code tests every name with a session of its own.
    const out = await Promise.race([checking, new Promise<null>((r) => setTimeout(() => r(null), 20000).unref())]);
    const sessions = fake.sessions.length;
    assert.ok(sessions <= 55, `${sessions} FTP sessions opened`);
    assert.ok(out !== null, 'check did not end within 20 s');
    assert.ok(Date.now() - started < 15000);
    assert.equal(out.length, 50);
    assert.deepEqual(out[0].notes, ['the limit of 50 URLs (maxUrls) was reached: the rest of the links were not read']);
    assert.equal(out.filter((r) => r.status === 'ok').length, 50, out.map((r) => `${r.status} ${r.reason}`).join('\n'));
  } finally {
    await fake.stop();
    await checking.catch(() => {});
  }
});

/**
 * A Gopher server that answers a menu request with `prefix`, then one octet every 200 ms (no line
 * end: a line that never ends) for 10 s at most; any other selector gets a short text.
 */
async function trickler(prefix: (port: number) => string) {
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('data', (d) => {
      const selector = d.toString('latin1').replace(/\r?\n$/, '');
      if (selector !== '' && selector !== '/') {
        socket.end('hello\r\n');
        return;
      }
      socket.write(prefix(port));
      let n = 0;
      const t = setInterval(() => {
        if (socket.destroyed || ++n > 50) {
          clearInterval(t);
          socket.destroy();
          return;
        }
        socket.write('1');
      }, 200);
      timers.add(t);
      socket.once('close', () => clearInterval(t));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    /** True once the client has closed every connection (within 2 s). */
    async closed(): Promise<boolean> {
      const until = Date.now() + 2000;
      while ([...sockets].some((s) => !s.destroyed && !s.readableEnded) && Date.now() < until)
        await new Promise((r) => setTimeout(r, 20));
      return [...sockets].every((s) => s.destroyed || s.readableEnded);
    },
    async stop() {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

test('a server that trickles one byte at a time under the silence timeout is cut at the total deadline', async () => {
  const fake = await trickler(() => '');
  try {
    const started = Date.now();
    const out = await all([`gopher://127.0.0.1:${fake.port}/1/`], {
      timeout: 1000,
      retries: 0,
      deadline: 2500,
    });
    const ms = Date.now() - started;
    assert.ok(ms >= 2400 && ms < 6000, `took ${ms} ms`);
    assert.equal(out[0].status, 'unreachable');
    assert.equal(out[0].code, 'timeout');
    assert.match(out[0].reason, /deadline of 2500 ms/);
    assert.ok(await fake.closed(), 'the probe left its connection open');
  } finally {
    await fake.stop();
  }
});

test('--recursive: a menu whose reading trickles is cut at the deadline; the links read before are checked', async () => {
  const fake = await trickler((port) => `0first\t/first\t127.0.0.1\t${port}\r\n`);
  try {
    const started = Date.now();
    const out = await all([`gopher://127.0.0.1:${fake.port}/1/`], {
      recursive: true,
      timeout: 1000,
      retries: 0,
      deadline: 2500,
    });
    const ms = Date.now() - started;
    assert.ok(ms >= 2400 && ms < 6000, `took ${ms} ms`);
    assert.deepEqual(
      out.map((r) => `${r.status} ${r.url}`),
      [`ok gopher://127.0.0.1:${fake.port}/1/`, `ok gopher://127.0.0.1:${fake.port}/0/first`],
    );
    assert.deepEqual(out[0].notes, ['reading the links stopped at the deadline of 2500 ms']);
    assert.ok(await fake.closed(), 'the reading left its connection open');
  } finally {
    await fake.stop();
  }
});

test('deadline: a bad value is a RangeError', () => {
  assert.throws(() => check([], { deadline: 0 }), RangeError);
  assert.throws(() => check([], { deadline: 1.5 }), RangeError);
});
