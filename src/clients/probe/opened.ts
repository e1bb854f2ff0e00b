// The probe of a scheme with no probe of its own, and of wais (RFC 1738 3.9: the WAIS client
// asks nothing more than Init and the search, or the first piece of a document, before it hands
// the stream over): one hop of open() (src/clients/open.ts openOnce: the scheme's gateway or
// client), its first bytes read, the transfer cancelled. A redirect goes back to probe()'s loop.

import type { Url } from '../../core/url.js';
import { openOnce } from '../open.js';
import { isRedirect, type Redirect } from '../types.js';
import { result } from './result.js';
import type { ProbeOptions, ProbeResult } from './types.js';

/** Probes any URL by opening it (RFC 1738 3): the steps of openedSteps(url) (waisSteps for wais). */
export async function probe(url: Url, options: ProbeOptions): Promise<ProbeResult | Redirect> {
  const r = await openOnce(url, options);
  if (isRedirect(r)) return r;
  const reader = r.body.getReader();
  try {
    // The WAIS client has had its answer (Init, the search or the first piece) before it returns.
    if (url.scheme === 'wais') return result('ok', 'the WAIS server answered the InitRequest and the search');
    const { done, value } = await reader.read();
    return result('ok', done ? 'the object is empty' : `the object starts (${value.length} octets read)`);
  } finally {
    await reader.cancel().catch(() => {});
  }
}
