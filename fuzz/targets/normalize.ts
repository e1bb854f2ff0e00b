// Fuzz target: normalize() and equivalent() (RFC 1738 2.2, 3; the scheme entries' normal
// forms). The input is "a LF b" (the parse target's scheme byte applies to each). Invariants:
// only LocatorError is thrown; normalize is idempotent and its result parses; a URL is
// equivalent to itself and to its normal form; equivalent is symmetric; when a ~ b, a URL
// equivalent to one is equivalent to the other (transitivity through the normal form).

import { normalize, equivalent, tryParse, LocatorError } from '../../src/index.js';
import { inputOf } from './parse.js';
import { check, refusal, splitBytes } from './lib.js';

export function fuzz(data: Uint8Array): void {
  const [da, db] = splitBytes(data, 10, 2);
  const a = inputOf(da);
  const b = db === undefined ? a : inputOf(db);
  const na = refusal(() => normalize(a), a.length);
  if (na instanceof LocatorError) return;
  const nna = normalize(na);
  check(nna === na, `normalize is not idempotent: ${JSON.stringify([a, na, nna])}`);
  const u = tryParse(na);
  check(!(u instanceof LocatorError), `the normal form does not parse: ${JSON.stringify([a, na])}`);
  check(equivalent(a, a), 'a URL is not equivalent to itself');
  check(
    equivalent(a, na) && equivalent(na, a),
    `a URL is not equivalent to its normal form: ${JSON.stringify([a, na])}`,
  );
  check(equivalent(a, a, { ignoreFragment: true }), 'a URL is not equivalent to itself without fragments');
  const nb = refusal(() => normalize(b), b.length);
  if (nb instanceof LocatorError) return;
  const ab = equivalent(a, b);
  check(ab === equivalent(b, a), `equivalent is not symmetric: ${JSON.stringify([a, b])}`);
  check(ab === (na === nb), 'equivalent is not the equality of normal forms');
  if (ab)
    check(equivalent(na, b) && equivalent(a, nb), `transitivity through the normal form: ${JSON.stringify([a, b])}`);
  if (ab) check(equivalent(a, b, { ignoreFragment: true }), 'equivalent, but not without fragments');
}
