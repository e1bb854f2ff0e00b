// In-process fake Gopher servers (node:net on 127.0.0.1, a free port) for what the real servers
// will not do: replies cut in the middle, stalls, garbage headers, and a Gopher+ server that
// processes +ASK answers (pygopherd does not: test/data/docs/test-servers.md section 4).
// Each fake records what it received and tracks its sockets, so that a test can assert that
// the client left none open.

import net from 'node:net';
import { fakeLifecycle } from '../fake-lifecycle.js';

export interface FakeServer {
  port: number;
  /** Connections accepted so far. */
  connections: number;
  /** What each connection sent, in order (latin1 text). */
  received: string[];
  /** Resolves once every accepted socket is closed; rejects after `ms` if one is still open. */
  allClosed(ms?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A server whose `reply` is called with the socket and everything the client sent so far on
 * that connection, each time more arrives, until it returns true (the request was handled).
 * It may write, end, destroy, or do nothing (a stall).
 */
export async function fakeServer(
  reply: (socket: net.Socket, received: string, index: number) => boolean,
): Promise<FakeServer> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const index = fake.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let text = '';
    let handled = false;
    fake.received[index] = '';
    socket.on('data', (d) => {
      text += d.toString('latin1');
      fake.received[index] = text;
      if (!handled) handled = reply(socket, text, index);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const fake: FakeServer = {
    port: (server.address() as net.AddressInfo).port,
    connections: 0,
    received: [],
    ...fakeLifecycle(server, sockets),
  };
  return fake;
}

/** A fake that answers the first complete request line with `data`, then closes (or not). */
export function answering(data: string | Buffer, options: { end?: boolean } = {}): Promise<FakeServer> {
  return fakeServer((socket, received) => {
    if (!received.includes('\r\n')) return false;
    socket.write(typeof data === 'string' ? Buffer.from(data, 'latin1') : data);
    if (options.end !== false) socket.end();
    return true;
  });
}

/** Runs `body` against `fake`, then waits until the client has closed every connection, and closes the fake. */
export async function withFake(fake: FakeServer, body: (f: FakeServer) => Promise<void>): Promise<void> {
  try {
    await body(fake);
    await fake.allClosed();
  } finally {
    await fake.close();
  }
}
