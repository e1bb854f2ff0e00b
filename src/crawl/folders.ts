// Folders made for the state and output that library callers name (the crawl's state, an
// archive's output, the gateway's disk cache) and for the CLI's folder options (src/cli/folder.ts).
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Makes the folder `path` and its missing parents, one mkdir each from the nearest one that
 * exists; the first that fails throws its error (ENOENT, EACCES, ENOTDIR, ...). Node's mkdir with
 * { recursive: true } is not used: on Linux it never returns where a mkdir fails with ENOENT under
 * a parent that exists (under /proc, which answers ENOENT for any new name, or under a dangling
 * symbolic link): Node takes the ENOENT for a missing parent, makes the parent (EEXIST), and tries
 * the child again, for ever.
 */
export function makeFolders(path: string): void {
  const missing: string[] = [];
  for (let p = resolve(path); ;) {
    try {
      statSync(p);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    missing.push(p);
    const parent = dirname(p);
    if (parent === p) break;
    p = parent;
  }
  for (const p of missing.reverse()) {
    try {
      mkdirSync(p);
    } catch (e) {
      // Made meanwhile by another process: fine if it is a folder.
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !isFolder(p)) throw e;
    }
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
