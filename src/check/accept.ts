// --accept: reply codes that count as ok, per scheme (`http:200..299,403`, `ftp:550`): a result
// whose probe got such a reply from a server of that scheme is reported ok, with a note.
// DEVIATION: lychee's --accept replaces the accepted set; here the codes are added to what the
// probes already call ok (a 2xx is ok whatever is given), since each scheme's probe knows its
// own success replies (RFC 959, 1436, 977, 2616) better than a list would.
import type { CheckResult } from './check.js';

export type Accept = ReadonlyMap<string, readonly [number, number][]>;

/** Reads `SCHEME:CODE|LOW..HIGH[,...]` (repeatable) into a table; throws a SyntaxError naming a malformed one. */
export function acceptRules(specs: readonly string[]): Accept {
  const out = new Map<string, [number, number][]>();
  for (const spec of specs) {
    const m = /^([A-Za-z][A-Za-z0-9+.-]*):([0-9.,]+)$/.exec(spec);
    if (m === null)
      throw new SyntaxError(`--accept takes SCHEME:CODES (http:200..299,403), not ${JSON.stringify(spec)}`);
    const ranges = out.get(m[1].toLowerCase()) ?? [];
    for (const part of m[2].split(',')) {
      const r = /^([0-9]{1,4})(?:\.\.([0-9]{1,4}))?$/.exec(part);
      if (r === null) throw new SyntaxError(`--accept ${spec}: ${JSON.stringify(part)} is no code nor LOW..HIGH`);
      const low = Number(r[1]);
      const high = r[2] === undefined ? low : Number(r[2]);
      if (high < low) throw new SyntaxError(`--accept ${spec}: ${part} is an empty range`);
      ranges.push([low, high]);
    }
    out.set(m[1].toLowerCase(), ranges);
  }
  return out;
}

/** The result as reported under `accept`: ok, noted, when its scheme's reply code is accepted; else as it was. */
export function accepted(r: CheckResult, accept: Accept): CheckResult {
  if (r.reply === undefined || r.status === 'ok' || r.status === 'redirected' || r.status === 'invalid') return r;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(r.url)?.[1]?.toLowerCase();
  const ranges = scheme === undefined ? undefined : accept.get(scheme);
  const code = Number(r.reply);
  if (ranges === undefined || !/^[0-9]+$/.test(r.reply) || !ranges.some(([a, b]) => code >= a && code <= b)) return r;
  return { ...r, status: 'ok', notes: [...r.notes, `reply ${r.reply} accepted (--accept)`] };
}
