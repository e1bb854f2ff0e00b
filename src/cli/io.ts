// Input and output for the commands: URLs from arguments, or one per line on standard input
// (batch mode, streamed), and buffered output that respects back-pressure.
import { createInterface } from 'node:readline';
import { Transform, type Readable, type Writable } from 'node:stream';
import { redactText } from '../redact.js';

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

/** The inputs: the arguments when any are given, else the lines of `stdin` (CR LF or LF). */
export async function* inputs(args: string[], stdin: Readable): AsyncGenerator<string> {
  if (args.length > 0) {
    yield* args;
    return;
  }
  const rl = createInterface({ input: stdin, crlfDelay: Infinity });
  for await (const line of rl) yield line;
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
  async flush(): Promise<void> {
    if (this.#buf === '') return;
    const ok = this.#out.write(this.#buf);
    this.#buf = '';
    if (!ok) await new Promise<void>((resolve) => this.#out.once('drain', resolve));
  }
}
