// The probe of a scheme with no probe of its own: one hop of open() (src/clients/open.ts
// openOnce: the scheme's gateway or client), its first bytes read, the transfer cancelled. A
// redirect goes back to probe()'s loop.

import type { Url } from '../../core/url.js';
import { openOnce } from '../open.js';
import { isRedirect, type Redirect } from '../types.js';
import { result } from './result.js';
import type { ProbeOptions, ProbeResult } from './types.js';

/** Probes any URL by opening it (RFC 1738 3): the steps of openedSteps(url) . */
export async function probe(url: Url, options: ProbeOptions): Promise<ProbeResult | Redirect> {
  const r = await openOnce(url, options);
  if (isRedirect(r)) return r;
  const reader = r.body.getReader();
  try {
    const { done, value } = await reader.read();
    return result('ok', done ? 'the object is empty' : `the object starts (${value.length} octets read)`);
  } finally {
    await reader.cancel().catch(() => {});
  }
}
