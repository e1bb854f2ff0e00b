// ftp (RFC 1738 3.2; RFC 959; RFC 2428 for EPSV): performs the session explain() describes -
// USER, PASS when asked, one CWD per cwd segment, TYPE, EPSV (PASV if refused), RETR or NLST,
// QUIT - and streams the data connection with back-pressure. Every failure is a LocatorError;
// both sockets are closed on every path: success, error, abort, a cancelled body.

import type { Url } from '../../core/url.js';
import { LocatorError } from '../../core/errors.js';
import { DEFAULT_POLICY } from '../../operations/policy.js';
import { checkTimeout, Connection, ipOf, pullStream, type ConnectOptions } from '../connection.js';
import { redactUrl as redactHref } from '../../operations/redact.js';
import {
  ABORTED,
  CONNECT_FAILED,
  NEEDS_INPUT,
  PROTOCOL_ERROR,
  TOO_LARGE,
  typedError,
  type OpenOptions,
  type Resource,
  type TranscriptLine,
} from '../types.js';
import { FtpControl } from './control.js';
import { NvtToLocal } from './ascii.js';
import { FTP_LINE_BREAK, FtpReplyError } from './errors.js';
import { announcedSize, parseEpsv, parsePasv, type FtpReply } from './parser.js';
import { planFtp, shown, type FtpPlan } from './plan.js';

export { FtpReplyError, FTP_REPLY, FTP_LINE_BREAK } from './errors.js';

/**
 * The password of the anonymous convention when no e-mail address is configured (RFC 1738
 * 3.2.1 asks for "the Internet e-mail address of the end user"). It names nobody: an address
 * is sent only when the user gives one (options.email, LOCATOR_EMAIL, EMAIL).
 */
export const DEFAULT_EMAIL = 'anonymous@';

/** How long a finished session waits for the reply to QUIT before closing anyway. */
const QUIT_WAIT = 2000;

/** How many 1yz replies may precede the one that ends a step (RFC 959 4.2: 1yz then 2yz). */
const MAX_PRELIMINARY = 10;

const encoder = new TextEncoder();

/** The e-mail address sent as the anonymous password (RFC 1738 3.2.1): option, environment, default. */
export function anonymousPassword(options: OpenOptions): string {
  const env = options.env ?? process.env;
  const from = [options.email, env.LOCATOR_EMAIL, env.EMAIL].find((e) => e !== undefined && e !== '');
  return from ?? DEFAULT_EMAIL;
}

/** The refusal of an argument holding CR or LF: it would end the command early (RFC 1738 6). */
export function lineBreakError(what: string): LocatorError {
  return new LocatorError(
    FTP_LINE_BREAK,
    -1,
    `${what} holds CR or LF once decoded: sent on the control connection it would end the command and start another, so it is refused (RFC 1738 6)`,
  );
}

/** RFC 959 5.4: "120 Service ready in nnn minutes" may come first; then 220, or 421. */
export async function greeting(control: FtpControl): Promise<void> {
  let r = await control.reply();
  for (let i = 0; r.code === 120 && i < MAX_PRELIMINARY; i++) r = await control.reply();
  if (r.code !== 220) throw control.fail(r);
}

function isAnonymous(plan: FtpPlan): boolean {
  const u = plan.user?.text.toLowerCase();
  return plan.user === null || u === 'anonymous' || u === 'ftp';
}

/**
 * The PASS argument, asked for only after 331 (RFC 1738 3.2.1): the URL's password; for the
 * anonymous convention (no user, or "anonymous" or "ftp") the e-mail address, never a prompt;
 * else options.password (a string, or a prompt).
 * With none of these the session ends with `needs-input`.
 */
async function password(plan: FtpPlan, options: OpenOptions): Promise<Uint8Array> {
  if (plan.password !== null) return plan.password.octets;
  if (isAnonymous(plan)) return encoder.encode(anonymousPassword(options));
  if (options.password === undefined) {
    throw new LocatorError(
      NEEDS_INPUT,
      -1,
      `the FTP server asks for the password of ${JSON.stringify(plan.user!.text)} (331) and none was given: put it in the URL, pass the password option, or run \`locator fetch\` on a terminal or with --password-stdin (RFC 1738 3.2.1)`,
    );
  }
  let given: unknown;
  try {
    given = typeof options.password === 'string' ? options.password : await options.password();
  } catch (e) {
    if (e instanceof LocatorError) throw e;
    throw new LocatorError(NEEDS_INPUT, -1, `asking for the FTP password failed: ${(e as Error).message ?? e}`, {
      cause: e,
    });
  }
  if (typeof given !== 'string') throw new LocatorError(NEEDS_INPUT, -1, 'the password prompt gave no password');
  return encoder.encode(given);
}

function accountError(control: FtpControl, r: FtpReply): FtpReplyError {
  return control.fail(
    r,
    `the FTP server asks for an account (${r.code}, ACCT) after ${JSON.stringify(control.last)}: an ftp URL has no way to give one (RFC 1738 3.2.1 names only user and password)`,
  );
}

/**
 * RFC 1738 3.2.1, RFC 959 5.4: USER, then PASS only if the server answers 331; 230 after USER
 * means logged in without a password; 332 asks for an account, which a URL cannot give.
 */
export async function login(control: FtpControl, plan: FtpPlan, options: OpenOptions): Promise<void> {
  const user = plan.user ?? { octets: encoder.encode('anonymous'), text: 'anonymous' };
  let r = await control.command('USER', user.octets, shown('USER', user));
  if (r.code === 230 || r.code === 202) return;
  if (r.code === 332) throw accountError(control, r);
  if (r.code !== 331) throw control.fail(r);
  const pass = await password(plan, options);
  if (pass.includes(13) || pass.includes(10)) throw lineBreakError('the password');
  r = await control.command('PASS', pass, 'PASS ****');
  if (r.code === 230 || r.code === 202) return;
  if (r.code === 332) throw accountError(control, r);
  throw control.fail(r);
}

/**
 * Opens the data connection in passive mode: EPSV (RFC 2428 3), or PASV (RFC 959 4.1.2) when the
 * server refuses EPSV with a 5yz. The connection goes to the address of the control connection.
 * DEVIATION: RFC 959 has the client connect to the address in the 227 reply; it is ignored (only
 * its port is used), so a server cannot point the client at a third host (the "FTP bounce" of
 * RFC 2577 seen from the client side), and a server behind NAT that announces a private
 * address still works. EPSV carries no address at all (RFC 2428 3).
 */
async function openData(control: FtpControl, connect: ConnectOptions): Promise<Connection> {
  let r = await control.command('EPSV', null, 'EPSV');
  let port: number | null;
  if (r.code === 229) {
    port = parseEpsv(r.text);
  } else if (r.code >= 500 && r.code < 600) {
    r = await control.command('PASV', null, 'PASV');
    if (r.code !== 227) throw control.fail(r);
    port = parsePasv(r.text)?.port ?? null;
  } else {
    throw control.fail(r);
  }
  if (port === null) {
    throw new LocatorError(
      PROTOCOL_ERROR,
      -1,
      `the FTP server's reply ${JSON.stringify(r.lines.join(' '))} names no port for the data connection (RFC 2428 3, RFC 959 4.1.2)`,
    );
  }
  return Connection.connect(control.peerAddress, port, connect);
}

function isImage(type: string | null): boolean {
  return type === 'I' || (type !== null && type.startsWith('L'));
}

/** True when the data is ASCII: TYPE A, or no TYPE sent (RFC 959 3.1.1.1: ASCII is the default). */
function isAscii(type: string | null): boolean {
  return type === null || type.startsWith('A');
}

/** The ftpLineEnds option, checked: 'local' (default) or 'wire'. */
function lineEndsOption(options: OpenOptions): 'local' | 'wire' {
  const v = options.ftpLineEnds;
  if (v === undefined || v === 'local' || v === 'wire') return v ?? 'local';
  throw new RangeError(`ftpLineEnds must be 'local' or 'wire', not ${JSON.stringify(v)}`);
}

/**
 * The body: octets of the data connection as they come (back-pressure: the socket pauses while
 * the consumer does not read); at its end, the reply that closes the transfer must be 2yz
 * (RFC 959 5.4: 226 or 250), else the stream fails even though octets arrived (426, 451).
 * Then QUIT. Both connections are closed on every path.
 */
function bodyStream(
  control: FtpControl,
  data: Connection,
  first: FtpReply,
  options: OpenOptions,
  ascii: NvtToLocal | null,
): ReadableStream<Uint8Array> {
  let final: FtpReply | null = first.code >= 200 ? first : null;
  const closeAll = (reason?: unknown) => {
    const e = reason instanceof LocatorError ? reason : new LocatorError(ABORTED, -1, 'the transfer was cancelled');
    data.close(e);
    control.close(e);
  };
  let ended = false;
  /** After the data connection's end: the reply that closes the transfer, QUIT, a held CR. */
  const finish = async (): Promise<Uint8Array | null> => {
    data.close();
    for (let i = 0; final === null || final.code < 200; i++) {
      if (i === MAX_PRELIMINARY)
        throw new LocatorError(PROTOCOL_ERROR, -1, 'the FTP server sent preliminary replies (1yz) without end');
      final = await control.reply();
    }
    if (final.code >= 300)
      throw control.fail(
        final,
        `the FTP transfer ended with ${final.code} ${JSON.stringify(final.text)} after ${data.received} octets (RFC 959 5.4)`,
      );
    await control.quit(Math.min(QUIT_WAIT, control.conn.timeout));
    ended = true;
    const rest = ascii?.end();
    return rest !== undefined && rest.length > 0 ? rest : null;
  };
  return pullStream(
    async () => {
      if (ended) return null;
      for (;;) {
        const chunk = await data.read();
        if (chunk === null) break;
        if (ascii === null) return chunk;
        // A chunk that is all a held CR gives nothing yet: read on rather than hand out nothing.
        const local = ascii.push(chunk);
        if (local.length > 0) return local;
      }
      return finish();
    },
    closeAll,
    {
      maxBytes: options.maxBytes,
      tooLarge: () => new LocatorError(TOO_LARGE, -1, `the object is larger than ${options.maxBytes} octets`),
      // The same octets, written as they are read (locator fetch; Connection.drain).
      pipe: async (write) => {
        await data.drain(
          ascii === null
            ? write
            : (chunk) => {
                const local = ascii.push(chunk);
                if (local.length > 0) write(local);
              },
        );
        const rest = await finish();
        if (rest !== null) write(rest);
      },
    },
  );
}

/** RETR or NLST (RFC 1738 3.2.2): the transfer starts with a 1yz reply (125, 150). */
async function startTransfer(control: FtpControl, plan: FtpPlan): Promise<FtpReply> {
  const r = await control.command(plan.verb, plan.argument?.octets ?? null, shown(plan.verb, plan.argument));
  if (r.code >= 100 && r.code < 300) return r;
  throw control.fail(r);
}

function transcriptOf(options: OpenOptions): ((line: TranscriptLine) => void) | undefined {
  return typeof options.transcript === 'function' ? options.transcript : undefined;
}

/**
 * Retrieves an ftp URL (RFC 1738 3.2): resolves once the transfer has started. ASCII data
 * (TYPE A, and listings in the default type) is handed over with local line ends (RFC 959
 * 3.1.1.1) unless `ftpLineEnds: 'wire'`; TYPE I data is the octets as sent. One hop: the policy
 * was asked for `url` by its caller (open()'s hops, or the file client for a file of another
 * host; ../hop.ts); the address is asked of it again by dial() before connecting.
 */
export async function open(url: Url, options: OpenOptions): Promise<Resource> {
  const timeout = checkTimeout(options.timeout);
  const lineEnds = lineEndsOption(options);
  const policy = options.policy ?? DEFAULT_POLICY;
  const plan = planFtp(url);
  if (plan.lineBreakIn !== null) throw lineBreakError(plan.lineBreakIn);
  if (url.host === null || url.host === '') {
    throw new LocatorError(CONNECT_FAILED, 0, 'the ftp URL names no host to connect to (RFC 1738 3.1)');
  }
  const secrets = [url.password ?? '', typeof options.password === 'string' ? options.password : ''];
  const connect: ConnectOptions = {
    signal: options.signal,
    timeout,
    policy,
    onTranscript: transcriptOf(options),
    secrets,
  };
  const control = await FtpControl.connect(url.host, url.port ?? 21, connect);
  let data: Connection | null = null;
  try {
    await greeting(control);
    await login(control, plan, options);
    for (const c of plan.cwd) control.expectComplete(await control.command('CWD', c.octets, shown('CWD', c)));
    if (plan.type !== null)
      control.expectComplete(await control.command('TYPE', encoder.encode(plan.type), `TYPE ${plan.type}`));
    data = await openData(control, connect);
    const first = await startTransfer(control, plan);
    // The size a 150 reply announces counts the octets as stored, which TYPE A changes on the
    // wire and again here: only a TYPE I size is the size of what the body delivers.
    const size = plan.verb === 'RETR' && isImage(plan.type) ? announcedSize(first.text) : null;
    const text = plan.listing || (plan.type !== null && plan.type.startsWith('A'));
    const ascii = isAscii(plan.type) && lineEnds === 'local' ? new NvtToLocal() : null;
    if (ascii !== null) control.conn.note('info', 'TYPE A data: CR LF made LF (RFC 959 3.1.1.1)');
    return {
      meta: {
        scheme: url.scheme,
        url: redactHref(url),
        size,
        contentType: text ? 'text/plain' : null,
        transcript: [],
        ...ipOf(control.conn),
      },
      body: bodyStream(control, data, first, options, ascii),
    };
  } catch (caught) {
    const e = typedError(caught, 'the FTP exchange');
    data?.close();
    if (e instanceof FtpReplyError || e.code === NEEDS_INPUT) await control.abandon();
    else control.close(e);
    throw e;
  }
}
