// The text of `locator --help` (the commands, from commands.ts, loading none of them) and of
// `locator COMMAND --help` (from the command's own option table, the one the parser reads:
// options.ts), so that help and parser cannot differ.
import { COMMAND_SUMMARIES } from './commands.js';
import type { Command, OptionSpec } from './command.js';
import { COMMON } from './options.js';

const WIDTH = 80;
/** The column option descriptions start at. */
const DESC = 24;

/** `text` cut into lines of at most `width` characters at spaces (a longer word keeps its line). */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (word === '') continue;
    if (line !== '' && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') out.push(line);
  return out;
}

/** A label and its text in two columns: the text at `column`, wrapped; the label alone when too long. */
function columns(label: string, text: string, column: number): string[] {
  const body = wrap(text, WIDTH - column).map((l) => ' '.repeat(column) + l);
  if (label.length + 2 > column) return [label, ...body];
  if (body.length === 0) return [label];
  body[0] = label.padEnd(column) + body[0].slice(column);
  return body;
}

/** How an option is written in help: `-o, --output FILE`. */
export function optionLabel(name: string, spec: OptionSpec): string {
  const long = spec.value === undefined ? `--${name}` : `--${name} ${spec.value}`;
  return spec.short === undefined ? long : `-${spec.short}, ${long}`;
}

/** The sentences of an option's help: its description, unit, default, and whether it repeats. */
export function optionText(spec: OptionSpec): string {
  let text = spec.description;
  if (spec.unit !== undefined) text += ` Unit: ${spec.unit}.`;
  if (spec.default !== undefined) text += ` Default: ${spec.default}.`;
  return text;
}

function optionLines(options: ReadonlyArray<readonly [string, OptionSpec]>): string[] {
  return options.flatMap(([name, spec]) => columns(`  ${optionLabel(name, spec)}`, optionText(spec), DESC));
}

const USAGE_EXIT =
  'usage error: an unknown or malformed option, a bad option value, a --scheme module that does not load';
const INTERNAL_EXIT = 'internal error (a bug in locator: please report it)';

/** The help of one command: synopsis, what it does, its options by group, exit statuses, an example. */
export function commandHelp(command: Command): string {
  const summary = COMMAND_SUMMARIES.find(([n]) => n === command.name)?.[1] ?? '';
  const lines = [`locator ${command.name}: ${summary}`, ''];
  command.synopsis.forEach((s, i) => lines.push(`${i === 0 ? 'Usage:' : '      '} locator ${s}`));
  for (const paragraph of command.about) lines.push('', ...wrap(paragraph, WIDTH));
  const groups = new Map<string, Array<readonly [string, OptionSpec]>>();
  for (const entry of Object.entries(command.options)) {
    const group = entry[1].group ?? '';
    groups.set(group, [...(groups.get(group) ?? []), entry]);
  }
  const first = groups.get('');
  if (first !== undefined) lines.push('', 'Options:', ...optionLines(first));
  for (const [group, options] of groups) if (group !== '') lines.push('', `${group}:`, ...optionLines(options));
  lines.push('', 'Options of every command:', ...optionLines(Object.entries(COMMON)));
  const exits = new Map(command.exits);
  if (!exits.has(2)) exits.set(2, USAGE_EXIT);
  if (!exits.has(70)) exits.set(70, INTERNAL_EXIT);
  lines.push('', 'Exit status:');
  for (const [code, meaning] of [...exits].sort((a, b) => a[0] - b[0])) lines.push(...columns(`  ${code}`, meaning, 7));
  const [example, what] = command.example;
  lines.push('', `Example: ${what}`, `  locator ${command.name} ${example}`, '');
  return lines.join('\n');
}

const GENERAL_EXITS: ReadonlyArray<readonly [number, string]> = [
  [0, 'success: every input was read (for parse: every URL is valid)'],
  [
    1,
    'some input was invalid or refused by the security policy (parse: not valid, or not readable at all); batch mode keeps going. check: some link is not ok or redirected',
  ],
  [
    2,
    'usage error (a --scheme module that does not load, an unknown command or option, a bad option value, input the URL needs and no way to ask for it)',
  ],
  [3, "network or protocol failure (no connection, a timeout, the server's error reply)"],
  [70, INTERNAL_EXIT],
  [130, 'interrupted (Ctrl-C, or the transfer was cancelled)'],
];

/** `locator --help`: the commands, what every command shares, the exit statuses. */
export function generalHelp(): string {
  const lines = [
    'locator: the URLs of RFC 1738 and its 1993-94 drafts',
    '',
    'Usage: locator COMMAND [options] [ARGUMENTS...]',
    '       locator COMMAND --help   (or: locator help COMMAND)',
    '',
    ...wrap("Each command's --help lists its options with their defaults, its exit statuses and an example.", WIDTH),
    '',
    'Commands:',
  ];
  for (const [name, summary] of COMMAND_SUMMARIES) lines.push(...columns(`  ${name}`, summary, 14));
  lines.push(...columns('  help', 'Show this text; help COMMAND shows the help of COMMAND.', 14));
  lines.push('');
  for (const paragraph of [
    'With no URL arguments, a command reads one URL per line from standard input (batch mode) and prints a result for every line, in order. With --json, each result is one JSON object on its own line (NDJSON); the fields are listed in docs/cli.md.',
    'A leading "URL:" and a surrounding "<...>" are accepted and removed (RFC 1738 appendix). Control, bidi and other format characters are shown as \\xHH, \\uHHHH or \\u{HHHHH} in text output and as \\uHHHH in JSON (fetch\'s data is never altered).',
  ])
    lines.push(...wrap(paragraph, WIDTH), '');
  lines.push('Options of every command:', ...optionLines(Object.entries(COMMON)));
  lines.push(...columns('  -V, --version', 'Show the version of locator (before any command).', DESC));
  lines.push('', 'Exit status:');
  for (const [code, meaning] of GENERAL_EXITS) lines.push(...columns(`  ${code}`, meaning, 7));
  lines.push('');
  return lines.join('\n');
}
