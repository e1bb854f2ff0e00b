// Helpers of the probe tests (issue 18): a port nobody listens on, a TCP server that counts the
// connections made to it (to show a refused probe connects to nothing), and the probe options.
import net from 'node:net';
import { spawn } from 'node:child_process';
import type { ProbeOptions } from '../../../src/clients/probe/types.js';

/** The options every probe test starts from: no gateway, a time limit, the transcript kept. */
export const OPTS: ProbeOptions = { gateway: false, timeout: 5000, transcript: true };

/** A loopback port with no listener: one the system gave a server that is closed again. */
export async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** A TCP server on loopback that counts connections and closes each at once. */
export async function countingServer(): Promise<{ port: number; count: () => number; close: () => Promise<void> }> {
  let n = 0;
  const s = net.createServer((c) => {
    n++;
    c.destroy();
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return {
    port: (s.address() as net.AddressInfo).port,
    count: () => n,
    close: () => new Promise<void>((resolve) => s.close(() => resolve())),
  };
}

/** The lines sent, in order, from a probe's transcript. */
export const sent = (t: Array<{ direction: string; text: string }>) =>
  t.filter((l) => l.direction === 'send').map((l) => l.text);

/**
 * A dnsmasq on a free loopback port, authoritative for .test (an unknown name there is NXDOMAIN),
 * with the records given as dnsmasq options (`--mx-host=...`, `--host-record=...`). Resolves once
 * it says "started"; `stop()` ends it.
 */
export async function dnsmasq(records: string[]): Promise<{ server: string; port: number; stop: () => void }> {
  const port = await closedPort();
  const dns = spawn(
    '/usr/sbin/dnsmasq',
    [
      '--no-daemon',
      `--port=${port}`,
      '--listen-address=127.0.0.1',
      '--bind-interfaces',
      '--no-resolv',
      '--no-hosts',
      '--local=/test/',
      ...records,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // dnsmasq says "started" on standard error once it listens.
  await new Promise<void>((resolve, reject) => {
    let text = '';
    dns.stderr!.on('data', (c: Buffer) => {
      text += c.toString();
      if (/started/.test(text)) resolve();
    });
    dns.on('exit', (code) => reject(new Error(`dnsmasq exited (${code}): ${text}`)));
  });
  return { server: `127.0.0.1:${port}`, port, stop: () => dns.kill('SIGTERM') };
}
