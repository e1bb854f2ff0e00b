// Help per command, written from the option table the parser reads (src/cli/options.ts,
// src/cli/help.ts): every command's --help lists exactly the options its parser accepts, with
// their defaults; unknown and malformed options get one line naming the option and the command,
// exit 2; `locator --help` lists every command and loads none of their modules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers.js';
import { COMMAND_NAMES, COMMAND_SUMMARIES, loadCommands } from '../../src/cli/commands.js';
import { UsageError, type Command, type OptionSpec } from '../../src/cli/command.js';
import { COMMON, JOBS, TIMEOUT, accepted, parseCommandLine } from '../../src/cli/options.js';
import { jobsOption } from '../../src/cli/batch.js';
import { DEFAULT_TIMEOUT } from '../../src/clients/connection.js';
import { DEFAULT_TIMEOUT as CHECK_TIMEOUT } from '../../src/cli/check.js';
import { DEFAULT_MAX_LENGTH } from '../../src/extract/index.js';

const BIN = join(ROOT, 'dist', 'cli', 'main.js');
function run(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync(process.execPath, [BIN, ...args], { input: '', encoding: 'utf8', env });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const commands: Command[] = await loadCommands();

/** The options a help text lists, from its option lines: long name to short letter (or null). */
function listed(help: string): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const m of help.matchAll(/^ {2}(?:-([A-Za-z]), )?--([a-z0-9-]+)(?: \S+)?(?: {2,}|$)/gm)) {
    assert.ok(!out.has(m[2]), `--${m[2]} is listed twice`);
    out.set(m[2], m[1] ?? null);
  }
  return out;
}

/** The text of one option in a help text: its line and the lines of its description, joined. */
function entry(help: string, name: string): string {
  const lines = help.split('\n');
  const i = lines.findIndex((l) => new RegExp(`^ {2}(?:-[A-Za-z], )?--${name}(?: |$)`).test(l));
  assert.ok(i >= 0, `--${name} not found`);
  const body = [lines[i]];
  for (let j = i + 1; j < lines.length && /^ {24}\S/.test(lines[j]); j++) body.push(lines[j]);
  return body.map((l) => l.trim()).join(' ');
}

function tableOf(c: Command): Array<[string, OptionSpec]> {
  return Object.entries(accepted(c));
}

test('every command is in the table of --help, and --help of each lists exactly the options its parser accepts', () => {
  assert.deepEqual(
    commands.map((c) => c.name),
    COMMAND_NAMES,
  );
  for (const c of commands) {
    const h = run([c.name, '--help']);
    assert.equal(h.code, 0, `${c.name}: ${h.err}`);
    assert.equal(h.err, '');
    const shown = listed(h.out);
    const table = new Map(tableOf(c).map(([name, spec]) => [name, spec.short ?? null]));
    assert.deepEqual([...shown.keys()].sort(), [...table.keys()].sort(), c.name);
    for (const [name, short] of table) assert.equal(shown.get(name), short, `${c.name} --${name}: short form`);
    // What the parser takes is that table: each listed option is accepted (with a value where it
    // names one), and an option the help does not list is refused.
    for (const [name, spec] of tableOf(c)) {
      const args = spec.type === 'string' ? [`--${name}`, 'v'] : [`--${name}`];
      const parsed = parseCommandLine(c, args);
      assert.equal(parsed.values[name] !== undefined, true, `${c.name} --${name}`);
      if (spec.short !== undefined)
        assert.notEqual(parseCommandLine(c, [`-${spec.short}`, ...args.slice(1)]).values[name], undefined);
    }
    for (const name of ['bogus', 'timeouts', 'json-lines', 'version']) {
      if (shown.has(name)) continue;
      assert.throws(() => parseCommandLine(c, [`--${name}`]), UsageError, `${c.name} --${name}`);
    }
  }
});

test("each command's --help: synopsis, what it does, defaults and units, exit statuses, an example; 80 columns", () => {
  for (const c of commands) {
    const h = run([c.name, '--help']).out;
    const summary = COMMAND_SUMMARIES.find(([n]) => n === c.name)![1];
    assert.ok(h.startsWith(`locator ${c.name}: ${summary}\n\nUsage: locator ${c.synopsis[0]}\n`), c.name);
    for (const [name, spec] of tableOf(c)) {
      assert.notEqual(spec.description.trim(), '', `${c.name} --${name}`);
      const text = entry(h, name);
      assert.ok(text.includes(spec.description.split(' ').slice(0, 4).join(' ')), `${c.name} --${name}: ${text}`);
      if (spec.default !== undefined)
        assert.ok(text.includes(`Default: ${spec.default}.`), `${c.name} --${name} states its default: ${text}`);
      if (spec.unit !== undefined) assert.ok(text.includes(`Unit: ${spec.unit}.`), `${c.name} --${name}: ${text}`);
      if (spec.type === 'string') assert.match(text, new RegExp(`--${name} ${spec.value!.replace(/[[\]]/g, '\\$&')} `));
    }
    const exits = h.slice(h.indexOf('\nExit status:\n'));
    for (const [code] of c.exits) assert.match(exits, new RegExp(`^ {2}${code} +\\S`, 'm'), `${c.name} exit ${code}`);
    assert.match(exits, /^ {2}2 +usage error/m, c.name);
    assert.match(exits, /^ {2}70 +internal error/m, c.name);
    assert.ok(h.includes(`\nExample: ${c.example[1]}\n  locator ${c.name} ${c.example[0]}\n`), c.name);
    for (const line of h.split('\n')) assert.ok(line.length <= 80 || !line.trim().includes(' '), `${c.name}: ${line}`);
  }
});

test('a shared option keeps its text; a command states its own default where it differs', () => {
  const byName = new Map(commands.map((c) => [c.name, c]));
  assert.equal(byName.get('fetch')!.options.timeout.default, String(DEFAULT_TIMEOUT));
  assert.equal(byName.get('send')!.options.timeout.default, String(DEFAULT_TIMEOUT));
  assert.equal(TIMEOUT.default, String(DEFAULT_TIMEOUT));
  assert.equal(byName.get('check')!.options.timeout.default, String(CHECK_TIMEOUT));
  assert.notEqual(CHECK_TIMEOUT, DEFAULT_TIMEOUT);
  assert.match(run(['check', '--help']).out, /--timeout MS +The silence allowed[^]*Default: 10000\./);
  assert.equal(byName.get('parse')!.options.jobs, JOBS);
  assert.equal(byName.get('normalize')!.options.jobs, JOBS);
  assert.equal(jobsOption(undefined), Number(JOBS.default));
  assert.equal(byName.get('extract')!.options['max-length'].default, String(DEFAULT_MAX_LENGTH));
  // The options of every command come from one place, and no command redefines them.
  for (const c of commands)
    for (const name of Object.keys(COMMON)) assert.ok(!(name in c.options), `${c.name} --${name}`);
});

test('help COMMAND, COMMAND --help and COMMAND -h are the same text; --help wins over a bad option', () => {
  for (const name of ['check', 'parse', 'serve']) {
    const h = run([name, '--help']);
    assert.equal(run(['help', name]).out, h.out);
    assert.equal(run([name, '-h']).out, h.out);
    const mixed = run([name, '--bogus', '--help']);
    assert.equal(mixed.code, 0);
    assert.equal(mixed.out, h.out);
  }
});

test('locator --help lists every command with its line, points to COMMAND --help, and loads no command module', () => {
  const h = run(['--help']);
  assert.equal(h.code, 0);
  assert.equal(run(['help']).out, h.out);
  for (const [name, summary] of COMMAND_SUMMARIES) {
    assert.match(h.out, new RegExp(`^ {2}${name} +${summary.slice(0, 20).replace(/[().]/g, '\\$&')}`, 'm'), name);
  }
  for (const line of h.out.split('\n')) assert.ok(line.length <= 80, line);
  assert.ok(h.out.includes('locator COMMAND --help'));
  assert.ok(h.out.includes('locator help COMMAND'));
  // With no command at all: the same text, and exit 2.
  const none = run([]);
  assert.equal(none.code, 2);
  assert.equal(none.out, h.out);
});

/** The command modules of dist/cli a run of `locator ARGS` loads (Node's own ESM debug log). */
function commandModulesLoaded(args: string[]): string[] {
  const r = run(args, { ...process.env, NODE_DEBUG: 'esm' });
  const loaded = [...r.err.matchAll(/Storing (file:\S+) /g)].map((m) => m[1]);
  assert.ok(
    loaded.some((u) => u.endsWith('/dist/cli/main.js')),
    'NODE_DEBUG=esm names the modules loaded',
  );
  const modules = new Set(['parse', 'explain', 'resolve', 'normalize', 'extract', 'lint']);
  for (const m of ['fetch', 'send', 'serve', 'connect', 'check']) modules.add(m);
  return [
    ...new Set(
      loaded
        .map((u) => /\/dist\/cli\/([a-z-]+)\.js$/.exec(u)?.[1])
        .filter((m): m is string => m !== undefined && modules.has(m)),
    ),
  ].sort();
}

test('--version and --help load no command module; COMMAND --help and a run load only their own', () => {
  assert.deepEqual(commandModulesLoaded(['--version']), []);
  assert.deepEqual(commandModulesLoaded(['--help']), []);
  assert.deepEqual(commandModulesLoaded(['check', '--help']), ['check']);
  assert.deepEqual(commandModulesLoaded(['parse', 'http://a.com/']), ['parse']);
  assert.deepEqual(commandModulesLoaded(['check', '--bogus']), ['check']);
});

test('an unknown option: one line naming the option and the command, exit 2, for every command', () => {
  for (const name of COMMAND_NAMES) {
    for (const bad of ['--bogus', '-Z']) {
      const r = run([name, bad, 'http://a.com/']);
      assert.equal(r.code, 2, `${name} ${bad}`);
      assert.equal(r.out, '');
      assert.equal(r.err, `locator ${name}: unknown option ${bad} (see locator ${name} --help)\n`);
    }
  }
});

test('a string option without its value, a value given to a boolean option: one line each, exit 2', () => {
  for (const c of commands) {
    const table = Object.entries(c.options);
    const string = table.find(([, s]) => s.type === 'string');
    const boolean = table.find(([, s]) => s.type === 'boolean');
    if (string !== undefined) {
      const [opt, spec] = string;
      const last = run([c.name, `--${opt}`]);
      assert.equal(last.code, 2, `${c.name} --${opt}`);
      assert.equal(
        last.err,
        `locator ${c.name}: --${opt} needs a value: --${opt} ${spec.value} (see locator ${c.name} --help)\n`,
      );
      const before = run([c.name, `--${opt}`, '--show-secrets']);
      assert.equal(before.code, 2);
      assert.match(
        before.err,
        new RegExp(`^locator ${c.name}: --${opt} needs a value: .*--show-secrets is read as an option .*\\n$`),
      );
      assert.equal(before.err.split('\n').length, 2);
    }
    if (boolean !== undefined) {
      const [opt] = boolean;
      const r = run([c.name, `--${opt}=yes`]);
      assert.equal(r.code, 2, `${c.name} --${opt}=yes`);
      assert.equal(
        r.err,
        `locator ${c.name}: --${opt} takes no value (--${opt}=yes given) (see locator ${c.name} --help)\n`,
      );
    }
  }
  const short = run(['fetch', '-o']);
  assert.equal(short.err, 'locator fetch: -o needs a value: -o FILE (see locator fetch --help)\n');
  // A value starting with "-" is given with "=".
  assert.equal(
    parseCommandLine(
      commands.find((c) => c.name === 'check')!,
      ['--timeout=-5'],
    ).values.timeout,
    '-5',
  );
});

test("an unknown command, and a bad value found by the command: one line, exit 2, never Node's parseArgs message", () => {
  for (const args of [['frobnicate'], ['help', 'frobnicate']]) {
    const r = run(args);
    assert.equal(r.code, 2);
    assert.equal(r.err, "locator: unknown command 'frobnicate' (see locator --help)\n");
  }
  const dash = run(['--bogus']);
  assert.equal(dash.err, 'locator: unknown option --bogus (see locator --help)\n');
  const value = run(['parse', '--jobs', '0', 'http://a.com/']);
  assert.equal(value.code, 2);
  assert.match(
    value.err,
    /^locator parse: --jobs takes a whole number from 1 to 64, .* \(see locator parse --help\)\n$/,
  );
  for (const args of [
    ['check', '--bogus'],
    ['parse', '--json=1'],
    ['fetch', '--timeout'],
  ]) {
    const r = run(args);
    assert.doesNotMatch(r.err, /ERR_PARSE_ARGS|as in '|To specify an option argument|Unknown option/, r.err);
  }
});
