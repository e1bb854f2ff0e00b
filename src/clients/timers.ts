// Timeouts for every client (RFC 1738 3: the clients' own limits, the spec sets none).

export const DEFAULT_TIMEOUT = 30_000;

/** The longest delay one Node timer can hold (2^31-1 ms, about 24.8 days); longer ones are chained. */
export const MAX_TIMER = 2 ** 31 - 1;

/**
 * The `timeout` option, validated once for every client (RFC 1738 3: the clients' own limit, the
 * spec sets none): a positive number of milliseconds, `Infinity` for no limit, undefined for the
 * default (30 s). Anything else is API misuse: a TypeError for a non-number, a RangeError for 0,
 * a negative number or NaN, naming the option. Values above 2^31-1 ms work (chained timers).
 */
export function checkTimeout(value: unknown, name = 'timeout'): number {
  if (value === undefined) return DEFAULT_TIMEOUT;
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number of milliseconds, not ${typeof value}`);
  if (!(value > 0)) {
    throw new RangeError(
      `${name} must be a positive number of milliseconds (or Infinity for no limit), not ${String(value)}`,
    );
  }
  return value;
}

/** A timer that can run for any positive delay: chained past MAX_TIMER, never for Infinity. */
export interface Timer {
  clear(): void;
}

/** Runs `fn` once after `ms` milliseconds (any positive number; Infinity: never). */
export function startTimer(ms: number, fn: () => void): Timer {
  let handle: ReturnType<typeof setTimeout> | null = null;
  let left = ms;
  const arm = () => {
    if (!Number.isFinite(left)) return;
    const step = Math.min(left, MAX_TIMER);
    left -= step;
    handle = setTimeout(() => {
      handle = null;
      if (left > 0) arm();
      else fn();
    }, step);
  };
  arm();
  return {
    clear() {
      if (handle !== null) clearTimeout(handle);
      handle = null;
      left = 0;
    },
  };
}
