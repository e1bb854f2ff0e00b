// FTP directories in the gateway (RFC 1738 3.2.2; RFC 959 NLST): the names as links through the
// gateway, each with a guess of what it is, and the directory above.

import { SEGMENT_SET, encode } from '../../core/percent.js';
import { markup } from '../html.js';
import { linkNote, type RenderContext, type Sink } from './common.js';

const TEXT_EXT = ['txt', 'text', 'md', 'readme', 'html', 'htm', 'c', 'h', 'ts', 'js', 'sh', 'py', 'doc', 'me'];
const IMAGE_EXT = ['gif', 'jpg', 'jpeg', 'png', 'xbm', 'tif', 'tiff'];
const ARCHIVE_EXT = ['gz', 'z', 'tar', 'zip', 'tgz', 'bz2', 'xz', 'hqx', 'sit', 'arc', 'zoo'];

/** A guess of what a listed name is, from its extension (NLST gives names only, RFC 959 4.1.3). */
export function ftpKind(name: string): string {
  const ext = /\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1]?.toLowerCase();
  if (ext === undefined) return 'entry';
  if (TEXT_EXT.includes(ext)) return 'text';
  if (IMAGE_EXT.includes(ext)) return 'image';
  if (ARCHIVE_EXT.includes(ext)) return 'archive';
  return 'file';
}

/** The URL of a listed name in a directory URL (RFC 1738 3.2.2: one fsegment per name). */
export function ftpEntryUrl(dir: string, name: string): string {
  const base = dir.replace(/[?#].*$/, '').replace(/;type=d$/i, '');
  return (base.endsWith('/') ? base : base + '/') + encode(name, SEGMENT_SET);
}

/** The directory above an ftp (or file) directory URL (RFC 1738 3.2.2, 3.10), or null at the top. */
export function ftpParent(dir: string): string | null {
  const m = /^((?:ftp|file):\/\/[^/]*)(\/.*)?$/i.exec(dir.replace(/[?#].*$/, '').replace(/;type=d$/i, ''));
  if (m === null) return null;
  const path = (m[2] ?? '/').replace(/\/+$/, '');
  if (path === '') return null;
  return m[1] + path.slice(0, path.lastIndexOf('/') + 1);
}

/** An FTP listing (NLST, one name per line; RFC 959 4.1.3) as a list of links. */
export async function renderFtpListing(
  dir: string,
  body: AsyncIterable<string>,
  ctx: RenderContext,
  sink: Sink,
): Promise<number> {
  const parent = ftpParent(dir);
  await sink.write('<ul class="items listing">\n');
  if (parent !== null) {
    await sink.write(
      markup`<li><span class="kind">up</span> <a href="${ctx.link(parent)}">..</a>${linkNote(ctx, parent)}</li>\n`
        .value,
    );
  }
  let n = 0;
  for await (const line of body) {
    // Some servers answer NLST with paths ("dir/name"): the last segment is the name.
    const name = line.replace(/^.*\//, '');
    if (name === '' || name === '.' || name === '..') continue;
    const entry = ftpEntryUrl(dir, name);
    const href = ctx.link(entry);
    await sink.write(
      markup`<li><span class="kind">${ftpKind(name)}</span> <a href="${href}">${name}</a>${linkNote(ctx, entry)}</li>\n`
        .value,
    );
    n++;
  }
  await sink.write('</ul>\n');
  if (n === 0) await sink.write('<p>The directory is empty.</p>\n');
  return n;
}
