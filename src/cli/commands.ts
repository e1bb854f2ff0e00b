// The table of subcommands, in the order --help lists them, with the line --help shows for each.
// Each lives in its own module, loaded only when it runs (or for its own --help), so a cold
// command loads only what it uses (start-up figures: bench/RESULTS.md, fetch). `locator --help`
// loads none of them.
import type { Command } from './command.js';

const TABLE: ReadonlyArray<readonly [string, string, () => Promise<Command>]> = [
  [
    'parse',
    'Parse URLs: each part, and every violation of the spec.',
    async () => (await import('./parse.js')).parseCommand,
  ],
  [
    'explain',
    "Show the protocol steps that reach a URL's object (no network).",
    async () => (await import('./explain.js')).explainCommand,
  ],
  [
    'resolve',
    'Resolve partial (relative) URLs against a base URL (RFC 1808).',
    async () => (await import('./resolve.js')).resolveCommand,
  ],
  [
    'relativize',
    'The shortest partial form of each URL against a base URL.',
    async () => (await import('./resolve.js')).relativizeCommand,
  ],
  [
    'get',
    'Print parts of URLs by name: {host}, {port}, a field of the scheme.',
    async () => (await import('./parts.js')).getCommand,
  ],
  [
    'set',
    'Change parts of URLs by name, keeping the rest as written.',
    async () => (await import('./parts.js')).setCommand,
  ],
  [
    'build',
    "Put a URL together from its scheme's parts (library build()).",
    async () => (await import('./parts.js')).buildCommand,
  ],
  ['normalize', 'Print the normal form of each URL.', async () => (await import('./normalize.js')).normalizeCommand],
  [
    'equal',
    'Tell whether two URLs denote the same object (exit 0 or 1).',
    async () => (await import('./normalize.js')).equalCommand,
  ],
  [
    'extract',
    'Find the URLs in plain text, wrapped ones joined.',
    async () => (await import('./extract.js')).extractCommand,
  ],
  ['lint', 'Check URLs for the dangers of RFC 1738 section 6.', async () => (await import('./lint.js')).lintCommand],
  [
    'fetch',
    'Retrieve the object of a URL to standard output or a file.',
    async () => (await import('./fetch.js')).fetchCommand,
  ],
  [
    'send',
    'Send standard input as a message to a mailto: URL over SMTP.',
    async () => (await import('./send.js')).sendCommand,
  ],
  [
    'serve',
    'Run the gateway (every scheme as web pages), or a WAIS server.',
    async () => (await import('./serve.js')).serveCommand,
  ],
  [
    'connect',
    'Open a telnet, rlogin or tn3270 session on this terminal.',
    async () => (await import('./connect.js')).connectCommand,
  ],
  [
    'check',
    'Check the links of documents or URLs, every scheme.',
    async () => (await import('./check.js')).checkCommand,
  ],
  [
    'archive',
    'Crawl from URLs and keep every object reached in WARC files.',
    async () => (await import('./archive.js')).archiveCommand,
  ],
];

/** The names of the subcommands, in --help order. */
export const COMMAND_NAMES: readonly string[] = TABLE.map(([name]) => name);

/** Each subcommand's name and its line in `locator --help`, in that order. */
export const COMMAND_SUMMARIES: ReadonlyArray<readonly [string, string]> = TABLE.map(([name, summary]) => [
  name,
  summary,
]);

/** The command called `name`, loaded with what it imports; null for no such command. */
export async function loadCommand(name: string): Promise<Command | null> {
  const entry = TABLE.find(([n]) => n === name);
  return entry === undefined ? null : entry[2]();
}

/** Every command, in --help order (this loads them all). */
export async function loadCommands(): Promise<Command[]> {
  return Promise.all(TABLE.map(([, , load]) => load()));
}
