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
}

export type OptionSpec = { type: 'boolean' | 'string'; short?: string; multiple?: boolean };

export interface Command {
  name: string;
  /** One line per entry for the command list of --help: "name [options] ARGS  what it does". */
  synopsis: string[];
  /** Option lines for --help, already indented. */
  help: string[];
  options: Record<string, OptionSpec>;
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
