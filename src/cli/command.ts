// What every `locator` subcommand module exports; main.ts builds --help and dispatch from these.
import type { Readable, Writable } from 'node:stream';

import type { LocatorError } from '../core/errors.js';

export const EXIT = { ok: 0, invalid: 1, usage: 2, network: 3, internal: 70, interrupted: 130 } as const;

/**
 * The exit status for a LocatorError, from its kind: syntax and policy (an invalid or refused
 * URL) 1, usage 2, network and protocol 3; an `aborted` transfer (Ctrl-C) 130.
 */
export function exitFor(e: LocatorError): number {
  if (e.code === 'aborted') return EXIT.interrupted;
  switch (e.kind) {
    case 'usage':
      return EXIT.usage;
    case 'network':
    case 'protocol':
      return EXIT.network;
    default:
      return EXIT.invalid;
  }
}

export interface Io {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** True when standard error is a terminal (progress bars, prompts). */
  stderrIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  /**
   * Set when `stdin` and `stdout` are the process's standard input and output (descriptors 0 and
   * 1), `stdout` escaping its text as safeJson() or safeText() would (`escape`), or not at all
   * (null): a batch loop may then read and write the descriptors itself, past the streams, which
   * it never makes (batch.ts).
   */
  direct?: { escape: 'json' | 'text' | null };
}

/**
 * One option of a command: what the parser accepts (node:util parseArgs's type, short and
 * multiple) and what --help says of it: a string option names its value (`--timeout MS`).
 * options.ts parses the command line from this table and help.ts writes the command's help from
 * it, so the two cannot differ.
 */
export type OptionSpec = OptionHelp & ({ type: 'boolean'; value?: undefined } | { type: 'string'; value: string });

interface OptionHelp {
  short?: string;
  multiple?: boolean;
  /** What the option does, in sentences. */
  description: string;
  /** The value in force without the option, as it would be written (`10000`, `$SMTP_RELAY`). */
  default?: string;
  /** The unit of the value (`milliseconds`, `octets`). */
  unit?: string;
  /** The heading the option is listed under in the command's help; none: the first list. */
  group?: string;
}

/** A command's option table: the option names (without "--") and their specs. */
export type Options = Readonly<Record<string, OptionSpec>>;

export interface Command {
  name: string;
  /** The command lines it takes, without "locator " ("check [options] [FILE|URL...]"). */
  synopsis: string[];
  /** What the command does and prints, one paragraph per entry, for its --help. */
  about: string[];
  /** Its options (those of every command, options.ts COMMON, are added by the parser). */
  options: Options;
  /**
   * The exit statuses it gives and what each means for it; help.ts adds 2 (usage) and 70
   * (internal) when they are not listed.
   */
  exits: ReadonlyArray<readonly [number, string]>;
  /** One example command line, without "locator ", and what it does. */
  example: readonly [string, string];
  /**
   * False when standard output carries an object's bytes (fetch), which are never altered: no
   * escaping of control characters. Passwords are hidden by each command where it writes a URL
   * (from the parsed offsets, ../redact.ts), unless --show-secrets.
   */
  redactStdout?: boolean;
  /**
   * Standard error carries terminal controls of the command's own (a progress bar, a password
   * prompt), so it is not passed through safeText() (safe-text.ts): the command escapes each
   * message it writes there itself. Standard output is escaped unless it carries an object's
   * bytes (redactStdout false).
   */
  rawStderr?: boolean;
  run(
    positionals: string[],
    values: Record<string, string | boolean | string[] | boolean[] | undefined>,
    io: Io,
  ): Promise<number>;
}

/** A usage error: main prints it and exits 2. */
export class UsageError extends Error {}
