// The Retry-After field of an HTTP reply (RFC 9110 10.2.3), as the politeness engine honours it.

/**
 * The wait a Retry-After field asks for, in ms from `now` (RFC 9110 10.2.3: delay-seconds, or an
 * HTTP-date, 5.6.7), or null when the value is neither. A date in the past is a wait of 0.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (value === null || value === undefined) return null;
  const v = value.trim();
  if (/^[0-9]+$/.test(v)) {
    // delay-seconds: exact for any length (a wait past 2^53 ms is as good as forever).
    const n = v.length > 15 ? Number.MAX_SAFE_INTEGER : Number(v) * 1000;
    return Math.min(n, Number.MAX_SAFE_INTEGER);
  }
  // HTTP-date: IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), or the obsolete RFC 850 and asctime
  // forms a recipient must also accept (RFC 9110 5.6.7); Date.parse reads all three.
  if (!/^[A-Za-z]{3,9},? [0-9A-Za-z :-]{11,30}$/.test(v)) return null;
  const t = Date.parse(/GMT$|[0-9]{4}$/.test(v) ? (v.endsWith('GMT') ? v : `${v} GMT`) : v);
  if (!Number.isFinite(t)) return null;
  return Math.max(0, t - now);
}
