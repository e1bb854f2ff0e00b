// A progress line on standard error (only when it is a terminal): bytes so far, rate, and when
// the size is known the percentage and the time left. Redrawn at most ten times a second.
import type { Writable } from 'node:stream';

function human(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 && i > 0 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

function clock(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--:--';
  const s = Math.max(0, Math.round(seconds));
  const m = Math.floor(s / 60);
  return m >= 60
    ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`
    : `${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** The text of one progress line (exported for tests). */
export function progressLine(bytes: number, size: number | null, elapsedMs: number, width = 30): string {
  const rate = elapsedMs > 0 ? (bytes * 1000) / elapsedMs : 0;
  const speed = `${human(rate)}/s`;
  if (size === null || size <= 0) return `${human(bytes)}  ${speed}`;
  const frac = Math.min(1, bytes / size);
  const filled = Math.floor(frac * width);
  const eta = rate > 0 ? (size - bytes) / rate : Infinity;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.floor(frac * 100)).padStart(3)}%  ${human(bytes)} of ${human(size)}  ${speed}  ETA ${clock(eta)}`;
}

export class Progress {
  readonly #out: Writable;
  readonly #size: number | null;
  readonly #start = Date.now();
  #last = 0;

  constructor(out: Writable, size: number | null) {
    this.#out = out;
    this.#size = size;
  }

  update(bytes: number): void {
    const now = Date.now();
    if (now - this.#last < 100) return;
    this.#last = now;
    this.#out.write(`\r${progressLine(bytes, this.#size, now - this.#start)}\x1b[K`);
  }

  finish(bytes: number): void {
    this.#out.write(`\r${progressLine(bytes, this.#size ?? bytes, Date.now() - this.#start)}\x1b[K\n`);
  }
}

/** The text of the checker's progress line (exported for tests): URLs reported so far, by status. */
export function countLine(counts: Readonly<Record<string, number>>, elapsedMs: number): string {
  let total = 0;
  const parts: string[] = [];
  for (const [status, n] of Object.entries(counts)) {
    total += n;
    if (n > 0) parts.push(`${status} ${n}`);
  }
  const rate = elapsedMs > 0 ? (total * 1000) / elapsedMs : 0;
  return `checked ${total}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}  ${rate.toFixed(1)} URLs/s  ${clock(elapsedMs / 1000)}`;
}

/** A progress line of counts (`locator check`), redrawn at most ten times a second, erased at the end. */
export class CountProgress {
  readonly #out: Writable;
  readonly #start = Date.now();
  #last = 0;

  constructor(out: Writable) {
    this.#out = out;
  }

  update(counts: Readonly<Record<string, number>>): void {
    const now = Date.now();
    if (now - this.#last < 100) return;
    this.#last = now;
    this.#out.write(`\r${countLine(counts, now - this.#start)}\x1b[K`);
  }

  finish(): void {
    if (this.#last !== 0) this.#out.write('\r\x1b[K');
  }
}
