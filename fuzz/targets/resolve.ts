// Fuzz target: resolve() and relativize() (RFC 1808 4, 5; RFC 3986 5.2; the October 1993
// draft). The input is "base LF partial", under the rules picked by the first byte's low bits.
// Invariants: only LocatorError is thrown; a resolved URL parses; when relativize() finds a
// partial form for it, resolve(base, that form) gives the URL back and the form is no longer
// than the URL.

import { resolve, relativize, tryParse, LocatorError, type Rules } from '../../src/index.js';
import { check, refusal, textOf } from './lib.js';

const RULES: Rules[] = [1808, 3986, 'draft-1993-10'];

export function fuzz(data: Uint8Array): void {
  const rules = RULES[(data[0] ?? 0) % 3];
  const strict = ((data[0] ?? 0) & 4) === 0;
  const text = textOf(data.subarray(1));
  const nl = text.indexOf('\n');
  const base = nl < 0 ? 'http://a/b/c/d;p?q#f' : text.slice(0, nl);
  const partial = nl < 0 ? text : text.slice(nl + 1);
  const options = { rfc: rules, strict };
  const t = refusal(() => resolve(base, partial, options));
  if (t instanceof LocatorError) return;
  check(typeof t === 'string', 'resolve gives a string');
  // A partial form that is an absolute URL is taken as it is (RFC 1808 5.2 step 2b), readable or
  // not; a result that does not parse must come from such an input, never from resolution.
  const u = refusal(() => tryParse(t), t.length);
  if (u instanceof LocatorError) {
    check(
      tryParse(partial) instanceof LocatorError,
      `resolve made an unreadable URL: ${JSON.stringify({ base, partial, t })}`,
    );
    return;
  }
  const rel = refusal(() => relativize(base, t, options));
  if (rel instanceof LocatorError) return;
  const back = refusal(() => resolve(base, rel, options));
  check(back === t, `resolve(base, relativize(base, t)) is not t: ${JSON.stringify({ base, t, rel, back })}`);
  check(rel.length <= t.length, `relativize gave a longer form: ${JSON.stringify({ base, t, rel })}`);
}
