// The stream form of extract(): text from an async source (a Node Readable, a web
// ReadableStream, any AsyncIterable of strings or bytes), in chunks, with memory bounded by the
// longest match. Bytes are decoded as UTF-8; a multi-byte sequence split between chunks is
// joined, and invalid octets become U+FFFD, as Buffer#toString('utf8') makes them.

import { describeValue } from '../core/percent.js';
import { createExtractor, type ExtractOptions } from './extract.js';
import type { Match } from './scan.js';

/** What extractStream() reads: chunks of text or of UTF-8 bytes. */
export type TextSource =
  AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array> | ReadableStream<string | Uint8Array>;

async function* chunks(source: TextSource): AsyncGenerator<string | Uint8Array> {
  if (source !== null && typeof source === 'object') {
    if (Symbol.asyncIterator in source || Symbol.iterator in source) {
      yield* source as AsyncIterable<string | Uint8Array>;
      return;
    }
    if (typeof (source as ReadableStream).getReader === 'function') {
      const reader = (source as ReadableStream<string | Uint8Array>).getReader();
      try {
        for (;;) {
          const r = await reader.read();
          if (r.done) return;
          yield r.value;
        }
      } finally {
        reader.releaseLock();
      }
    }
  }
  throw new TypeError(
    `extractStream: the source must be an async iterable or a ReadableStream of strings or bytes, not ${describeValue(source)}`,
  );
}

/**
 * The URLs of a text that arrives in chunks, in order (RFC 1738 appendix; the rules of
 * extract()). Offsets count UTF-16 code units of the decoded text (a byte order mark is kept
 * as U+FEFF, as in `readFileSync(f, 'utf8')`). Strings and bytes should not be mixed within
 * one source: a byte sequence left incomplete before a string is decoded as U+FFFD.
 */
export async function* extractStream(source: TextSource, options?: ExtractOptions): AsyncGenerator<Match> {
  const ex = createExtractor(options);
  let decoder: TextDecoder | undefined;
  for await (const chunk of chunks(source)) {
    let text: string;
    if (typeof chunk === 'string') {
      text = decoder === undefined ? chunk : decoder.decode() + chunk;
      decoder = undefined;
    } else if (chunk instanceof Uint8Array) {
      decoder ??= new TextDecoder('utf-8', { ignoreBOM: true });
      text = decoder.decode(chunk, { stream: true });
    } else {
      throw new TypeError(`extractStream: a chunk must be a string or a Uint8Array, not ${describeValue(chunk)}`);
    }
    yield* ex.push(text);
  }
  if (decoder !== undefined) yield* ex.push(decoder.decode());
  yield* ex.end();
}
