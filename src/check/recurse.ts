// --recursive: the links inside a menu or listing whose scheme's face reads them (a Gopher menu,
// RFC 1436 3.8, RFC 1738 3.4; the names of an FTP directory listing, RFC 1738 3.2.2: NLST), read
// with open() as a stream of URLs to check. The reader of the stream (check.ts) stops it as soon as its budget of URLs is spent,
// which closes the connection; a menu or listing is read up to MAX_LISTING octets and MAX_LINKS
// links whatever the budget, so a server that never ends its answer cannot grow the checker.
import type { Url } from '../core/url.js';
import { faceOf, kindOfUrl, open, type LinkReader, type OpenOptions } from '../clients/index.js';

/** Runs one network operation within the checker's limits (the server key, the operation). */
export type Slot = <T>(host: string, fn: () => Promise<T>) => Promise<T>;

/**
 * What the checker calls to read the links of a URL it follows (injectable: CheckOptions.children):
 * the links in order, as a stream (an async iterable, closed by the checker when it has read
 * enough) or a list.
 */
export type ChildLister = (
  url: Url,
  options: OpenOptions,
  slot: Slot,
) => AsyncIterable<string> | Iterable<string> | Promise<AsyncIterable<string> | Iterable<string>>;

/** The largest menu or listing read, in octets: a longer one is cut there (the links read so far are kept). */
export const MAX_LISTING = 1 << 20;

/** The most links read from one menu or listing (info lines and duplicates included): the rest is not read. */
export const MAX_LINKS = 10000;

/** The server key of a URL: host and port for those with a host, the scheme for the others (news:, file:, mailto:). */
export function serverKey(u: Url): string {
  const host = u.host;
  if (host === null || host === '') return `${u.scheme}:`;
  return `${host.toLowerCase()}:${u.portDigits ?? u.port ?? ''}`;
}

/**
 * True when --recursive reads the links of this URL: its face says it designates a menu (a Gopher
 * menu, RFC 1436 3.8) or a listing (an FTP directory, RFC 1738 3.2.2) and reads their links.
 */
export function followable(u: Url): boolean {
  const kind = kindOfUrl(u);
  return (kind === 'menu' || kind === 'listing') && faceOf(u).links !== undefined;
}

/**
 * `body` cut after `max` octets: the stream ends there (`cut()` then says so) and the rest is
 * cancelled, which closes the connection. Cancelling the result cancels `body`.
 */
export function boundedBody(
  body: ReadableStream<Uint8Array>,
  max: number,
): { body: ReadableStream<Uint8Array>; cut: () => boolean } {
  const reader = body.getReader();
  let size = 0;
  let cut = false;
  const out = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const r = await reader.read();
      if (r.done) {
        controller.close();
        return;
      }
      const left = max - size;
      if (r.value.length <= left) {
        size += r.value.length;
        controller.enqueue(r.value);
        return;
      }
      if (left > 0) controller.enqueue(r.value.subarray(0, left));
      size = max;
      cut = true;
      controller.close();
      await reader.cancel().catch(() => {});
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => {});
    },
  });
  return { body: out, cut: () => cut };
}

/**
 * The links of a menu or listing (its face's links(): a Gopher menu's items, RFC 1436 3.8; an FTP
 * directory's names, RFC 1738 3.2.2), read as they arrive: at most MAX_LISTING octets and
 * MAX_LINKS entries (info lines and duplicates included).
 */
async function* linksOf(u: Url, links: LinkReader, options: OpenOptions, slot: Slot): AsyncGenerator<string> {
  const release = await holdSlot(slot, serverKey(u));
  try {
    const r = await open(u, options);
    const bounded = boundedBody(r.body, MAX_LISTING);
    const what = kindOfUrl(u) === 'menu' ? 'menu' : 'listing';
    let entries = 0;
    for await (const link of links(u, bounded.body)) {
      if (++entries > MAX_LINKS)
        throw new ListingCut(
          `the ${what} ${what === 'menu' ? 'lists' : 'has'} more than ${MAX_LINKS} ${what === 'menu' ? 'items' : 'names'}: the rest was not read`,
        );
      if (link !== null) yield link;
    }
    if (bounded.cut()) throw new ListingCut(`the ${what} is longer than ${MAX_LISTING} octets: the rest was not read`);
  } finally {
    release();
  }
}

/** A menu or listing cut at one of the bounds above: the links before it were read and are checked. */
export class ListingCut extends Error {}

/**
 * A slot of the limits held for as long as a menu or listing is read (a generator cannot run its
 * reading inside slot()'s callback): resolves to the function that gives it back.
 */
function holdSlot(slot: Slot, host: string): Promise<() => void> {
  return new Promise((resolveHeld, rejectHeld) => {
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    slot(host, async () => {
      resolveHeld(release);
      await done;
    }).catch(rejectHeld);
  });
}

/**
 * The links the checker follows from a menu or listing (a Gopher menu, an FTP directory:
 * `--recursive`), in the order the server lists them, as they are read; none for any other URL.
 * Each is read in one slot of the server's limits, held until the reader stops.
 */
export const listChildren: ChildLister = (url, options, slot) => {
  const links = followable(url) ? faceOf(url).links : undefined;
  return links === undefined ? [] : linksOf(url, links, options, slot);
};
