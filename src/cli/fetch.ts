// `locator fetch [options] URL`: retrieves the object of a URL to standard output or to a file.
// With -o, the bytes go to a temporary file in the same folder, renamed to FILE only when the
// transfer is complete: a failed transfer leaves nothing under the final name.

import { open as openFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import { tryParse } from '../core/parse.js';
import type { Url } from '../core/url.js';
import { LocatorError } from '../core/errors.js';
import { open } from '../clients/index.js';
import { NETWORK_CODES, type OpenOptions, type TranscriptLine } from '../clients/types.js';
import { EXIT, UsageError, type Command, type Io } from './command.js';
import { Progress } from './progress.js';
import { readSecret } from './prompt.js';
import { maskSecrets, redactText, secretForms, secretsOf } from '../redact.js';
import { safeText } from './safe-text.js';

function int(name: string, v: unknown): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} takes a whole number, not ${JSON.stringify(v)}`);
  return n;
}

/** Writes all of `chunk`, waiting for 'drain' when asked (standard output). */
function writeOut(out: Writable, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const ok = out.write(chunk, (e) => (e ? reject(e) : undefined));
    if (ok) resolve();
    else out.once('drain', resolve);
  });
}

async function run(args: string[], values: Record<string, unknown>, io: Io): Promise<number> {
  if (args.length !== 1) throw new UsageError('fetch takes exactly one URL');
  const input = args[0];
  const url = tryParse(input);
  if (url instanceof LocatorError) {
    io.stderr.write(safeText(`locator fetch: not a URL: ${url.message}\n`));
    return EXIT.invalid;
  }
  const verbose = values.verbose === true;
  const showSecrets = values['show-secrets'] === true;
  const secrets: string[] = [];
  if (!showSecrets && url.password) secrets.push(url.password, url.rawPassword ?? '');
  const hide = (t: string) => secrets.reduce((s, x) => (x ? s.split(x).join('****') : s), t);
  const stdinTTY = (io.stdin as { isTTY?: boolean }).isTTY === true;

  let password: OpenOptions['password'];
  if (values['password-stdin'] === true) {
    let text = '';
    for await (const chunk of io.stdin) text += chunk.toString();
    password = text.replace(/\r?\n$/, '');
    secrets.push(password);
  } else if (stdinTTY && io.stderrIsTTY) {
    password = async () => {
      const p = await readSecret(`Password for ${url.user ?? ''}@${url.host ?? ''}: `, io);
      secrets.push(p);
      return p;
    };
  }
  let search: OpenOptions['search'] = values.search as string | undefined;
  if (search === undefined && stdinTTY && io.stderrIsTTY) {
    search = async () => readSecret('Search for: ', io, true);
  }
  const allow = ([] as unknown[]).concat(values['allow-port'] ?? []).map((p) => int('allow-port', p)!);
  const options: OpenOptions = {
    timeout: int('timeout', values.timeout),
    maxBytes: int('max-bytes', values['max-bytes']),
    email: values.email as string | undefined,
    password,
    search,
    env: io.env,
    gateway: values['no-gateway'] === true ? false : undefined,
    policy: { allowPorts: allow, refusePrivateAddresses: values['refuse-private'] === true, maxRedirects: 5, maxCrossSchemeRedirects: 0 },
    transcript: verbose
      ? (l: TranscriptLine) => io.stderr.write(`${l.direction === 'send' ? '> ' : l.direction === 'receive' ? '< ' : '* '}${hide(l.text)}\n`)
      : undefined,
  };
  const ac = new AbortController();
  options.signal = ac.signal;
  // Interrupted (Ctrl-C, or terminated): the transfer is aborted and the temporary file removed.
  const onSigint = () => ac.abort();
  for (const sig of SIGNALS) process.once(sig, onSigint);

  // The output: standard output, or a temporary file beside FILE renamed when complete. It is
  // opened before any connection, so a FILE that cannot be written fails at once.
  let sink: Sink;
  try {
    sink = await openSink(values.output as string | undefined, io);
  } catch (e) {
    for (const sig of SIGNALS) process.off(sig, onSigint);
    io.stderr.write(safeText(`locator fetch: cannot write ${JSON.stringify(values.output)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`));
    return EXIT.invalid;
  }
  try {
    // Gopher menus (types 1 and 7) are shown as text, one item with its URL per line, when asked
    // (--menu, or --json for NDJSON items) or when the output is a terminal (RFC 1436 appendix).
    const gtype = url.scheme === 'gopher' ? (url.fields as { gophertype?: string }).gophertype : undefined;
    const stdoutTTY = (io.stdout as { isTTY?: boolean }).isTTY === true;
    if ((gtype === '1' || gtype === '7') && values.raw !== true
      && (values.menu === true || values.json === true || (stdoutTTY && values.output === undefined))) {
      const { openMenu, renderItem } = await import('../clients/gopher/menu.js');
      const text = showSecrets ? hide : (t: string) => redactText(hide(t));
      const menu = await openMenu(url, options);
      for await (const item of menu.items) {
        await sink.write(Buffer.from(text(values.json === true ? JSON.stringify(item) : renderItem(item)) + '\n'));
      }
    } else {
      const res = await open(url, options);
      const progress = io.stderrIsTTY && values.quiet !== true ? new Progress(io.stderr, res.meta.size) : null;
      const reader = res.body.getReader();
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.length;
        await sink.write(value);
        progress?.update(bytes);
      }
      progress?.finish(bytes);
    }
    await sink.commit();
    return EXIT.ok;
  } catch (e) {
    await sink.abort();
    if (!(e instanceof LocatorError)) {
      const code = (e as NodeJS.ErrnoException).code;
      if (typeof code !== 'string') throw e;
      io.stderr.write(safeText(`locator fetch: cannot write the output: ${code}\n`));
      return EXIT.invalid;
    }
    const extra = (e as { replyCode?: number }).replyCode !== undefined ? ` [reply ${(e as { replyCode?: number }).replyCode}]` : '';
    // The message may quote a server's reply, which may echo the password in any form (as sent,
    // decoded, JSON-escaped): every known form of every secret in play is masked, then escaped.
    const known = showSecrets ? [] : [...secretsOf(url), ...secrets.flatMap(secretForms)];
    io.stderr.write(safeText(`locator fetch: ${maskSecrets(e.message, known)}${extra}\n`));
    if (e.code === 'aborted') return 130;
    return NETWORK_CODES.has(e.code) ? EXIT.network : EXIT.invalid;
  } finally {
    for (const sig of SIGNALS) process.off(sig, onSigint);
  }
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

interface Sink {
  write(chunk: Uint8Array): Promise<void>;
  /** The transfer is complete: FILE appears under its name. */
  commit(): Promise<void>;
  /** The transfer failed: nothing is left under FILE, nor the temporary file. */
  abort(): Promise<void>;
}

async function openSink(target: string | undefined, io: Io): Promise<Sink> {
  if (target === undefined) {
    return { write: (c) => writeOut(io.stdout, c), commit: async () => {}, abort: async () => {} };
  }
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.part`);
  const file = await openFile(temp, 'wx', 0o644);
  let closed = false;
  return {
    write: async (c) => {
      await file.write(c);
    },
    commit: async () => {
      await file.sync();
      await file.close();
      closed = true;
      await rename(temp, target);
    },
    abort: async () => {
      if (!closed) await file.close().catch(() => {});
      closed = true;
      await unlink(temp).catch(() => {});
    },
  };
}

export const fetchCommand: Command = {
  name: 'fetch',
  redactStdout: false,
  rawStderr: true,
  synopsis: ['fetch [options] URL', 'Retrieve the object of a URL (ftp, http, https, file, gopher) to standard output or a file.'],
  help: [
    '  -o, --output FILE   (fetch) Write to FILE: the data goes to a temporary file in the same',
    '               folder, renamed to FILE only when the transfer is complete.',
    '  -v, --verbose  (fetch) Print the protocol exchange on standard error (passwords hidden).',
    '  --timeout MS    (fetch) Milliseconds of silence allowed on any wait (default 30000).',
    '  --max-bytes N   (fetch) Refuse objects larger than N octets.',
    '  --search S      (fetch) The search string for a Gopher search item (type 7).',
    '  --email ADDR    (fetch) The password for anonymous FTP (default: $LOCATOR_EMAIL).',
    '  --password-stdin  (fetch) Read the FTP password from standard input.',
    '  --no-gateway    (fetch) Ignore <scheme>_proxy gateways from the environment.',
    '  --allow-port N  (fetch) Allow a port the policy reserves for another protocol.',
    '  --refuse-private  (fetch) Refuse private, loopback and link-local addresses.',
    '  -q, --quiet     (fetch) No progress bar.',
    '  --menu          (fetch) Show a Gopher menu (type 1 or 7) as text, one item and its URL per',
    '               line (the default when standard output is a terminal); with --json, as NDJSON.',
    '  --raw           (fetch) Write a Gopher menu as the server sent it.',
  ],
  options: {
    output: { type: 'string', short: 'o' },
    verbose: { type: 'boolean', short: 'v' },
    timeout: { type: 'string' },
    'max-bytes': { type: 'string' },
    search: { type: 'string' },
    email: { type: 'string' },
    'password-stdin': { type: 'boolean' },
    'no-gateway': { type: 'boolean' },
    'allow-port': { type: 'string', multiple: true },
    'refuse-private': { type: 'boolean' },
    'show-secrets': { type: 'boolean' },
    quiet: { type: 'boolean', short: 'q' },
    menu: { type: 'boolean' },
    raw: { type: 'boolean' },
    json: { type: 'boolean' },
  },
  run: (args, values, io) => run(args, values, io),
};
