// A file written whole under another name, then renamed over the old one, so a reader never sees
// half of it (the --cache of `locator check`). The temporary file is created in the same folder
// (rename() does not cross file systems) under a name no one can guess, and only if nothing is
// there yet (O_EXCL): a symbolic link planted at a predictable name would otherwise be followed,
// and the write would land on whatever file it names.
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** A temporary name beside `path`: `.NAME.<16 random hex digits>.tmp`. */
export function tempNameFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`);
}

/**
 * Writes `text` to `path` whole: into `temp` (created exclusively, never opened if anything is
 * there, a link included), then renamed to `path`. On a failure the temporary file, if this call
 * created it, is removed and the error thrown.
 */
export async function replaceWhole(path: string, text: string, temp = tempNameFor(path)): Promise<void> {
  const file = await open(temp, 'wx', 0o666);
  try {
    try {
      await file.writeFile(text);
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}
