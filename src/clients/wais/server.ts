// A WAIS server over a folder of text files (`locator serve --wais DIR`), written from RFC 1625
// and the WAIS protocol specification (protspec), with the framing and tag layout of apdu.ts and
// header.ts. One database, named after the folder unless told otherwise. It answers:
//
// - InitRequest: accepted, version 1, search only, 100000-byte messages, Chunk-Code 0.
// - SearchRequest, query type "3" (seed words): every regular file of the folder (not those whose
//   name starts with ".") is scored (see scoreOf) and the hits are returned best first, at most
//   Max-Documents-Retrieved of them, each a document header: DocID, Score, Document-Length,
//   Lines, Type TEXT, Source, Headline (the first non-empty line). Empty seed words (or "?") ask
//   for help: the source description (type WSRC) and a catalogue of the files (TEXT). A request
//   that carries a Document-ID and the type WAIS_NEXT asks for the document after that one in
//   the server's index (see Index), as freeWAIS-sf answers in the order of its index.
// - SearchRequest, query type "1" (RFC 1625 4): the DocID, type and byte range [from, to) of a
//   document; the answer is a document text record with those bytes (fewer at the end of the
//   file, none past it), the Reference-ID echoed.
// - Anything else: a diagnostic record (code "S1", freeWAIS's code for a failed search, with a
//   text) in a SearchResponse; bytes that are not a WAIS message close the connection.
//
// In three parts: the connections here (every connection has an idle timeout, and back-pressure:
// no request is read or answered while an answer waits for the client to take it, see serve());
// the requests in ./server-answers.ts; the folder's index of documents in ./server-folder.ts
// (listed on every request; a file is read again only when its size or modification time
// changed).

import net from 'node:net';
import { basename, resolve as resolvePath } from 'node:path';
import { HEADER_LENGTH, decodeHeader, encodeHeader } from './header.js';
import { answerer } from './server-answers.js';
import { listing, type Cache, type Index } from './server-folder.js';

export interface WaisServerOptions {
  /** The folder of text files. */
  dir: string;
  /** The database name (default: the folder's name). */
  database?: string;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /**
   * Milliseconds a connection may stay silent, and a client may leave an answer unread, before
   * it is disconnected (default 60000).
   */
  idleTimeout?: number;
  /** Called for each request handled (a log line), if given. */
  log?: (line: string) => void;
}

export interface WaisServer {
  port: number;
  host: string;
  database: string;
  /** Octets written and not yet taken by the clients, over all connections (monitoring, tests). */
  bufferedBytes(): number;
  close(): Promise<void>;
}

/** The largest APDU the server reads from a client. */
const MAX_REQUEST = 1024 * 1024;
/** Unanswered input past which a connection is not read while a request is being answered. */
const INPUT_HIGH = 64 * 1024;

/** Starts the server (loopback by default); resolves once it listens. */
export async function startWaisServer(options: WaisServerOptions): Promise<WaisServer> {
  const dir = resolvePath(options.dir);
  const database = options.database ?? basename(dir);
  const host = options.host ?? '127.0.0.1';
  const idle = options.idleTimeout ?? 60_000;
  const sockets = new Set<net.Socket>();
  const cache: Cache = new Map();
  // Built now, in name order (a folder that cannot be listed yet starts an empty index).
  const index: Index = await listing(dir).catch(() => []);
  let port = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.setTimeout(idle, () => socket.destroy());
    serve(socket).catch(() => socket.destroy());
  });

  const answer = answerer({ dir, database, host, port: () => port, cache, index, log: options.log });

  /**
   * Resolves true once the client has taken what was written ('drain'), false when the
   * connection closes first; a client that takes nothing for `idle` ms is disconnected.
   */
  function drained(socket: net.Socket): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        socket.off('drain', onDrain);
        socket.off('close', onClose);
        resolve(ok);
      };
      const onDrain = () => done(true);
      const onClose = () => done(false);
      const timer = setTimeout(() => {
        socket.destroy();
        done(false);
      }, idle);
      socket.once('drain', onDrain);
      socket.once('close', onClose);
    });
  }

  // Back-pressure: a client that sends requests and does not read the answers must not make the
  // server queue answers without bound. While an answer waits to go out (socket.write returned
  // false), no other request is answered and the socket is not read (paused), so the client's
  // requests wait in its own buffers; while a request is being answered, input beyond
  // INPUT_HIGH stops reading too. What the server holds per connection is then at most one
  // answer (100000 octets and the framing) over the socket's high-water mark, and INPUT_HIGH
  // plus one read of input.
  async function serve(socket: net.Socket): Promise<void> {
    let buf: Buffer = Buffer.alloc(0);
    let busy = false;
    const pump = async () => {
      if (busy) return;
      busy = true;
      try {
        for (;;) {
          if (buf.length < HEADER_LENGTH) break;
          const h = decodeHeader(buf.subarray(0, HEADER_LENGTH));
          if (h.length > MAX_REQUEST) throw new Error('request too large');
          if (buf.length < HEADER_LENGTH + h.length) break;
          const apdu = buf.subarray(HEADER_LENGTH, HEADER_LENGTH + h.length);
          buf = buf.subarray(HEADER_LENGTH + h.length);
          const out = await answer(new Uint8Array(apdu));
          if (out === null) throw new Error('unknown APDU');
          if (socket.destroyed) return;
          const msg = new Uint8Array(HEADER_LENGTH + out.length);
          msg.set(encodeHeader(out.length, h.serverName.slice(0, 10)), 0);
          msg.set(out, HEADER_LENGTH);
          if (!socket.write(msg)) {
            socket.pause();
            if (!(await drained(socket))) return;
          }
        }
        // Every whole request is answered: read on.
        if (!socket.destroyed) socket.resume();
      } catch {
        socket.destroy();
      } finally {
        busy = false;
      }
    };
    // The input held is bounded without a check here: pump() refuses a header announcing more
    // than MAX_REQUEST as soon as it is read, and reading stops past INPUT_HIGH while it answers.
    // (A check of the whole buffer against MAX_REQUEST would refuse a request of exactly that
    // size when the next one came in the same read.)
    socket.on('data', (chunk: Buffer) => {
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      if (busy && buf.length >= INPUT_HIGH) socket.pause(); // pump() resumes when it has used it
      void pump();
    });
    socket.on('end', () => socket.end());
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as net.AddressInfo).port;
  return {
    port,
    host,
    database,
    bufferedBytes: () => {
      let n = 0;
      for (const s of sockets) n += s.writableLength;
      return n;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
