// file (RFC 1738 3.10): "file://<host>/<path>". An empty host or "localhost" means this
// machine: the path is opened and streamed. Any other host is not this machine: RFC 1738 names
// no access method, and the 1993-07 draft's fileaddress is written as an ftp URL, so such a
// file is fetched by anonymous FTP from that host (documented in docs/clients.md; a gateway
// configured with file_proxy takes precedence). It is never read as a local path.

import { open as openFile, opendir, type FileHandle } from 'node:fs/promises';
import { constants } from 'node:fs';
import type { Url } from '../../core/url.js';
import { parse } from '../../schemes/registry.js';
import { LocatorError } from '../../core/errors.js';
import { decodeText } from '../../core/percent.js';
import { checkTimeout, pullStream } from '../connection.js';
import { beforeSending } from '../hop.js';
import { ABORTED, NOT_FOUND, TIMEOUT, TOO_LARGE, type OpenOptions, type Redirect, type Resource } from '../types.js';
import type { ClientFace } from '../client-face.js';
import { contentTypeOf, isTextType, typeOfName } from './content-type.js';

/** What the file client asks of the ftp client's face: a file of another host is opened and probed by FTP. */
export type FtpFace = Required<Pick<ClientFace, 'open' | 'probe'>>;

/** True when the host means this machine (RFC 1738 3.10). */
function isLocal(host: string | null): boolean {
  return host === null || host === '' || host.toLowerCase() === 'localhost';
}

/** The ftp URL that reaches a file of another host (draft 1993-07 fileaddress). */
export function ftpUrlFor(url: Url): string {
  // The url-path as written: fileurl and ftpurl share fpath, so a "%2F" stays inside its segment.
  return `ftp://${url.host}/${url.path ?? ''}`;
}

/**
 * The local path: each fpath segment decoded on its own (RFC 1738 3.10, 5: "/" separates
 * segments, "%2F" is data). A segment whose octets hold "/" or NUL names no file here: a typed
 * error rather than a different file.
 */
export function localPath(url: Url): string | null {
  const raw = url.hasLogin ? url.path : url.schemePart.startsWith('/') ? url.schemePart.slice(1) : null;
  if (raw === null) return null;
  const parts = raw.split('/').map((seg) => decodeText(seg, { strict: false }));
  for (const p of parts) {
    if (p.includes('/') || p.includes('\0')) {
      throw new LocatorError(
        NOT_FOUND,
        -1,
        `the path segment ${JSON.stringify(p)} holds "/" or NUL, which no file name here can (RFC 1738 3.10)`,
      );
    }
  }
  return '/' + parts.join('/');
}

/** How long a read of a FIFO or device with nothing to give waits before it tries again. */
const POLL_MS = 20;

function abortError(): LocatorError {
  return new LocatorError(ABORTED, -1, 'the transfer was cancelled');
}

/**
 * Reads a local file (RFC 1738 3.10: an empty host or "localhost"), or hands a file of another
 * host to the FTP client (`ftpFace`, the ftp client's face). The path is opened non-blocking and checked on the open handle, so
 * nothing waits in the thread pool: a FIFO with no writer, a terminal, any device. A regular
 * file is streamed with its size. A FIFO or a character device is streamed as its writer
 * gives data: while it has none, the read waits at most `timeout` ms (`timeout`) and stops at
 * once on `signal` (`aborted`); a FIFO that no process has opened for writing is waited for
 * the same way (until its first octet; then its writer closing it is the end). Its size is
 * unknown (null). A document's content type is read from its name, with a charset for text
 * (./content-type.ts). A directory is listed, as curl lists one: its names one per line (LF),
 * those starting with "." left out, as an FTP NLST gives them (RFC 959 4.1.3), `kind: 'listing'`.
 * A socket is `not-found`.
 */
export async function open(url: Url, options: OpenOptions, ftpFace: FtpFace): Promise<Resource | Redirect> {
  const timeout = checkTimeout(options.timeout);
  const note = typeof options.transcript === 'function' ? options.transcript : () => {};
  if (!isLocal(url.host)) {
    const ftp = parse(ftpUrlFor(url));
    note({
      direction: 'info',
      text: `file on host ${url.host}: retrieving ${ftp.href} (RFC 1738 3.10; draft 1993-07 fileaddress)`,
    });
    // A URL this client reaches on its own: the policy is asked for it (./hop.ts, rule 1).
    beforeSending(ftp, options.policy);
    return ftpFace.open(ftp, options);
  }
  const path = localPath(url);
  if (path === null) throw new LocatorError(NOT_FOUND, url.inputOffset, 'the file URL has no path');
  const signal = options.signal;
  if (signal?.aborted) throw abortError();
  note({ direction: 'info', text: `open ${path}` });
  let handle: FileHandle | undefined;
  try {
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of blocking a thread.
    handle = await openFile(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const st = await handle.stat();
    if (st.isDirectory()) {
      await handle.close().catch(() => {});
      handle = undefined;
      return await listDirectory(url, path, options);
    }
    if (st.isSocket()) throw new LocatorError(NOT_FOUND, -1, `${path} is a socket, not a file (RFC 1738 3.10)`);
    const regular = st.isFile();
    const fifo = st.isFIFO();
    // Only a regular file has a known size: a device or a FIFO says 0 and may give any amount.
    const size = regular ? st.size : null;
    const buf = () => new Uint8Array(64 * 1024);
    let closed = false;
    let got = 0;
    const close = () => {
      if (!closed) {
        closed = true;
        signal?.removeEventListener('abort', close);
        void handle!.close().catch(() => {});
      }
    };
    signal?.addEventListener('abort', close, { once: true });
    /** Waits POLL_MS, or less when the signal fires. */
    const pause = () =>
      new Promise<void>((resolve) => {
        const t = setTimeout(done, POLL_MS);
        function done() {
          clearTimeout(t);
          signal?.removeEventListener('abort', done);
          resolve();
        }
        signal?.addEventListener('abort', done, { once: true });
      });
    // The type from the name; for text in a regular file, the charset from its first octets,
    // read here and handed out first.
    const name = path.slice(path.lastIndexOf('/') + 1);
    const type = typeOfName(name);
    let head: Uint8Array | null = null;
    if (regular && type !== null && isTextType(type)) {
      const b = new Uint8Array(64 * 1024);
      const { bytesRead } = await handle.read(b, 0, b.length, null);
      head = b.subarray(0, bytesRead);
    }
    const contentType = contentTypeOf(name, head);
    const body = pullStream(
      async () => {
        if (head !== null) {
          const first = head;
          head = null;
          if (first.length > 0) {
            got += first.length;
            return first;
          }
        }
        const since = Date.now();
        for (;;) {
          if (signal?.aborted) throw abortError();
          if (closed) return null;
          const b = buf();
          let bytesRead: number;
          try {
            ({ bytesRead } = await handle!.read(b, 0, b.length, null));
          } catch (e) {
            if (signal?.aborted) throw abortError();
            if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
            bytesRead = -1; // a writer is there, but has nothing yet
          }
          if (bytesRead > 0) {
            got += bytesRead;
            return b.subarray(0, bytesRead);
          }
          // The end: a regular file or a device at its end, a FIFO whose writer closed it.
          if (bytesRead === 0 && (!fifo || got > 0)) {
            close();
            return null;
          }
          if (Date.now() - since >= timeout) {
            close();
            throw new LocatorError(
              TIMEOUT,
              -1,
              fifo && got === 0 && bytesRead === 0
                ? `no process wrote to the FIFO ${path} within ${timeout} ms`
                : `${path} gave nothing for ${timeout} ms`,
            );
          }
          await pause();
        }
      },
      close,
      {
        maxBytes: options.maxBytes,
        tooLarge: () => new LocatorError(TOO_LARGE, -1, `the file is larger than ${options.maxBytes} octets`),
      },
    );
    if (!regular) note({ direction: 'info', text: `${path} is not a regular file: its size is unknown` });
    return { meta: { scheme: 'file', url: url.href, size, contentType, kind: 'document', transcript: [] }, body };
  } catch (e) {
    await handle?.close().catch(() => {});
    if (e instanceof LocatorError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new LocatorError(NOT_FOUND, -1, `cannot read ${path}: ${code ?? (e as Error).message}`, { cause: e });
  }
}

/** How many names one chunk of a listing holds at most. */
const NAMES_PER_CHUNK = 256;

/**
 * A local directory as a listing (see open()): its names one per line, as read (no order is
 * promised, as NLST promises none), streamed from the directory so a large one is never whole in
 * memory; its size unknown.
 */
async function listDirectory(url: Url, path: string, options: OpenOptions): Promise<Resource> {
  const signal = options.signal;
  const dir = await opendir(path, { encoding: 'buffer' as BufferEncoding });
  let closed = false;
  const close = () => {
    if (!closed) {
      closed = true;
      signal?.removeEventListener('abort', close);
      void dir.close().catch(() => {});
    }
  };
  signal?.addEventListener('abort', close, { once: true });
  const body = pullStream(
    async () => {
      if (signal?.aborted) throw abortError();
      if (closed) return null;
      const lines: Uint8Array[] = [];
      let size = 0;
      while (lines.length < NAMES_PER_CHUNK) {
        const entry = await dir.read();
        if (entry === null) break;
        const name = entry.name as unknown as Buffer;
        if (name[0] === 0x2e) continue; // ".": a hidden name, as curl and NLST leave out
        lines.push(name, LF);
        size += name.length + 1;
      }
      if (lines.length === 0) {
        close();
        return null;
      }
      return Buffer.concat(lines, size);
    },
    close,
    {
      maxBytes: options.maxBytes,
      tooLarge: () => new LocatorError(TOO_LARGE, -1, `the listing is larger than ${options.maxBytes} octets`),
    },
  );
  return {
    meta: { scheme: 'file', url: url.href, size: null, contentType: 'text/plain', kind: 'listing', transcript: [] },
    body,
  };
}

const LF = new Uint8Array([10]);
