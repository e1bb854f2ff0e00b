// `locator serve --warc FILE...`: the gateway backed by WARC archives (docs/gateway.md, "Replay").
// The archive modules (src/archive/) are loaded only when this runs; the gateway gets the index
// as its ReplaySource and reaches no server.

import type { GatewayOptions } from '../gateway/index.js';
import { UsageError, type Io } from './command.js';
import { safeText } from './safe-text.js';

/** The options that would reach a server, which a replay has no use for. */
const NETWORK_OPTIONS = [
  'smtp',
  'smtp-ca',
  'email',
  'nntp-server',
  'netrc-host',
  'cache-size',
  'cache-dir',
  'cache-searches',
  'upstream-per-server',
  'upstream-delay',
  'wais',
];

/** The WARC files (ISO 28500) of `--warc FILE` (repeatable) and of the arguments after it. */
export function warcFiles(args: string[], values: Record<string, unknown>): string[] {
  const files = [...([] as unknown[]).concat(values.warc ?? []).map(String), ...args];
  for (const name of NETWORK_OPTIONS)
    if (values[name] !== undefined)
      throw new UsageError(`--${name} has no use with --warc: a replay reaches no server`);
  return files;
}

/**
 * Opens the WARC files and makes their index (from the CDXJ of `--cdxj`, or beside each file,
 * else by reading each file once), says on standard error what it holds and the damage it went
 * past (a torn or damaged record is left out, with a warning; a file with no record read whole is
 * a usage error), and sets the gateway's replay source. Returns what closes the files.
 */
export async function openReplay(
  files: string[],
  values: Record<string, unknown>,
  options: GatewayOptions,
  io: Io,
): Promise<() => Promise<void>> {
  const { ReplayArchive } = await import('../archive/index.js');
  const cdxj = values.cdxj === undefined ? undefined : ([] as unknown[]).concat(values.cdxj).map(String);
  let archive;
  try {
    archive = await ReplayArchive.open(files, cdxj === undefined ? {} : { cdxj });
  } catch (e) {
    throw new UsageError(`--warc: ${(e as Error).message}`);
  }
  for (const f of archive.indexed) {
    // The damage gone past: one line each, naming the file, the offset and the code.
    for (const { error, next } of f.damaged)
      io.stderr.write(
        safeText(
          `locator serve: warning: ${f.file}: damaged at offset ${error.offset} (${error.code}): ${error.detail}; ${next === null ? 'skipped to the end of the file' : `read on from offset ${next}`}\n`,
        ),
      );
    const skipped =
      f.damaged.length > 0 ? ` (${f.damaged.length} damaged stretch${f.damaged.length === 1 ? '' : 'es'} skipped)` : '';
    io.stderr.write(
      safeText(
        `locator serve: ${f.file}: ${f.records} records${skipped}, ${f.from === 'scan' ? 'indexed by reading it through' : `index read from ${f.from}`}\n`,
      ),
    );
  }
  io.stderr.write(safeText(`locator serve: replaying ${archive.size} URLs; no server is reached\n`));
  options.replay = archive;
  return () => archive.close();
}
