// A folder an option names (check --state, archive --state and -o): made if missing, and checked
// before any URL is fetched, so that a path that is a file, or where no folder can be made, is a
// usage error naming the option (exit 2), not an internal error after the work has begun.
import { statSync } from 'node:fs';
import { makeFolders } from '../crawl/folders.js';
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
