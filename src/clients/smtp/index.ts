// The face of the mailto client (RFC 1738 3.5; RFC 5321): a mail address is no object to
// retrieve; probe() asks the DNS for its mail exchanger (and, when asked, the exchanger for the
// recipient), and the gateway shows a form that sends mail through its relay. The protocol
// modules are imported when first used (./mailto.ts, ./probe.ts).

import type { Url } from '../../core/url.js';
import { fieldsOf } from '../../schemes/fields.js';
import type { ClientFace } from '../client-face.js';
import type { ProbeOptions } from '../probe/types.js';

/** mailto (RFC 1738 3.5; RFC 5321 5.1): the domain's MX, else its A and AAAA; RCPT TO only when asked. */
export function mailtoSteps(url: Url, options: ProbeOptions = {}): string[] {
  const address = fieldsOf(url, 'mailto').address;
  const domain = address.slice(address.lastIndexOf('@') + 1);
  const dns =
    options.dnsServers !== undefined && options.dnsServers.length > 0 ? options.dnsServers.join(', ') : 'the system';
  const steps = [
    `DNS MX ${domain} (asking ${dns})`,
    `[if no MX] DNS A ${domain}, DNS AAAA ${domain} (RFC 5321 5.1: the domain is its own mail exchanger)`,
  ];
  if (options.smtpProbe === true) {
    const server = options.smtpServer ?? 'the first mail exchanger, port 25';
    steps.push(`connect ${server}`, 'EHLO <this host>', 'MAIL FROM:<>', `RCPT TO:<${address}>`, 'QUIT');
  }
  return steps;
}

const mailto: ClientFace = {
  kinds: ['document'],
  open: async (url, options) => (await import('./mailto.js')).open(url, options),
  probe: async (url, options) => (await import('./probe.js')).probe(url, options),
  steps: mailtoSteps,
  form: () => ({ form: 'mail' }),
  gatewayShows: 'the command to run',
  retrieves: false,
};

export default mailto;
