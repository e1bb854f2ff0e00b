// Batch mode over worker threads: `--jobs N` spreads the lines of standard input over N
// workers (node:worker_threads) and prints their rows in input order, in constant memory.
//
// The main thread does no per-line and no per-character work: it reads standard input as bytes,
// cuts it into blocks of whole lines (at the last LF byte of about BLOCK_BYTES bytes; 0x0A never
// occurs inside a UTF-8 sequence, so a block decodes alone as it would in the stream), transfers
// each block to a worker (moved, not copied), and writes the blocks' output bytes in order,
// again moved from the worker. A worker splits its block into lines exactly as inputs() does
// (LF ends a line, a CR right before it is trimmed, a lone CR stays), each decoded alone, runs the
// command's row function on each - the same function the one-process loop runs, so that the
// output with N workers is the output with one, byte for byte - and encodes the output text.
// An earlier version posted strings both ways: the main thread then decoded the input, copied
// every block into each message, and copied and encoded the output (several times the input),
// and 2 workers gave only 1.03x of 1 on a quiet 2-core machine (bench/RESULTS.md, Batch).
// Memory is bounded: at most IN_FLIGHT blocks per worker are out (posted and not yet written);
// reading stops until the oldest is written, and writing waits for 'drain'.
import type { Worker } from 'node:worker_threads';
import { fstatSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Readable, Writable } from 'node:stream';
import { FdOutput, fdLines, lineBatches } from './io.js';
import { UsageError, type Io } from './command.js';
import { nodeModule } from './node-modules.js';
import { escaper, escapingTarget } from './safe-text.js';
import { RowBytes } from './row-bytes.js';

/** The rows of one input: output lines, standard error text (may be ''), and 0 or 1. */
export interface Row {
  lines: string[];
  err: string;
  status: number;
  /**
   * The lines hold no character that main.ts's escaping stream would change (JSON text from
   * json-text.ts): they are written as they are.
   */
  safe?: boolean;
}

/** The commands with a batch path, each with its row function (batch-worker.ts has the table). */
export type BatchKind = 'parse' | 'normalize';

/** What a worker needs to run a command's row function as the main thread would. */
export interface BatchSetup {
  kind: BatchKind;
  /** The command's options (plain data: they are cloned into each worker). */
  opts: Record<string, unknown>;
  /** The scheme modules (--scheme, LOCATOR_SCHEMES) as file: URLs, loaded by each worker first. */
  modules: string[];
  /**
   * Set by runWorkers() when standard output is an escaping() stream: the workers escape each
   * output line as it would (safeJson() or safeText()), and the bytes go past it.
   */
  escape?: 'json' | 'text';
  /**
   * Set by runWorkers() when standard error is the same stream as standard output (parse writes
   * both to standard output): a row's error text goes into the output right after its lines, as
   * in the one-process loop, escaped the same way.
   */
  errToOut?: boolean;
}

/** A block's result, as a worker posts it. */
interface BlockResult {
  seq: number;
  /** The output text in UTF-8, its buffer transferred. */
  out: Uint8Array;
  err: string;
  status: number;
  /** Set when the worker failed outside any one line's row (a bug): the command stops. */
  fatal?: string;
  /** The worker it came from (set by the main thread). */
  from?: number;
  /** The block's input buffer, decoded and handed back for a later block. */
  input?: ArrayBuffer;
}

// About 64 KiB per block: large enough that the cost of a message (a few microseconds) is small
// beside the block's work, small enough that 2 workers x IN_FLIGHT blocks stay a few megabytes
// (a single longer line makes a longer block: the one-process loop holds it too).
const BLOCK_BYTES = 1 << 16;
// Two blocks per worker: one it works on, one waiting, so a worker never idles while the main
// thread writes.
const IN_FLIGHT = 2;

/**
 * The value of `--jobs`: a whole number from 1 to 64, or "auto" (the machine's available
 * parallelism). Absent: 1, the one-process loop. The default stays 1 because a worker costs a
 * start-up (tens of milliseconds and a V8 heap each), which most batch inputs - a few lines in a
 * pipeline - never pay back, and because a command that takes every core uninvited competes with
 * the pipeline around it. For long inputs 2 workers gave 1.35-1.44x the lines/s of 1 worker and
 * 1.75-2.3x of `--jobs 1` on the 2-vCPU test VM, where two independent processes gain 1.7-2.2x
 * (bench/RESULTS.md, Batch).
 */
export function jobsOption(v: unknown): number {
  if (v === undefined) return 1;
  if (v === 'auto')
    return Math.max(1, Math.min(64, nodeModule<typeof import('node:os')>('node:os').availableParallelism()));
  const n = Number(v);
  if (typeof v !== 'string' || !/^[0-9]+$/.test(v) || !Number.isSafeInteger(n) || n < 1 || n > 64) {
    throw new UsageError(`--jobs takes a whole number from 1 to 64, or "auto", not '${String(v)}'`);
  }
  return n;
}

/** The scheme modules a command was given (--scheme, LOCATOR_SCHEMES), as main.ts loads them. */
export function schemeModules(values: Record<string, unknown>, env: NodeJS.ProcessEnv): string[] {
  const named = [...(env.LOCATOR_SCHEMES ?? '').split(':'), ...((values.scheme as string[] | undefined) ?? [])];
  return named
    .filter((m) => m !== '')
    .map((m) => (m.startsWith('file:') ? m : pathToFileURL(resolve(process.cwd(), m)).href));
}

/**
 * Calls `each` on the lines of one block of input bytes, as inputs() reads them: LF ends a line
 * and a CR right before it is trimmed. The block holds whole lines, each ending in LF, except the
 * last block of the input, whose last line may have none (a CR at its end is kept, as inputs()
 * keeps it). Each line is a string made from its own bytes, decoded as the stream decodes it (LF
 * never occurs inside a UTF-8 sequence: malformed sequences become U+FFFD and a byte order mark
 * is kept, as there), as the one-process loop makes it (io.ts, fdLines). Not the block decoded
 * whole and split: the lines were then slices of the block's string, which the parser and the
 * row writer read more slowly than strings of their own (bench/RESULTS.md, the batch, third
 * session).
 */
export function blockLines(block: Uint8Array, each: (line: string) => void): void {
  const b = Buffer.from(block.buffer, block.byteOffset, block.byteLength);
  const n = b.length;
  for (let from = 0; from < n;) {
    const lf = b.indexOf(10, from);
    if (lf < 0) {
      each(b.toString('utf8', from, n));
      return;
    }
    each(b.toString('utf8', from, lf > from && b[lf - 1] === 13 ? lf - 1 : lf));
    from = lf + 1;
  }
}

/**
 * A worker's output, kept from block to block (row-bytes.ts). Each block's output is moved out
 * whole and its buffer handed back by the main thread once written: fresh buffers of a few
 * hundred KB are fresh pages, whose page faults were a tenth of a worker's time on the test VM.
 */
const sink = new RowBytes();

/** Gives a worker back an output buffer it made (see RowBytes.spare()). */
export function spareBuffer(b: ArrayBuffer): void {
  sink.spare(b);
}

/** A row function that writes its row's bytes, LF included, into `out`, and returns its status. */
export type BytesRow = (input: string, out: RowBytes) => number;

/**
 * Runs `row` on each line of `block`: the output as UTF-8 bytes in a buffer of its own, the
 * standard error text, the status (0, or 1 when some row had status 1).
 */
export function runBlock(
  block: Uint8Array,
  row: (input: string) => Row,
  escape: ((line: string) => string) | null = null,
  errToOut = false,
  bytes?: BytesRow,
): { out: Uint8Array; err: string; status: number } {
  let err = '';
  let status = 0;
  if (bytes !== undefined) {
    blockLines(block, (input) => {
      if (bytes(input, sink) !== 0) status = 1;
    });
    return { out: sink.take(), err, status };
  }
  blockLines(block, (input) => {
    const r = row(input);
    for (const l of r.lines) {
      sink.text(escape === null || r.safe === true ? l : escape(l));
      sink.ascii('\n');
    }
    if (r.err !== '') {
      if (errToOut) sink.text(escape === null ? r.err : escape(r.err));
      else err += r.err;
    }
    if (r.status !== 0) status = 1;
  });
  return { out: sink.take(), err, status };
}

/** The streams of a command's run (Io), read only when used; `direct`: see Io. */
export type RowIo = Pick<Io, 'stdin' | 'stdout' | 'stderr' | 'direct'>;

/**
 * Runs a command's row function over its inputs and writes the rows in input order; returns 1
 * when some row had status 1, else 0. With arguments, or with `jobs` 1, in this thread (the
 * inputs() loop); else over `jobs` workers, which each load `setup.modules` and run the same row
 * function on blocks of standard input. `errToOut`: a row's error text goes to standard output,
 * right after its lines (parse), else to standard error.
 */
export async function runRows(
  args: string[],
  io: RowIo,
  errToOut: boolean,
  jobs: number,
  setup: BatchSetup,
  row: (input: string) => Row,
  bytes?: BytesRow,
): Promise<number> {
  if (jobs <= 1 || args.length > 0) return runHere(args, io, errToOut, row, bytes);
  return runWorkers(io, errToOut, jobs, setup);
}

/**
 * The one-process loop of runRows() (and of lint, resolve and relativize): the rows of each chunk
 * of input in one synchronous pass, collected into one string, written when it reaches OUT_CHARS
 * (waiting for 'drain' when the stream asks) and at the end. Past main.ts's escaping stream, as
 * the workers write: each line escaped the same way here, unless its row says it is safe
 * already. When standard input and output are the process's own (`io.direct`), they are read and
 * written through their descriptors (io.ts: fdLines, FdOutput), and their streams are
 * never made: that is a fifth of the start-up on empty input, and less work per chunk.
 */
export async function runHere(
  args: string[],
  io: RowIo,
  errToOut: boolean,
  row: (input: string) => Row,
  bytes?: BytesRow,
): Promise<number> {
  let status = 0;
  const out = rowOutput(io);
  const escape = out.escape === null ? null : escaper(out.escape === 'json');
  const write = out.write;
  // The rows' bytes, written when they reach OUT_BYTES; the buffer is kept from write to write
  // when written through the descriptor (at once, or copied: FdOutput), else each write takes it
  // away (a stream may hold a chunk until it is written) and rows go on in a fresh one.
  const buf = new RowBytes();
  let flushes = 0;
  const flush = () => {
    if (flushes >= 0 && ++flushes >= YOUNG_AFTER_FLUSHES && holdYoungGeneration()) flushes = -1;
    return write(io.direct !== undefined ? buf.flushed() : buf.take());
  };
  const one = (input: string): Promise<void> | undefined => {
    if (bytes !== undefined) {
      if (bytes(input, buf) !== 0) status = 1;
    } else {
      const r = row(input);
      if (r.status !== 0) status = 1;
      const lines = r.lines;
      for (let i = 0; i < lines.length; i++) {
        buf.text(escape === null || r.safe === true ? lines[i] : escape(lines[i]));
        buf.ascii('\n');
      }
      if (r.err !== '') {
        if (errToOut) buf.text(escape === null ? r.err : escape(r.err));
        else io.stderr.write(r.err);
      }
    }
    return buf.at >= OUT_BYTES ? flush() : undefined;
  };
  if (args.length === 0 && io.direct !== undefined) await fdLines(0, () => io.stdin, one);
  else {
    for await (const batch of args.length > 0 ? [args] : lineBatches(io.stdin)) {
      for (let k = 0; k < batch.length; k++) {
        const p = one(batch[k]);
        if (p !== undefined) await p;
      }
    }
  }
  if (buf.at > 0) await flush();
  return status;
}

/**
 * The worker's script: from a bundle of the CLI (scripts/build-cli.mjs, whose import.meta.url is
 * the bundle's .cjs file) the worker's own bundle beside it, one file to compile; 50 ms less to
 * start each worker, 3.5% of `parse --json --jobs 2` on 2M lines (bench/RESULTS.md, "the worker
 * bundle"). From tsc's modules (main.js, the tests' tree) batch-worker.js, never a bundle that
 * an earlier build left.
 */
const WORKER = (): URL =>
  new URL(import.meta.url.endsWith('.cjs') ? './locator.worker.cjs' : './batch-worker.js', import.meta.url);

/** About how much output the one-process loop collects before it writes (bytes). */
const OUT_BYTES = 1 << 16;

/**
 * After how many writes of OUT_BYTES (4 MB of rows, some 16,000 URLs of `parse --json`) the
 * one-process loop begins to hold V8's young generation (holdYoungGeneration).
 */
const YOUNG_AFTER_FLUSHES = 64;

/** The size (both semi-spaces) at which the young generation is held: 2 x 2 MB. */
const YOUNG_HELD_BYTES = 4 << 20;

let v8Module: typeof import('node:v8') | undefined;

/**
 * Memory (issue 38): V8's young generation held at 2 x 2 MB for the rest of a long one-process
 * batch, once it has grown that far (true: held). V8 doubles the young generation (two
 * semi-spaces) each time the bytes that survived its collections since the last growth exceed its
 * size; a batch's rows die young (a few KB survive each collection), yet over a million rows
 * those few KB add up and V8 grows the semi-spaces from 2 MB to 4 MB each: 4 MB more of peak RSS
 * for collections that were cheap already. Measured (bench/RESULTS.md, "peak RSS held"): `parse
 * --json` on 1M lines, peak RSS 63.3 -> 60.9 MB (medians of 11, with the ASCII bundle of
 * scripts/build-cli.mjs), CPU 0.99x; held at 2 x 1 MB instead, 2% of the time was lost. The flag
 * is V8's own, read each time the young generation would grow; Node's V8 leaves its flags
 * writable after start (--no-freeze-flags-after-init is its default). Only the command's own
 * process is touched (a one-shot run of the CLI), never a library caller's; the loop is that of
 * parse, normalize, lint, resolve, relativize, get, set and build. Should V8 shrink the young
 * generation later (it may when memory is short), it stays at that size.
 */
function holdYoungGeneration(): boolean {
  // A young generation sized by the user (node --max-semi-space-size, NODE_OPTIONS) is left as asked.
  if (/semi[-_]space/.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`)) return true;
  const v8 = (v8Module ??= nodeModule<typeof import('node:v8')>('node:v8'));
  const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  if (young === undefined || young.space_size < YOUNG_HELD_BYTES) return false;
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  return true;
}

/**
 * Where a batch writes its rows: past main.ts's escaping stream, as the workers write, so that
 * no byte is scanned twice. `escape` is how the rows must be escaped (that stream's way), `write`
 * resolves when the data may be reused by the caller, `recycles` says whether a buffer written
 * may be given back for later writes. With `io.direct`, standard output's descriptor (io.ts:
 * FdOutput; the stream under the escaping one should the descriptor refuse a write, EAGAIN):
 * written at once or copied, so a buffer is free again. Else the stream under the escaping one,
 * waiting for 'drain': a stream on a file descriptor keeps no reference to a written chunk; one in
 * memory may keep it, and a buffer moved away reads as empty, so its buffers are not given back.
 */
function rowOutput(io: RowIo): {
  escape: 'json' | 'text' | null;
  write: (data: string | Uint8Array) => Promise<void>;
  recycles: boolean;
} {
  if (io.direct !== undefined) {
    const fd = new FdOutput(1, () => escapingTarget(io.stdout)?.out ?? io.stdout);
    return { escape: io.direct.escape, write: (data) => fd.write(data), recycles: true };
  }
  const target = escapingTarget(io.stdout);
  const stdout = target === null ? io.stdout : target.out;
  return {
    escape: target === null ? null : target.json ? 'json' : 'text',
    write: async (data) => {
      if (!stdout.write(data)) await new Promise<void>((res) => stdout.once('drain', res));
    },
    recycles: typeof (stdout as Writable & { fd?: unknown }).fd === 'number',
  };
}

/**
 * The rows of standard input over `jobs` workers (1 or more), in input order; returns 1 when some
 * row had status 1, else 0. runRows() runs this for `--jobs` 2 and more; the benchmark also with 1.
 * `errToOut`: a row's error text goes to standard output, right after its lines (parse).
 */
export async function runWorkers(io: RowIo, errToOut: boolean, jobs: number, setup: BatchSetup): Promise<number> {
  // Standard output through the escaping stream of main.ts: the workers escape their lines the
  // same way, and their bytes are written to the stream under it (or to the descriptor, with
  // `io.direct`). Through the escaping stream, the main thread would decode, scan and encode
  // every byte of output again (several times the input): with it, 2 workers ran at
  // 0.88-0.94x of 1 (bench/RESULTS.md, Batch).
  const direct = io.direct;
  const out = rowOutput(io);
  if (out.escape !== null) setup = { ...setup, escape: out.escape };
  const write = async (bytes: Uint8Array): Promise<boolean> => {
    await out.write(bytes);
    return out.recycles;
  };
  if (errToOut) setup = { ...setup, errToOut: true };
  const workers: Worker[] = [];
  // Input buffers the workers gave back, for later blocks (fresh memory is page faults).
  const pool: ArrayBuffer[] = [];
  const POOL = 2 * jobs * IN_FLIGHT;
  /** A buffer of at least `n` bytes, whole: a pooled one when one is large enough. */
  const alloc = (n: number): Uint8Array => {
    const i = pool.findIndex((b) => b.byteLength >= n);
    if (i < 0) return new Uint8Array(Math.max(n, 2 * BLOCK_BYTES));
    const b = pool[i];
    pool.splice(i, 1);
    return new Uint8Array(b);
  };
  const busy: number[] = [];
  const done = new Map<number, BlockResult>();
  let status = 0;
  let posted = 0;
  let written = 0;
  let failed: Error | null = null;
  // Woken when a result arrives or a worker fails.
  let wake: (() => void) | null = null;
  const signal = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const fail = (e: Error) => {
    failed ??= e;
    signal();
  };
  for (let k = 0; k < jobs; k++) {
    const { Worker } = nodeModule<typeof import('node:worker_threads')>('node:worker_threads');
    const w = new Worker(WORKER(), { workerData: setup });
    const index = k;
    w.on('message', (m: BlockResult) => {
      busy[index]--;
      if (m.input !== undefined && pool.length < POOL) pool.push(m.input);
      if (m.fatal !== undefined) fail(new Error(m.fatal));
      m.from = index;
      done.set(m.seq, m);
      signal();
    });
    w.on('error', fail);
    w.on('exit', (code) => {
      if (code !== 0) fail(new Error(`a batch worker stopped with status ${code}`));
    });
    workers.push(w);
    busy.push(0);
  }

  // Writes the results that are next in order.
  const drain = async (): Promise<void> => {
    for (let r = done.get(written); r !== undefined; r = done.get(written)) {
      done.delete(written);
      written++;
      if (r.status !== 0) status = 1;
      if (r.out.byteLength > 0) {
        const bytes = r.out;
        // Once written, the buffer goes back to its worker for a later block (ByteSink.spare()).
        if (await write(bytes)) workers[r.from!].postMessage({ spare: bytes.buffer }, [bytes.buffer as ArrayBuffer]);
      }
      if (r.err !== '') io.stderr.write(r.err);
    }
  };
  const waitForResult = () => new Promise<void>((res) => (wake = res));

  const post = async (block: Uint8Array): Promise<void> => {
    // Bounded: wait while every worker has IN_FLIGHT blocks out, or while the results not yet
    // written (held for order) would exceed the same bound.
    for (;;) {
      if (failed !== null) throw failed;
      await drain();
      if (posted - written < jobs * IN_FLIGHT) break;
      await waitForResult();
    }
    let best = 0;
    for (let k = 1; k < jobs; k++) if (busy[k] < busy[best]) best = k;
    busy[best]++;
    workers[best].postMessage({ seq: posted++, block }, [block.buffer as ArrayBuffer]);
  };

  try {
    if (direct !== undefined && fstatSync(0).isFile()) {
      // A file on standard input: read straight into the buffer that becomes the block (and
      // never waits long: readSync does not hold the loop as it would on a pipe).
      let buf = alloc(2 * BLOCK_BYTES);
      let held = 0;
      for (;;) {
        const want = Math.max(BLOCK_BYTES - held, 1 << 12);
        if (held + want > buf.byteLength) {
          const bigger = alloc(2 * buf.byteLength);
          bigger.set(buf.subarray(0, held));
          buf = bigger;
        }
        const n = readSync(0, buf, held, want, null);
        if (n === 0) break;
        held += n;
        if (held < BLOCK_BYTES) continue;
        const lf = buf.subarray(0, held).lastIndexOf(10);
        // No line ends yet: the block waits for its LF, as in inputs().
        if (lf < 0) continue;
        const next = alloc(2 * BLOCK_BYTES);
        next.set(buf.subarray(lf + 1, held));
        held -= lf + 1;
        await post(buf.subarray(0, lf + 1));
        buf = next;
      }
      if (held > 0) await post(buf.subarray(0, held));
    } else {
      const stdin = io.stdin;
      // The pieces read since the last block: whole chunks, and the tail of the chunk that ended it.
      let pieces: Buffer[] = [];
      let held = 0;
      /** The pieces and `upTo` bytes of `last`, copied into one buffer (to transfer). */
      const take = (last: Buffer | null, upTo: number): Uint8Array => {
        const block = alloc(held + upTo).subarray(0, held + upTo);
        let at = 0;
        for (const p of pieces) {
          block.set(p, at);
          at += p.byteLength;
        }
        if (last !== null) block.set(last.subarray(0, upTo), at);
        return block;
      };
      for await (const chunk of stdin as AsyncIterable<Buffer>) {
        if (held + chunk.byteLength < BLOCK_BYTES) {
          pieces.push(chunk);
          held += chunk.byteLength;
          continue;
        }
        const lf = chunk.lastIndexOf(10);
        if (lf < 0) {
          // No line ends in this chunk: it waits for its LF, as in inputs().
          pieces.push(chunk);
          held += chunk.byteLength;
          continue;
        }
        const block = take(chunk, lf + 1);
        const rest = chunk.subarray(lf + 1);
        pieces = rest.byteLength > 0 ? [rest] : [];
        held = rest.byteLength;
        await post(block);
      }
      if (held > 0) await post(take(null, 0));
    }
    while (written < posted) {
      if (failed !== null) throw failed;
      await drain();
      if (written < posted) await waitForResult();
    }
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return status;
}
