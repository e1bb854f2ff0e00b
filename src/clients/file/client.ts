// file (RFC 1738 3.10): "file://<host>/<path>". An empty host or "localhost" means this
// machine: the path is opened and streamed. Any other host is not this machine: RFC 1738 names
// no access method, and the 1993-07 draft's fileaddress is written as an ftp URL, so such a
// file is fetched by anonymous FTP from that host (documented in docs/clients.md; a gateway
// configured with file_proxy takes precedence). It is never read as a local path.

import { open as openFile, stat } from 'node:fs/promises';
import type { Url } from '../../core/url.js';
import { parse } from '../../schemes/registry.js';
import { LocatorError } from '../../core/errors.js';
import { decodeText } from '../../core/percent.js';
import { pullStream } from '../connection.js';
import { ABORTED, NOT_FOUND, TOO_LARGE, type OpenOptions, type Resource } from '../types.js';

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
      throw new LocatorError(NOT_FOUND, -1, `the path segment ${JSON.stringify(p)} holds "/" or NUL, which no file name here can (RFC 1738 3.10)`);
    }
  }
  return '/' + parts.join('/');
}

export async function open(url: Url, options: OpenOptions): Promise<Resource> {
  const note = typeof options.transcript === 'function' ? options.transcript : () => {};
  if (!isLocal(url.host)) {
    const ftp = parse(ftpUrlFor(url));
    note({ direction: 'info', text: `file on host ${url.host}: retrieving ${ftp.href} (RFC 1738 3.10; draft 1993-07 fileaddress)` });
    const client = await import('../ftp/client.js');
    return client.open(ftp, options);
  }
  const path = localPath(url);
  if (path === null) throw new LocatorError(NOT_FOUND, url.inputOffset, 'the file URL has no path');
  note({ direction: 'info', text: `open ${path}` });
  let handle;
  try {
    const st = await stat(path);
    if (st.isDirectory()) throw new LocatorError(NOT_FOUND, -1, `${path} is a directory`);
    handle = await openFile(path, 'r');
    const size = st.size;
    const buf = () => new Uint8Array(64 * 1024);
    let closed = false;
    const close = () => {
      if (!closed) {
        closed = true;
        void handle!.close();
      }
    };
    options.signal?.addEventListener('abort', close, { once: true });
    const body = pullStream(async () => {
      if (options.signal?.aborted) throw new LocatorError(ABORTED, -1, 'the transfer was cancelled');
      const b = buf();
      const { bytesRead } = await handle!.read(b, 0, b.length, null);
      if (bytesRead === 0) {
        close();
        return null;
      }
      return b.subarray(0, bytesRead);
    }, close, { maxBytes: options.maxBytes, tooLarge: () => new LocatorError(TOO_LARGE, -1, `the file is larger than ${options.maxBytes} octets`) });
    return { meta: { scheme: 'file', url: url.href, size, contentType: null, transcript: [] }, body };
  } catch (e) {
    await handle?.close();
    if (e instanceof LocatorError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new LocatorError(NOT_FOUND, -1, `cannot read ${path}: ${code ?? (e as Error).message}`, { cause: e });
  }
}
