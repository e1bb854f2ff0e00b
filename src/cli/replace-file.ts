// A file written whole under another name, then renamed over the old one, so a reader never sees
// half of it (the --cache of `locator check`). The temporary file is created in the same folder
// (rename() does not cross file systems) under a name no one can guess, and only if nothing is
// there yet (O_EXCL): a symbolic link planted at a predictable name would otherwise be followed,
// and the write would land on whatever file it names.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** A temporary name beside `path`: `.NAME.<16 random hex digits>.tmp`. */
export function tempNameFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`);
}

/**
 * Writes `text` to `path` whole: into `temp` (created exclusively, never opened if anything is
 * there, a link included), then renamed to `path`. On a failure the temporary file, if this call
 * created it, is removed and the error thrown. Synchronous, so that it is done whole or not at
 * all when a signal handler calls it (`check --cache` interrupted) and no handler runs within it.
 */
export function replaceWholeSync(path: string, text: string, temp = tempNameFor(path)): void {
  const fd = openSync(temp, 'wx', 0o666);
  try {
    try {
      writeFileSync(fd, text);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
}
