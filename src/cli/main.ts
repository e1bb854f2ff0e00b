#!/usr/bin/env node
// The `locator` command: a thin layer over the library (test/data/docs/contract.md). The
// subcommands are listed in commands.ts; help.ts writes --help from them and their option tables.
import { COMMAND_NAMES, loadCommand } from './commands.js';
import { EXIT, UsageError, type Io } from './command.js';
import { redacting } from './io.js';
import { loadSchemes } from './schemes.js';
import { escaping, safeText } from './safe-text.js';
import type { Writable } from 'node:stream';

/** A usage error as one line on standard error, with where to read more; exit 2. */
function usage(io: Io, who: string, message: string): number {
  io.stderr.write(
    safeText(`locator${who === '' ? '' : ` ${who}`}: ${message} (see locator ${who === '' ? '' : `${who} `}--help)\n`),
  );
  return EXIT.usage;
}

/** The help of the command called `name`: its text from its option table (help.ts). */
async function showHelp(io: Io, name?: string): Promise<number> {
  const { commandHelp, generalHelp } = await import('./help.js');
  if (name === undefined) {
    io.stdout.write(generalHelp());
    return EXIT.ok;
  }
  const command = COMMAND_NAMES.includes(name) ? await loadCommand(name) : null;
  if (command === null) return usage(io, '', `unknown command '${name}'`);
  io.stdout.write(commandHelp(command));
  return EXIT.ok;
}

async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    await showHelp(io);
    return EXIT.usage;
  }
  if (name === '-h' || name === '--help') return showHelp(io);
  if (name === 'help') return showHelp(io, rest[0]);
  if (name === '-V' || name === '--version') {
    const { createRequire } = await import('node:module');
    const pkg = createRequire(import.meta.url)('../../package.json') as { version: string };
    io.stdout.write(pkg.version + '\n');
    return EXIT.ok;
  }
  const command = COMMAND_NAMES.includes(name) ? await loadCommand(name) : null;
  if (command === null)
    return usage(io, '', name.startsWith('-') ? `unknown option ${name}` : `unknown command '${name}'`);
  // The command line read against the command's option table, the one its --help is written from.
  const { parseCommandLine } = await import('./options.js');
  let parsed;
  try {
    parsed = parseCommandLine(command, rest);
  } catch (e) {
    if (e instanceof UsageError) return usage(io, name, e.message);
    throw e;
  }
  if (parsed.help) return showHelp(io, name);
  // Schemes from modules (RFC 1738 4): --scheme MODULE and LOCATOR_SCHEMES, registered before the command runs.
  const modules = [
    ...(io.env.LOCATOR_SCHEMES ?? '').split(':'),
    ...((parsed.values.scheme as string[] | undefined) ?? []),
  ];
  const loaded = await loadSchemes(
    modules.filter((m) => m !== ''),
    process.cwd(),
  );
  if (loaded !== null) return usage(io, name, loaded.message);
  // Passwords never appear in output unless asked for (RFC 1738 6): each command hides them where
  // it writes a URL, from the parsed offsets; standard error also goes through the redacting
  // filter as a last net for free-text messages. Control and bidi characters are shown escaped in
  // every command's output (safe-text.ts), JSON included; fetch's data is never altered. The
  // streams are made on first use: a batch on empty input, or one that writes standard output
  // through its descriptor (`direct`), never makes some of them (a stream costs start-up time).
  const shown = parsed.values['show-secrets'] === true;
  const json = (parsed.values as Record<string, unknown>).json === true;
  let out: Writable | undefined;
  let err: Writable | undefined;
  const cio: Io = {
    get stdin() {
      return io.stdin;
    },
    get stdout() {
      return (out ??= command.redactStdout === false ? io.stdout : escaping(io.stdout, json));
    },
    get stderr() {
      if (err === undefined) {
        const errOut = command.rawStderr === true ? io.stderr : escaping(io.stderr, false);
        err = shown ? errOut : redacting(errOut);
      }
      return err;
    },
    get stderrIsTTY() {
      return io.stderrIsTTY;
    },
    env: io.env,
    direct:
      io.direct === undefined ? undefined : { escape: command.redactStdout === false ? null : json ? 'json' : 'text' },
  };
  try {
    return await command.run(parsed.positionals, parsed.values, cio);
  } catch (e) {
    if (e instanceof UsageError) return usage(io, name, e.message);
    throw e;
  }
}

/**
 * The process's standard output or error, made on first use; a reader that went away (`locator
 * parse ... | head -1`) is no error: stop quietly.
 */
function standard(stream: Writable): Writable {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  return stream;
}
let stdout: Writable | undefined;
let stderr: Writable | undefined;

main(process.argv.slice(2), {
  get stdin() {
    return process.stdin;
  },
  get stdout() {
    return (stdout ??= standard(process.stdout));
  },
  get stderr() {
    return (stderr ??= standard(process.stderr));
  },
  get stderrIsTTY() {
    stderr ??= standard(process.stderr);
    return process.stderr.isTTY === true;
  },
  env: process.env,
  direct: { escape: null },
}).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    (stderr ??= standard(process.stderr)).write(safeText(`locator: ${e instanceof Error ? e.message : String(e)}\n`));
    process.exitCode = EXIT.internal;
  },
);
