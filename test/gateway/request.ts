// One HTTP request to a gateway, raw enough for the tests of its rules: any request target
// (origin form or an absolute URL), any Host and browser headers, a fresh connection each time.
// And what the cross-site tests share: a recording Gopher port and a browser's User-Agent.

import http from 'node:http';
import { startGateway, type Gateway, type GatewayOptions } from '../../src/gateway/server.js';
import { fakeServer, type FakeServer } from '../clients/gopher/fakes.js';

export interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

export interface RequestOptions {
  method?: string;
  /** Sent as they are; Node adds a Host naming the address connected to when none is given. */
  headers?: Record<string, string>;
  body?: string;
  /** The address to connect to (default the gateway's own `host`). */
  connectTo?: string;
  /** Milliseconds to wait for the answer before failing (default: no limit of the test's own). */
  timeout?: number;
}

/** One request to the gateway `g` (its host and port): `path` is the request target as sent. */
export function request(g: { host: string; port: number }, path: string, options: RequestOptions = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: options.connectTo ?? g.host,
        port: g.port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
        agent: false,
        timeout: options.timeout,
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(parts);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
        });
      },
    );
    if (options.timeout !== undefined) {
      req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeout} ms`)));
    }
    req.on('error', reject);
    req.end(options.body);
  });
}

/** What Chrome sends as its User-Agent: a browser, for the rules that tell browsers from other clients. */
export const CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

/**
 * A Gopher port that records every connection and answers a one-line menu: the target a page of
 * another site would make the gateway write `FLUSHALL` CR LF to (`connections` shows whether it did).
 */
export function recordingTarget(): Promise<FakeServer> {
  return fakeServer((socket, received) => {
    if (!received.includes('\r\n')) return false;
    socket.end('iok\t\t\t0\r\n.\r\n');
    return true;
  });
}

/** Runs `fn` against a gateway started with `options` on a free port, and closes it. */
export async function withGateway(options: GatewayOptions, fn: (g: Gateway) => Promise<void>): Promise<void> {
  const g = await startGateway({ port: 0, ...options });
  try {
    await fn(g);
  } finally {
    await g.close();
  }
}
