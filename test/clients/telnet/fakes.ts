// In-process fake Telnet servers (node:net on 127.0.0.1, a free port) for what telnetd will not
// do: flood option requests, never end a subnegotiation, reset the connection, stall, stop
// reading. Each records what it received (raw octets) and tracks its sockets.

import net from 'node:net';
import { fakeLifecycle } from '../fake-lifecycle.js';

export interface FakeTelnet {
  port: number;
  connections: number;
  /** Everything received on each connection, in order. */
  received: Buffer[];
  /** Resolves once every accepted socket is closed; rejects after `ms` if one is still open. */
  allClosed(ms?: number): Promise<void>;
  close(): Promise<void>;
}

/** A server that calls `start` with each accepted socket (it may write, reset, or do nothing). */
export async function fakeTelnet(start: (socket: net.Socket, fake: FakeTelnet) => void): Promise<FakeTelnet> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const index = fake.connections++;
    sockets.add(socket);
    fake.received[index] = Buffer.alloc(0);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.on('data', (d) => {
      fake.received[index] = Buffer.concat([fake.received[index], d]);
    });
    start(socket, fake);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const fake: FakeTelnet = {
    port: (server.address() as net.AddressInfo).port,
    connections: 0,
    received: [],
    ...fakeLifecycle(server, sockets),
  };
  return fake;
}

/** Resolves when `cond()` is true (polled every 10 ms); rejects after `ms`. */
export async function until(cond: () => boolean, ms = 5000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
