// The SMTP client's own error codes (RFC 5321 4.2, RFC 1738 3.5 and 6). No networking here, so
// these can be imported without pulling in node:net.

import { defineCode } from '../../core/errors.js';
import { ReplyError } from '../framing/errors.js';
import type { SmtpReply } from './reply.js';

export const SMTP_REPLY = defineCode(
  'smtp-reply',
  'error',
  'RFC 5321 4.2.1',
  'the SMTP server answered with a transient (4yz, may be retried) or permanent (5yz) negative reply, or a reply the command does not allow',
  'protocol',
);

export const SMTP_LINE_BREAK = defineCode(
  'smtp-line-break',
  'error',
  'RFC 1738 6',
  'an address or header field value holds CR, LF or NUL, which would end the SMTP command or header field early and start another',
  'policy',
);

export const SMTP_CONTROL = defineCode(
  'smtp-control-character',
  'error',
  'RFC 5322 3.2.5',
  'a header field value holds a control character (C0 other than TAB, DEL, or C1), which a mail reader may act on; it is refused, not sent',
  'policy',
);

export const SMTP_TOO_LONG = defineCode(
  'smtp-too-long',
  'error',
  'RFC 5321 4.5.3.1',
  'a value is longer than SMTP allows: local-part 64 octets, domain 255, path 256, command line 512 (RFC 5321 4.5.3.1), a header line 998 (RFC 5322 2.1.1)',
  'syntax',
);

export const INVALID_MAILBOX = defineCode(
  'invalid-mailbox',
  'error',
  'RFC 5322 3.4',
  'a sender is an addr-spec ("user@host") or a display name and one in "<...>"',
  'usage',
);

export const BODY_NOT_UTF8 = defineCode(
  'body-not-utf8',
  'error',
  'RFC 2045 6.7',
  'the message body is neither US-ASCII nor UTF-8, so no charset can be named for it',
  'usage',
);

export const NO_RELAY = defineCode(
  'no-relay',
  'error',
  'RFC 1738 3.5',
  'a mailto URL names no server: the SMTP relay must be given (--smtp host:port, the smtp option, or SMTP_RELAY)',
  'usage',
);

export const STARTTLS_UNAVAILABLE = defineCode(
  'starttls-unavailable',
  'error',
  'RFC 3207 4',
  'STARTTLS was required, but the server does not offer it or refused it',
  'protocol',
);

export const AUTH_UNAVAILABLE = defineCode(
  'auth-unavailable',
  'error',
  'RFC 4954 4',
  'credentials were given, but the server offers no AUTH mechanism the client has (PLAIN, LOGIN), or only without TLS',
  'protocol',
);

export const MAILTO_NOT_RETRIEVABLE = defineCode(
  'mailto-not-retrievable',
  'error',
  'RFC 1738 3.5',
  'a mailto URL designates no data object to open: send a message to it with send() or `locator send`',
  'usage',
);

/**
 * A reply that ends the exchange: a 4yz or 5yz, or one the command does not allow (RFC 5321
 * 4.2.1, 4.3.2). `replyCode`, `enhancedCode` and `replyText` are the server's; `command` the
 * command it answered (AUTH secrets hidden), null for the greeting; `transient` is true for a 4yz,
 * which "may be retried" (RFC 5321 4.2.1: "the error condition is temporary").
 */
export class SmtpReplyError extends ReplyError {
  readonly enhancedCode: string | null;
  readonly transient: boolean;

  constructor(reply: SmtpReply, command: string | null, message?: string) {
    const text = reply.texts.join('\n');
    const transient = reply.code >= 400 && reply.code < 500;
    const kind = transient
      ? 'a transient failure (4yz): the message was not sent, and it may be retried later'
      : reply.code >= 500
        ? 'a permanent failure (5yz): sending it again as it is will fail again'
        : 'a reply this command does not allow';
    const r = { code: reply.code, text };
    super(
      SMTP_REPLY,
      'SMTP',
      r,
      command,
      message ?? `${ReplyError.describe('SMTP', r, command)}: ${kind} (RFC 5321 4.2.1)`,
    );
    this.name = 'SmtpReplyError';
    this.enhancedCode = reply.enhanced;
    this.transient = transient;
  }
}
