// The prospero probe (RFC 1738 3.11: the URL is "interpreted by contacting a Prospero directory
// server ... to determine appropriate access methods"): the directory lookup of the Prospero
// client (GET-OBJECT-INFO ACCESS-METHOD over ARDP, FORWARDED replies followed), and no more. The
// object is there when the server answers for it; its access URLs are not retrieved (each is a
// URL of its own, to be checked as such). A NOT-FOUND failure is `not-found`: broken.

import type { Url } from '../../core/url.js';
import { accessMethods } from './client.js';
import { result } from '../probe/result.js';
import type { ProbeOptions, ProbeResult } from '../probe/types.js';

/** Probes a prospero URL (RFC 1738 3.11): the steps of prosperoSteps(url). */
export async function probe(url: Url, options: ProbeOptions): Promise<ProbeResult> {
  const { methods } = await accessMethods(url, options);
  const urls = methods.filter((m) => m.url !== null).length;
  return result(
    'ok',
    methods.length === 0
      ? 'the server knows the object and names no access method (a directory has none)'
      : `the server names ${methods.length} access method${methods.length === 1 ? '' : 's'}, ${urls} of them a URL`,
  );
}
