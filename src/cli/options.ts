// The options several commands share, defined once (each command may state its own default or
// sentence with a spread: `{ ...TIMEOUT, default: '10000' }`), those every command takes, and the
// parsing of a command line against a command's table: the one table --help is written from.
import { parseArgs } from 'node:util';
import { UsageError, type Command, type OptionSpec, type Options } from './command.js';

/** The options of every command, added to each command's own by parseCommandLine(). */
export const COMMON: Options = {
  'show-secrets': {
    type: 'boolean',
    description:
      'Show passwords in output. By default a password is shown as **** (offsets still count the input as given).',
  },
  scheme: {
    type: 'string',
    value: 'MODULE',
    multiple: true,
    description:
      'Load a scheme that is not built in: MODULE is an ES module file whose default export is a scheme entry (README "Adding a scheme"), registered before the command runs. Repeatable; LOCATOR_SCHEMES lists more such files, separated by ":". A module that does not load or is no scheme entry: exit 2.',
  },
  help: { type: 'boolean', short: 'h', description: 'Show this text.' },
};

export const JSON_OUTPUT: OptionSpec = {
  type: 'boolean',
  description: 'One JSON object per input, one per line (NDJSON); the fields are listed in docs/cli.md.',
};

export const TRIM: OptionSpec = {
  type: 'boolean',
  description:
    'Remove white space and a byte order mark around each URL first (leniency; each removal is reported as a warning).',
};

export const JOBS: OptionSpec = {
  type: 'string',
  value: 'N',
  default: '1',
  description:
    'Batch mode over N worker threads: a whole number from 1 to 64, or "auto" (one per core); the output is the same, in input order. Ignored with URL arguments.',
};

export const TIMEOUT: OptionSpec = {
  type: 'string',
  value: 'MS',
  unit: 'milliseconds',
  default: '30000',
  description: 'The silence allowed on any wait: a positive whole number, or "none" for no limit.',
};

/**
 * --timeout: a positive whole number of milliseconds, or `none` for no limit (the library's
 * Infinity). Anything else (0, negative, not a number) is a usage error.
 */
export function timeoutArg(v: unknown): number | undefined {
  if (v === undefined) return undefined;
  if (v === 'none') return Infinity;
  const n = typeof v === 'string' && /^[0-9]+$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) {
    throw new UsageError(
      `--timeout takes a positive whole number of milliseconds, or "none", not ${JSON.stringify(v)}`,
    );
  }
  return n;
}

/** The flags of the one-URL-a-line commands (parse, lint): --json, --trim and --show-secrets. */
export function lineFlags(values: Record<string, unknown>): { json: boolean; trim: boolean; showSecrets: boolean } {
  return { json: values.json === true, trim: values.trim === true, showSecrets: values['show-secrets'] === true };
}

export const MAX_BYTES: OptionSpec = {
  type: 'string',
  value: 'N',
  unit: 'octets',
  description: 'Refuse objects larger than N octets (exit 3).',
};

export const ALLOW_PORT: OptionSpec = {
  type: 'string',
  value: 'N',
  multiple: true,
  description: 'Allow a port the security policy reserves for another protocol (RFC 1738 6). Repeatable.',
};

export const REFUSE_PRIVATE: OptionSpec = {
  type: 'boolean',
  description: 'Refuse private, loopback and link-local addresses.',
};

export const NNTP_SERVER: OptionSpec = {
  type: 'string',
  value: 'HOST[:PORT]',
  default: '$NNTPSERVER',
  description: 'The news server for news: URLs, which name none (RFC 1738 3.6); port 119 when none is given.',
};

export const NETRC_HOST: OptionSpec = {
  type: 'string',
  value: 'HOST',
  multiple: true,
  description:
    'A host whose ~/.netrc entries may be used: its machine entry, or else the default entry; none for another host. Repeatable.',
};

export const EMAIL: OptionSpec = {
  type: 'string',
  value: 'ADDR',
  default: '$LOCATOR_EMAIL, else $EMAIL, else anonymous@',
  description: 'The password sent for anonymous FTP (RFC 1738 3.2.1).',
};

export const VERBOSE: OptionSpec = {
  type: 'boolean',
  short: 'v',
  description: 'Print the protocol exchange on standard error (passwords hidden).',
};

export const SMTP_CA: OptionSpec = {
  type: 'string',
  value: 'FILE',
  description: "Check the relay's certificate (STARTTLS) against the PEM certificate authorities in FILE.",
};

/** A command's options and those of every command: what its parser accepts. */
export function accepted(command: Pick<Command, 'options'>): Options {
  return { ...command.options, ...COMMON };
}

/**
 * The positionals and option values of `args` for `command`, read with its option table only
 * (node:util parseArgs, POSIX utility conventions: `--name value`, `--name=value`, `-x`, `--`).
 * Throws a UsageError naming the option for an unknown option, a string option with no value
 * (or whose next argument is another option: `--name=-x` gives a value starting with "-"), and a
 * value given to a boolean option. `help` is true when -h or --help is among the options, which
 * then wins over any error.
 */
export function parseCommandLine(
  command: Pick<Command, 'options'>,
  args: string[],
): {
  positionals: string[];
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  help: boolean;
} {
  const options = accepted(command);
  // Only what parseArgs reads: it would take `default` as the value of an absent option.
  const config = Object.fromEntries(
    Object.entries(options).map(([name, { type, short, multiple }]) => [
      name,
      { type, ...(short === undefined ? {} : { short }), ...(multiple === undefined ? {} : { multiple }) },
    ]),
  );
  const parsed = parseArgs({ args, options: config, allowPositionals: true, strict: false, tokens: true });
  const tokens = parsed.tokens ?? [];
  const help = tokens.some((t) => t.kind === 'option' && t.name === 'help');
  if (!help) {
    for (const t of tokens) {
      if (t.kind !== 'option') continue;
      const spec = Object.hasOwn(options, t.name) ? options[t.name] : undefined;
      const name = t.rawName;
      if (spec === undefined) throw new UsageError(`unknown option ${name}`);
      if (spec.type === 'boolean' && t.value !== undefined)
        throw new UsageError(`${name} takes no value (${name}=${t.value} given)`);
      if (spec.type === 'string') {
        const usage = `${name} ${spec.value}`;
        if (t.value === undefined) throw new UsageError(`${name} needs a value: ${usage}`);
        if (!t.inlineValue && t.value.length > 1 && t.value.startsWith('-'))
          throw new UsageError(
            `${name} needs a value: ${usage}; ${t.value} is read as an option (write ${name}${name.startsWith('--') ? '=' : ''}${t.value} for that value)`,
          );
      }
    }
  }
  return {
    positionals: parsed.positionals,
    values: parsed.values as Record<string, string | boolean | string[] | boolean[] | undefined>,
    help,
  };
}
