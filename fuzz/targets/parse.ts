// Fuzz target: parse(), every scheme (RFC 1738 2.1, 3, 5). The first byte, when it is a control
// character (below 0x20), picks a registered scheme and "name:" is put before the rest, so that
// every scheme's syntax and fields are reached. Invariants: only a LocatorError is thrown, with
// an offset inside the input; the record keeps assertInvariants(); every violation's offset is
// inside the input; the fields, login and explanation are computed without an exception other
// than a LocatorError; parse(parse(x).href) has the same href, offsets, fields and port.

import { listSchemes, parse, tryParse, explain, LocatorError, type Url } from '../../src/index.js';
import { check, refusal, show, textOf } from './lib.js';

const SCHEMES = listSchemes()
  .map((s) => s.name)
  .sort();

/** The input to parse: the text of the bytes, after a scheme name picked by a control byte. */
export function inputOf(data: Uint8Array): string {
  if (data.length > 0 && data[0] < 0x20) {
    const name = SCHEMES[data[0] % SCHEMES.length];
    const rest = textOf(data.subarray(1));
    return (data[0] & 0x10 ? `${name}://` : `${name}:`) + rest;
  }
  return textOf(data);
}

function record(u: Url): string {
  return show({
    href: u.href,
    scheme: u.scheme,
    components: u.components(),
    user: u.user,
    password: u.password,
    host: u.host,
    port: u.port,
    portDigits: u.portDigits,
    path: u.path,
    fragment: u.fragment,
    fields: refusal(() => u.fields),
  });
}

export function fuzz(data: Uint8Array): void {
  const s = inputOf(data);
  const r = refusal(() => tryParse(s), s.length);
  if (r instanceof LocatorError) {
    const again = refusal(() => parse(s), s.length);
    check(again instanceof LocatorError && again.code === r.code, 'parse and tryParse disagree');
    return;
  }
  r.assertInvariants();
  check(r.inputOffset >= 0 && r.inputOffset + r.href.length <= s.length, 'href lies inside the input');
  check(s.includes(r.href), 'href is a slice of the input');
  const violations = r.violations;
  check(violations.length <= 101, `${violations.length} violations listed (at most 100 and one count)`);
  for (const d of violations) {
    check(d.offset >= 0 && d.offset <= s.length, `violation ${d.code} at ${d.offset} outside the input`);
    check(typeof d.section === 'string' && d.message.length > 0, `violation ${d.code} without a section`);
  }
  void r.valid;
  const first = record(r);
  refusal(() => explain(r));
  const again = parse(r.href);
  again.assertInvariants();
  check(record(again) === first, `parse(href) differs:\n${first}\n${record(again)}`);
}
