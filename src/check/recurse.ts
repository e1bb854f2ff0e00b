// --recursive (issue 18): the links inside a Gopher menu (RFC 1436 3.8, RFC 1738 3.4) and the
// names of an FTP directory listing (RFC 1738 3.2.2: NLST), read with open() as a stream of URLs
// to check. The reader of the stream (check.ts) stops it as soon as its budget of URLs is spent,
// which closes the connection; a menu or listing is read up to MAX_LISTING octets and MAX_LINKS
// links whatever the budget, so a server that never ends its answer cannot grow the checker.
import type { Url } from '../core/url.js';
import { encode, SEGMENT_SET } from '../core/percent.js';
import { open } from '../clients/open.js';
import { readMenu } from '../clients/gopher/menu.js';
import type { OpenOptions } from '../clients/types.js';
import type { GopherPlus } from '../schemes/gopher.js';

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

/** True when the URL is a Gopher menu (type 1, not a Gopher+ attribute or form request: RFC 1738 3.4). */
function isGopherMenu(u: Url): boolean {
  if (u.scheme !== 'gopher') return false;
  const f = u.fields as { gophertype?: string; plus?: GopherPlus | null };
  const kind = f.plus?.kind;
  return f.gophertype === '1' && kind !== 'attributes' && kind !== 'directory-attributes' && kind !== 'ask';
}

/** True when the URL is an FTP directory: an empty last segment (a final "/") or `;type=d` (RFC 1738 3.2.2). */
function isFtpDirectory(u: Url): boolean {
  if (u.scheme !== 'ftp') return false;
  const f = u.fields as { name?: string; ftptype?: string | null };
  return f.ftptype === 'd' || f.name === '' || f.name === undefined;
}

/** True when --recursive reads the links of this URL: a Gopher menu or an FTP directory. */
export function followable(u: Url): boolean {
  return isGopherMenu(u) || isFtpDirectory(u);
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
 * The links of a Gopher menu, each item's URL (RFC 1436 3.8: info and error lines have none; a
 * search is not run), read as they arrive: at most MAX_LISTING octets and MAX_LINKS items.
 */
async function* menuLinks(u: Url, options: OpenOptions, slot: Slot): AsyncGenerator<string> {
  const release = await holdSlot(slot, serverKey(u));
  try {
    const r = await open(u, options);
    const bounded = boundedBody(r.body, MAX_LISTING);
    let items = 0;
    for await (const item of readMenu(bounded.body)) {
      if (++items > MAX_LINKS)
        throw new ListingCut(`the menu lists more than ${MAX_LINKS} items: the rest was not read`);
      if (item.url !== null && item.type !== 'i' && item.type !== '3') yield item.url;
    }
    if (bounded.cut()) throw new ListingCut(`the menu is longer than ${MAX_LISTING} octets: the rest was not read`);
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
 * The entries of an FTP directory (RFC 1738 3.2.2: NLST, names only), each as a URL under the
 * directory, read as the listing arrives (at most MAX_LISTING octets and MAX_LINKS names). NLST
 * does not say which names are directories: each name is a URL with no final "/", and its probe
 * tells (SIZE, then CWD: src/clients/probe/ftp.ts); a name that is a directory is followed from
 * there. No session is opened for a name beyond the one that checks it.
 */
async function* ftpLinks(u: Url, options: OpenOptions, slot: Slot): AsyncGenerator<string> {
  const href = u.withoutFragment;
  const semi = href.lastIndexOf(';type=');
  let base = semi > href.lastIndexOf('/') ? href.slice(0, semi) : href;
  const f = u.fields as { name?: string };
  if (f.name !== '' && !base.endsWith('/')) base += '/';
  const release = await holdSlot(slot, serverKey(u));
  try {
    const r = await open(u, options);
    const bounded = boundedBody(r.body, MAX_LISTING);
    const reader = bounded.body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let names = 0;
    try {
      for (let ended = false; !ended;) {
        const chunk = await reader.read();
        ended = chunk.done;
        text += ended ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
        const lines = text.split('\n');
        text = ended ? '' : (lines.pop() as string);
        for (const line of lines) {
          const name = line.replace(/\r$/, '').split('/').pop() ?? '';
          if (name === '' || name === '.' || name === '..') continue;
          if (++names > MAX_LINKS)
            throw new ListingCut(`the listing has more than ${MAX_LINKS} names: the rest was not read`);
          yield base + encode(name, SEGMENT_SET);
        }
      }
    } finally {
      await reader.cancel().catch(() => {});
    }
    if (bounded.cut()) throw new ListingCut(`the listing is longer than ${MAX_LISTING} octets: the rest was not read`);
  } finally {
    release();
  }
}

/**
 * The links the checker follows from a Gopher menu or an FTP directory listing (issue 18,
 * `--recursive`), in the order the server lists them, as they are read; none for any other URL.
 * Each is read in one slot of the server's limits, held until the reader stops.
 */
export const listChildren: ChildLister = (url, options, slot) => {
  if (isGopherMenu(url)) return menuLinks(url, options, slot);
  if (isFtpDirectory(url)) return ftpLinks(url, options, slot);
  return [];
};
