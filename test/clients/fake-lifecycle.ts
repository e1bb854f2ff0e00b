// What every in-process fake server of the client tests shares (gopher, telnet, nntp fakes): it
// keeps its sockets, can wait until the client has closed them all (the client's one close path
// releases every socket), and closes itself and every socket left.
import type * as net from 'node:net';

export interface FakeLifecycle {
  /** Resolves once every connection the client made is closed; rejects after `ms`. */
  allClosed(ms?: number): Promise<void>;
  /** Destroys every socket left and stops listening. */
  close(): Promise<void>;
}

export function fakeLifecycle(server: net.Server, sockets: Set<net.Socket>): FakeLifecycle {
  return {
    async allClosed(ms = 2000) {
      const deadline = Date.now() + ms;
      while (sockets.size > 0) {
        if (Date.now() > deadline) throw new Error(`${sockets.size} socket(s) still open on the fake server`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
