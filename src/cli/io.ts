// Input and output for the commands: URLs from arguments, or one per line on standard input
// (batch mode, streamed), and buffered output that respects back-pressure.
import { read, writeSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { nodeModule } from './node-modules.js';
import { redactText, redactUrl } from '../operations/redact.js';
import { LocatorError, defineCode, diagnostic, type Diagnostic } from '../core/errors.js';

/**
 * A text stream that hides URL passwords ("//user:****@host", RFC 1738 6) in everything written
 * through it, piped to `out`. Writes are whole lines or messages, so a URL is never split.
 */
export function redacting(out: Writable): Writable {
  const { Transform } = nodeModule<typeof import('node:stream')>('node:stream');
  const t = new Transform({
    transform(chunk: Buffer | string, _enc, done) {
      done(null, redactText(chunk.toString()));
    },
  });
  t.pipe(out);
  return t;
}

/**
 * The inputs: the arguments when any are given, else the lines of `stdin`. A line ends at LF; a
 * CR right before the LF is trimmed (CR LF). A lone CR is kept in the line, where the parser
 * reports it as a control character (RFC 1738 2.2): splitting there would turn one hostile line
 * into two clean ones. A last line with no LF is still a line.
 */
export async function* inputs(args: string[], stdin: Readable): AsyncGenerator<string> {
  if (args.length > 0) {
    yield* args;
    return;
  }
  stdin.setEncoding('utf8');
  // The pieces of the current line: a long line is joined once, when its LF comes.
  let pieces: string[] = [];
  for await (const chunk of stdin as AsyncIterable<string>) {
    let from = 0;
    for (let lf = chunk.indexOf('\n'); lf >= 0; lf = chunk.indexOf('\n', from)) {
      pieces.push(chunk.slice(from, lf));
      let line = pieces.length === 1 ? pieces[0] : pieces.join('');
      pieces = [];
      if (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
      yield line;
      from = lf + 1;
    }
    if (from < chunk.length) pieces.push(from === 0 ? chunk : chunk.slice(from));
  }
  if (pieces.length > 0) yield pieces.join('');
}

/**
 * The lines of `stdin` as inputs() reads them, a chunk's whole lines at a time (one array per
 * chunk that ends a line): for a loop that handles a chunk's lines in one synchronous pass.
 */
export function lineBatches(stdin: Readable): AsyncGenerator<string[]> {
  stdin.setEncoding('utf8');
  return batchesOf(stdin as AsyncIterable<string>);
}

/**
 * The lines of the file descriptor `fd` (standard input) as lineBatches() reads them, one at a
 * time into `each`: read with fs.read into two buffers in turn (one read ahead), each line made a
 * string of its own from its bytes (UTF-8, decoded as the stream decodes it: LF never occurs
 * inside a sequence, so a line decodes alone as it would in the whole). Not a decoded string per
 * chunk sliced into lines: that string and the chunk's array of lines outlived the young
 * generation's collections, whose survivors made V8 grow it to its largest (2 x 16 MB on the
 * test VM, a third of the peak RSS of `parse --json`: bench/RESULTS.md, the batch, RSS). A
 * descriptor that is non-blocking and has nothing yet (EAGAIN) is read through `stream()`.
 */
export async function fdLines(
  fd: number,
  stream: () => Readable,
  each: (line: string) => void | Promise<void>,
): Promise<void> {
  const SIZE = 1 << 16;
  const bufs = [Buffer.allocUnsafeSlow(SIZE), Buffer.allocUnsafeSlow(SIZE)];
  const readInto = (b: Buffer) => {
    const p = new Promise<number>((res, rej) => read(fd, b, 0, SIZE, null, (e, n) => (e === null ? res(n) : rej(e))));
    p.catch(() => undefined);
    return p;
  };
  // The bytes of a line begun in an earlier chunk.
  let carry: Buffer | null = null;
  /** The whole lines of `chunk` (and the carried bytes before its first); the rest carried. */
  const lines = async (chunk: Buffer): Promise<void> => {
    const n = chunk.length;
    let from = 0;
    for (;;) {
      const lf = chunk.indexOf(10, from);
      if (lf < 0) break;
      let line: Buffer = chunk;
      let start = from;
      let end = lf;
      if (carry !== null) {
        line = Buffer.concat([carry, chunk.subarray(from, lf)]);
        carry = null;
        start = 0;
        end = line.length;
      }
      if (end > start && line[end - 1] === 13) end--;
      const r = each(line.toString('utf8', start, end));
      if (r !== undefined) await r;
      from = lf + 1;
    }
    if (from < n)
      carry = carry === null ? Buffer.from(chunk.subarray(from)) : Buffer.concat([carry, chunk.subarray(from)]);
  };
  let k = 0;
  let pending = readInto(bufs[0]);
  for (;;) {
    let n: number;
    try {
      n = await pending;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      for await (const chunk of stream() as AsyncIterable<Buffer>) await lines(chunk);
      break;
    }
    if (n === 0) break;
    const chunk = bufs[k];
    k ^= 1;
    pending = readInto(bufs[k]);
    await lines(chunk.subarray(0, n));
  }
  // A last line with no LF: as it is (its CR, if any, kept, as lineBatches() keeps it).
  const last = carry as Buffer | null;
  if (last !== null) {
    const r = each(last.toString('utf8'));
    if (r !== undefined) await r;
  }
}

async function* batchesOf(chunks: AsyncIterable<string>): AsyncGenerator<string[]> {
  let pieces: string[] = [];
  for await (const chunk of chunks) {
    const lines: string[] = [];
    let from = 0;
    for (let lf = chunk.indexOf('\n'); lf >= 0; lf = chunk.indexOf('\n', from)) {
      let line: string;
      if (pieces.length === 0) line = chunk.slice(from, lf);
      else {
        pieces.push(chunk.slice(from, lf));
        line = pieces.join('');
        pieces = [];
      }
      if (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
      lines.push(line);
      from = lf + 1;
    }
    if (from < chunk.length) pieces.push(from === 0 ? chunk : chunk.slice(from));
    if (lines.length > 0) yield lines;
  }
  if (pieces.length > 0) yield [pieces.join('')];
}

/**
 * Text written to the file descriptor `fd` (standard output) with writeSync, encoded into a
 * buffer kept from write to write, without a stream: the bytes a stream would write, in order.
 * writeSync is what Node's own standard output does for files, pipes and terminals on Linux; a
 * descriptor that is non-blocking and full (EAGAIN) is written through `stream()` from there
 * on, waiting for 'drain'. A reader that went away (EPIPE) stops the process quietly, as
 * main.ts does for its streams.
 */
export class FdOutput {
  readonly #fd: number;
  readonly #stream: () => Writable;
  #fallback: Writable | null = null;
  #buf = Buffer.allocUnsafe(1 << 18);
  constructor(fd: number, stream: () => Writable) {
    this.#fd = fd;
    this.#stream = stream;
  }
  /** Writes `data` (text as UTF-8); the caller may reuse a buffer given here once this resolves. */
  async write(data: string | Uint8Array): Promise<void> {
    if (this.#fallback !== null) return this.#toStream(typeof data === 'string' ? data : Buffer.from(data));
    // At most 3 bytes per UTF-16 unit; a longer text (a very long line) gets a buffer of its own.
    let bytes: Uint8Array;
    if (typeof data !== 'string') bytes = data;
    else if (3 * data.length <= this.#buf.length) bytes = this.#buf.subarray(0, this.#buf.write(data));
    else bytes = Buffer.from(data);
    for (let at = 0; at < bytes.length;) {
      try {
        at += writeSync(this.#fd, bytes, at, bytes.length - at);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EPIPE') process.exit(process.exitCode ?? 0);
        if (code !== 'EAGAIN') throw e;
        this.#fallback = this.#stream();
        return this.#toStream(Buffer.from(bytes.subarray(at)));
      }
    }
  }
  async #toStream(data: string | Buffer): Promise<void> {
    const s = this.#fallback!;
    if (!s.write(data)) await new Promise<void>((res) => s.once('drain', res));
  }
}

/**
 * Batch mode keeps going: an unexpected failure while handling one input (a bug, or a limit of
 * the platform such as the longest string) becomes that input's error row, and the other rows
 * still print. Its diagnostic carries the failure's message.
 */
export const INPUT_FAILED = defineCode(
  'input-failed',
  'error',
  'locator batch mode (docs/cli.md)',
  'this input could not be handled',
);

/** The diagnostic of an unexpected failure on one input (see INPUT_FAILED). */
export function failure(e: unknown): Diagnostic {
  if (e instanceof LocatorError) return e.toDiagnostic();
  return diagnostic(INPUT_FAILED, -1, `this input could not be handled: ${e instanceof Error ? e.message : String(e)}`);
}

/** Collects output and writes it in blocks, waiting for 'drain' when the stream asks. */
export class Output {
  #buf = '';
  readonly #out: Writable;
  constructor(out: Writable) {
    this.#out = out;
  }
  async line(s: string): Promise<void> {
    this.#buf += s + '\n';
    if (this.#buf.length >= 1 << 16) await this.flush();
  }
  /** Adds text that is already whole lines, each ending in LF (a block of batch rows). */
  async text(s: string): Promise<void> {
    this.#buf += s;
    if (this.#buf.length >= 1 << 16) await this.flush();
  }
  async flush(): Promise<void> {
    if (this.#buf === '') return;
    const ok = this.#out.write(this.#buf);
    this.#buf = '';
    if (!ok) await new Promise<void>((resolve) => this.#out.once('drain', resolve));
  }
}

/** The input as an error row shows it: its password hidden unless `show` (RFC 1738 6). */
export function shownInput(input: string, show: boolean): string {
  if (show) return input;
  try {
    return redactUrl(input);
  } catch {
    return '(not shown: the password could not be located)';
  }
}
