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

  constructor(code: string, message: string, replyCode: number, replyText: string, command: string | null) {
    super(code, -1, message);
    this.name = 'ReplyError';
    this.replyCode = replyCode;
    this.replyText = replyText;
    this.command = command;
  }
}

/** "to \"COMMAND\"", or "on connecting" for the greeting: how a reply error names its command. */
export function answeredTo(command: string | null): string {
  return command === null ? 'on connecting' : `to ${JSON.stringify(command)}`;
}
