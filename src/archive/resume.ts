// Resuming after a crash: a WARC file cut inside its last record (the process killed while it
// wrote) is cut back to the end of its last complete record, and the files a writer left under
// their temporary names get their final names.

import { readdir, truncate, stat, link, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { LocatorError } from '../core/errors.js';
import { WARC_BAD_GZIP, WARC_TRUNCATED } from './gzip.js';
import { readWarc, WARC_BAD_RECORD } from './reader.js';

export interface Repair {
  /** Complete records kept. */
  records: number;
  /** The file's length after the repair: the end of its last complete record. */
  length: number;
  /** Octets cut off (0 when the file was whole). */
  removed: number;
}

/**
 * Finds the last complete record of a WARC file (its last whole gzip member, WARC 1.1 Annex D.2,
 * or for a plain file its last record with the whole block) and truncates the file after it.
 * Only a torn or damaged tail is cut: the records before it are kept as they are.
 */
export async function repairWarc(path: string): Promise<Repair> {
  const size = (await stat(path)).size;
  let records = 0;
  let good = 0;
  try {
    for await (const r of readWarc(path, { verify: false })) {
      const end = await r.end();
      // A record sharing its member with others has no length of its own: its member ends later.
      if (end.length > 0) good = r.offset + end.length;
      records++;
    }
  } catch (e) {
    if (!(e instanceof LocatorError) || ![WARC_TRUNCATED, WARC_BAD_GZIP, WARC_BAD_RECORD].includes(e.code)) throw e;
  }
  if (good < size) await truncate(path, good);
  return { records, length: good, removed: size - good };
}

/** What finishOpenFiles() did with one file a writer left open. */
export interface Finished extends Repair {
  /** The temporary name the writer left. */
  from: string;
  /** The final name given, or null when nothing complete was in the file (it is removed). */
  to: string | null;
}

/**
 * The files a writer left in `dir` under their temporary names (`<final>.<random>.open`, a
 * process killed before it closed them): each is repaired, then given its final name (never over
 * an existing file); one with no complete record is removed.
 */
export async function finishOpenFiles(dir: string): Promise<Finished[]> {
  const out: Finished[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const m = /^(.+\.warc(?:\.gz)?)\.[0-9a-f]+\.open$/.exec(name);
    if (!m) continue;
    const from = join(dir, name);
    const repair = await repairWarc(from);
    if (repair.length === 0) {
      await unlink(from);
      out.push({ ...repair, from: name, to: null });
      continue;
    }
    await link(from, join(dir, m[1]));
    await unlink(from);
    out.push({ ...repair, from: name, to: m[1] });
  }
  return out;
}
