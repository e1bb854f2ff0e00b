// The FTP client's own error codes (RFC 959 4.2, RFC 1738 6). No networking here, so the package
// root can export FtpReplyError without pulling in node:net.

import { defineCode } from '../../core/errors.js';
import { ReplyError } from '../framing/errors.js';
import type { FtpReply } from './parser.js';

export const FTP_REPLY = defineCode(
  'ftp-reply',
  'error',
  'RFC 959 4.2',
  'the FTP server answered with a transient (4yz) or permanent (5yz) negative reply, or a reply the command does not allow',
  'protocol',
);

export const FTP_LINE_BREAK = defineCode(
  'ftp-line-break',
  'error',
  'RFC 1738 6',
  'a decoded user name, password or path segment holds CR or LF, which would end the FTP command early and start another',
  'policy',
);

/**
 * A reply that ends the session: a 4yz or 5yz, or one the command does not allow (RFC 959 5.4).
 * `replyCode` and `replyText` are the server's; `command` the command it answered (PASS hidden),
 * null for the greeting.
 */
export class FtpReplyError extends ReplyError {
  constructor(reply: FtpReply, command: string | null, message?: string) {
    super(FTP_REPLY, 'FTP', reply, command, message);
    this.name = 'FtpReplyError';
  }

  /**
   * RFC 959 4.2: 421 "Service not available, closing control connection" is what a server too
   * busy for another session says ("too many users"): the checker pauses that server.
   */
  get busy(): boolean {
    return this.replyCode === 421;
  }
}
