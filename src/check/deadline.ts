// The deadline of a probe or of the reading of a menu or listing (docs/check.md, the `deadline` option of check()).
import { LocatorError } from '../core/errors.js';
import type { Url } from '../core/url.js';
import { TIMEOUT, startTimer, type ProbeOptions, type ProbeResult, type Timer } from '../clients/index.js';
import type { ProbeFunction } from './types.js';

/** What deadlineSignal() gives: the signal, the start of its clock, whether it fired, and its stop. */
export interface Deadline {
  signal: AbortSignal | undefined;
  start: () => void;
  expired: () => boolean;
  stop: () => void;
}

/**
 * A signal that fires at the deadline (and with the caller's own signal `own`), counted from start()
 * (from the call when `started`), and the function that stops its clock. The clients close their
 * connection when it fires (OpenOptions.signal).
 */
export function deadlineSignal(deadline: number, own: AbortSignal | undefined, started = true): Deadline {
  if (deadline === Infinity) return { signal: own, start: () => {}, expired: () => false, stop: () => {} };
  const ac = new AbortController();
  let expired = false;
  let timer: Timer | null = null;
  let stopped = false;
  const start = () => {
    if (timer !== null || stopped) return;
    timer = startTimer(deadline, () => {
      expired = true;
      ac.abort(new LocatorError(TIMEOUT, -1, `the deadline of ${deadline} ms passed`));
    });
  };
  // The caller's signal aborts it too (AbortSignal.any() is not in every Node 20).
  const onAbort = () => ac.abort(own?.reason);
  if (own?.aborted) onAbort();
  else own?.addEventListener('abort', onAbort, { once: true });
  if (started) start();
  return {
    signal: ac.signal,
    start,
    expired: () => expired,
    stop: () => {
      stopped = true;
      timer?.clear();
      own?.removeEventListener('abort', onAbort);
    },
  };
}

/** One probe within the deadline: an answer that has not come by then is `unreachable` (temporary). */
export async function probeWithin(
  probe: ProbeFunction,
  u: Url,
  probeOptions: ProbeOptions,
  deadline: number,
): Promise<ProbeResult> {
  const d = deadlineSignal(deadline, probeOptions.signal);
  const options = d.signal === undefined ? probeOptions : { ...probeOptions, signal: d.signal };
  const late = (): ProbeResult => ({
    status: 'unreachable',
    reason: `no whole answer within the deadline of ${deadline} ms (the server answered too slowly or never finished)`,
    code: TIMEOUT,
    temporary: true,
    redirects: [],
    transcript: [],
    ms: deadline,
  });
  let onLate: (() => void) | null = null;
  const lateAnswer = new Promise<ProbeResult>((resolve) => (onLate = () => resolve(late())));
  // A probe that does not end when its signal fires is not waited for (the slot is given back).
  const timer = deadline === Infinity ? null : startTimer(deadline + 1000, () => onLate?.());
  try {
    const r = await Promise.race([probe(u, options), lateAnswer]);
    return d.expired() && r.status !== 'ok' && r.status !== 'redirected' ? late() : r;
  } finally {
    d.stop();
    timer?.clear();
  }
}
