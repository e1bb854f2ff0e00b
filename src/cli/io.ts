// Input and output for the commands: URLs from arguments, or one per line on standard input
// (batch mode, streamed), and buffered output that respects back-pressure.
import { Transform, type Readable, type Writable } from 'node:stream';
import { redactText, redactUrl } from '../operations/redact.js';
import { LocatorError, defineCode, diagnostic, type Diagnostic } from '../core/errors.js';

/**
 * A text stream that hides URL passwords ("//user:****@host", RFC 1738 6) in everything written
 * through it, piped to `out`. Writes are whole lines or messages, so a URL is never split.
 */
export function redacting(out: Writable): Writable {
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
export async function* lineBatches(stdin: Readable): AsyncGenerator<string[]> {
  stdin.setEncoding('utf8');
  let pieces: string[] = [];
  for await (const chunk of stdin as AsyncIterable<string>) {
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
