// The face of the news and nntp client (RFC 1738 3.6, 3.7; RFC 3977): articles, groups (an
// overview listing) and the list of groups. Its protocol modules are imported when a URL is first
// opened or probed (./client.ts, ./probe.ts).

import type { Url } from '../../core/url.js';
import { fieldsOf } from '../../schemes/fields.js';
import type { ClientFace } from '../client-face.js';

const NNTP_START = [
  'CAPABILITIES',
  'MODE READER [if CAPABILITIES lists MODE-READER without READER, or is not understood]',
];

/** news (RFC 1738 3.6), nntp (3.7; RFC 3977): STAT or GROUP, or the first line of LIST ACTIVE. */
export function nntpSteps(url: Url): string[] {
  const steps = [...NNTP_START];
  if (url.scheme === 'news') {
    const f = fieldsOf(url, 'news');
    if (f.kind === 'article') steps.push(`STAT <${f.messageId}> [223: there; 430: no such article]`);
    else if (f.kind === 'group') steps.push(`GROUP ${f.group} [211: there; 411: no such group]`);
    else steps.push('LIST ACTIVE [215 and its first line; then close]');
  } else {
    const f = fieldsOf(url, 'nntp');
    steps.push(`GROUP ${f.group ?? ''} [211: there; 411: no such group]`);
    if (f.article !== null) steps.push(`STAT ${f.article} [223: there; 423: no such article]`);
  }
  steps.push('QUIT');
  return steps;
}

const nntp: ClientFace = {
  warcProtocols: ['nntp'],
  kinds: ['document', 'listing'],
  open: async (url, options) => (await import('./client.js')).open(url, options),
  probe: async (url, options) => (await import('./probe.js')).probe(url, options),
  steps: nntpSteps,
  gatewayShows: 'groups and articles (news: from the news server of --nntp-server or NNTPSERVER)',
};

export default nntp;
