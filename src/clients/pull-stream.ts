// The body of a fetch (RFC 1738 3: the object's octets) as a stream pulled from a client.

import type { LocatorError } from '../core/errors.js';

/** Where a stream made by pullStream keeps its chunk source (see directChunks). */
const DIRECT = Symbol('locator.pullStream.direct');

/** Writes a chunk out synchronously; done with it on return (see Connection.drain). */
export type ChunkWriter = (chunk: Uint8Array) => void;

interface DirectSource {
  next: () => Promise<Uint8Array | null>;
  cancel: (reason?: unknown) => void;
  /**
   * When the client offers it: the rest of the object through `write`, synchronously chunk by
   * chunk (Connection.drain), the byte limit applied; resolves at the end of the object. Only
   * for a reader that has not called `next()`.
   */
  pipe: ((write: ChunkWriter) => Promise<void>) | null;
}

/**
 * A ReadableStream over chunks pulled from `next()` (null at the end), with a byte limit and a
 * cancel that closes the source. The stream is the only buffer: nothing is read ahead
 * (highWaterMark 0: `next()` runs when the consumer reads, so directChunks() can take over a
 * stream nobody has read).
 */
export function pullStream(
  next: () => Promise<Uint8Array | null>,
  onCancel: (reason?: unknown) => void,
  options: {
    maxBytes?: number;
    onProgress?: (bytes: number) => void;
    tooLarge?: () => LocatorError;
    /** The same octets as `next()` gives, all of them through `write` (see DirectSource.pipe). */
    pipe?: (write: ChunkWriter) => Promise<void>;
  } = {},
): ReadableStream<Uint8Array> {
  let total = 0;
  /** The next chunk with the limit applied; on any failure the source is closed first. */
  const step = async (): Promise<Uint8Array | null> => {
    try {
      const chunk = await next();
      if (chunk === null) return null;
      total += chunk.length;
      if (options.maxBytes !== undefined && total > options.maxBytes) {
        throw options.tooLarge?.() ?? new Error('too large');
      }
      options.onProgress?.(total);
      return chunk;
    } catch (e) {
      onCancel(e);
      throw e;
    }
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk;
        try {
          chunk = await step();
        } catch (e) {
          controller.error(e);
          return;
        }
        if (chunk === null) controller.close();
        else controller.enqueue(chunk);
      },
      cancel(reason) {
        onCancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  const pipe = options.pipe;
  const direct: DirectSource = {
    next: step,
    cancel: onCancel,
    pipe:
      pipe === undefined
        ? null
        : async (write) => {
            try {
              await pipe((chunk) => {
                total += chunk.length;
                if (options.maxBytes !== undefined && total > options.maxBytes) {
                  throw options.tooLarge?.() ?? new Error('too large');
                }
                options.onProgress?.(total);
                write(chunk);
              });
            } catch (e) {
              onCancel(e);
              throw e;
            }
          },
  };
  (stream as unknown as Record<symbol, DirectSource>)[DIRECT] = direct;
  return stream;
}

/**
 * The chunk source behind a stream made by pullStream, for a reader in this package that wants
 * no web-stream machinery per chunk (`locator fetch`), or null for any other stream. The stream
 * is locked, so that nobody else reads it; the caller reads with `next()` (null at the end, the
 * byte limit applied, the source closed on a failure) and calls `cancel()` if it stops early.
 * A ReadableStream costs several promises and queue operations per chunk, which showed in the
 * profile of `locator fetch` (bench/RESULTS.md).
 */
export function directChunks(body: ReadableStream<Uint8Array>): DirectSource | null {
  const source = (body as unknown as Record<symbol, DirectSource | undefined>)[DIRECT];
  if (source === undefined || body.locked) return null;
  body.getReader();
  return source;
}
