// send(): the access algorithm of a mailto URL (RFC 1738 3.5): a message from the user is
// submitted by SMTP (RFC 5321; RFC 821 in the URL specs' day) to the relay the client is
// configured with, for the one recipient the URL names. The exchange:
//
//   220 greeting            EHLO <client>  (HELO when EHLO is refused, RFC 5321 3.2)
//   STARTTLS + EHLO again   when offered (RFC 3207), or required by the caller
//   AUTH PLAIN / LOGIN      when credentials are given (RFC 4954, 4616)
//   MAIL FROM:<from> [SIZE=n]   RCPT TO:<to>   DATA   (in one write when PIPELINING is offered, RFC 2920)
//   the message, dot-stuffed, "." (RFC 5321 4.5.2)   QUIT
//
// Before any connection: the URL is checked by the policy (an encoded CR LF in the address is
// refused there), and every value that goes into a command or a header field is checked for CR,
// LF and NUL (message.ts). The policy judges the relay's address after name resolution.

import { randomBytes } from 'node:crypto';
import { LocatorError } from '../../core/errors.js';
import { Url, expectUrl } from '../../core/url.js';
import { describeValue, expectString } from '../../core/percent.js';
import { parse } from '../../schemes/registry.js';
import { fieldsOf } from '../../schemes/fields.js';
import { DEFAULT_POLICY, type Policy } from '../../operations/policy.js';
import { beforeSending } from '../hop.js';
import { checkTimeout } from '../connection.js';
import { TOO_LARGE, transcriptRecorder, typedError, type TranscriptLine } from '../types.js';
import { AUTH_UNAVAILABLE, MAILTO_NOT_RETRIEVABLE, NO_RELAY, STARTTLS_UNAVAILABLE } from './errors.js';
import {
  assertNoLineBreak,
  base64,
  checkAddress,
  checkCommandLength,
  composeMessage,
  dotStuff,
  parseMailbox,
  type MailMessage,
} from './message.js';
import { parseEhlo, queueId, type SmtpReply } from './reply.js';
import { SmtpSession } from './session.js';
import { RELAY_ENV, parseRelay } from './relay.js';

export { RELAY_ENV, parseRelay };
import { authSecrets } from './secrets.js';

export interface SendOptions {
  /** The relay: "host", "host:port" or "[v6]:port" (default: the environment's SMTP_RELAY). */
  smtp?: string;
  /** The environment to read SMTP_RELAY from (default process.env). */
  env?: Record<string, string | undefined>;
  /**
   * STARTTLS (RFC 3207): `auto` (default) when the server offers it; `required` fails with
   * `starttls-unavailable` unless the session runs over TLS before AUTH and MAIL; `never`.
   */
  starttls?: 'auto' | 'required' | 'never';
  /** Certificate authorities (PEM) to check the relay's certificate with, instead of the system's. */
  ca?: string | Uint8Array;
  /** The name the certificate must carry (default: the relay's host name). */
  servername?: string;
  /** Credentials for AUTH PLAIN or LOGIN (RFC 4954); sent only over TLS unless authWithoutTls. */
  user?: string;
  password?: string | (() => Promise<string>);
  /** The AUTH mechanism to use (default: PLAIN when offered, else LOGIN). */
  authMechanism?: 'PLAIN' | 'LOGIN';
  /** Allow AUTH on a connection without TLS (the password then crosses the network readable). */
  authWithoutTls?: boolean;
  /** The EHLO name (default: the address literal of this end of the connection, RFC 5321 4.1.4). */
  clientName?: string;
  /** Cancels the exchange; send() fails with `aborted`. */
  signal?: AbortSignal;
  /** Milliseconds of silence allowed on any one wait (default 30000; Infinity: none). */
  timeout?: number;
  /** The policy consulted before any connection (src/operations/policy.ts). */
  policy?: Policy;
  /** Record the exchange in the result's transcript, and/or pass each line to a callback. */
  transcript?: boolean | ((line: TranscriptLine) => void);
}

/** What the server said to the message. */
export interface SendResult {
  /** The recipient, from the URL (decoded addr-spec). */
  recipient: string;
  /** The relay as host:port. */
  relay: string;
  /** The final reply, to the end of DATA (RFC 5321 4.1.1.4). */
  reply: { code: number; enhanced: string | null; text: string };
  /** The queue id the final reply names, when it names one (a hint; no RFC defines it). */
  queueId: string | null;
  /** The Message-ID field sent. */
  messageId: string;
  /** The octets of the message as composed (before dot-stuffing). */
  size: number;
  /** True when the message went over TLS (STARTTLS). */
  tls: boolean;
  /** The mechanism that authenticated, or null. */
  auth: 'PLAIN' | 'LOGIN' | null;
  /** The exchange (AUTH secrets hidden); empty unless asked for. */
  transcript: TranscriptLine[];
}

/** A Message-ID (RFC 5322 3.6.4): random, at the sender's domain (or a domain literal's text). */
function newMessageId(fromAddress: string): string {
  const at = fromAddress.lastIndexOf('@');
  const domain = fromAddress.slice(at + 1);
  const right = /^[A-Za-z0-9.-]+$/.test(domain) ? domain : 'locator.invalid';
  return `<${Date.now().toString(36)}.${randomBytes(9).toString('hex')}@${right}>`;
}

function dataSummary(octets: number, lines: number): string {
  return `<the message: ${octets} octets in ${lines} lines, dot-stuffed>`;
}

/**
 * API misuse (README: a TypeError at the call, naming what is wrong): the message is an object whose
 * `from` is a string, and whose `subject`, `body` and `messageId`, when given, have their types.
 */
function expectMessage(message: unknown): asserts message is MailMessage {
  if (typeof message !== 'object' || message === null) {
    throw new TypeError(`send: the message must be an object with a from field, not ${describeValue(message)}`);
  }
  const m = message as Record<string, unknown>;
  expectString(m.from, "send: the message's from");
  if (m.subject !== undefined) expectString(m.subject, "send: the message's subject");
  if (m.body !== undefined && typeof m.body !== 'string' && !(m.body instanceof Uint8Array)) {
    throw new TypeError(`send: the message's body must be a string or a Uint8Array, not ${describeValue(m.body)}`);
  }
  if (m.messageId !== undefined) expectString(m.messageId, "send: the message's messageId");
}

/**
 * Sends `message` to the address of a mailto URL (RFC 1738 3.5) through an SMTP relay (RFC
 * 5321): policy and values checked before any connection; EHLO (HELO when refused); STARTTLS
 * when offered or required (RFC 3207); AUTH PLAIN or LOGIN when credentials are given (RFC 4954,
 * only over TLS unless allowed); MAIL, RCPT, DATA (pipelined only when PIPELINING is offered, RFC
 * 2920); the message dot-stuffed with CR LF line ends (RFC 5321 4.5.2); QUIT. Every 4yz or 5yz is
 * an SmtpReplyError with the reply code (`transient` for a 4yz). Resolves to what the server said.
 */
export async function send(url: string | Url, message: MailMessage, options: SendOptions = {}): Promise<SendResult> {
  expectUrl(url, 'send: the URL');
  expectMessage(message);
  const u = typeof url === 'string' ? parse(url) : url;
  if (u.scheme !== 'mailto') {
    throw new LocatorError(
      MAILTO_NOT_RETRIEVABLE,
      0,
      `send() takes a mailto URL, not a ${u.scheme} URL (RFC 1738 3.5)`,
    );
  }
  const policy = options.policy ?? DEFAULT_POLICY;
  beforeSending(u, policy);
  const timeout = checkTimeout(options.timeout);
  const to = fieldsOf(u, 'mailto').address;
  checkAddress('the address of the URL', to);
  const from = parseMailbox(message.from);
  const env = options.env ?? process.env;
  const relayText = options.smtp ?? env[RELAY_ENV];
  if (relayText === undefined || relayText === '') {
    throw new LocatorError(
      NO_RELAY,
      -1,
      `no SMTP relay: a mailto URL names no server (RFC 1738 3.5); give the smtp option (--smtp host:port) or set ${RELAY_ENV}`,
    );
  }
  const relay = parseRelay(relayText);
  if (options.clientName !== undefined) {
    assertNoLineBreak('the EHLO name', options.clientName);
    checkCommandLength('the EHLO name', `EHLO ${options.clientName}`);
  }
  if (options.user !== undefined) assertNoLineBreak('the user name', options.user);
  const messageId = message.messageId ?? newMessageId(from.address);
  const composed = composeMessage({
    to,
    from,
    subject: message.subject,
    body: message.body ?? '',
    date: message.date ?? new Date(),
    messageId,
  });
  const data = dotStuff(composed);
  let lineCount = 0;
  for (const c of composed) if (c === 10) lineCount++;

  const { lines, onLine } = transcriptRecorder(options.transcript);
  // The password is settled (asked for) before any connection, so that the transcript hides
  // every form of it from the first line on.
  let secrets: string[] = [];
  let password = '';
  if (options.user !== undefined) {
    password = typeof options.password === 'function' ? await options.password() : (options.password ?? '');
    secrets = authSecrets(options.user, password);
  }
  const session = await SmtpSession.connect(relay.host, relay.port, {
    signal: options.signal,
    timeout,
    policy,
    onTranscript: onLine,
    secrets,
  });
  let inData = false;
  try {
    session.expect(await session.reply(), 220);
    const name = options.clientName ?? addressLiteral(session.conn.socket.localAddress ?? '127.0.0.1');
    let ext = await hello(session, name);
    const mode = options.starttls ?? 'auto';
    if (mode !== 'never' && ext.has('STARTTLS')) {
      const r = await session.command('STARTTLS');
      if (r.code === 220) {
        const bare = relay.host.replace(/^\[|\]$/g, '');
        const isIp = /^[0-9.]+$/.test(bare) || bare.includes(':');
        await session.startTls(bare, options.servername ?? (isIp ? undefined : bare), options.ca);
        ext = await hello(session, name); // RFC 3207 4.2: forget what was said before TLS
      } else if (mode === 'required') {
        throw new LocatorError(
          STARTTLS_UNAVAILABLE,
          -1,
          `the SMTP server answered ${r.code} ${JSON.stringify(session.hidden(r).texts.join(' '))} to STARTTLS, which was required (RFC 3207 4)`,
        );
      }
    }
    if (mode === 'required' && !session.secure) {
      throw new LocatorError(
        STARTTLS_UNAVAILABLE,
        -1,
        'the SMTP server does not offer STARTTLS, which was required: nothing was sent (RFC 3207 4)',
      );
    }
    let auth: SendResult['auth'] = null;
    if (options.user !== undefined) {
      auth = await authenticate(session, ext, options, password);
    }
    // SIZE (RFC 1870 4): a message the server says it will not take is not sent.
    const limit = Number(ext.get('SIZE') ?? '0');
    if (ext.has('SIZE') && limit > 0 && composed.length > limit) {
      throw new LocatorError(
        TOO_LARGE,
        -1,
        `the message is ${composed.length} octets, and the SMTP server takes at most ${limit} (RFC 1870)`,
      );
    }
    const mail = `MAIL FROM:<${from.address}>${ext.has('SIZE') ? ` SIZE=${composed.length}` : ''}`;
    const rcpt = `RCPT TO:<${to}>`;
    if (ext.has('PIPELINING')) {
      // RFC 2920 3.1: MAIL, RCPT and DATA may go together; the replies come in order.
      await session.send([mail, rcpt, 'DATA']);
      const [m, r, d] = [await session.reply(), await session.reply(), await session.reply()];
      inData = d.code === 354;
      const rcptOk = r.code === 250 || r.code === 251; // 251: not local, will forward (RFC 5321 3.4)
      if (m.code !== 250 || !rcptOk || d.code !== 354) {
        if (inData) {
          // RFC 2920 3.1: after a failed RCPT, a 354 is ended with an empty message.
          await session.send(['.']);
          await session.reply();
          inData = false;
        }
        session.last = m.code !== 250 ? mail : !rcptOk ? rcpt : 'DATA';
        throw session.fail(m.code !== 250 ? m : !rcptOk ? r : d);
      }
    } else {
      session.expect(await session.command(mail), 250);
      session.expect(await session.command(rcpt), 250, 251);
      session.expect(await session.command('DATA'), 354);
      inData = true;
    }
    session.last = '.';
    await session.conn.write(data, dataSummary(composed.length, lineCount));
    session.conn.note('send', '.');
    const final: SmtpReply = await session.reply();
    inData = false;
    session.expect(final, 250);
    await session.quit(Math.min(timeout, 2000));
    return {
      recipient: to,
      relay: `${relay.host}:${relay.port}`,
      // A server may quote the client's secrets in any reply, over several lines: hidden here too.
      reply: { code: final.code, enhanced: final.enhanced, text: session.hidden(final).texts.join('\n') },
      queueId: queueId(final),
      messageId,
      size: composed.length,
      tls: session.secure,
      auth,
      transcript: lines,
    };
  } catch (e) {
    // In DATA mode a QUIT would be taken as part of the message: close without it.
    if (inData) session.close();
    else await session.abandon();
    throw typedError(e, 'the SMTP exchange');
  }
}

/** An address literal for EHLO (RFC 5321 4.1.3): "[127.0.0.1]", "[IPv6:::1]". */
export function addressLiteral(a: string): string {
  const v4 = a.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : a;
  return v4.includes(':') ? `[IPv6:${v4}]` : `[${v4}]`;
}

/** EHLO, or HELO when the server does not know EHLO (RFC 5321 3.2, 4.1.4); the extensions offered. */
export async function hello(session: SmtpSession, name: string): Promise<Map<string, string>> {
  const r = await session.command(`EHLO ${name}`);
  if (r.code === 250) return parseEhlo(r);
  if (r.code === 500 || r.code === 502 || r.code === 504 || r.code === 550) {
    session.expect(await session.command(`HELO ${name}`), 250);
    return new Map();
  }
  throw session.fail(r);
}

/** AUTH PLAIN (RFC 4616) or LOGIN (draft-murchison-sasl-login), whichever is offered, PLAIN first. */
async function authenticate(
  session: SmtpSession,
  ext: Map<string, string>,
  options: SendOptions,
  password: string,
): Promise<'PLAIN' | 'LOGIN'> {
  const offered = (ext.get('AUTH') ?? '').toUpperCase().split(/\s+/);
  const wanted = options.authMechanism === undefined ? ['PLAIN', 'LOGIN'] : [options.authMechanism];
  const mech = (wanted.find((m) => offered.includes(m)) as 'PLAIN' | 'LOGIN' | undefined) ?? null;
  if (!session.secure && options.authWithoutTls !== true) {
    throw new LocatorError(
      AUTH_UNAVAILABLE,
      -1,
      'the session is not protected by TLS, so the password is not sent (the server did not offer STARTTLS; authWithoutTls allows it)',
    );
  }
  if (mech === null) {
    throw new LocatorError(
      AUTH_UNAVAILABLE,
      -1,
      `the SMTP server offers ${ext.has('AUTH') ? `AUTH ${ext.get('AUTH')}` : 'no AUTH'}, and the client has ${wanted.join(' and ')} (RFC 4954)`,
    );
  }
  const user = options.user ?? '';
  const enc = new TextEncoder();
  const b64 = (s: string) => base64(enc.encode(s));
  if (mech === 'PLAIN') {
    const token = b64(`\0${user}\0${password}`);
    const r = await session.command(`AUTH PLAIN ${token}`, 'AUTH PLAIN ****');
    if (r.code === 334) session.expect(await session.command(token, '****'), 235);
    else session.expect(r, 235);
  } else {
    session.expect(await session.command('AUTH LOGIN'), 334);
    session.expect(await session.command(b64(user)), 334);
    session.expect(await session.command(b64(password), '****'), 235);
  }
  return mech;
}
