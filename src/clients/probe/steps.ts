// What probe() sends, written the way explain() writes a client's steps (`locator explain
// --probe`). Each scheme's face (src/clients/<scheme>/index.ts) gives its own steps; these are the
// parts several share. Pure: no I/O, so explainProbe() answers at once.

import type { Url } from '../../core/url.js';
import { explain } from '../../operations/build.js';
import type { ProbeOptions } from './types.js';

/** How long telnet, rlogin and tn3270 probes wait for the first bytes by default (ms). */
export const FIRST_BYTES_WAIT = 2000;

/** An interactive service (RFC 1738 3.8): the connection and the first bytes, no login. */
export function connectSteps(hostport: string, options: ProbeOptions): string[] {
  const wait = options.firstBytesWait ?? FIRST_BYTES_WAIT;
  return [`connect ${hostport}`, `read the first bytes (waiting at most ${wait} ms), send nothing: no login`, 'close'];
}

/** telnet, rlogin, tn3270 (RFC 1738 3.8): the connection and the first bytes, no login. */
export function sessionSteps(url: Url, options: ProbeOptions = {}): string[] {
  return connectSteps(`${url.host}:${url.port ?? url.spec?.defaultPort ?? 23}`, options);
}

/** Any other scheme: open() and its first bytes, then the stream cancelled. */
export function openedSteps(url: Url): string[] {
  let steps: string[] = [];
  try {
    steps = explain(url).steps;
  } catch {
    steps = [];
  }
  return [...steps, 'read the first bytes of the object; then cancel the transfer'];
}
