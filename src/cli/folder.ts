// A folder an option names (check --state, archive --state and -o): made if missing, and checked
// before any URL is fetched, so that a path that is a file, or where no folder can be made, is a
// usage error naming the option (exit 2), not an internal error after the work has begun.
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './command.js';

/** Makes `path` (and its parents) a folder if it is not one; a UsageError naming `option` when it cannot. */
export function folderArg(option: string, path: string): string {
  if (path === '') throw new UsageError(`${option} needs a folder, not ""`);
  try {
    if (statSync(path).isDirectory()) return path;
    throw new UsageError(`${option} ${path}: not a folder (a file of that name is there)`);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    if ((e as NodeJS.ErrnoException).code === 'ENOTDIR')
      throw new UsageError(`${option} ${path}: not a folder (a file is on its path)`);
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new UsageError(`${option} ${path}: not usable as a folder: ${(e as Error).message}`);
  }
  try {
    makeFolders(path);
  } catch (e) {
    throw new UsageError(`${option} ${path}: the folder cannot be made: ${(e as Error).message}`);
  }
  return path;
}

/**
 * Makes the folder `path` and its missing parents, one mkdir each from the nearest one that
 * exists; the first that fails throws. Node's mkdir with { recursive: true } is not used: on
 * Linux it never returns where a mkdir fails with ENOENT under a parent that exists (under /proc,
 * which answers ENOENT for any new name, or under a dangling symbolic link): Node takes the
 * ENOENT for a missing parent, makes the parent (EEXIST), and tries the child again, for ever.
 */
function makeFolders(path: string): void {
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
