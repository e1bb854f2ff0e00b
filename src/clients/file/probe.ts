// The file probe (RFC 1738 3.10): on this machine (no host, or "localhost"), what open() would
// give can be given: a document can be opened for reading (non-blocking, closed again, no octet
// read), a directory can be listed (opened and closed); on another host, the file is reached as
// open() reaches it, by anonymous FTP (draft 1993-07 fileaddress; src/clients/file/client.ts),
// so its ftp URL is probed by the ftp client's face.

import { open as openFile, opendir } from 'node:fs/promises';
import { constants } from 'node:fs';
import type { Url } from '../../core/url.js';
import { parse } from '../../schemes/registry.js';
import { LocatorError } from '../../core/errors.js';
import { NOT_FOUND } from '../types.js';
import { ftpUrlFor, localPath, type FtpFace } from './client.js';
import { result } from '../probe/result.js';
import type { ProbeOptions, ProbeResult } from '../probe/types.js';
import type { Redirect } from '../types.js';

function isLocal(host: string | null): boolean {
  return host === null || host === '' || host.toLowerCase() === 'localhost';
}

/** Probes a file URL (RFC 1738 3.10): the steps of fileSteps(url); a file of another host through `ftpFace`. */
export async function probe(url: Url, options: ProbeOptions, ftpFace: FtpFace): Promise<ProbeResult | Redirect> {
  if (!isLocal(url.host)) {
    const ftp = parse(ftpUrlFor(url));
    if (typeof options.transcript === 'function')
      options.transcript({ direction: 'info', text: `file on host ${url.host}: probing ${ftp.href} (RFC 1738 3.10)` });
    return ftpFace.probe(ftp, options);
  }
  const path = localPath(url);
  if (path === null) throw new LocatorError(NOT_FOUND, url.inputOffset, 'the file URL has no path');
  if (typeof options.transcript === 'function')
    options.transcript({
      direction: 'info',
      text: `open ${path}: a document for reading (no octet read), a directory for listing`,
    });
  try {
    // As open() does: non-blocking, so a FIFO with no writer answers at once.
    const handle = await openFile(path, constants.O_RDONLY | constants.O_NONBLOCK);
    let what: string;
    try {
      const st = await handle.stat();
      if (st.isSocket()) return result('broken', `${path}: a socket, not a file`, { code: NOT_FOUND });
      what = st.isDirectory() ? 'a directory' : st.isFile() ? `a file of ${st.size} octets` : 'not a regular file';
    } finally {
      await handle.close().catch(() => {});
    }
    // A directory is ok because it can be listed, which open() does.
    if (what === 'a directory') await (await opendir(path)).close();
    return result('ok', `${path}: ${what === 'a directory' ? 'a directory that can be listed' : what}`);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    return result('broken', `${path}: ${code}`, { code: NOT_FOUND, reply: code });
  }
}
