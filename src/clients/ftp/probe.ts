// The ftp probe (RFC 1738 3.2; RFC 959; RFC 3659 for SIZE and MDTM): the login and the CWDs of
// the URL's session (the ftp client's own plan and control connection), then, instead of a data
// connection, SIZE for a file (MDTM when the server has no SIZE; a CWD into the name when SIZE
// says 550, for a directory named without its final "/"), a CWD into the name for ;type=d; for a
// directory URL the CWDs themselves are the proof. No data connection is opened.

import type { Url } from '../../core/url.js';
import { LocatorError } from '../../core/errors.js';
import { checkTimeout, type ConnectOptions } from '../connection.js';
import { CONNECT_FAILED, NEEDS_INPUT, typedError } from '../types.js';
import { FtpControl } from './control.js';
import { FtpReplyError } from './errors.js';
import { greeting, lineBreakError, login } from './client.js';
import { ftpCheck, planFtp, shown, type FtpArgument } from './plan.js';
import type { FtpReply } from './parser.js';
import { result } from '../probe/result.js';
import type { ProbeOptions, ProbeResult } from '../probe/types.js';

/** How long the reply to QUIT is waited for at the end of a probe (ms). */
const QUIT_WAIT = 1000;

const said = (r: FtpReply) => `${r.code} ${r.text}`;

/** True for a reply saying the command is not known (RFC 959 4.2: 500, 502, 504). */
const unknownCommand = (r: FtpReply) => r.code === 500 || r.code === 502 || r.code === 504;

async function run(control: FtpControl, verb: string, arg: FtpArgument): Promise<FtpReply> {
  return control.command(verb, arg.octets, shown(verb, arg));
}

/** A file: SIZE (213), MDTM when SIZE is not known, a CWD into it when SIZE says it is not a plain file. */
async function checkFile(control: FtpControl, name: FtpArgument): Promise<ProbeResult> {
  let r = await run(control, 'SIZE', name);
  if (r.code === 213) return result('ok', `${said(r)} (SIZE)`, { reply: '213' });
  if (unknownCommand(r)) {
    r = await run(control, 'MDTM', name);
    if (r.code === 213) return result('ok', `${said(r)} (MDTM)`, { reply: '213' });
  }
  if (r.code >= 500 && r.code < 600 && !unknownCommand(r)) {
    // vsftpd and others answer 550 to SIZE of a directory: the URL may name one without its "/".
    const cwd = await run(control, 'CWD', name);
    if (cwd.code === 250 || cwd.code === 200)
      return result('ok', `${said(cwd)} (a directory: RETR would not retrieve it)`, {
        reply: String(cwd.code),
        directory: true,
      });
  }
  throw control.fail(r);
}

/** ;type=d with a name: a CWD into it; a file listed by NLST is there too, so SIZE when the CWD fails. */
async function checkDirectory(control: FtpControl, name: FtpArgument): Promise<ProbeResult> {
  const r = await run(control, 'CWD', name);
  if (r.code === 250 || r.code === 200)
    return result('ok', `${said(r)} (CWD)`, { reply: String(r.code), directory: true });
  const size = await run(control, 'SIZE', name);
  if (size.code === 213) return result('ok', `${said(size)} (SIZE: a file, which NLST lists)`, { reply: '213' });
  throw control.fail(r);
}

/** Probes an ftp URL (RFC 1738 3.2): the steps of ftpSteps(url), over one control connection. */
export async function probe(url: Url, options: ProbeOptions): Promise<ProbeResult> {
  const timeout = checkTimeout(options.timeout);
  const plan = planFtp(url);
  if (plan.lineBreakIn !== null) throw lineBreakError(plan.lineBreakIn);
  if (url.host === null || url.host === '')
    throw new LocatorError(CONNECT_FAILED, 0, 'the ftp URL names no host to connect to (RFC 1738 3.1)');
  const connect: ConnectOptions = {
    signal: options.signal,
    timeout,
    policy: options.policy,
    onTranscript: typeof options.transcript === 'function' ? options.transcript : undefined,
    secrets: [url.password ?? '', typeof options.password === 'string' ? options.password : ''],
  };
  const control = await FtpControl.connect(url.host, url.port ?? 21, connect);
  try {
    await greeting(control);
    await login(control, plan, options);
    let last: FtpReply | null = null;
    for (const c of plan.cwd) last = control.expectComplete(await run(control, 'CWD', c));
    const check = ftpCheck(plan);
    let r: ProbeResult;
    if (check.kind === 'file') r = await checkFile(control, check.name);
    else if (check.kind === 'directory') r = await checkDirectory(control, check.name);
    else if (last !== null) r = result('ok', `${said(last)} (CWD)`, { reply: String(last.code) });
    else r = result('ok', 'logged in: the top directory is there');
    await control.quit(Math.min(QUIT_WAIT, timeout));
    return r;
  } catch (caught) {
    const e = typedError(caught, 'the FTP probe');
    if (e instanceof FtpReplyError || e.code === NEEDS_INPUT) await control.abandon();
    else control.close(e);
    throw e;
  }
}
