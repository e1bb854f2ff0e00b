// `locator send [options] mailto:ADDR`: composes a message from the options and standard input
// (or --body-file) and submits it over SMTP to the relay (--smtp or SMTP_RELAY), RFC 1738 3.5.
// Nothing is sent when a value would break a line (an encoded CR LF in the URL, a CR in the
// subject): the library refuses before connecting.

import { open, readFile } from 'node:fs/promises';
import { tryParse } from '../schemes/registry.js';
import { LocatorError } from '../core/errors.js';
import { ReplyError, authSecrets, faceOf, send, type SendOptions, type TranscriptLine } from '../clients/index.js';
import { EXIT, UsageError, exitFor, type Command, type Io } from './command.js';
import { JSON_OUTPUT, SMTP_CA, TIMEOUT, VERBOSE, timeoutArg } from './options.js';
import { readSecret } from './prompt.js';
import { maskSecrets, secretForms } from '../operations/redact.js';
import { safeText, transcriptLine } from './safe-text.js';

/** The most a body read from standard input or a file may hold (the message stays in memory). */
export const MAX_BODY = 32 * 1024 * 1024;
/** Octets per read of --body-file. */
const READ_PIECE = 1024 * 1024;

/**
 * The body, read piece by piece and stopped as soon as it passes MAX_BODY (a usage error, exit
 * 2): a file with no end (/dev/zero, a FIFO) costs at most MAX_BODY octets and one more read.
 */
async function readBody(io: Io, file: string | undefined): Promise<Buffer> {
  if (file !== undefined) {
    const fh = await open(file, 'r');
    try {
      const parts: Buffer[] = [];
      let n = 0;
      for (;;) {
        const piece = Buffer.allocUnsafe(Math.min(READ_PIECE, MAX_BODY + 1 - n));
        const { bytesRead } = await fh.read(piece, 0, piece.length, null);
        if (bytesRead === 0) break;
        n += bytesRead;
        if (n > MAX_BODY) throw new UsageError(`--body-file is larger than ${MAX_BODY} octets`);
        parts.push(piece.subarray(0, bytesRead));
      }
      return Buffer.concat(parts, n);
    } finally {
      await fh.close();
    }
  }
  const parts: Buffer[] = [];
  let n = 0;
  for await (const chunk of io.stdin) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    n += b.length;
    if (n > MAX_BODY) throw new UsageError(`the body on standard input is larger than ${MAX_BODY} octets`);
    parts.push(b);
  }
  return Buffer.concat(parts);
}

async function run(args: string[], values: Record<string, unknown>, io: Io): Promise<number> {
  if (args.length !== 1) throw new UsageError('send takes exactly one mailto URL');
  const input = args[0];
  const json = values.json === true;
  const url = tryParse(input);
  if (url instanceof LocatorError) {
    io.stderr.write(safeText(`locator send: not a URL: ${url.message}\n`));
    return EXIT.invalid;
  }
  // A URL whose face shows a mail form is an address to send to (RFC 1738 3.5: mailto).
  if (faceOf(url).form?.(url)?.form !== 'mail')
    throw new UsageError(`send takes a mailto URL, not a ${url.scheme} URL`);
  const from = (values.from as string | undefined) ?? io.env.EMAIL;
  if (from === undefined || from === '') throw new UsageError('no sender: give --from ADDR or set EMAIL');
  const starttls = (values.starttls as string | undefined) ?? 'auto';
  if (starttls !== 'auto' && starttls !== 'required' && starttls !== 'never') {
    throw new UsageError(`--starttls takes auto, required or never, not ${JSON.stringify(starttls)}`);
  }
  const user = values['smtp-user'] as string | undefined;
  const secrets: string[] = [];
  let password: string | undefined;
  if (user !== undefined) {
    const fromEnv = io.env.SMTP_PASSWORD;
    const stdinTTY = (io.stdin as { isTTY?: boolean }).isTTY === true;
    if (fromEnv !== undefined) password = fromEnv;
    else if (values['body-file'] !== undefined && stdinTTY && io.stderrIsTTY) {
      password = await readSecret(`SMTP password for ${user}: `, io);
    } else {
      throw new UsageError(
        '--smtp-user needs the password in SMTP_PASSWORD (or, with --body-file, typed at the prompt on a terminal)',
      );
    }
    // Every form a relay may echo: plain, base64, the AUTH PLAIN token (secrets.ts).
    secrets.push(...authSecrets(user, password));
  }
  let ca: Buffer | undefined;
  if (values['smtp-ca'] !== undefined) {
    try {
      ca = await readFile(values['smtp-ca'] as string);
    } catch (e) {
      throw new UsageError(`cannot read --smtp-ca: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
  let body: Buffer;
  try {
    body = await readBody(io, values['body-file'] as string | undefined);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read --body-file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const verbose = values.verbose === true;
  const hide = (t: string) => maskSecrets(t, secrets.flatMap(secretForms));
  const options: SendOptions = {
    smtp: values.smtp as string | undefined,
    env: io.env,
    starttls,
    ca,
    user,
    password,
    timeout: timeoutArg(values.timeout),
    transcript: verbose
      ? (l: TranscriptLine) => io.stderr.write(safeText(transcriptLine(l.direction, hide(l.text))))
      : undefined,
  };
  const ac = new AbortController();
  options.signal = ac.signal;
  const onSignal = () => ac.abort();
  for (const sig of SIGNALS) process.on(sig, onSignal);
  try {
    const r = await send(url, { from, subject: values.subject as string | undefined, body }, options);
    if (json) {
      io.stdout.write(
        JSON.stringify({
          input,
          ok: true,
          recipient: r.recipient,
          relay: r.relay,
          reply: r.reply,
          queueId: r.queueId,
          messageId: r.messageId,
          size: r.size,
          tls: r.tls,
          auth: r.auth,
          error: null,
        }) + '\n',
      );
    } else {
      io.stdout.write(
        `sent to ${r.recipient} via ${r.relay}${r.tls ? ' (TLS)' : ''}: ${r.reply.code} ${r.reply.text}${
          r.queueId !== null ? ` [queue id ${r.queueId}]` : ''
        }\n`,
      );
    }
    return EXIT.ok;
  } catch (e) {
    if (!(e instanceof LocatorError)) throw e;
    const reply = e instanceof ReplyError ? e.replyCode : undefined;
    const message = hide(e.message);
    if (json) {
      io.stdout.write(
        JSON.stringify({
          input,
          ok: false,
          error: {
            code: e.code,
            message,
            section: e.section,
            replyCode: reply ?? null,
            transient: (e as { transient?: boolean }).transient ?? null,
          },
        }) + '\n',
      );
    }
    io.stderr.write(safeText(`locator send: ${message}${reply !== undefined ? ` [reply ${reply}]` : ''}\n`));
    return exitFor(e);
  } finally {
    for (const sig of SIGNALS) process.off(sig, onSignal);
  }
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export const sendCommand: Command = {
  name: 'send',
  rawStderr: true,
  synopsis: ['send [options] mailto:ADDR'],
  about: [
    "Sends standard input (or --body-file) as a message to ADDR over SMTP, through a relay (RFC 1738 3.5; docs/mail.md). Prints the relay's reply, or with --json one object.",
  ],
  exits: [
    [0, 'the relay accepted the message'],
    [1, 'the URL or a value is refused'],
    [
      2,
      'usage error: an unknown or malformed option, a bad option value, no sender (--from or $EMAIL), a body over 32 MiB',
    ],
    [3, 'the relay failed or refused the message (a 4yz reply may be retried: the message says so)'],
    [130, 'interrupted (Ctrl-C)'],
  ],
  example: ["--subject 'Hello' mailto:joe@example.org < note.txt", 'note.txt to joe@example.org through $SMTP_RELAY'],
  options: {
    smtp: {
      type: 'string',
      value: 'HOST[:PORT]',
      default: '$SMTP_RELAY; port 25 when none is given',
      description: 'The SMTP relay.',
    },
    from: {
      type: 'string',
      value: 'ADDR',
      default: '$EMAIL',
      description: 'The sender, "user@host" or "Name <user@host>".',
    },
    subject: {
      type: 'string',
      value: 'S',
      description: 'The Subject (any text; encoded as RFC 2047 words when not ASCII).',
    },
    'body-file': {
      type: 'string',
      value: 'FILE',
      description: 'The body from FILE instead of standard input (at most 32 MiB: exit 2).',
    },
    starttls: {
      type: 'string',
      value: 'MODE',
      default: 'auto',
      description: 'auto (TLS when the relay offers it), required (fail without TLS), or never.',
    },
    'smtp-ca': SMTP_CA,
    'smtp-user': {
      type: 'string',
      value: 'USER',
      description:
        'AUTH PLAIN/LOGIN as USER (only over TLS); the password comes from $SMTP_PASSWORD, or with --body-file a prompt on the terminal.',
    },
    json: {
      ...JSON_OUTPUT,
      description: 'One JSON object: input, ok, recipient, relay, reply, queueId, messageId, size, tls, auth, error.',
    },
    verbose: { ...VERBOSE, description: 'Print the SMTP exchange on standard error (AUTH secrets hidden).' },
    timeout: TIMEOUT,
  },
  run: (args, values, io) => run(args, values, io),
};
