#!/usr/bin/env node
// The `locator` command: a thin layer over the library (../shared/docs/contract.md).
import { parseArgs } from 'node:util';
import { runParse } from './parse.js';
import { runExplain } from './explain.js';

export const EXIT = { ok: 0, invalid: 1, usage: 2, network: 3 } as const;

const HELP = `locator: the URLs of RFC 1738 and its 1993-94 drafts

Usage: locator <command> [options] [URL...]

Commands:
  parse [--json] [--trim] [URL...]   Parse URLs; show each part and every violation of the spec.
  explain [--json] [URL...]          Show the access algorithm of a URL (the protocol steps a
                                     client performs), without touching the network.
  help                               Show this text.

With no URL arguments, a command reads one URL per line from standard input (batch mode) and
prints a result for every line, in order. With --json, each result is one JSON object on its
own line (NDJSON); the fields are listed in docs/cli.md.

Options:
  --json       One JSON object per input, one per line.
  --trim       (parse) Remove white space and a byte order mark around each URL first (leniency;
               each removal is reported as a warning).
  -h, --help   Show this text.
  -V, --version

A leading "URL:" and a surrounding "<...>" are accepted and removed (RFC 1738 appendix).

Exit status:
  0  success: every input was read (for parse: every URL is valid)
  1  some input was invalid (parse: not valid, or not readable at all); batch mode keeps going
  2  usage error (unknown command or option)
  3  network or protocol failure
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '-h' || command === '--help') {
    process.stdout.write(HELP);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  if (command === '-V' || command === '--version') {
    const { createRequire } = await import('node:module');
    const pkg = createRequire(import.meta.url)('../../package.json') as { version: string };
    process.stdout.write(pkg.version + '\n');
    return EXIT.ok;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean' },
        trim: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    process.stderr.write(`locator: ${(e as Error).message}\nTry 'locator --help'.\n`);
    return EXIT.usage;
  }
  if (parsed.values.help) {
    process.stdout.write(HELP);
    return EXIT.ok;
  }
  const opts = { json: parsed.values.json === true, trim: parsed.values.trim === true };
  switch (command) {
    case 'parse':
      return runParse(parsed.positionals, opts, process.stdin, process.stdout);
    case 'explain':
      return runExplain(parsed.positionals, opts, process.stdin, process.stdout);
    default:
      process.stderr.write(`locator: unknown command '${command}'\nTry 'locator --help'.\n`);
      return EXIT.usage;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`locator: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 70;
  },
);
