#!/usr/bin/env node
// The `locator` command: a thin layer over the library (test/data/docs/contract.md). The
// subcommands are listed in commands.ts; --help is built from them.
import { parseArgs } from 'node:util';
import { COMMAND_NAMES, loadCommand, loadCommands } from './commands.js';
import { EXIT, UsageError, type Io } from './command.js';
import { redacting } from './io.js';
import { loadSchemes } from './schemes.js';
import { escaping, safeText } from './safe-text.js';

function wrap(text: string, width: number, indent: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') out.push(line);
  return out.map((l, i) => (i === 0 ? l : ' '.repeat(indent) + l));
}

export async function helpText(): Promise<string> {
  const COMMANDS = await loadCommands();
  const lines = [
    'locator: the URLs of RFC 1738 and its 1993-94 drafts',
    '',
    'Usage: locator <command> [options] [URL...]',
    '',
    'Commands:',
  ];
  for (const c of COMMANDS) {
    const [syn, what] = c.synopsis;
    const head = `  ${syn}`;
    const desc = wrap(what, 58, 38);
    lines.push(head.length < 36 ? head.padEnd(38) + desc[0] : head);
    if (head.length >= 36) lines.push(' '.repeat(38) + desc[0]);
    lines.push(...desc.slice(1));
  }
  lines.push('  help'.padEnd(38) + 'Show this text.', '');
  lines.push(
    'With no URL arguments, a command reads one URL per line from standard input (batch mode) and',
    'prints a result for every line, in order. With --json, each result is one JSON object on its',
    'own line (NDJSON); the fields are listed in docs/cli.md.',
    '',
    'Options:',
    '  --json       One JSON object per input, one per line.',
  );
  for (const c of COMMANDS) lines.push(...c.help);
  lines.push(
    '  --scheme MODULE',
    '               Load a scheme that is not built in: MODULE is an ES module file whose default',
    '               export is a scheme entry (README "Adding a scheme"); it is registered before',
    '               the command runs. Repeatable. LOCATOR_SCHEMES lists more such files, separated',
    '               by ":". A module that does not load or is no scheme entry: exit 2.',
    '  -h, --help   Show this text.',
    '  -V, --version',
    '',
    'A leading "URL:" and a surrounding "<...>" are accepted and removed (RFC 1738 appendix).',
    'Control, bidi and other format characters are shown as \\xHH, \\uHHHH or \\u{HHHHH} in text',
    "output and as \\uHHHH in JSON (fetch's data is never altered); passwords as **** unless",
    '--show-secrets.',
    '',
    'Exit status:',
    '  0    success: every input was read (for parse: every URL is valid)',
    '  1    some input was invalid or refused by the security policy (parse: not valid, or not',
    '       readable at all); batch mode keeps going. check: some link is not ok or redirected',
    '  2    usage error (unknown command or option, a bad option value,',
    '       a --scheme module that does not load, input the URL needs and no way to ask for it)',
    "  3    network or protocol failure (no connection, a timeout, the server's error reply)",
    '  70   internal error (a bug in locator: please report it)',
    '  130  interrupted (Ctrl-C, or the transfer was cancelled)',
    '',
  );
  return lines.join('\n');
}

async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '-h' || name === '--help') {
    io.stdout.write(await helpText());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '-V' || name === '--version') {
    const { createRequire } = await import('node:module');
    const pkg = createRequire(import.meta.url)('../../package.json') as { version: string };
    io.stdout.write(pkg.version + '\n');
    return EXIT.ok;
  }
  const command = COMMAND_NAMES.includes(name) ? await loadCommand(name) : null;
  if (command === null) {
    io.stderr.write(safeText(`locator: unknown command '${name}'\nTry 'locator --help'.\n`));
    return EXIT.usage;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: {
        ...command.options,
        'show-secrets': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        scheme: { type: 'string', multiple: true },
      },
    });
  } catch (e) {
    io.stderr.write(safeText(`locator ${name}: ${(e as Error).message}\nTry 'locator --help'.\n`));
    return EXIT.usage;
  }
  if (parsed.values.help) {
    io.stdout.write(await helpText());
    return EXIT.ok;
  }
  // Schemes from modules (RFC 1738 4): --scheme MODULE and LOCATOR_SCHEMES, registered before the command runs.
  const modules = [
    ...(io.env.LOCATOR_SCHEMES ?? '').split(':'),
    ...((parsed.values.scheme as string[] | undefined) ?? []),
  ];
  const loaded = await loadSchemes(
    modules.filter((m) => m !== ''),
    process.cwd(),
  );
  if (loaded !== null) {
    io.stderr.write(safeText(`locator ${name}: ${loaded.message}\nTry 'locator --help'.\n`));
    return EXIT.usage;
  }
  // Passwords never appear in output unless asked for (RFC 1738 6): each command hides them where
  // it writes a URL, from the parsed offsets; standard error also goes through the redacting
  // filter as a last net for free-text messages. Control and bidi characters are shown escaped in
  // every command's output (safe-text.ts), JSON included; fetch's data is never altered.
  const shown = parsed.values['show-secrets'] === true;
  const errOut = command.rawStderr === true ? io.stderr : escaping(io.stderr, false);
  const cio: Io = {
    ...io,
    stderr: shown ? errOut : redacting(errOut),
    stdout:
      command.redactStdout === false
        ? io.stdout
        : escaping(io.stdout, (parsed.values as Record<string, unknown>).json === true),
  };
  try {
    return await command.run(parsed.positionals, parsed.values, cio);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(safeText(`locator ${name}: ${e.message}\nTry 'locator --help'.\n`));
      return EXIT.usage;
    }
    throw e;
  }
}

// A reader that went away (`locator parse ... | head -1`) is no error: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  stderrIsTTY: process.stderr.isTTY === true,
  env: process.env,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(safeText(`locator: ${e instanceof Error ? e.message : String(e)}\n`));
    process.exitCode = EXIT.internal;
  },
);
