// The lines of a text body as they arrive (a listing, one entry a line: RFC 959 4.1.3 NLST, the
// listings of the Prospero and file clients), decoded as UTF-8; the body is cancelled when the
// reader stops early. No I/O of its own, so a client face may import it.

/** Each line of `body` (its LF cut off, a CR before it left to the caller), read as it arrives. */
export async function* textLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (let ended = false; !ended;) {
      const chunk = await reader.read();
      ended = chunk.done;
      text += ended ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
      const lines = text.split('\n');
      text = ended ? '' : (lines.pop() as string);
      yield* lines;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
