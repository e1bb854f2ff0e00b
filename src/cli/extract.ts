// `locator extract`: the URLs in plain text files or standard input (RFC 1738 appendix), read
// as streams (memory bounded by the longest match), one line or one JSON object per match.
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { extractStream, DEFAULT_MAX_LENGTH, type Match } from '../extract/index.js';
import { Output } from './io.js';
import { redactUrl } from '../operations/redact.js';
import { EXIT, UsageError, type Command, type Io } from './command.js';
import { JSON_OUTPUT } from './options.js';

export interface ExtractCommandOptions {
  json: boolean;
  maxLength: number;
  wrappedOnly: boolean;
  /** Show passwords (RFC 1738 6: hidden as **** unless asked). */
  showSecrets?: boolean;
}

/** The contract JSON of one match (test/data/docs/contract.md, `locator extract`), plus `file`. */
export function matchRecord(m: Match, file: string): Record<string, unknown> {
  return {
    url: m.url,
    start: m.start,
    end: m.end,
    line: m.line,
    column: m.column,
    form: m.form,
    alternatives: m.alternatives,
    file,
  };
}

/**
 * Extracts the URLs (RFC 1738 appendix) from each FILE in turn ("-" is standard input), or from
 * standard input when there is none. Exit 0 when some URL was found, 1 when none was, 2 when a FILE could not be read (the
 * others are still read).
 */
export async function runExtract(files: string[], opts: ExtractCommandOptions, io: Io): Promise<number> {
  const out = new Output(io.stdout);
  const named = files.length > 0;
  let found = 0;
  let unreadable = false;
  for (const file of named ? files : ['-']) {
    const source: Readable = file === '-' ? io.stdin : createReadStream(file);
    try {
      for await (const match of extractStream(source, { maxLength: opts.maxLength, bare: !opts.wrappedOnly })) {
        found++;
        // Each URL found has its password masked from its own parsed offsets (RFC 1738 6).
        const m =
          opts.showSecrets === true
            ? match
            : { ...match, url: redactUrl(match.url), alternatives: match.alternatives.map(redactUrl) };
        if (opts.json) {
          await out.line(JSON.stringify(matchRecord(m, file)));
          continue;
        }
        await out.line(`${named ? file + ':' : ''}${m.line}:${m.column}: ${m.url}`);
        for (const alt of m.alternatives) await out.line(`  or: ${alt}`);
      }
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (typeof err.code !== 'string' || !err.syscall) throw e;
      await out.flush();
      io.stderr.write(`locator extract: ${file}: ${err.message}\n`);
      unreadable = true;
    }
  }
  await out.flush();
  if (unreadable) return EXIT.usage;
  return found > 0 ? EXIT.ok : EXIT.invalid;
}

function maxLengthOption(v: unknown): number {
  if (v === undefined) return DEFAULT_MAX_LENGTH;
  const n = Number(v);
  if (typeof v !== 'string' || !/^[0-9]+$/.test(v) || !Number.isSafeInteger(n) || n < 8) {
    throw new UsageError(`--max-length takes a whole number of at least 8, not '${String(v)}'`);
  }
  return n;
}

export const extractCommand: Command = {
  name: 'extract',
  synopsis: ['extract [--json] [--max-length N] [--wrapped-only] [FILE...]'],
  about: [
    'Finds the URLs in FILEs ("-" or none: standard input): <URL:...>, <scheme:...> and bare ones; a URL wrapped over lines is joined (RFC 1738 appendix). Prints FILE:LINE:COLUMN: URL per match, and an indented "or: ..." line for each reading without a hyphen at a line break. With --json, one object per match: url, start, end, line, column, form, alternatives and file ("-" for standard input).',
  ],
  exits: [
    [0, 'a URL was found'],
    [1, 'none was found'],
    [2, 'usage error, or a FILE that cannot be read (the others are still read)'],
  ],
  example: ['--json notes.txt', 'the URLs of notes.txt, one JSON object each'],
  options: {
    json: { ...JSON_OUTPUT, description: 'One JSON object per match, one per line (NDJSON).' },
    'max-length': {
      type: 'string',
      value: 'N',
      unit: 'UTF-16 code units',
      default: '65536',
      description:
        'The longest match, at least 8; a wrapper with no ">" within it is abandoned and scanning resumes after its "<".',
    },
    'wrapped-only': { type: 'boolean', description: 'Only <URL:...> and <scheme:...>, no bare URLs.' },
  },
  run: (files, values, io) =>
    runExtract(
      files,
      {
        json: values.json === true,
        maxLength: maxLengthOption(values['max-length']),
        wrappedOnly: values['wrapped-only'] === true,
        showSecrets: values['show-secrets'] === true,
      },
      io,
    ),
};
