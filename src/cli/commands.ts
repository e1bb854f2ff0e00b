// The table of subcommands, in the order --help lists them. Each lives in its own module, loaded
// only when it runs (or for --help): a cold `locator fetch` used to load every command module and
// what they import - the gateway, the mail client, the extractor, the batch workers - 100 modules
// in all, which cost more than the transfer of a small object (issue 16, bench/RESULTS.md).
import type { Command } from './command.js';

const LOADERS: ReadonlyArray<readonly [string, () => Promise<Command>]> = [
  ['parse', async () => (await import('./parse.js')).parseCommand],
  ['explain', async () => (await import('./explain.js')).explainCommand],
  ['resolve', async () => (await import('./resolve.js')).resolveCommand],
  ['relativize', async () => (await import('./resolve.js')).relativizeCommand],
  ['normalize', async () => (await import('./normalize.js')).normalizeCommand],
  ['equal', async () => (await import('./normalize.js')).equalCommand],
  ['extract', async () => (await import('./extract.js')).extractCommand],
  ['lint', async () => (await import('./lint.js')).lintCommand],
  ['fetch', async () => (await import('./fetch.js')).fetchCommand],
  ['send', async () => (await import('./send.js')).sendCommand],
  ['serve', async () => (await import('./serve.js')).serveCommand],
  ['connect', async () => (await import('./connect.js')).connectCommand],
  ['check', async () => (await import('./check.js')).checkCommand],
];

/** The names of the subcommands, in --help order. */
export const COMMAND_NAMES: readonly string[] = LOADERS.map(([name]) => name);

/** The command called `name`, loaded with what it imports; null for no such command. */
export async function loadCommand(name: string): Promise<Command | null> {
  const entry = LOADERS.find(([n]) => n === name);
  return entry === undefined ? null : entry[1]();
}

/** Every command, in --help order (this loads them all). */
export async function loadCommands(): Promise<Command[]> {
  return Promise.all(LOADERS.map(([, load]) => load()));
}
