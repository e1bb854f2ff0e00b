// The face of the wais client (RFC 1738 3.9; RFC 1625, Z39.50-1988): documents and searches of a
// database. The protocol modules are imported when first used (./client.ts, ./probe.ts).

import type { Url } from '../../core/url.js';
import { build, explain } from '../../operations/build.js';
import { fieldsOf } from '../../schemes/fields.js';
import type { ClientFace } from '../client-face.js';

/** wais (RFC 1738 3.9): InitRequest and the search (or the first piece of a document); then close. */
export function waisSteps(url: Url): string[] {
  const steps = explain(url).steps;
  const f = fieldsOf(url, 'wais');
  if (f.kind === 'database') {
    const db = f.database ?? '';
    // open() searches with no words, then retrieves the source description; the probe stops at
    // the answer that names it.
    steps.splice(
      -2,
      2,
      `search ${db} with no words (SearchRequest, query type 3: Database-Names "${db}"): the answer names its source description`,
    );
  }
  if (f.kind === 'document') steps[steps.length - 1] += ' [only the first piece: bytes 0-10000 at most]';
  steps.push('close');
  return steps;
}

const wais: ClientFace = {
  warcProtocols: ['wais'],
  kinds: ['document', 'search'],
  kindOf: (url) => (fieldsOf(url, 'wais').kind === 'document' ? 'document' : 'search'),
  open: async (url, options) => (await import('./client.js')).open(url, options),
  probe: async (url, options) => (await import('./probe.js')).probe(url, options),
  steps: waisSteps,
  gatewayShows: 'searches and documents',
  form(url) {
    const f = fieldsOf(url, 'wais');
    if (f.kind !== 'database') return null;
    return {
      form: 'search',
      title: 'WAIS database',
      what: `the database ${f.database ?? ''}`,
      withWords: (search) => build('wais', { host: url.host, port: url.port, database: f.database, search }),
    };
  },
};

export default wais;
