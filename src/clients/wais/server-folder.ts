// The folder a WAIS server serves (`locator serve --wais DIR`; ./server.ts): its index of
// documents (the order of WAIS_NEXT, the catalogue and the source description), read again on
// every request, a file read again only when its size or modification time changed; and what a
// search asks of a document: its headline, its lines, its score for some seed words.

import { readdir, readFile, lstat } from 'node:fs/promises';
import { join } from 'node:path';

export interface Doc {
  name: string;
  bytes: Uint8Array;
}

/** What was read of each file, kept while its size and modification time stay the same. */
export type Cache = Map<string, { mtimeMs: number; size: number; bytes: Uint8Array }>;

/**
 * The index: the names of the folder's files in the order they entered it, as freeWAIS-sf's
 * waisindex numbers documents in the order it is given them (and `-a` appends). It is built when
 * the server starts, the files in name order; a file that appears later goes to the end of it
 * (several found by the same listing, in name order); a file that disappears leaves it; a file
 * that changes keeps its place.
 */
export type Index = string[];

/** The folder's names that are not hidden ("." first), by name. */
export async function listing(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((n) => !n.startsWith('.')).sort();
}

/** Brings the index up to date with a listing of the folder (see Index). */
function reindex(index: Index, names: string[]): void {
  const present = new Set(names);
  const kept = index.filter((n) => present.has(n));
  const known = new Set(kept);
  index.splice(0, index.length, ...kept, ...names.filter((n) => !known.has(n)));
}

/** Files of the folder in index order: regular files only, no dotfiles (read again when they change). */
export async function documents(dir: string, cache: Cache, index: Index): Promise<Doc[]> {
  const names = await listing(dir);
  reindex(index, names);
  const out: Doc[] = [];
  for (const name of index) {
    const p = join(dir, name);
    const st = await lstat(p).catch(() => null);
    if (st === null || !st.isFile()) continue;
    const known = cache.get(name);
    if (known !== undefined && known.mtimeMs === st.mtimeMs && known.size === st.size) {
      out.push({ name, bytes: known.bytes });
      continue;
    }
    const bytes = await readFile(p).catch(() => null);
    if (bytes === null) continue;
    cache.set(name, { mtimeMs: st.mtimeMs, size: st.size, bytes });
    out.push({ name, bytes });
  }
  for (const name of cache.keys()) if (!names.includes(name)) cache.delete(name);
  return out;
}

const text = new TextDecoder('latin1');

/** The first non-empty line of a document, cut to 200 characters (the headline). */
export function headlineOf(bytes: Uint8Array): string {
  const s = text.decode(bytes.subarray(0, 4096));
  const line = s.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  return line.trim().slice(0, 200);
}

export function linesOf(bytes: Uint8Array): number {
  let n = 0;
  for (const b of bytes) if (b === 10) n++;
  return n;
}

/** The words of a text: runs of ASCII letters and digits, lower case. */
export function wordsOf(s: string): string[] {
  return s.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/**
 * The score of a document for some seed words: the number of times each seed word occurs in it
 * as a whole word (case ignored), summed. The hits are then scaled so the best one scores 1000
 * (RFC 1625 4: a citation's rank is normalized to a top score of 1000), the others in
 * proportion, at least 1.
 */
export function scoreOf(bytes: Uint8Array, seeds: string[]): number {
  if (seeds.length === 0) return 0;
  const want = new Set(seeds);
  let n = 0;
  for (const w of wordsOf(text.decode(bytes))) if (want.has(w)) n++;
  return n;
}
