// The crawl's state on disk (`--state DIR`): two append-only logs, so that a crawl killed at any
// point (SIGKILL included) starts again where it was, and memory stays flat however far it goes.
//
//   urls.log   one line per URL accepted into the crawl, in the order found (breadth first):
//              `f|l DEPTH PARENT "URL"` (f: its links may be followed, l: checked only; PARENT the
//              offset of the parent's line, -1 for a seed). A URL's id is the offset of its line.
//   done.log   one line per URL checked: `ID [status, attempts, ms, reason, code, reply,
//              redirects, notes, followed]` (JSON).
//
// The frontier is urls.log itself: a cursor reads it forward, so only a small window of it is in
// memory. A URL's verdict is written after the lines of the links found in it, so a verdict on
// disk means its links are on disk too. A write cut short by a kill leaves a last line with no
// LF (JSON never holds a raw LF): it is found and cut off when the state is opened again. Both
// logs are fsync'd at checkpoints (every CHECKPOINT_LINES verdicts or CHECKPOINT_MS) and at the
// end. Not a spec rule: the resumable crawl of docs/check.md.
import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdtempSync,
  openSync,
  readSync,
  rmdirSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeFolders } from './folders.js';

export const CHECKPOINT_LINES = 1000;
export const CHECKPOINT_MS = 2000;
const CHUNK = 1 << 16;

/** One URL of the crawl, as urls.log keeps it. */
export interface CrawlEntry {
  /** The offset of its line in urls.log: its id. */
  id: number;
  depth: number;
  /** The parent's id, or -1 for a seed. */
  parent: number;
  /** True when its links may be followed (in scope, not past the depth limit). */
  follow: boolean;
  url: string;
}

/** A verdict as done.log keeps it (the crawl's CrawlResult without what urls.log already says). */
export interface StoredVerdict {
  status: string;
  attempts: number;
  ms: number;
  reason: string;
  code?: string;
  reply?: string;
  redirects?: string[];
  notes?: string[];
  /** True when its links were read. */
  followed?: boolean;
}

function encodeVerdict(id: number, v: StoredVerdict): string {
  const row = [
    v.status,
    v.attempts,
    v.ms,
    v.reason,
    v.code ?? null,
    v.reply ?? null,
    v.redirects !== undefined && v.redirects.length > 0 ? v.redirects : null,
    v.notes !== undefined && v.notes.length > 0 ? v.notes : null,
    v.followed === true ? 1 : 0,
  ];
  // Trailing nulls and zeros are left out: most verdicts are `["ok",1,12,"200 OK"]`.
  while (row.length > 4 && (row[row.length - 1] === null || row[row.length - 1] === 0)) row.pop();
  return `${id} ${JSON.stringify(row)}\n`;
}

function decodeVerdict(line: string): { id: number; v: StoredVerdict } | null {
  const sp = line.indexOf(' ');
  if (sp <= 0) return null;
  const id = Number(line.slice(0, sp));
  let row: unknown;
  try {
    row = JSON.parse(line.slice(sp + 1));
  } catch {
    return null;
  }
  if (!Number.isSafeInteger(id) || !Array.isArray(row) || row.length < 4) return null;
  const [status, attempts, ms, reason, code, reply, redirects, notes, followed] = row as unknown[];
  if (typeof status !== 'string' || typeof reason !== 'string') return null;
  const v: StoredVerdict = { status, attempts: Number(attempts), ms: Number(ms), reason };
  if (typeof code === 'string') v.code = code;
  if (typeof reply === 'string') v.reply = reply;
  if (Array.isArray(redirects)) v.redirects = redirects.map(String);
  if (Array.isArray(notes)) v.notes = notes.map(String);
  if (followed === 1) v.followed = true;
  return { id, v };
}

function decodeEntry(id: number, line: string): CrawlEntry | null {
  // `f|l DEPTH PARENT "URL"`
  const f = line.charCodeAt(0);
  if ((f !== 0x66 && f !== 0x6c) || line.charCodeAt(1) !== 0x20) return null;
  const a = line.indexOf(' ', 2);
  const b = a < 0 ? -1 : line.indexOf(' ', a + 1);
  if (b < 0) return null;
  const depth = Number(line.slice(2, a));
  const parent = Number(line.slice(a + 1, b));
  let url: unknown;
  try {
    url = JSON.parse(line.slice(b + 1));
  } catch {
    return null;
  }
  if (!Number.isSafeInteger(depth) || !Number.isSafeInteger(parent) || typeof url !== 'string') return null;
  return { id, depth, parent, follow: f === 0x66, url };
}

/**
 * Calls `each(line, offset)` for each complete line of the file open at `fd` from `from`; returns
 * the offset just past the last complete line and whether a line failed `each` (returned false).
 */
function scanLines(
  fd: number,
  from: number,
  each: (line: string, offset: number) => boolean,
): { end: number; bad: boolean } {
  const buf = Buffer.allocUnsafe(CHUNK);
  let pos = from;
  let carry: Buffer | null = null;
  let carryAt = from;
  for (;;) {
    const n = readSync(fd, buf, 0, CHUNK, pos);
    if (n === 0) break;
    pos += n;
    let data = buf.subarray(0, n);
    let base = pos - n;
    if (carry !== null) {
      data = Buffer.concat([carry, data]);
      base = carryAt;
      carry = null;
    }
    let start = 0;
    for (;;) {
      const lf = data.indexOf(0x0a, start);
      if (lf < 0) break;
      if (!each(data.toString('utf8', start, lf), base + start)) return { end: base + start, bad: true };
      start = lf + 1;
    }
    if (start < data.length) {
      carry = Buffer.from(data.subarray(start));
      carryAt = base + start;
    }
  }
  return { end: carry === null ? pos : carryAt, bad: false };
}

/** What was found on opening a state folder. */
export interface StateOpened {
  /** True when the folder held a crawl (resumed), false when it starts a new one. */
  resumed: boolean;
  /** Octets of a torn last write cut off, per log. */
  torn: { urls: number; done: number };
}

/** The two logs of one crawl (see the head of this module). */
export class CrawlState {
  readonly dir: string;
  readonly #temporary: boolean;
  readonly #urls: number;
  readonly #done: number;
  #urlsEnd: number;
  #doneEnd: number;
  /** The dispatch cursor (an offset in urls.log) and the lines read ahead of it. */
  #cursor = 0;
  #ahead: CrawlEntry[] = [];
  #aheadAt = 0;
  /** Ids with a verdict from an earlier run, sorted, and the next one the cursor may meet. */
  #resumedDone: Float64Array = new Float64Array(0);
  #resumedAt = 0;
  #sinceCheckpoint = 0;
  #checkpointAt = Date.now();
  #closed = false;
  readonly opened: StateOpened;

  /**
   * Opens the state in `dir` (made if missing), or, when `dir` is null, in files of a temporary
   * folder whose names are removed as soon as they are open (nothing of it outlives the process). A folder that already holds the logs is resumed: torn last lines are cut off.
   */
  constructor(dir: string | null) {
    this.#temporary = dir === null;
    this.dir = dir ?? mkdtempSync(join(tmpdir(), 'locator-crawl-'));
    makeFolders(this.dir);
    const urlsPath = join(this.dir, 'urls.log');
    const donePath = join(this.dir, 'done.log');
    const resumed = existsSync(urlsPath);
    this.#urls = openSync(urlsPath, 'a+');
    this.#done = openSync(donePath, 'a+');
    // A temporary state is read and written through its two descriptors only: its names are
    // removed at once, so that nothing is left behind however the process ends (Ctrl-C, SIGTERM
    // and SIGKILL included, which run no close()); the kernel frees the files with the descriptors.
    if (this.#temporary) {
      unlinkSync(urlsPath);
      unlinkSync(donePath);
      rmdirSync(this.dir);
    }
    this.#urlsEnd = fstatSync(this.#urls).size;
    this.#doneEnd = fstatSync(this.#done).size;
    const torn = { urls: 0, done: 0 };
    // urls.log: keep the complete, well-formed lines; a bad line can only be the torn last write.
    const u = scanLines(this.#urls, 0, (line, at) => decodeEntry(at, line) !== null);
    if (u.end < this.#urlsEnd) {
      torn.urls = this.#urlsEnd - u.end;
      ftruncateSync(this.#urls, u.end);
      this.#urlsEnd = u.end;
    }
    const ids: number[] = [];
    const d = scanLines(this.#done, 0, (line) => {
      const r = decodeVerdict(line);
      if (r === null) return false;
      if (r.id < this.#urlsEnd) ids.push(r.id);
      return true;
    });
    if (d.end < this.#doneEnd) {
      torn.done = this.#doneEnd - d.end;
      ftruncateSync(this.#done, d.end);
      this.#doneEnd = d.end;
    }
    this.#resumedDone = Float64Array.from(ids).sort();
    this.opened = { resumed: resumed && this.#urlsEnd > 0, torn };
  }

  /** Octets on disk (both logs). */
  get bytes(): number {
    return this.#urlsEnd + this.#doneEnd;
  }

  /** Appends URLs to the crawl; returns their ids. */
  add(entries: readonly Omit<CrawlEntry, 'id'>[]): number[] {
    if (entries.length === 0) return [];
    const ids: number[] = [];
    let text = '';
    let at = this.#urlsEnd;
    for (const e of entries) {
      const line = `${e.follow ? 'f' : 'l'} ${e.depth} ${e.parent} ${JSON.stringify(e.url)}\n`;
      ids.push(at);
      at += Buffer.byteLength(line);
      text += line;
    }
    const data = Buffer.from(text);
    this.#writeAll(this.#urls, data);
    this.#urlsEnd += data.length;
    return ids;
  }

  /** Writes the verdict of the URL `id` (after the lines of the links found in it). */
  done(id: number, v: StoredVerdict): void {
    const data = Buffer.from(encodeVerdict(id, v));
    this.#writeAll(this.#done, data);
    this.#doneEnd += data.length;
    if (++this.#sinceCheckpoint >= CHECKPOINT_LINES || Date.now() - this.#checkpointAt >= CHECKPOINT_MS)
      this.checkpoint();
  }

  /** fsyncs both logs. */
  checkpoint(): void {
    fsyncSync(this.#urls);
    fsyncSync(this.#done);
    this.#sinceCheckpoint = 0;
    this.#checkpointAt = Date.now();
  }

  /** The URL with id `id` (a pread of its line). */
  entry(id: number): CrawlEntry {
    let len = 512;
    for (;;) {
      const buf = Buffer.allocUnsafe(len);
      const n = readSync(this.#urls, buf, 0, len, id);
      const lf = buf.subarray(0, n).indexOf(0x0a);
      if (lf >= 0) {
        const e = decodeEntry(id, buf.toString('utf8', 0, lf));
        if (e !== null) return e;
        break;
      }
      if (n < len) break;
      len *= 4;
    }
    throw new Error(`crawl state: no URL line at offset ${id} of ${join(this.dir, 'urls.log')}`);
  }

  /**
   * The next URL to check, in the order found, skipping those with a verdict from an earlier run;
   * null when the cursor has reached the end of urls.log (more may be added later).
   */
  next(): CrawlEntry | null {
    for (;;) {
      if (this.#aheadAt >= this.#ahead.length) {
        if (this.#cursor >= this.#urlsEnd) return null;
        this.#readAhead();
        if (this.#aheadAt >= this.#ahead.length) return null;
      }
      const e = this.#ahead[this.#aheadAt++];
      const done = this.#resumedDone;
      while (this.#resumedAt < done.length && done[this.#resumedAt] < e.id) this.#resumedAt++;
      if (this.#resumedAt < done.length && done[this.#resumedAt] === e.id) continue;
      return e;
    }
  }

  /** Every URL of urls.log in order (for rebuilding the seen set on resume). */
  *entries(): Generator<CrawlEntry> {
    const list: CrawlEntry[] = [];
    let from = 0;
    while (from < this.#urlsEnd) {
      list.length = 0;
      const buf = Buffer.allocUnsafe(CHUNK * 16);
      const n = readSync(this.#urls, buf, 0, Math.min(buf.length, this.#urlsEnd - from), from);
      const last = buf.subarray(0, n).lastIndexOf(0x0a);
      if (last < 0) break;
      let start = 0;
      while (start <= last) {
        const lf = buf.indexOf(0x0a, start);
        const e = decodeEntry(from + start, buf.toString('utf8', start, lf));
        if (e !== null) list.push(e);
        start = lf + 1;
      }
      from += last + 1;
      yield* list;
    }
  }

  /** The verdicts written by earlier runs, with their URLs, in the order they were written. */
  *verdicts(): Generator<{ entry: CrawlEntry; verdict: StoredVerdict }> {
    const found: { id: number; v: StoredVerdict }[] = [];
    let from = 0;
    const end = this.#doneEnd;
    while (from < end) {
      found.length = 0;
      const r = scanLinesBounded(this.#done, from, end, (line) => {
        const d = decodeVerdict(line);
        if (d !== null && d.id < this.#urlsEnd) found.push(d);
      });
      for (const d of found) yield { entry: this.entry(d.id), verdict: d.v };
      if (r === from) break;
      from = r;
    }
  }

  #readAhead(): void {
    this.#ahead = [];
    this.#aheadAt = 0;
    const want = Math.min(CHUNK, this.#urlsEnd - this.#cursor);
    const buf = Buffer.allocUnsafe(want);
    const n = readSync(this.#urls, buf, 0, want, this.#cursor);
    const last = buf.subarray(0, n).lastIndexOf(0x0a);
    if (last < 0) {
      // One line longer than a chunk: read it whole.
      const e = this.entry(this.#cursor);
      this.#ahead.push(e);
      this.#cursor += Buffer.byteLength(`${e.follow ? 'f' : 'l'} ${e.depth} ${e.parent} ${JSON.stringify(e.url)}\n`);
      return;
    }
    let start = 0;
    while (start <= last) {
      const lf = buf.indexOf(0x0a, start);
      const e = decodeEntry(this.#cursor + start, buf.toString('utf8', start, lf));
      if (e !== null) this.#ahead.push(e);
      start = lf + 1;
    }
    this.#cursor += last + 1;
  }

  #writeAll(fd: number, data: Buffer): void {
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
  }

  /** Checkpoints and closes; a temporary state folder is removed. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      if (!this.#temporary) this.checkpoint();
    } finally {
      closeSync(this.#urls);
      closeSync(this.#done);
      if (this.#temporary) rmSync(this.dir, { recursive: true, force: true });
    }
  }
}

/** Reads complete lines of [from, end) in one chunk of up to 1 MiB; returns the offset after the last. */
function scanLinesBounded(fd: number, from: number, end: number, each: (line: string) => void): number {
  const len = Math.min(1 << 20, end - from);
  const buf = Buffer.allocUnsafe(len);
  const n = readSync(fd, buf, 0, len, from);
  const last = buf.subarray(0, n).lastIndexOf(0x0a);
  if (last < 0) return from;
  let start = 0;
  while (start <= last) {
    const lf = buf.indexOf(0x0a, start);
    each(buf.toString('utf8', start, lf));
    start = lf + 1;
  }
  return from + last + 1;
}
