// copyBody(): an object's body written out to its end, for a reader in this package that
// streams it to a file or a pipe (`locator fetch`). The chunks are taken from the connection
// directly when the stream allows (Connection's direct source: no web-stream work per chunk),
// else through the stream's reader; either way a chunk's memory goes back to the read pool once
// it is written (bench/RESULTS.md, fetch).

import { directChunks, recycleChunk } from './connection.js';

/** Where copyBody() writes: `write` waits until the output is done with the chunk; `writeSync`, where given, writes it at once. */
export interface BodyOutput {
  write(chunk: Uint8Array): Promise<void>;
  /** A blocking write, done with the chunk on return (a regular file, /dev/null). */
  writeSync?: (chunk: Uint8Array) => void;
}

/**
 * Reads `body` to its end into `out` (RFC 1738 3: the object as retrieved), calling `progress`
 * with the octets written so far; resolves to their count. When the output or the transfer
 * fails, the transfer is cancelled (its connection closed now) and the error thrown on.
 */
export async function copyBody(
  body: ReadableStream<Uint8Array>,
  out: BodyOutput,
  progress?: (bytes: number) => void,
): Promise<number> {
  const direct = directChunks(body);
  const reader = direct === null ? body.getReader() : null;
  const next = direct?.next ?? (async () => ((r) => (r.done ? null : r.value))(await reader!.read()));
  let bytes = 0;
  const writeSync = out.writeSync;
  try {
    if (direct?.pipe && writeSync !== undefined) {
      // Each chunk is written from the read callback itself, into one reused buffer
      // (Connection.drain): the fastest path, and flat in memory.
      await direct.pipe((chunk) => {
        writeSync(chunk);
        bytes += chunk.length;
        progress?.(bytes);
      });
    } else
      for (let value = await next(); value !== null; value = await next()) {
        bytes += value.length;
        await out.write(value);
        // Written out and not kept: the read buffer goes back for the next read, which keeps the
        // peak memory flat in the size of the object.
        recycleChunk(value);
        progress?.(bytes);
      }
  } catch (e) {
    if (direct !== null) direct.cancel(e);
    else await reader!.cancel(e).catch(() => {});
    throw e;
  }
  return bytes;
}
