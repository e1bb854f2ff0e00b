// The file probe (RFC 1738 3.10): on this machine (no host, or "localhost"), the path exists (a
// stat, nothing opened); on another host, the file is reached as open() reaches it, by anonymous
// FTP (draft 1993-07 fileaddress; src/clients/file/client.ts), so its ftp URL is probed.

import { stat } from 'node:fs/promises';
import type { Url } from '../../core/url.js';
import { parse } from '../../schemes/registry.js';
import { LocatorError } from '../../core/errors.js';
import { NOT_FOUND } from '../types.js';
import { ftpUrlFor, localPath } from '../file/client.js';
import { result } from './result.js';
import type { ProbeOptions, ProbeResult } from './types.js';

function isLocal(host: string | null): boolean {
  return host === null || host === '' || host.toLowerCase() === 'localhost';
}

/** Probes a file URL (RFC 1738 3.10): the steps of fileSteps(url). */
export async function probe(url: Url, options: ProbeOptions): Promise<ProbeResult> {
  if (!isLocal(url.host)) {
    const ftp = parse(ftpUrlFor(url));
    if (typeof options.transcript === 'function')
      options.transcript({ direction: 'info', text: `file on host ${url.host}: probing ${ftp.href} (RFC 1738 3.10)` });
    return (await import('./ftp.js')).probe(ftp, options);
  }
  const path = localPath(url);
  if (path === null) throw new LocatorError(NOT_FOUND, url.inputOffset, 'the file URL has no path');
  if (typeof options.transcript === 'function') options.transcript({ direction: 'info', text: `stat ${path}` });
  try {
    const st = await stat(path);
    const what = st.isDirectory() ? 'a directory' : st.isFile() ? `a file of ${st.size} octets` : 'not a regular file';
    return result('ok', `${path}: ${what}`);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    return result('broken', `${path}: ${code}`, { code: NOT_FOUND, reply: code });
  }
}
