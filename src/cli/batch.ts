// Batch mode over worker threads (issue 16): `--jobs N` spreads the lines of standard input over N
// workers (node:worker_threads) and prints their rows in input order, in constant memory.
//
// The main thread does no per-line work: it cuts the input into blocks of whole lines (at the
// last LF of about BLOCK_CHARS characters), posts each block to a worker as one string (one
// structured clone per block, not per line), and writes the blocks' output text in order. A
// worker splits its block into lines exactly as inputs() does (LF ends a line, a CR right before
// it is trimmed, a lone CR stays) and runs the command's row function on each, the same function
// the one-process loop runs, so that the output with N workers is the output with one, byte for
// byte. Memory is bounded: at most IN_FLIGHT blocks per worker are out (posted and not yet
// written); reading stops until the oldest is written, and writing waits for 'drain'.
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Readable, Writable } from 'node:stream';
import { Output, inputs } from './io.js';
import { UsageError } from './command.js';

/** The rows of one input: output lines, standard error text (may be ''), and 0 or 1. */
export interface Row {
  lines: string[];
  err: string;
  status: number;
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
}

/** A block's result, as a worker posts it. */
interface BlockResult {
  seq: number;
  out: string;
  err: string;
  status: number;
  /** Set when the worker failed outside any one line's row (a bug): the command stops. */
  fatal?: string;
}

// About 64K characters per block: large enough that the cost of a message (a few microseconds)
// is small beside the block's work, small enough that 2 workers x IN_FLIGHT blocks stay a few
// megabytes (a single longer line makes a longer block: the one-process loop holds it too).
const BLOCK_CHARS = 1 << 16;
// Two blocks per worker: one it works on, one waiting, so a worker never idles while the main
// thread writes.
const IN_FLIGHT = 2;

/**
 * The value of `--jobs`: a whole number from 1 to 64, or "auto" (the machine's available
 * parallelism). Absent: 1, the one-process loop. The default stays 1 because a worker costs a
 * start-up (tens of milliseconds and a V8 heap each), which most batch inputs - a few lines in a
 * pipeline - never pay back, and because a command that takes every core uninvited competes with
 * the pipeline around it; 2 workers give about 1.8x on 2 cores for long inputs (bench/RESULTS.md).
 */
export function jobsOption(v: unknown): number {
  if (v === undefined) return 1;
  if (v === 'auto') return Math.max(1, Math.min(64, availableParallelism()));
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
 * The lines of one block (see inputs()): LF ends a line and a CR right before it is trimmed; the
 * block holds whole lines, each ending in LF, except the last block of the input, whose last line
 * may have none.
 */
export function blockLines(block: string): string[] {
  const lines = block.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.charCodeAt(l.length - 1) === 13) lines[i] = l.slice(0, -1);
  }
  return lines;
}

/** Runs `row` on each line of `block`: the output text, the standard error text, the status. */
export function runBlock(block: string, row: (input: string) => Row): { out: string; err: string; status: number } {
  let out = '';
  let err = '';
  let status = 0;
  for (const input of blockLines(block)) {
    const r = row(input);
    for (const l of r.lines) out += l + '\n';
    err += r.err;
    if (r.status !== 0) status = 1;
  }
  return { out, err, status };
}

/**
 * Runs a command's row function over its inputs and writes the rows in input order; returns 1
 * when some row had status 1, else 0. With arguments, or with `jobs` 1, in this thread (the
 * inputs() loop); else over `jobs` workers, which each load `setup.modules` and run the same row
 * function on blocks of standard input.
 */
export async function runRows(
  args: string[],
  stdin: Readable,
  stdout: Writable,
  stderr: Writable,
  jobs: number,
  setup: BatchSetup,
  row: (input: string) => Row,
): Promise<number> {
  const out = new Output(stdout);
  let status = 0;
  if (jobs <= 1 || args.length > 0) {
    for await (const input of inputs(args, stdin)) {
      const r = row(input);
      if (r.status !== 0) status = 1;
      for (const l of r.lines) await out.line(l);
      if (r.err !== '') stderr.write(r.err);
    }
    await out.flush();
    return status;
  }
  return runWorkers(stdin, stdout, stderr, jobs, setup);
}

/**
 * The rows of standard input over `jobs` workers (1 or more), in input order; returns 1 when some
 * row had status 1, else 0. runRows() runs this for `--jobs` 2 and more; the benchmark also with 1.
 */
export async function runWorkers(
  stdin: Readable,
  stdout: Writable,
  stderr: Writable,
  jobs: number,
  setup: BatchSetup,
): Promise<number> {
  const out = new Output(stdout);
  const workers: Worker[] = [];
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
    const w = new Worker(new URL('./batch-worker.js', import.meta.url), { workerData: setup });
    const index = k;
    w.on('message', (m: BlockResult) => {
      busy[index]--;
      if (m.fatal !== undefined) fail(new Error(m.fatal));
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
      if (r.out !== '') await out.text(r.out);
      if (r.err !== '') stderr.write(r.err);
    }
  };
  const waitForResult = () => new Promise<void>((res) => (wake = res));

  const post = async (block: string): Promise<void> => {
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
    workers[best].postMessage({ seq: posted++, block });
  };

  try {
    stdin.setEncoding('utf8');
    let carry = '';
    for await (const chunk of stdin as AsyncIterable<string>) {
      carry = carry === '' ? chunk : carry + chunk;
      if (carry.length < BLOCK_CHARS) continue;
      const lf = carry.lastIndexOf('\n');
      if (lf < 0) continue; // one long line: it waits for its LF, as in inputs()
      const block = lf === carry.length - 1 ? carry : carry.slice(0, lf + 1);
      carry = lf === carry.length - 1 ? '' : carry.slice(lf + 1);
      await post(block);
    }
    if (carry !== '') await post(carry);
    while (written < posted) {
      if (failed !== null) throw failed;
      await drain();
      if (written < posted) await waitForResult();
    }
    await out.flush();
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return status;
}
