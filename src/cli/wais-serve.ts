// `locator serve --wais DIR [--port N] [--database NAME] [--host ADDR]`: a WAIS server (RFC 1625,
// the WAIS protocol as src/clients/wais/server.ts speaks it) over a folder of text files, on the
// loopback address unless --host says otherwise, until SIGINT or SIGTERM. The lead wires this
// into `locator serve` (src/cli/serve.ts); runWaisServe takes the parsed option values.

import { stat } from 'node:fs/promises';
import { isIP } from 'node:net';
import { basename } from 'node:path';
import { EXIT, UsageError, type Io } from './command.js';
import { safeText } from './safe-text.js';

type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;

function stringOption(values: Values, name: string): string | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new UsageError(`--${name} takes a value`);
  return v;
}

/**
 * Runs the WAIS server until SIGINT/SIGTERM (or `stop` aborts): prints one line with the
 * database, the address and the port, then a line per request with `--verbose`. Returns the exit
 * code: 0 after a clean stop, 2 for a bad option or a DIR that is not a folder, 3 when the port
 * cannot be bound.
 */
export async function runWaisServe(values: Values, io: Io, stop?: AbortSignal): Promise<number> {
  const dir = stringOption(values, 'wais');
  if (dir === undefined || dir === '') throw new UsageError('--wais takes the folder of text files to serve');
  const database = stringOption(values, 'database');
  if (database !== undefined && (database === '' || /[\x00-\x1f\x7f]/.test(database)))
    throw new UsageError('--database takes a name without control characters');
  // The name travels as bytes, one per character (RFC 1625 Database-Names): Latin-1 only.
  const named = database ?? basename(dir);
  if (/[^\x00-\xff]/.test(named))
    throw new UsageError(
      `the database name takes Latin-1 characters (U+0000-U+00FF), not ${JSON.stringify(named)}${database === undefined ? ' (the folder name): name it with --database' : ''}`,
    );
  const portText = stringOption(values, 'port') ?? '210';
  if (!/^[0-9]{1,5}$/.test(portText) || Number(portText) > 65535)
    throw new UsageError(`--port takes a TCP port number (0-65535), not ${JSON.stringify(portText)}`);
  const host = stringOption(values, 'host') ?? '127.0.0.1';
  const st = await stat(dir).catch(() => null);
  if (st === null || !st.isDirectory()) throw new UsageError(`--wais: ${JSON.stringify(dir)} is not a folder`);
  const { startWaisServer, waisDatabaseUrl } = await import('../clients/index.js');
  const verbose = values.verbose === true;
  let server;
  try {
    server = await startWaisServer({
      dir,
      database,
      host,
      port: Number(portText),
      log: verbose ? (line) => io.stderr.write(safeText(line) + '\n') : undefined,
    });
  } catch (e) {
    io.stderr.write(`locator: cannot listen on ${host}:${portText}: ${(e as NodeJS.ErrnoException).code ?? e}\n`);
    return EXIT.network;
  }
  // An IPv6 address in brackets (RFC 2732), as the client reads it.
  const authority = `${isIP(host) === 6 ? `[${host}]` : host}:${server.port}`;
  const url = await waisDatabaseUrl(authority, server.database);
  io.stderr.write(safeText(`locator: WAIS database "${server.database}" (${dir}) at ${url}`) + '\n');
  await new Promise<void>((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      stop?.removeEventListener('abort', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
    if (stop?.aborted) done();
    else stop?.addEventListener('abort', done, { once: true });
  });
  await server.close();
  return EXIT.ok;
}
