// The one error class of a reply that ends an exchange in the code-and-text protocols (RFC 959
// 4.2, RFC 5321 4.2.1, RFC 3977 3.2.1): FTP, SMTP and NNTP extend it, so callers test by type.
// No networking here, so the package root can export it.

import { LocatorError } from '../../core/errors.js';

/**
 * A negative reply, or one the command does not allow. `replyCode` and `replyText` are the
 * server's; `command` the command it answered (secrets hidden), null for the greeting.
 */
export class ReplyError extends LocatorError {
  readonly replyCode: number;
  readonly replyText: string;
  readonly command: string | null;

  /** `message` defaults to describe(protocol, reply, command). */
  constructor(
    code: string,
    protocol: string,
    reply: { code: number; text: string },
    command: string | null,
    message?: string,
  ) {
    super(code, -1, message ?? ReplyError.describe(protocol, reply, command));
    this.name = 'ReplyError';
    this.replyCode = reply.code;
    this.replyText = reply.text;
    this.command = command;
  }

  /** "the FTP server answered 550 "text" to "RETR x"" ("on connecting" for the greeting). */
  static describe(protocol: string, reply: { code: number; text: string }, command: string | null): string {
    const to = command === null ? 'on connecting' : `to ${JSON.stringify(command)}`;
    return `the ${protocol} server answered ${reply.code} ${JSON.stringify(reply.text)} ${to}`;
  }
}
