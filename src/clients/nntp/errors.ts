// The NNTP client's error codes and NntpReplyError (RFC 3977 3.2; RFC 4643 2.3). No networking
// here, so locator/clients can export them without loading the client.

import { defineCode } from '../../core/errors.js';
import { ReplyError } from '../framing/errors.js';
import type { Reply } from './parser.js';

export const NNTP_REPLY = defineCode(
  'nntp-reply',
  'error',
  'RFC 3977 3.2',
  'the NNTP server answered with a failure (4xx or 5xx), or a reply the command does not allow',
  'protocol',
);

export const NNTP_NO_SERVER = defineCode(
  'nntp-no-server',
  'error',
  'RFC 1738 3.6',
  'a news URL names no server, and no news server is configured (NNTPSERVER or the newsServer option)',
  'usage',
);

export const NNTP_AUTH_REQUIRED = defineCode(
  'nntp-auth-required',
  'error',
  'RFC 4643 2.3',
  'the NNTP server asks for authentication (480) and no user name and password are configured',
  'usage',
);

/**
 * A failure reply (RFC 3977 3.2.1): `replyCode` and `replyText` are the server's, `command` the
 * command it answered (the password of AUTHINFO PASS hidden), null for the greeting.
 */
export class NntpReplyError extends ReplyError {
  constructor(reply: Reply, command: string | null, message?: string, code: string = NNTP_REPLY) {
    super(code, 'NNTP', reply, command, message);
    this.name = 'NntpReplyError';
  }

  /** RFC 3977 3.2.1: 400 "service not available" (a server too busy, or going down): the checker pauses that server. */
  get busy(): boolean {
    return this.replyCode === 400;
  }
}
