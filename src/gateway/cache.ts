// The gateway's cache of retrieved objects (a public gateway: many readers, small servers): in
// memory up to a size, optionally on disk too, keyed by the URL's normal form (RFC 1738 2.1, 3:
// two URLs with one normal form name one object), each entry kept for a lifetime by its kind
// (menus and listings change more often than documents), and identical requests in flight
// coalesced: N readers of one object at once make one upstream request.

import { createHash, randomBytes } from 'node:crypto';
import { open as openFile, readFile, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Url } from '../core/url.js';
import { LocatorError } from '../core/errors.js';
import { ABORTED, type Meta, type Resource } from '../clients/index.js';
import { makeFolders } from '../crawl/folders.js';

export interface CacheOptions {
  /** Octets held in memory, all entries together. */
  size: number;
  /** The largest object kept (default a quarter of `size`, at most 8 MiB); a larger one is passed on uncached. */
  entryMax?: number;
  /** A folder that keeps entries across restarts, up to `diskSize` octets (default none). */
  dir?: string;
  /** Octets kept in `dir` (default 1 GiB). */
  diskSize?: number;
  /** Milliseconds a menu, a listing, a search's answer (an object with a view) is kept (default 5 minutes). */
  listingLifetime?: number;
  /** Milliseconds a document is kept (default 1 hour). */
  documentLifetime?: number;
  now?: () => number;
}

interface Entry {
  key: string;
  meta: Meta;
  bytes: Uint8Array;
  expires: number;
  /** Pages rendered from this entry, by variant (keptPage), least recently kept first. */
  pages: Map<string, Uint8Array> | null;
  /** Octets of `pages`. */
  pageBytes: number;
}

/** Pages kept per entry at most: the spellings, charsets and views of one object asked lately. */
const PAGES_PER_ENTRY = 8;

/** The entry each reader's resource was made of (resourceOf), for keepPage(). */
const ENTRY_OF = new WeakMap<Resource, Entry>();

const sizeOf = (e: Entry): number => e.bytes.length + e.pageBytes;

type Landed = { kind: 'entry'; entry: Entry } | { kind: 'big'; take: () => Resource | null };

interface Flight {
  controller: AbortController;
  readers: number;
  promise: Promise<Landed>;
}

/** What the cache did, for the tests and the operator. */
export interface CacheStats {
  hits: number;
  misses: number;
  /** Requests that joined one already in flight. */
  coalesced: number;
  /** Upstream requests made. */
  upstream: number;
  /** Hits answered with a page rendered before (of the hits). */
  pageHits: number;
  entries: number;
  bytes: number;
}

const DEFAULT_LISTING = 5 * 60_000;
const DEFAULT_DOCUMENT = 60 * 60_000;

/** Entries and requests in flight, by the normal form of their URL. */
export class ObjectCache {
  readonly #o: Required<Omit<CacheOptions, 'dir' | 'now'>> & { dir: string | undefined };
  readonly #now: () => number;
  /** In memory, least recently used first (a Map keeps insertion order; a hit moves its entry to the end). */
  readonly #memory = new Map<string, Entry>();
  #bytes = 0;
  readonly #flights = new Map<string, Flight>();
  /** The entries on disk: file name to size, oldest first. */
  readonly #disk = new Map<string, number>();
  #diskBytes = 0;
  #diskReady: Promise<void> | null = null;
  readonly stats: CacheStats = {
    hits: 0,
    misses: 0,
    coalesced: 0,
    upstream: 0,
    pageHits: 0,
    entries: 0,
    bytes: 0,
  };

  constructor(options: CacheOptions) {
    this.#o = {
      size: options.size,
      entryMax: options.entryMax ?? Math.min(Math.floor(options.size / 4), 8 * 1024 * 1024),
      dir: options.dir,
      diskSize: options.diskSize ?? 1024 ** 3,
      listingLifetime: options.listingLifetime ?? DEFAULT_LISTING,
      documentLifetime: options.documentLifetime ?? DEFAULT_DOCUMENT,
    };
    this.#now = options.now ?? Date.now;
  }

  /**
   * A page rendered before from the entry of `key` (keepPage), as the request asked it
   * (`variant`: the URL as spelled and the page's parameters), while that entry is fresh in
   * memory: a hit then costs no rendering.
   */
  page(key: string, variant: string): Uint8Array | null {
    const e = this.#memory.get(key);
    if (e === undefined || e.pages === null || e.expires <= this.#now()) return null;
    const p = e.pages.get(variant);
    if (p === undefined) return null;
    this.stats.hits++;
    this.stats.pageHits++;
    this.#memory.delete(key);
    this.#memory.set(key, e);
    return p;
  }

  /**
   * Keeps the page rendered, whole and without error, from `r` (a resource this cache gave), as
   * its entry's `variant`, while that entry is the one kept for its key; at most PAGES_PER_ENTRY
   * per entry, counted in the memory bound.
   */
  keepPage(r: Resource, variant: string, page: Uint8Array): void {
    const e = ENTRY_OF.get(r);
    if (e === undefined || this.#memory.get(e.key) !== e || e.expires <= this.#now()) return;
    if (sizeOf(e) + page.length > this.#o.entryMax) return;
    e.pages ??= new Map();
    const old = e.pages.get(variant);
    if (old !== undefined) {
      e.pages.delete(variant);
      e.pageBytes -= old.length;
      this.#bytes -= old.length;
    }
    for (const [v, p] of e.pages) {
      if (e.pages.size < PAGES_PER_ENTRY) break;
      e.pages.delete(v);
      e.pageBytes -= p.length;
      this.#bytes -= p.length;
    }
    e.pages.set(variant, page);
    e.pageBytes += page.length;
    this.#bytes += page.length;
    this.#trim();
  }

  /**
   * The object of `url` (key: its normal form): from memory, from disk, from a request already in
   * flight for it, or from `fetch` (given a signal that aborts only when every reader waiting for
   * it has gone). An object past the largest kept is passed on to one reader as it arrives; the
   * others waiting for it each make their own request.
   */
  async open(key: string, fetch: (signal: AbortSignal) => Promise<Resource>, signal: AbortSignal): Promise<Resource> {
    const hit = this.#memory.get(key) ?? (await this.#fromDisk(key));
    if (hit !== undefined && hit !== null) {
      if (hit.expires > this.#now()) {
        this.stats.hits++;
        this.#memory.delete(key);
        this.#memory.set(key, hit);
        return resourceOf(hit);
      }
      this.#forget(key);
    }
    if (signal.aborted) throw new LocatorError(ABORTED, -1, 'the client went away or the time ran out');
    let flight = this.#flights.get(key);
    if (flight === undefined) {
      this.stats.misses++;
      flight = this.#fly(key, fetch);
    } else this.stats.coalesced++;
    const f = flight;
    f.readers++;
    const leave = () => {
      if (--f.readers === 0) f.controller.abort();
    };
    signal.addEventListener('abort', leave, { once: true });
    try {
      const landed = await untilAborted(f.promise, signal);
      if (landed.kind === 'entry') return resourceOf(landed.entry);
      const own = landed.take();
      if (own !== null) return own;
    } finally {
      signal.removeEventListener('abort', leave);
    }
    // Too large to keep, and another reader has its stream: this one asks on its own.
    this.stats.upstream++;
    return fetch(signal);
  }

  #fly(key: string, fetch: (signal: AbortSignal) => Promise<Resource>): Flight {
    const controller = new AbortController();
    const flight: Flight = { controller, readers: 0, promise: Promise.resolve(null as never) };
    flight.promise = (async (): Promise<Landed> => {
      try {
        this.stats.upstream++;
        const r = await fetch(controller.signal);
        const reader = r.body.getReader();
        const parts: Uint8Array[] = [];
        let size = 0;
        for (;;) {
          const c = await reader.read();
          if (c.done) break;
          parts.push(c.value);
          size += c.value.length;
          if (size > this.#o.entryMax) {
            // Too large to keep: the first reader to ask takes the stream, what was read first.
            let taken = false;
            const take = (): Resource | null => {
              if (taken) return null;
              taken = true;
              return { meta: r.meta, body: resumed(parts, reader) };
            };
            // Every reader still waiting resumes before the next turn of the event loop; when none
            // took it (all gone), the transfer is let go.
            setTimeout(() => {
              if (!taken) void reader.cancel().catch(() => {});
            }, 0);
            return { kind: 'big', take };
          }
        }
        const bytes = concat(parts, size);
        const lifetime = r.meta.view ? this.#o.listingLifetime : this.#o.documentLifetime;
        const entry: Entry = { key, meta: r.meta, bytes, expires: this.#now() + lifetime, pages: null, pageBytes: 0 };
        this.#keep(key, entry);
        void this.#toDisk(key, entry).catch(() => {});
        return { kind: 'entry', entry };
      } finally {
        this.#flights.delete(key);
      }
    })();
    // A failure is each reader's to report; none is left unhandled when every reader has gone.
    flight.promise.catch(() => {});
    this.#flights.set(key, flight);
    return flight;
  }

  #keep(key: string, entry: Entry): void {
    this.#forget(key);
    if (entry.bytes.length > this.#o.entryMax) return;
    this.#memory.set(key, entry);
    this.#bytes += sizeOf(entry);
    this.#trim();
  }

  /** The least recently used entries let go until the memory bound holds. */
  #trim(): void {
    for (const [k, e] of this.#memory) {
      if (this.#bytes <= this.#o.size) break;
      this.#memory.delete(k);
      this.#bytes -= sizeOf(e);
    }
    this.stats.entries = this.#memory.size;
    this.stats.bytes = this.#bytes;
  }

  #forget(key: string): void {
    const e = this.#memory.get(key);
    if (e === undefined) return;
    this.#memory.delete(key);
    this.#bytes -= sizeOf(e);
    this.stats.entries = this.#memory.size;
    this.stats.bytes = this.#bytes;
  }

  /** The disk's folder made, its unfinished files removed, its entries counted (once). */
  #disk0(): Promise<void> {
    const dir = this.#o.dir!;
    this.#diskReady ??= (async () => {
      makeFolders(dir);
      for (const name of await readdir(dir)) {
        if (name.startsWith('.tmp-')) await rm(join(dir, name), { force: true });
        else if (/^[0-9a-f]{64}$/.test(name)) {
          const fh = await openFile(join(dir, name), 'r');
          const size = (await fh.stat()).size;
          await fh.close();
          this.#disk.set(name, size);
          this.#diskBytes += size;
        }
      }
    })();
    return this.#diskReady;
  }

  /**
   * An entry written to disk: under a random name opened exclusively (`wx`), then renamed to its
   * own, so that no file is ever half-written under the name a reader opens.
   */
  async #toDisk(key: string, entry: Entry): Promise<void> {
    if (this.#o.dir === undefined) return;
    await this.#disk0();
    const dir = this.#o.dir;
    const name = fileOf(key);
    const head = Buffer.from(JSON.stringify({ key, meta: entry.meta, expires: entry.expires }) + '\n');
    const tmp = join(dir, `.tmp-${randomBytes(12).toString('hex')}`);
    const fh = await openFile(tmp, 'wx', 0o600);
    try {
      await fh.writeFile(Buffer.concat([head, entry.bytes]));
    } finally {
      await fh.close();
    }
    await rename(tmp, join(dir, name));
    const old = this.#disk.get(name);
    if (old !== undefined) this.#diskBytes -= old;
    this.#disk.delete(name);
    this.#disk.set(name, head.length + entry.bytes.length);
    this.#diskBytes += head.length + entry.bytes.length;
    for (const [n, s] of this.#disk) {
      if (this.#diskBytes <= this.#o.diskSize) break;
      this.#disk.delete(n);
      this.#diskBytes -= s;
      await rm(join(dir, n), { force: true });
    }
  }

  async #fromDisk(key: string): Promise<Entry | null> {
    if (this.#o.dir === undefined) return null;
    try {
      await this.#disk0();
      const name = fileOf(key);
      if (!this.#disk.has(name)) return null;
      const data = await readFile(join(this.#o.dir, name));
      const nl = data.indexOf(10);
      const head = JSON.parse(data.subarray(0, nl).toString('utf8')) as { key: string; meta: Meta; expires: number };
      if (head.key !== key) return null;
      const entry: Entry = {
        key,
        meta: head.meta,
        bytes: new Uint8Array(data.subarray(nl + 1)),
        expires: head.expires,
        pages: null,
        pageBytes: 0,
      };
      if (entry.expires <= this.#now()) {
        this.#disk.delete(name);
        this.#diskBytes -= data.length;
        await rm(join(this.#o.dir, name), { force: true });
        return null;
      }
      this.#keep(key, entry);
      return entry;
    } catch {
      return null;
    }
  }
}

/** The file name of an entry: the SHA-256 of its key. */
function fileOf(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A reader's own copy of an entry: the meta copied, the bytes as a stream. */
function resourceOf(e: Entry): Resource {
  const bytes = e.bytes;
  const r: Resource = {
    meta: { ...e.meta, transcript: [] },
    body: new ReadableStream<Uint8Array>({
      start(c) {
        // In pieces, as a transfer arrives: a renderer reads line by line whatever the size.
        for (let i = 0; i < bytes.length; i += 65536) c.enqueue(bytes.subarray(i, i + 65536));
        c.close();
      },
    }),
  };
  ENTRY_OF.set(r, e);
  return r;
}

/** The pieces already read, then the rest of the reader. */
function resumed(parts: Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array>): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      if (i < parts.length) {
        c.enqueue(parts[i]);
        parts[i++] = new Uint8Array(0);
        return;
      }
      const r = await reader.read();
      if (r.done) c.close();
      else c.enqueue(r.value);
    },
    cancel: (why) => reader.cancel(why),
  });
}

function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new LocatorError(ABORTED, -1, 'the client went away or the time ran out'));
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(new LocatorError(ABORTED, -1, 'the client went away or the time ran out'));
    signal.addEventListener('abort', stop, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', stop);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', stop);
        reject(e);
      },
    );
  });
}

/**
 * Whether an object may be kept and shared between readers: never one fetched with credentials (a
 * user or password in the URL, or a host whose ~/.netrc entries the gateway may use), never a
 * search's answer unless `searches` (a Gopher selector with a TAB, a `?` query).
 */
export function cacheable(url: Url, netrcHosts: readonly string[], searches: boolean): boolean {
  if (url.user !== null || url.password !== null) return false;
  if (netrcHosts.includes((url.host ?? '').toLowerCase())) return false;
  if (!searches && /%09|\?/i.test(url.path ?? '')) return false;
  return true;
}
