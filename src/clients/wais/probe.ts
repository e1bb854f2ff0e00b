// The wais probe (RFC 1738 3.9, RFC 1625): the InitRequest and the search of the
// database (the WAIS client's own session, src/clients/wais/client.ts probeWais), or the first
// piece of a document; a diagnostic record (an unknown database) is `wais-diagnostic`: broken.

import type { Url } from '../../core/url.js';
import { probeWais } from './client.js';
import { result } from '../probe/result.js';
import type { ProbeOptions, ProbeResult } from '../probe/types.js';

/** Probes a wais URL (RFC 1738 3.9): the steps of waisSteps(url). */
export async function probe(url: Url, options: ProbeOptions): Promise<ProbeResult> {
  return result('ok', await probeWais(url, options));
}
