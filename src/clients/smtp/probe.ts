// The mailto probe (RFC 1738 3.5: the URL designates "the Internet mailing address of an
// individual or service"): can mail reach the address's domain? Its MX records (RFC 5321 5.1),
// and when it has none its A and AAAA records (the domain is then its own mail exchanger). No MX
// and no address, or a domain that does not exist, is broken; a "null MX" (RFC 7505) says the
// domain takes no mail. Only with `smtpProbe`: the mail exchanger (or `smtpServer`) is asked
// EHLO, MAIL FROM:<>, RCPT TO:<address>, QUIT (the SMTP client's session), and no message sent.

import { Resolver } from 'node:dns/promises';
import type { Url } from '../../core/url.js';
import { LocatorError } from '../../core/errors.js';
import { fieldsOf } from '../../schemes/fields.js';
import { checkTimeout } from '../connection.js';
import { CONNECT_FAILED, NOT_FOUND, TIMEOUT, typedError } from '../types.js';
import { checkAddress } from './message.js';
import { SmtpSession } from './session.js';
import { addressLiteral, hello, parseRelay } from './client.js';
import { result } from '../probe/result.js';
import type { ProbeOptions, ProbeResult } from '../probe/types.js';

/** The DNS errors that say "no such record" (c-ares: ENODATA) or "no such name" (ENOTFOUND, NXDOMAIN). */
const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND']);

type Note = (text: string) => void;

/** One DNS question: the answers, [] when there are none, or a LocatorError when the DNS did not answer. */
async function ask<T>(what: string, q: () => Promise<T[]>, note: Note): Promise<{ answers: T[]; nxdomain: boolean }> {
  note(`DNS ${what}`);
  try {
    return { answers: await q(), nxdomain: false };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (NO_RECORD.has(code)) {
      note(`DNS ${what}: ${code === 'ENOTFOUND' ? 'no such domain' : 'no records'}`);
      return { answers: [], nxdomain: code === 'ENOTFOUND' };
    }
    if (code === 'ETIMEOUT')
      throw new LocatorError(TIMEOUT, -1, `the DNS server did not answer ${what} in time`, { cause: e });
    throw new LocatorError(CONNECT_FAILED, -1, `the DNS question ${what} failed: ${code || (e as Error).message}`, {
      cause: e,
    });
  }
}

/** The mail exchangers of a domain, best first (RFC 5321 5.1), or the domain itself when it has addresses. */
async function exchangers(
  domain: string,
  options: ProbeOptions,
  note: Note,
): Promise<{ hosts: string[]; reason: string } | ProbeResult> {
  const timeout = checkTimeout(options.timeout);
  const resolver = new Resolver({ timeout: Number.isFinite(timeout) ? Math.min(timeout, 2 ** 31 - 1) : -1, tries: 1 });
  if (options.dnsServers !== undefined && options.dnsServers.length > 0) {
    try {
      resolver.setServers(options.dnsServers);
    } catch (e) {
      // API misuse (README): a TypeError that names the option, not only Node's "Invalid IP address".
      throw new TypeError(`the dnsServers option: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const mx = await ask(`MX ${domain}`, () => resolver.resolveMx(domain), note);
  if (mx.answers.length > 0) {
    const sorted = [...mx.answers].sort((a, b) => a.priority - b.priority);
    if (sorted.length === 1 && (sorted[0].exchange === '' || sorted[0].exchange === '.'))
      return result('broken', `${domain} has a null MX: it accepts no mail (RFC 7505)`, {
        code: NOT_FOUND,
        reply: 'MX',
      });
    const hosts = sorted.map((r) => r.exchange).filter((h) => h !== '' && h !== '.');
    return { hosts, reason: `MX ${sorted.map((r) => `${r.priority} ${r.exchange}`).join(', ')}` };
  }
  if (mx.nxdomain)
    return result('broken', `the domain ${domain} does not exist (DNS)`, { code: NOT_FOUND, reply: 'NXDOMAIN' });
  const a = await ask(`A ${domain}`, () => resolver.resolve4(domain), note);
  const aaaa =
    a.answers.length > 0 ? { answers: [] } : await ask(`AAAA ${domain}`, () => resolver.resolve6(domain), note);
  const addresses = [...a.answers, ...aaaa.answers];
  if (addresses.length === 0)
    return result('broken', `${domain} has no MX and no address record: no mail can reach it (RFC 5321 5.1)`, {
      code: NOT_FOUND,
      reply: 'NODATA',
    });
  return { hosts: [domain], reason: `no MX; ${domain} has the address ${addresses[0]} (RFC 5321 5.1)` };
}

/** RCPT TO (RFC 5321 3.3, 4.1.1.3) at `host:port`: 250 or 251 is ok; any failure is thrown (SmtpReplyError). */
async function rcpt(host: string, port: number, address: string, options: ProbeOptions): Promise<ProbeResult> {
  const timeout = checkTimeout(options.timeout);
  const session = await SmtpSession.connect(host, port, {
    signal: options.signal,
    timeout,
    policy: options.policy,
    onTranscript: typeof options.transcript === 'function' ? options.transcript : undefined,
  });
  try {
    session.expect(await session.reply(), 220);
    await hello(session, addressLiteral(session.conn.socket.localAddress ?? '127.0.0.1'));
    session.expect(await session.command('MAIL FROM:<>'), 250);
    const r = session.expect(await session.command(`RCPT TO:<${address}>`), 250, 251);
    await session.quit(Math.min(timeout, 1000));
    return result('ok', `${r.code} ${r.texts.join(' ')}`.trimEnd(), { reply: String(r.code) });
  } catch (e) {
    await session.abandon();
    throw typedError(e, 'the SMTP probe');
  }
}

/** Probes a mailto URL (RFC 1738 3.5): the steps of mailtoSteps(url, options). */
export async function probe(url: Url, options: ProbeOptions): Promise<ProbeResult> {
  const address = fieldsOf(url, 'mailto').address;
  checkAddress('the address of the URL', address);
  const domain = address.slice(address.lastIndexOf('@') + 1);
  const note: Note = (text) => {
    if (typeof options.transcript === 'function') options.transcript({ direction: 'info', text });
  };
  let target: { hosts: string[]; reason: string };
  if (domain.startsWith('[')) {
    target = { hosts: [domain], reason: `${domain} is an address literal (RFC 5321 4.1.3)` };
  } else {
    const found = await exchangers(domain, options, note);
    if ('status' in found) return found;
    target = found;
  }
  if (options.smtpProbe !== true) return result('ok', target.reason);
  const server =
    options.smtpServer !== undefined ? parseRelay(options.smtpServer) : { host: target.hosts[0], port: 25 };
  return rcpt(server.host, server.port, address, options);
}
