// The result a scheme's probe gives (docs/probes.md), before probe() adds the redirects, the transcript
// and the time: here, so that the probe modules need not import the index that loads them.

import type { ProbeResult } from './types.js';

/** A ProbeResult with the fields probe() fills in (redirects, transcript, ms) left empty. */
export function result(
  status: ProbeResult['status'],
  reason: string,
  more: Partial<Pick<ProbeResult, 'code' | 'reply' | 'temporary' | 'directory' | 'busy' | 'retryAfter'>> = {},
): ProbeResult {
  return { status, reason, temporary: false, ...more, redirects: [], transcript: [], ms: 0 };
}
