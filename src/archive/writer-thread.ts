// The WARC writer on a thread of its own: ThreadWarcWriter hands the records to a WarcWriter in a
// worker (writer-worker.ts), so that their digests, gzip members and file writes take another
// core than the crawl's, which fetches and reads the pages (bench/RESULTS.md, "The archive": the
// writer was a fifth of the crawl's main thread).
//
// The records are WarcWriter's, written in the order write() was called for blocks given whole;
// what changes is where the work is done. Blocks given whole (octets, a string, a list of chunks:
// an HTTP exchange as captured) of up to BATCH octets are gathered for the length of one turn of
// the event loop and go over in one message, each copied once into a buffer of its own that is
// then moved (transferred) to the worker; a larger one goes as a stream. The worker answers a batch
// with one message. A message per record and its answer woke the worker and the crawl's thread
// thousands of times a second, and on two cores that cost more than the writing did. A block
// given as a stream goes over in batches of about BATCH octets, at most MAX_INFLIGHT octets on
// their way at once (the stream waits for the worker).

import { Worker } from 'node:worker_threads';
import { defineCode, LocatorError } from '../core/errors.js';
import { chunksOf, type BlockSource } from './spool.js';
import {
  WARC_RECORD_REQUIRES,
  WARC_WRITER_CLOSED,
  type RecordInput,
  type WriterOptions,
  type WrittenRecord,
} from './writer.js';

export const WARC_WRITER_FAILED = defineCode(
  'warc-writer-failed',
  'error',
  null,
  "the WARC writer's thread stopped: no record can be written",
  'usage',
);

/** A record's fields without its block, as sent to the worker. */
export type RecordHead = Omit<RecordInput, 'block'>;

/** An error as it crosses between the threads: enough to make the same LocatorError or Error again. */
export interface WireError {
  message: string;
  /** A LocatorError's code, or a system error's (ENOSPC ...). */
  code?: string;
  locator?: { offset: number; detail: string; section: string | null };
}

/** A record's outcome as the worker reports it. */
export type Outcome = { id: number; record: WrittenRecord } | { id: number; error: WireError };

/** Messages to the worker. */
export type ToWorker =
  | { t: 'batch'; records: Array<{ id: number; head: RecordHead; bytes: Uint8Array }> }
  | { t: 'rec'; id: number; head: RecordHead; bytes: Uint8Array; end: boolean }
  | { t: 'more'; id: number; bytes: Uint8Array; end: boolean }
  | { t: 'abort'; id: number }
  | { t: 'close' };

/** Messages from the worker. */
export type FromWorker =
  | { t: 'done'; outcomes: Outcome[] }
  | { t: 'took'; id: number; bytes: number }
  | { t: 'closed'; files: string[] }
  | { t: 'closefail'; error: WireError };

export function toWire(e: unknown): WireError {
  if (e instanceof LocatorError)
    return { message: e.message, code: e.code, locator: { offset: e.offset, detail: e.detail, section: e.section } };
  const err = e instanceof Error ? e : new Error(String(e));
  const code = (err as NodeJS.ErrnoException).code;
  return typeof code === 'string' ? { message: err.message, code } : { message: err.message };
}

export function fromWire(w: WireError): Error {
  if (w.locator && w.code !== undefined)
    return new LocatorError(w.code, w.locator.offset, w.locator.detail, { section: w.locator.section });
  const e = new Error(w.message) as NodeJS.ErrnoException;
  if (w.code !== undefined) e.code = w.code;
  return e;
}

/** Octets sent to the worker and not yet taken by it, at most (one batch may pass it). */
export const MAX_INFLIGHT = 32 * 1024 * 1024;
/** A stream goes over in batches of about this many octets; records given whole, in batches of at most about this many. */
export const BATCH = 256 * 1024;
/** Records given whole go over in batches of this many at most (see ThreadWriterOptions.gather). */
export const BATCH_RECORDS = 32;

/** ThreadWarcWriter's options: WarcWriter's but the clock, and how long records are gathered. */
export interface ThreadWriterOptions extends Omit<WriterOptions, 'now'> {
  /**
   * Records given whole are sent to the worker in one message: those given in one turn of the
   * event loop (0, the default), or those given within this many ms of the first (at most
   * BATCH_RECORDS, or BATCH octets). Each message wakes the worker's thread, whose answer wakes
   * this one, and on a machine of few cores those wake-ups cost more than the writing; a caller
   * that does not wait for each record before giving the next (the archive crawl: 20 ms) gains by
   * gathering, one that does would wait this long for each.
   */
  gather?: number;
}

interface Pending {
  resolve: (r: WrittenRecord) => void;
  reject: (e: Error) => void;
  /** Octets sent for this record that the worker has not said it took. */
  unacked: number;
}

/** One buffer of its own holding `chunks`: moved to the worker, so never a view of a shared pool. */
function own(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** The octets of a block given whole, copied into one buffer of their own; null for a stream or past `most` octets. */
function wholeOf(block: BlockSource, most: number): Uint8Array | null {
  if (typeof block === 'string') {
    const b = Buffer.from(block, 'utf8');
    return b.byteLength > most ? null : own([b], b.byteLength);
  }
  if (block instanceof Uint8Array) return block.byteLength > most ? null : own([block], block.byteLength);
  if (Array.isArray(block)) {
    const list = block as readonly Uint8Array[];
    let size = 0;
    for (const c of list) size += c.byteLength;
    return size > most ? null : own(list, size);
  }
  return null;
}

/**
 * The writer's worker, with this process's Node options (inherited: a worker takes V8's, such as
 * --max-old-space-size), but for a program given with `-e` and `--input-type`, which a worker
 * started from a file refuses: then none.
 */
function startWorker(options: Omit<WriterOptions, 'now'>): Worker {
  const file = new URL('../archive/writer-worker.js', import.meta.url);
  const plain = process.execArgv.some((a) => a.startsWith('--input-type'));
  return new Worker(file, { workerData: options, ...(plain ? { execArgv: [] } : {}) });
}

/**
 * ISO 28500 (WARC 1.1) section 4 and Annex D, as WarcWriter writes them, on a worker thread. The
 * options are WarcWriter's but the clock (`now`): the worker's clock dates the files and the
 * records given no date. Unlike WarcWriter: `files` is filled when close() has ended (files rolled
 * before a close that failed are not listed), close() gives the same promise each time (a
 * failed close fails again), and there are no request()/response()/resource()/metadata() forms:
 * write() takes every record.
 */
export class ThreadWarcWriter {
  readonly files: string[] = [];
  private readonly worker: Worker;
  private next = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly writes = new Set<Promise<unknown>>();
  private batch: Array<{ id: number; head: RecordHead; bytes: Uint8Array }> = [];
  private batchBytes = 0;
  private timer: ReturnType<typeof setTimeout> | ReturnType<typeof setImmediate> | null = null;
  /** Records given with their `recordId` that go over as streams, until written. */
  private readonly streams = new Map<string, Promise<WrittenRecord>>();
  private inflight = 0;
  private waiters: Array<() => void> = [];
  private dead: Error | null = null;
  private closing: Promise<string[]> | null = null;
  private onClosed: { resolve: (f: string[]) => void; reject: (e: Error) => void } | null = null;
  private readonly exited: Promise<void>;

  private readonly gather: number;

  constructor(options: ThreadWriterOptions) {
    const { gather = 0, ...writerOptions } = options;
    if (!(Number.isFinite(gather) && gather >= 0))
      throw new RangeError(`ThreadWarcWriter: gather must be a number of ms >= 0, not ${String(gather)}`);
    this.gather = gather;
    // The worker's module beside this one: dist/archive/, from this module or from the CLI's
    // bundle in dist/cli/.
    this.worker = startWorker(writerOptions);
    this.worker.on('message', (m: FromWorker) => this.receive(m));
    this.worker.on('error', (e) => this.stop(e));
    this.exited = new Promise((resolve) =>
      this.worker.once('exit', (code) => {
        this.stop(new Error(`its thread ended with exit code ${code}`));
        resolve();
      }),
    );
    this.hold();
  }

  /** Octets of the records given whole and not yet written, and of streams sent and not yet taken by the worker. */
  get backlog(): number {
    return this.inflight;
  }

  /** Why the writer stopped (its thread failed or ended), or null while it works: every later write fails with it. */
  get failure(): Error | null {
    return this.dead;
  }

  /**
   * The worker keeps the process alive only while it has work of ours (records on their way, a
   * close under way): a writer left idle and never closed (a crawl's generator dropped by its
   * reader) does not hold the process open, and one with a record or a close pending does not let
   * it end before the file is written.
   */
  private hold(): void {
    if (this.pending.size > 0 || this.batch.length > 0 || this.onClosed !== null) this.worker.ref();
    else this.worker.unref();
  }

  /** The worker is gone: every record on its way fails, and every later one. */
  private stop(cause: Error): void {
    if (this.dead !== null) return;
    this.dead = new LocatorError(WARC_WRITER_FAILED, -1, `the WARC writer stopped: ${cause.message}`, { cause });
    for (const p of this.pending.values()) p.reject(this.dead);
    this.pending.clear();
    this.onClosed?.reject(this.dead);
    this.onClosed = null;
    this.wake();
    this.hold();
  }

  private receive(m: FromWorker): void {
    switch (m.t) {
      case 'done':
        for (const o of m.outcomes) {
          const p = this.pending.get(o.id);
          if (p === undefined) continue;
          this.pending.delete(o.id);
          this.inflight -= p.unacked;
          if ('record' in o) p.resolve(o.record);
          else p.reject(fromWire(o.error));
        }
        this.wake();
        this.hold();
        return;
      case 'took': {
        const p = this.pending.get(m.id);
        if (p === undefined) return;
        p.unacked -= m.bytes;
        this.inflight -= m.bytes;
        this.wake();
        return;
      }
      case 'closed':
      case 'closefail': {
        const c = this.onClosed;
        this.onClosed = null;
        if (m.t === 'closed') c?.resolve(m.files);
        else c?.reject(fromWire(m.error));
      }
    }
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Waits until `n` more octets may go to the worker (or `over()` says they need not go). */
  private async room(n: number, over: () => boolean = () => false): Promise<void> {
    while (this.dead === null && !over() && this.inflight > 0 && this.inflight + n > MAX_INFLIGHT)
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    if (this.dead !== null) throw this.dead;
  }

  private track(id: number): { entry: Pending; done: Promise<WrittenRecord> } {
    const entry: Pending = { resolve: () => {}, reject: () => {}, unacked: 0 };
    const done = new Promise<WrittenRecord>((resolve, reject) => {
      entry.resolve = resolve;
      entry.reject = reject;
    });
    // Not every outcome is waited for (a stream that failed before any of it was sent): the
    // worker's end must not be an unhandled rejection that ends the process.
    done.catch(() => {});
    this.pending.set(id, entry);
    return { entry, done };
  }

  /**
   * Writes one record (WARC 1.1 4) on the worker; resolves when it is in the file, as
   * WarcWriter.write() does. A block stream that fails writes nothing and rejects with its error.
   */
  write(input: RecordInput): Promise<WrittenRecord> {
    if (this.closing !== null) return Promise.reject(new LocatorError(WARC_WRITER_CLOSED, -1));
    if (this.dead !== null) return Promise.reject(this.dead);
    // A record that requires one going over as a stream is sent after it (records given whole
    // reach the worker in the order given; a stream's first octets may not have gone yet).
    const before = input.requires !== undefined ? this.streams.get(input.requires) : undefined;
    if (before === undefined) return this.send(input);
    const required = input.requires!;
    const p = before.then(
      () => this.send(input),
      () =>
        Promise.reject(
          new LocatorError(WARC_RECORD_REQUIRES, -1, `the record ${required} this one goes with was not written`),
        ),
    );
    this.writes.add(p);
    const forget = () => this.writes.delete(p);
    p.then(forget, forget);
    return p;
  }

  /** write() of a record taken (before any close). */
  private send(input: RecordInput): Promise<WrittenRecord> {
    if (this.dead !== null) return Promise.reject(this.dead);
    const { block, ...head } = input;
    const id = this.next++;
    // A block given whole goes over whole up to BATCH octets; a larger one as a stream does, in
    // batches bounded by MAX_INFLIGHT (and through the worker's spool past spoolLimit).
    const bytes = wholeOf(block, BATCH);
    let p: Promise<WrittenRecord>;
    if (bytes !== null) {
      const { entry, done } = this.track(id);
      entry.unacked = bytes.byteLength;
      this.inflight += bytes.byteLength;
      this.batch.push({ id, head, bytes });
      this.batchBytes += bytes.byteLength;
      if (this.batchBytes >= BATCH || this.batch.length >= BATCH_RECORDS) this.flush();
      else if (this.timer === null)
        this.timer = this.gather > 0 ? setTimeout(() => this.flush(), this.gather) : setImmediate(() => this.flush());
      p = done;
    } else {
      this.flush();
      p = this.stream(id, head, block);
      const recordId = input.recordId;
      if (recordId !== undefined) {
        this.streams.set(recordId, p);
        const gone = () => this.streams.delete(recordId);
        p.then(gone, gone);
      }
    }
    this.writes.add(p);
    const forget = () => this.writes.delete(p);
    p.then(forget, forget);
    this.hold();
    return p;
  }

  /** Sends the records gathered since the last batch now (without waiting out `gather`). */
  flush(): void {
    if (this.timer !== null) {
      if (this.gather > 0) clearTimeout(this.timer as ReturnType<typeof setTimeout>);
      else clearImmediate(this.timer as ReturnType<typeof setImmediate>);
    }
    this.timer = null;
    if (this.batch.length === 0 || this.dead !== null) return;
    const records = this.batch;
    this.batch = [];
    this.batchBytes = 0;
    this.worker.postMessage(
      { t: 'batch', records } satisfies ToWorker,
      records.map((r) => r.bytes.buffer as ArrayBuffer),
    );
  }

  private async stream(id: number, head: RecordHead, block: BlockSource): Promise<WrittenRecord> {
    const { entry, done } = this.track(id);
    let sent = false;
    let chunks: Uint8Array[] = [];
    let size = 0;
    /** Whether the worker has given this record's outcome already (it failed there: a full disk). */
    const settled = () => this.pending.get(id) !== entry;
    const send = async (end: boolean) => {
      const bytes = own(chunks, size);
      chunks = [];
      size = 0;
      await this.room(bytes.byteLength, settled);
      // Failed in the worker while its source was still being read: nothing more goes over, and
      // no octet is counted that no one will acknowledge.
      if (settled()) return false;
      entry.unacked += bytes.byteLength;
      this.inflight += bytes.byteLength;
      const m: ToWorker = sent ? { t: 'more', id, bytes, end } : { t: 'rec', id, head, bytes, end };
      this.worker.postMessage(m, [bytes.buffer as ArrayBuffer]);
      sent = true;
      return true;
    };
    try {
      for await (const c of chunksOf(block)) {
        if (c.byteLength === 0) continue;
        chunks.push(c);
        size += c.byteLength;
        if (size >= BATCH && !(await send(false))) return done;
      }
      await send(true);
    } catch (e) {
      // Nothing of the record is written: the worker drops what it has of it.
      if (!sent) {
        this.pending.delete(id);
        this.hold();
      } else if (this.dead === null) {
        this.worker.postMessage({ t: 'abort', id } satisfies ToWorker);
        await done.catch(() => {});
      }
      throw e;
    }
    return done;
  }

  /** Ends the current file (fsync, then its final name) once every record given has been written. */
  close(): Promise<string[]> {
    if (this.closing === null) this.closing = this.finish();
    return this.closing;
  }

  private async finish(): Promise<string[]> {
    this.flush();
    await Promise.allSettled([...this.writes]);
    if (this.dead !== null) throw this.dead;
    const files = await new Promise<string[]>((resolve, reject) => {
      this.onClosed = { resolve, reject };
      this.hold();
      this.worker.postMessage({ t: 'close' } satisfies ToWorker);
    });
    await this.exited;
    this.files.push(...files);
    return this.files;
  }
}
